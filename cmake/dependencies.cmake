# Every dependency comes from a Debian 12 package. When one is missing, configuration stops with a
# message naming the package to install (scripts/setup installs all of them).
# How each one is found, and why, is recorded in ../shared/notes/deps.md.

function(wirebench_require found what debian_package)
  if(NOT ${found})
    message(FATAL_ERROR "wirebench: ${what} not found. Install the Debian package '${debian_package}' "
                        "(sudo apt-get install ${debian_package}), or run scripts/setup.")
  endif()
endfunction()

find_package(Threads REQUIRED)

# Standalone asio: header-only, ships neither a CMake config nor a .pc file.
find_path(ASIO_INCLUDE_DIR asio.hpp)
wirebench_require(ASIO_INCLUDE_DIR "standalone asio (asio.hpp)" libasio-dev)
# The connections' fast wait (src/transport/readable_wait.hpp) is written against asio 1.22's
# epoll reactor (Debian 12's); any other asio builds the slower async_wait path. Say so here,
# as `wirebench --version` and every result do.
file(STRINGS "${ASIO_INCLUDE_DIR}/asio/version.hpp" wirebench_asio_version_line
     REGEX "^#define ASIO_VERSION [0-9]+")
string(REGEX MATCH "[0-9]+" wirebench_asio_version "${wirebench_asio_version_line}")
if(NOT wirebench_asio_version OR wirebench_asio_version LESS 102200 OR
   wirebench_asio_version GREATER_EQUAL 102300)
  message(WARNING "asio ${wirebench_asio_version} in ${ASIO_INCLUDE_DIR} is not 1.22: connections "
                  "wait with asio's async_wait (one epoll_ctl per wait), not the reactor fast path")
endif()

find_package(OpenSSL QUIET)
wirebench_require(OPENSSL_FOUND "OpenSSL" libssl-dev)

# Everything below is the harness's (protocol backends, load generator, CLI, tests, benchmarks):
# the framing library needs none of it, and a build with WIREBENCH_BUILD_HARNESS=OFF looks for none.
if(NOT WIREBENCH_BUILD_HARNESS)
  return()
endif()

find_package(PkgConfig QUIET)
wirebench_require(PKG_CONFIG_FOUND "pkg-config" pkg-config)
# nghttp2 and hiredis ship only pkg-config files (hiredis's CMake config is broken in 0.14).
pkg_check_modules(NGHTTP2 QUIET IMPORTED_TARGET libnghttp2)
wirebench_require(NGHTTP2_FOUND "nghttp2 (libnghttp2.pc)" libnghttp2-dev)
pkg_check_modules(HIREDIS QUIET IMPORTED_TARGET hiredis)
wirebench_require(HIREDIS_FOUND "hiredis (hiredis.pc)" libhiredis-dev)

# protobuf: module mode (Debian ships no protobuf-config.cmake).
find_package(Protobuf QUIET)
wirebench_require(Protobuf_FOUND "protobuf" "libprotobuf-dev protobuf-compiler")
wirebench_require(Protobuf_PROTOC_EXECUTABLE "protoc" protobuf-compiler)
# The .proto importer behind gRPC user calls (--proto): its code is in libprotobuf, its header in
# libprotoc-dev.
find_path(WIREBENCH_PROTOBUF_IMPORTER google/protobuf/compiler/importer.h HINTS ${Protobuf_INCLUDE_DIRS})
wirebench_require(WIREBENCH_PROTOBUF_IMPORTER "protobuf's importer (google/protobuf/compiler/importer.h)"
                  libprotoc-dev)

# gRPC's config insists that the code generator plugins exist, hence protobuf-compiler-grpc.
find_program(WIREBENCH_GRPC_CPP_PLUGIN grpc_cpp_plugin)
wirebench_require(WIREBENCH_GRPC_CPP_PLUGIN "grpc_cpp_plugin" protobuf-compiler-grpc)
find_package(gRPC CONFIG QUIET)
wirebench_require(gRPC_FOUND "gRPC C++ (gRPCConfig.cmake)" libgrpc++-dev)

# msgpack-cxx: header-only. Its CMake config drags Boost into every translation unit, so we use the
# headers alone with MSGPACK_NO_BOOST (see deps.md, P8).
find_path(MSGPACK_INCLUDE_DIR msgpack.hpp)
wirebench_require(MSGPACK_INCLUDE_DIR "msgpack-cxx (msgpack.hpp)" libmsgpack-cxx-dev)

