# Unity builds: each target's sources compiled in batches of WIREBENCH_UNITY_BATCH files, one
# translation unit a batch (CMake's UNITY_BUILD). Most of a file's compile time here is not its own
# code but the templates of the headers it shares with its neighbours (Asio, GoogleTest, protobuf,
# nlohmann-json, CLI11), instantiated and optimised again in every file: a batch does that once.
# Measured on 2 cores, the normal test build from scratch: 1110 s file by file, 515 s in batches
# of 8, 438 s in batches of 16 (the framing library's objects 2.5x faster, a test binary's 2x).
# scripts/test turns it on (its builds, and the consumer test that builds the library alone); a
# plain configure compiles file by file (an edit recompiles one file, not its batch), and so does
# scripts/bench, so that the benchmarks' code is compiled as before. What a batch can hide, a
# source file that does not include what it uses, therefore still fails in a plain build; each
# installed header is compiled on its own by the consumer tests (check_install.sh).
# Files in one target keep their file-local names apart (no two `namespace { ... }` helpers of
# the same name in one target).
option(WIREBENCH_UNITY_BUILD "Compile each target's sources in batches (what scripts/test does)" OFF)
set(WIREBENCH_UNITY_BATCH 16 CACHE STRING "Sources per batch in a unity build")
if(WIREBENCH_UNITY_BUILD)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE ${WIREBENCH_UNITY_BATCH})
endif()
