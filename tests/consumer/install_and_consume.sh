#!/usr/bin/env bash
# install_and_consume.sh BUILD_DIR WORK_DIR CMAKE CXX CONSUMER_SOURCE EXAMPLES_SOURCE
# The library component of this build, installed to a scratch prefix, then consumed as a user
# would (check_install.sh consumer): the install the full build makes, beside standalone_library.sh's.
set -euo pipefail
build=$1 work=$2 cmake=$3
rm -rf "$work"
"$cmake" --install "$build" --prefix "$work/prefix" --component framing >/dev/null
exec "$(dirname "$0")/check_install.sh" "$work/prefix" "$work" "$cmake" "$4" "$5" "$6" consumer