# zlib: gRPC's gzip message encoding (src/protocols/grpc/grpc_gzip.cpp).
find_package(ZLIB QUIET)
wirebench_require(ZLIB_FOUND "zlib" zlib1g-dev)

if(WIREBENCH_BUILD_BENCH)
  find_package(benchmark CONFIG QUIET)
  wirebench_require(benchmark_FOUND "Google Benchmark" libbenchmark-dev)
endif()
if(WIREBENCH_BUILD_TESTS)
  find_package(GTest CONFIG QUIET)
  wirebench_require(GTest_FOUND "GoogleTest" "libgtest-dev libgmock-dev")
endif()

# Internal helper targets (not exported).
add_library(wirebench_msgpack INTERFACE)
target_compile_definitions(wirebench_msgpack INTERFACE MSGPACK_NO_BOOST MSGPACK_DEFAULT_API_VERSION=3)
target_include_directories(wirebench_msgpack SYSTEM INTERFACE ${MSGPACK_INCLUDE_DIR})

# JSON: nlohmann-json (header-only; encodes and decodes, as the JSON libraries of typical REST
# stacks do — simdjson only parses). The HTTP backends' REST call and the codec comparison use it.
find_package(nlohmann_json CONFIG QUIET)
wirebench_require(nlohmann_json_FOUND "nlohmann-json" nlohmann-json3-dev)

# llhttp (Node's HTTP/1.1 parser): Debian ships its generated C sources, not a library, in
# node-llhttp. An incremental state machine across pipelined messages and split reads, with body
# framing (Content-Length, chunked) — chosen over http-parser (archived, slower) and Beast (Boost
# buffer types, a translation-unit clash with standalone asio); see deps.md section 5.
find_path(LLHTTP_INCLUDE_DIR llhttp.h PATHS /usr/share/include/llhttp NO_DEFAULT_PATH)
find_path(LLHTTP_SOURCE_DIR llhttp.c PATHS /usr/share/llhttp NO_DEFAULT_PATH)
wirebench_require(LLHTTP_INCLUDE_DIR "llhttp (llhttp.h)" node-llhttp)
wirebench_require(LLHTTP_SOURCE_DIR "llhttp sources (llhttp.c)" node-llhttp)
add_library(wirebench_llhttp STATIC ${LLHTTP_SOURCE_DIR}/llhttp.c ${LLHTTP_SOURCE_DIR}/api.c
                                    ${LLHTTP_SOURCE_DIR}/http.c)
target_include_directories(wirebench_llhttp SYSTEM PUBLIC ${LLHTTP_INCLUDE_DIR})
# Its three C files share internal names: compiled one by one in a unity build too.
set_target_properties(wirebench_llhttp PROPERTIES C_STANDARD 99 POSITION_INDEPENDENT_CODE ON UNITY_BUILD OFF)

# Command-line parsing for the wirebench program (header-only; ships a CMake config).
find_package(CLI11 CONFIG QUIET)
wirebench_require(CLI11_FOUND "CLI11" libcli11-dev)

# CSV files of per-call values (a workload's __csv(FILE:COLUMN)__, call_picks.hpp): libcsv, a small
# C parser of RFC 4180's quoting. It ships no CMake config or pkg-config file: found by its header
# and library.
find_path(LIBCSV_INCLUDE_DIR csv.h)
find_library(LIBCSV_LIBRARY csv)
wirebench_require(LIBCSV_INCLUDE_DIR "libcsv (csv.h)" libcsv-dev)
wirebench_require(LIBCSV_LIBRARY "libcsv (libcsv.so)" libcsv-dev)
add_library(wirebench_libcsv INTERFACE)
target_include_directories(wirebench_libcsv SYSTEM INTERFACE ${LIBCSV_INCLUDE_DIR})
target_link_libraries(wirebench_libcsv INTERFACE ${LIBCSV_LIBRARY})

# YAML workload files (run --workload mix.yaml): yaml-cpp reads them into the JSON the workload
# schema is checked on, so both formats take one schema and give the same messages.
find_package(yaml-cpp CONFIG QUIET)
wirebench_require(yaml-cpp_FOUND "yaml-cpp" libyaml-cpp-dev)
