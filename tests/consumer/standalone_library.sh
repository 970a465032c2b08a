#!/usr/bin/env bash
# standalone_library.sh SOURCE_DIR WORK_DIR CMAKE CXX
# The framing library on a machine that has only Asio and OpenSSL: in a mount namespace of its
# own, an overlay over /usr hides every other development package and the harness's tools
# (hide_packages.py: gRPC, protobuf, nghttp2, hiredis, msgpack, llhttp, CLI11, nlohmann-json,
# GoogleTest, Google Benchmark, zlib, ...). There, checks first that they are gone (pkg-config
# and find_path find none, and configuring the whole project fails naming one), then configures
# with -DWIREBENCH_BUILD_HARNESS=OFF, builds the library shared, installs it with a plain
# `cmake --install`, and checks the install as a user would (check_install.sh: headers, a consumer
# project and every example, each built with find_package and with pkg-config, and run; the
# exported symbols).
# Needs root (or a user namespace) for the mount: exit 77 is a skip, which CI=true turns into a
# failure.
set -euo pipefail
source=$1 work=$2 cmake=$3 cxx=$4
here=$(cd "$(dirname "$0")" && pwd)

if [ "${WIREBENCH_INSIDE_HIDDEN_TREE:-}" != 1 ]; then
  rm -rf "$work"
  mkdir -p "$work/upper" "$work/overlay-work"
  skip() {
    echo "SKIP: $1" >&2
    [ "${CI:-}" = true ] && { echo "CI=true: a skip is a failure here" >&2; exit 1; }
    exit 77
  }
  command -v unshare >/dev/null || skip "no unshare (Debian: util-linux)"
  unshare_flags=(--mount --propagation private)
  [ "$(id -u)" = 0 ] || unshare_flags+=(--map-root-user)
  unshare "${unshare_flags[@]}" true 2>/dev/null || skip "cannot make a mount namespace here"
  echo "hiding: $("$here/hide_packages.py" "$work/upper")"
  WIREBENCH_INSIDE_HIDDEN_TREE=1 exec unshare "${unshare_flags[@]}" "$0" "$@"
fi

# Inside the namespace: /usr without the hidden packages.
mount -t overlay overlay -o "lowerdir=/usr,upperdir=$work/upper,workdir=$work/overlay-work" /usr
for gone in /usr/include/nghttp2/nghttp2.h /usr/include/grpcpp/grpcpp.h /usr/include/msgpack.hpp \
            /usr/include/hiredis/hiredis.h /usr/include/google/protobuf/message.h \
            /usr/include/CLI/CLI.hpp /usr/include/nlohmann/json.hpp /usr/include/gtest/gtest.h \
            /usr/include/benchmark/benchmark.h /usr/include/zlib.h /usr/bin/protoc; do
  test ! -e "$gone" || { echo "$gone is still there: the packages are not hidden" >&2; exit 1; }
done
! pkg-config --exists libnghttp2 && ! pkg-config --exists hiredis && ! pkg-config --exists grpc++
test -e /usr/include/asio.hpp && test -e /usr/include/openssl/ssl.h
# The whole project does not configure here (so the hiding is real), naming what is missing.
if "$cmake" -S "$source" -B "$work/full" -G Ninja >"$work/full.log" 2>&1; then
  echo "the whole project configured with its packages hidden" >&2
  exit 1
fi
tr -s " \n" "  " <"$work/full.log" | grep -q "not found. Install the Debian package"

# In unity batches, as scripts/test builds (cmake/unity_build.cmake): file by file at -O3 this
# library alone took 426 s of CPU, most of this test and half of the normal build's test time.
"$cmake" -S "$source" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$cxx" -DWIREBENCH_BUILD_HARNESS=OFF -DWIREBENCH_SHARED=ON \
  -DWIREBENCH_UNITY_BUILD=ON >/dev/null
"$cmake" --build "$work/build" -j2 >/dev/null
"$cmake" --install "$work/build" --prefix "$work/prefix" >/dev/null
test ! -e "$work/prefix/bin/wirebench"  # no harness was built, none installed
echo "built and installed the library alone, shared"
"$here/check_install.sh" "$work/prefix" "$work/check" "$cmake" "$cxx" "$here/project" \
  "$source/examples" headers symbols consumer examples
