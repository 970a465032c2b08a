#!/usr/bin/env bash
# install_and_consume.sh BUILD_DIR CONSUMER_SOURCE WORK_DIR CMAKE
set -euo pipefail
build=$1 consumer=$2 work=$3 cmake=$4
rm -rf "$work"
"$cmake" --install "$build" --prefix "$work/prefix" >/dev/null
test -f "$work/prefix/lib/cmake/wirebench/wirebenchConfig.cmake"
"$cmake" -S "$consumer" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
"$cmake" --build "$work/build" >/dev/null
out=$("$work/build/consumer")
echo "$out"
[ "$out" = "consumer: hello, consumer" ]
