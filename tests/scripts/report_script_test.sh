#!/usr/bin/env bash
# scripts/report as a user meets it: a results file gets its page beside it; a folder of results
# gets report.html; a folder with no results, a file that is not one, and a path that is not there
# each get one line saying so (exit 1), never a traceback.
#   report_script_test.sh WIREBENCH SOURCE_DIR
set -uo pipefail
wb=$1 root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export WIREBENCH=$wb
failures=0
check() {  # check DESCRIPTION COMMAND...
  if "${@:2}"; then echo "ok: $1"; else echo "FAIL: $1"; failures=$((failures + 1)); fi
}
out() { "$root/scripts/report" "$@" >"$work/out" 2>"$work/err"; echo $? >"$work/status"; }
status_is() { [ "$(cat "$work/status")" = "$1" ]; }
one_line() { [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "^scripts/report: .*$1" "$work/err" && ! grep -q Traceback "$work/err"; }

"$wb" run -p line --workers 1 --duration 0.2 --warmup 0.05 -R 1 -q -o "$work/run/a.json" >/dev/null 2>&1
out "$work/run/a.json"
check "a results file: exit 0" status_is 0
check "... its page beside it, named" grep -q "the page of .*a.json: .*a.html" "$work/out"
check "... written" grep -q 'id="data"' "$work/run/a.html"
out "$work/run"
check "a folder of results: exit 0" status_is 0
check "... report.html, named" grep -q "report.html" "$work/out"
check "... written" test -s "$work/run/report.html"
check "... no table of Google Benchmark parts it does not have" bash -c "! grep -q 'machine: None' '$work/out'"
mkdir "$work/empty"
out "$work/empty"
check "a folder without results: exit 1" status_is 1
check "... says so in one line" one_line "holds no results"
out "$work/run/a.csv"
check "a file that is not results: exit 1" status_is 1
check "... says so in one line" one_line "is not a wirebench results file"
out "$work/nothere"
check "a path that is not there: exit 1" status_is 1
check "... says so in one line" one_line "no such file or directory"
[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
