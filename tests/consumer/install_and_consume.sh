#!/usr/bin/env bash
# install_and_consume.sh MODE BUILD_DIR CONSUMER_SOURCE WORK_DIR CMAKE CXX EXAMPLES_SOURCE
# Installs the library to a scratch prefix, then checks what a user of the installed package
# sees. MODE `headers`: only public headers are installed, and each compiles on its own (two
# ctest tests, so that this minute of compiling runs beside the other). MODE `consume`: the
# version check of find_package, and a project and every example (examples/) built both with
# find_package and with pkg-config, whose programs run and print what examples/expected/ says.
set -euo pipefail
mode=$1 build=$2 consumer=$3 work=$4 cmake=$5 cxx=$6 examples=$7
prefix=$work/prefix
rm -rf "$work"
"$cmake" --install "$build" --prefix "$prefix" --component framing >/dev/null
libdir=$(dirname "$(find "$prefix" -name 'libwirebench_framing.*' -print -quit)")
test -f "$libdir/cmake/wirebench/wirebenchConfig.cmake"
export PKG_CONFIG_PATH=$libdir/pkgconfig
export LD_LIBRARY_PATH=$libdir  # a WIREBENCH_SHARED build's library, for the pkg-config programs

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

# Public headers only: the library's layers, none of the harness's internals.
for dir in core codec transport calls server mux client tls; do test -d "$prefix/include/wirebench/$dir"; done
for dir in protocols load stats; do test ! -e "$prefix/include/wirebench/$dir"; done
test -z "$(find "$prefix/include" -type f ! -name '*.hpp')"

# Every installed header compiles on its own, with only the installed headers and the .pc's flags.
if [ "$mode" = headers ]; then
  cd "$prefix/include"
  find wirebench -name '*.hpp' -print0 |
    CXX=$cxx CFLAGS=$(pkg-config --cflags wirebench-framing) xargs -0 -P2 -I{} sh -c \
      'echo "#include <{}>" | $CXX -std=c++20 -fsyntax-only -Werror -Wall $CFLAGS -x c++ - ||
       { echo "{} does not compile on its own" >&2; exit 255; }'
  exit 0
fi

# The package's version check: 0.1 is found, a newer minor version is refused.
if "$cmake" -S "$consumer" -B "$work/too-new" -DCMAKE_PREFIX_PATH="$prefix" \
     -DWIREBENCH_WANTED_VERSION=0.99 >"$work/too-new.log" 2>&1; then
  echo "find_package(wirebench 0.99) succeeded against version 0.1" >&2
  exit 1
fi
grep -q "wirebench" "$work/too-new.log"

# The same program built with find_package and with pkg-config.
"$cmake" -S "$consumer" -B "$work/build" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_COMPILER="$cxx" >/dev/null
"$cmake" --build "$work/build" >/dev/null
read -r -a flags <<<"$(pkg-config --cflags --libs wirebench-framing)"
"$cxx" -std=c++20 -O1 "$consumer/main.cpp" "${flags[@]}" -o "$work/consumer-pc"

for program in "$work/build/consumer" "$work/consumer-pc"; do
  out=$(timeout 60 "$program")
  echo "$out"
  [ "$out" = "consumer: hello, consumer" ]
done

# The examples, the same two ways. Each ends by itself (its loops are bounded, its server
# stopped); the timeout only turns a hang into a failure.
"$cmake" -S "$examples" -B "$work/examples" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_COMPILER="$cxx" >/dev/null
"$cmake" --build "$work/examples" -j2 >/dev/null
mkdir -p "$work/examples-pc"
compiles=()
for source in "$examples"/*.cpp; do
  name=$(basename "$source" .cpp)
  "$cxx" -std=c++20 -O1 "$source" "${flags[@]}" -o "$work/examples-pc/$name" &
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
