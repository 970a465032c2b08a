# Warnings on for our own targets (not for generated or third-party code), and the sanitizer switch.
add_library(wirebench_warnings INTERFACE)
target_compile_options(wirebench_warnings INTERFACE -Wall -Wextra -Wpedantic)

if(WIREBENCH_SANITIZE)
  if(WIREBENCH_SANITIZE STREQUAL "address,undefined" OR WIREBENCH_SANITIZE STREQUAL "undefined,address")
    set(_san_flags -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  elseif(WIREBENCH_SANITIZE STREQUAL "thread")
    set(_san_flags -fsanitize=thread -fno-omit-frame-pointer)
  elseif(WIREBENCH_SANITIZE STREQUAL "fuzzer")
    # scripts/fuzz: every object carries libFuzzer's coverage hooks and ASan/UBSan; only the fuzz
    # targets link libFuzzer itself (tests/fuzz).
    if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR NOT CMAKE_C_COMPILER_ID STREQUAL "Clang")
      message(FATAL_ERROR "WIREBENCH_SANITIZE=fuzzer needs clang for C and C++ (CC=clang CXX=clang++)")
    endif()
    # -fno-sanitize=function: clang 14 cannot emit that check's prologue data for a coroutine
    # ("Cannot represent a difference across sections", src/calls/coroutine_runner.cpp).
    set(_san_flags -fsanitize=address,undefined -fno-sanitize=function -fno-sanitize-recover=undefined
                   -fno-omit-frame-pointer)
    add_compile_options(-fsanitize=fuzzer-no-link)
  else()
    message(FATAL_ERROR
            "WIREBENCH_SANITIZE='${WIREBENCH_SANITIZE}': use 'address,undefined', 'thread' or 'fuzzer'")
  endif()
  # Applied globally so that every object (ours and the test framework's) is instrumented alike.
  add_compile_options(${_san_flags})
  add_link_options(${_san_flags})
  message(STATUS "wirebench: sanitizers ${WIREBENCH_SANITIZE}")
endif()
