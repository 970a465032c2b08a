# Install wirebench::framing with a package config, so another project can
#   find_package(wirebench) and target_link_libraries(app wirebench::framing).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS wirebench_framing EXPORT wirebench_targets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/wirebench/core include/wirebench/codec include/wirebench/transport
                  include/wirebench/mux
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/wirebench)
install(EXPORT wirebench_targets NAMESPACE wirebench::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/wirebench)
configure_package_config_file(cmake/wirebenchConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/wirebenchConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/wirebench)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/wirebenchConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/wirebenchConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/wirebenchConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/wirebench)
