# wirebench_gtest_shards(TARGET NAME name [FILTER filter] [CASES_PER_SHARD n] [LAUNCHER words...]
#                        [PROPERTIES ...]):
# registers the GoogleTest cases of TARGET that FILTER selects as ctest tests of CASES_PER_SHARD
# cases each (default 10): NAME/1-of-N ... NAME/N-of-N, each one process running its share
# through GoogleTest's own sharding (GTEST_TOTAL_SHARDS, GTEST_SHARD_INDEX: case i of the list
# goes to shard i mod N, so slow and fast suites spread over every shard).
#
# Why not a ctest test per case (gtest_discover_tests): a process per case costs its start-up,
# small in a normal build but 0.3-0.5 s under ASan+UBSan for a binary that loads gRPC (dynamic
# loading, the sanitizers' set-up, LeakSanitizer's scan at exit) — about 450 s of CPU over the
# ASan suite, most of what its tests did. A shard pays it once for its cases.
#
# The cases are listed after each build (--gtest_list_tests, as gtest_discover_tests does), so N
# follows the suite as it grows. Each shard writes GoogleTest's XML report into
# <build>/Testing/gtest/, where scripts/test_timings.py counts every case and its time. One case:
# run the binary itself, `tests/<area>/<binary> --gtest_filter='suite.case'`. LAUNCHER: words
# the command starts with (wirebench_computing_launcher: CMakeLists.txt).
function(wirebench_gtest_shards target)
  cmake_parse_arguments(S "" "NAME;FILTER;CASES_PER_SHARD" "LAUNCHER;PROPERTIES" ${ARGN})
  if(NOT S_CASES_PER_SHARD)
    set(S_CASES_PER_SHARD 10)
  endif()
  if(NOT S_FILTER)
    set(S_FILTER "*")
  endif()
  string(MAKE_C_IDENTIFIER "${S_NAME}" file_name)
  set(tests_file "${CMAKE_CURRENT_BINARY_DIR}/${file_name}_shards.cmake")
  add_custom_command(
    TARGET ${target} POST_BUILD
    BYPRODUCTS "${tests_file}"
    COMMAND "${CMAKE_COMMAND}"
            -D "EXECUTABLE=$<TARGET_FILE:${target}>"
            -D "NAME=${S_NAME}"
            -D "FILTER=${S_FILTER}"
            -D "CASES_PER_SHARD=${S_CASES_PER_SHARD}"
            -D "XML_DIR=${PROJECT_BINARY_DIR}/Testing/gtest"
            -D "LAUNCHER=${S_LAUNCHER}"
            -D "PROPERTIES=${S_PROPERTIES}"
            -D "TESTS_FILE=${tests_file}"
            -D "WORKING_DIRECTORY=${CMAKE_CURRENT_BINARY_DIR}"
            -P "${PROJECT_SOURCE_DIR}/cmake/gtest_shards_list.cmake"
    VERBATIM)
  # An edit of the listing script relinks the binary (cheap), which writes the shards again.
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS
               "${PROJECT_SOURCE_DIR}/cmake/gtest_shards_list.cmake")
  # ctest reads the shards from the file the last build wrote (none before the first build).
  set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${file_name}_include.cmake")
  file(WRITE "${include_file}"
       "if(EXISTS \"${tests_file}\")\n  include(\"${tests_file}\")\nelse()\n"
       "  add_test(${file_name}_NOT_BUILT ${file_name}_NOT_BUILT)\nendif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")
endfunction()
