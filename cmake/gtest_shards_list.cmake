# After a test binary is built (cmake/gtest_shards.cmake): lists the cases FILTER selects and
# writes TESTS_FILE, a ctest test per CASES_PER_SHARD of them. Run with cmake -P and the -D
# values gtest_shards.cmake passes.
execute_process(
  COMMAND "${EXECUTABLE}" --gtest_list_tests "--gtest_filter=${FILTER}"
  WORKING_DIRECTORY "${WORKING_DIRECTORY}"
  TIMEOUT 120
  OUTPUT_VARIABLE listing
  ERROR_VARIABLE errors
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${EXECUTABLE} --gtest_list_tests failed (${status}):\n${listing}${errors}")
endif()
# A suite line ends with "."; each case under it is indented by two spaces.
string(REGEX MATCHALL "\n  [^\n]+" cases "\n${listing}")
list(LENGTH cases count)
math(EXPR shards "(${count} + ${CASES_PER_SHARD} - 1) / ${CASES_PER_SHARD}")

string(CONCAT script "# Written by cmake/gtest_shards_list.cmake after the build: ${count} cases of\n"
                     "# ${EXECUTABLE} (--gtest_filter=${FILTER}) in ${shards} shards.\n")
# Each value bracket-quoted: filters and lists hold characters CMake would otherwise read.
set(properties "")
foreach(word IN LISTS PROPERTIES)
  string(APPEND properties " [==[${word}]==]")
endforeach()
set(launcher "")
foreach(word IN LISTS LAUNCHER)
  string(APPEND launcher "[==[${word}]==] ")
endforeach()
set(index 0)
while(index LESS shards)
  math(EXPR number "${index} + 1")
  set(test "${NAME}/${number}-of-${shards}")
  string(MAKE_C_IDENTIFIER "${test}" xml)
  string(APPEND script
         "add_test([==[${test}]==] ${launcher}[==[${EXECUTABLE}]==] [==[--gtest_filter=${FILTER}]==] "
         "[==[--gtest_output=xml:${XML_DIR}/${xml}.xml]==])\n"
         "set_tests_properties([==[${test}]==] PROPERTIES WORKING_DIRECTORY [==[${WORKING_DIRECTORY}]==] "
         "ENVIRONMENT [==[GTEST_TOTAL_SHARDS=${shards};GTEST_SHARD_INDEX=${index}]==]${properties})\n")
  set(index ${number})
endwhile()
file(WRITE "${TESTS_FILE}" "${script}")
