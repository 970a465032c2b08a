#!/usr/bin/env bash
# check_install.sh PREFIX WORK_DIR CMAKE CXX CONSUMER_SOURCE EXAMPLES_SOURCE CHECK...
# Checks what a user of the wirebench package installed in PREFIX sees. Always: the version
# header, a shared library's soname, the package's version check, and that only public headers
# are installed. Then each CHECK named:
#   consumer  a project (tests/consumer/project) built with find_package and with pkg-config,
#             whose program runs and answers
#   examples  every example (examples/) built both ways, run, its output as examples/expected/ says
#   headers   every installed header compiles on its own with only the .pc's flags
#   symbols   a shared library exports wirebench's API and Asio's error categories, nothing else
#             (no internal class, no Asio or std:: instantiation)
set -euo pipefail
prefix=$1 work=$2 cmake=$3 cxx=$4 consumer=$5 examples=$6
shift 6
libdir=$(dirname "$(find "$prefix" -name 'libwirebench_framing.*' -print -quit)")
test -f "$libdir/cmake/wirebench/wirebenchConfig.cmake"
export PKG_CONFIG_PATH=$libdir/pkgconfig
export LD_LIBRARY_PATH=$libdir  # a shared build's library, for the pkg-config programs
mkdir -p "$work"

# The version header, and a shared library's soname: major.minor while the major version is 0
# (any 0.x minor may break the API), from the version the package says.
test -f "$prefix/include/wirebench/version.hpp"
version=$(sed -n 's/^#define WIREBENCH_VERSION_STRING "\(.*\)"$/\1/p' "$prefix/include/wirebench/version.hpp")
grep -q "PACKAGE_VERSION \"$version\"" "$libdir/cmake/wirebench/wirebenchConfigVersion.cmake"
if [ -e "$libdir/libwirebench_framing.so" ]; then
  major=${version%%.*} minor=${version#*.}; minor=${minor%%.*}
  want=libwirebench_framing.so.$major; [ "$major" = 0 ] && want=$want.$minor
  readelf -d "$libdir/libwirebench_framing.so" | grep -q "SONAME.*\[$want\]" ||
    { echo "soname is not $want" >&2; exit 1; }
fi
# The Asio it was built with is recorded for both kinds of user.
asio=$(sed -n 's/^#define ASIO_VERSION \([0-9]*\).*/\1/p' "$(pkg-config --variable=asio_includedir wirebench-framing)/asio/version.hpp")
[ "$(pkg-config --variable=asio_version wirebench-framing)" = "$asio" ]
grep -q "set(wirebench_ASIO_VERSION $asio)" "$libdir/cmake/wirebench/wirebenchConfig.cmake"

# Public headers only: the library's layers, none of the harness's internals.
for dir in core codec transport calls server mux client tls; do test -d "$prefix/include/wirebench/$dir"; done
for dir in protocols load stats; do test ! -e "$prefix/include/wirebench/$dir"; done
# Each layer's umbrella header includes every header of the layer; framing.hpp every layer.
for dir in core codec transport calls server mux client tls; do
  for header in "$prefix/include/wirebench/$dir"/*.hpp; do
    grep -q "^#include \"wirebench/$dir/$(basename "$header")\"$" "$prefix/include/wirebench/$dir.hpp" ||
      { echo "wirebench/$dir.hpp does not include $(basename "$header")" >&2; exit 1; }
  done
  grep -q "^#include \"wirebench/$dir.hpp\"$" "$prefix/include/wirebench/framing.hpp"
done
test -z "$(find "$prefix/include" -type f ! -name '*.hpp')"

# The package's version check: this version is found, a newer minor version is refused.
if "$cmake" -S "$consumer" -B "$work/too-new" -DCMAKE_PREFIX_PATH="$prefix" \
     -DWIREBENCH_WANTED_VERSION=0.99 >"$work/too-new.log" 2>&1; then
  echo "find_package(wirebench 0.99) succeeded against version $version" >&2
  exit 1
fi
grep -q "wirebench" "$work/too-new.log"

read -r -a cflags <<<"$(pkg-config --cflags wirebench-framing)"
read -r -a libs <<<"$(pkg-config --libs wirebench-framing)"

# Every compile goes through ccache when it is installed, as the project's own do
# (cmake/compiler_cache.cmake): CI's clean clones then compile these again only when they changed.
# Paths are made relative to the checkout, so that a clone in another folder hits the same entries.
compiler=("$cxx") cmake_launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR; CCACHE_BASEDIR=$(cd "$examples/.." && pwd)
  export CCACHE_NOHASHDIR=1
  compiler=(ccache "$cxx") cmake_launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
# pkg_config_program SOURCE PROGRAM: built with the .pc's flags alone; compiled, then linked
# (ccache keeps compiles, not a compile and link in one command).
pkg_config_program() {
  "${compiler[@]}" -std=c++20 -O1 "${cflags[@]}" -c "$1" -o "$2.o"
  "$cxx" "$2.o" "${libs[@]}" -o "$2"
}
for check in "$@"; do
  case "$check" in
    headers)
      # Every installed header compiles on its own, with only the installed headers and the
      # .pc's flags: a file that includes just it, per header (a file, not standard input, so
      # that ccache can keep the result).
      mkdir -p "$work/headers"
      (cd "$prefix/include" && find wirebench -name '*.hpp') | while read -r header; do
        echo "#include <$header>" >"$work/headers/$(echo "$header" | tr / _).cpp"
      done
      find "$work/headers" -name '*.cpp' -print0 |
        COMPILER="${compiler[*]}" CFLAGS=$(pkg-config --cflags wirebench-framing) xargs -0 -P2 -I{} sh -c \
          '$COMPILER -std=c++20 -fsyntax-only -Werror -Wall $CFLAGS {} ||
           { echo "$(head -1 {}) does not compile on its own" >&2; exit 255; }'
      echo "headers: each compiles on its own"
      ;;
    consumer)
      # The same program built with find_package and with pkg-config.
      "$cmake" -S "$consumer" -B "$work/build" -DCMAKE_PREFIX_PATH="$prefix" \
        -DCMAKE_CXX_COMPILER="$cxx" "${cmake_launcher[@]}" >/dev/null
      "$cmake" --build "$work/build" >/dev/null
      pkg_config_program "$consumer/main.cpp" "$work/consumer-pc"
      for program in "$work/build/consumer" "$work/consumer-pc"; do
        out=$(timeout 60 "$program") || { echo "$program failed: $out" >&2; exit 1; }
        echo "$out"
        [ "$out" = "consumer: hello, consumer" ]
      done
      ;;
    examples)
      # Each ends by itself (its loops are bounded, its server stopped); the timeout only turns a
      # hang into a failure.
      "$cmake" -S "$examples" -B "$work/examples" -DCMAKE_PREFIX_PATH="$prefix" \
        -DCMAKE_CXX_COMPILER="$cxx" "${cmake_launcher[@]}" >/dev/null
      "$cmake" --build "$work/examples" -j2 >/dev/null
      mkdir -p "$work/examples-pc"
      compiles=()
      for source in "$examples"/*.cpp; do
        name=$(basename "$source" .cpp)
        pkg_config_program "$source" "$work/examples-pc/$name" &
        compiles+=($!)
      done
      for pid in "${compiles[@]}"; do wait "$pid"; done  # each one's status: a failed compile fails here
      for source in "$examples"/*.cpp; do
        name=$(basename "$source" .cpp)
        for program in "$work/examples/$name" "$work/examples-pc/$name"; do
          timeout 60 "$program" >"$work/$name.out"
          diff -u "$examples/expected/$name.txt" "$work/$name.out"
        done
        echo "$name: as expected, built with find_package and with pkg-config"
      done
      ;;
    symbols)
      so=$libdir/libwirebench_framing.so
      nm -D --defined-only -C "$so" | cut -d' ' -f3- >"$work/exported.txt"
      # Allowed: wirebench:: names (and their typeinfo, vtables, guards, thunks), and Asio's state
      # that must be one per process: its error categories' statics and its per-thread call
      # stacks (src/framing.map, src/asio_shared_state.hpp).
      if grep -vE '^((typeinfo name|typeinfo|vtable|VTT|guard variable|TLS init function|TLS wrapper function) for |non-virtual thunk to )?wirebench::' "$work/exported.txt" |
           grep -vE '^(guard variable for )?asio::(system_category|error::get_[a-z]+_category)\(\)::instance$' |
           grep -vE '^((TLS init function|TLS wrapper function) for )?asio::detail::keyword_tss_ptr<asio::detail::call_stack<.*>::context>::value_$' \
             >"$work/unexpected.txt"; then
        echo "exported but not wirebench's API:" >&2; head -20 "$work/unexpected.txt" >&2; exit 1
      fi
      # Internals stay hidden: the engine's lanes and links, the reactor wait, detail::.
      if grep -E '^([a-zA-Z -]+ (for|to) )?wirebench::((engine_lane|engine_link|readable_wait)\b|([a-z_]+::)*detail::)' \
           "$work/exported.txt" >&2; then
        echo "internal symbols exported" >&2; exit 1
      fi
      echo "symbols: $(wc -l <"$work/exported.txt") exported, $(grep -c 'wirebench::' "$work/exported.txt") of them wirebench::, the rest Asio's per-process state"
      ;;
    *) echo "check_install.sh: unknown check '$check'" >&2; exit 2 ;;
  esac
done
