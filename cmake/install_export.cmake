# Install wirebench::framing with a package config, so another project can
#   find_package(wirebench 0.1) and target_link_libraries(app wirebench::framing),
# and a pkg-config file for builds without CMake:
#   c++ -std=c++20 app.cpp $(pkg-config --cflags --libs wirebench-framing)
# Only the library's public headers are installed: the layers it is made of (core, codec,
# transport, calls, server, mux, client, tls). protocols/, load/ and stats/ are the harness's internals. Everything
# here is the `framing` component: `cmake --install build --component framing` installs the
# library without the wirebench program.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(wirebench_public_header_dirs core codec transport calls server mux client tls)
install(TARGETS wirebench_framing EXPORT wirebench_targets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT framing
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT framing)
foreach(dir IN LISTS wirebench_public_header_dirs)
  install(DIRECTORY include/wirebench/${dir} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/wirebench
          COMPONENT framing FILES_MATCHING PATTERN "*.hpp")
  # The layer's umbrella header, wirebench/<layer>.hpp.
  install(FILES include/wirebench/${dir}.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/wirebench
          COMPONENT framing)
endforeach()
install(FILES include/wirebench/framing.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/wirebench
        COMPONENT framing)
install(EXPORT wirebench_targets NAMESPACE wirebench::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/wirebench COMPONENT framing)
configure_package_config_file(cmake/wirebenchConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/wirebenchConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/wirebench)
# 0.x: a minor version may change the API, so find_package(wirebench 0.1) accepts 0.1.y only.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/wirebenchConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/wirebenchConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/wirebenchConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/wirebench COMPONENT framing)

# The .pc file finds the prefix from its own place (${pcfiledir}), so `cmake --install --prefix`
# to anywhere gives a working file, not one naming the configure-time prefix.
set(wirebench_pc_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH wirebench_pc_to_prefix /${wirebench_pc_dir} /)
string(REGEX REPLACE "/$" "" wirebench_pc_to_prefix "${wirebench_pc_to_prefix}")
set(wirebench_pc_asio_cflags "")
if(NOT ASIO_INCLUDE_DIR STREQUAL "/usr/include")
  set(wirebench_pc_asio_cflags " -I${ASIO_INCLUDE_DIR}")
endif()
configure_file(cmake/wirebench-framing.pc.in ${CMAKE_CURRENT_BINARY_DIR}/wirebench-framing.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/wirebench-framing.pc DESTINATION ${wirebench_pc_dir}
        COMPONENT framing)
