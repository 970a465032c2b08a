# Compiles through ccache when it is installed (scripts/setup installs it; WIREBENCH_CCACHE=OFF
# opts out). CI builds a clean clone twice (normal and ASan+UBSan), 16 minutes each from scratch
# on 2 cores; with the cache the objects a change did not touch come back in seconds.
# CCACHE_BASEDIR and CCACHE_NOHASHDIR make a clone in another folder hit the same entries, and
# -ffile-prefix-map writes source paths relative to the checkout into objects (__FILE__ in test
# failures, debug info in stack traces), so that no object names a clone that is gone.
option(WIREBENCH_CCACHE "Compile through ccache when it is installed" ON)
find_program(WIREBENCH_CCACHE_PROGRAM ccache)
if(WIREBENCH_CCACHE AND WIREBENCH_CCACHE_PROGRAM AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(_launcher ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR} CCACHE_NOHASHDIR=1
                ${WIREBENCH_CCACHE_PROGRAM})
  set(CMAKE_C_COMPILER_LAUNCHER ${_launcher})
  set(CMAKE_CXX_COMPILER_LAUNCHER ${_launcher})
  add_compile_options(-ffile-prefix-map=${PROJECT_SOURCE_DIR}/=)
  message(STATUS "wirebench: compiling through ${WIREBENCH_CCACHE_PROGRAM}")
endif()
