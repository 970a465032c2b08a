#!/usr/bin/env bash
# scripts/multihost as a user meets it: without the capabilities it refuses in one line (exit 2);
# two generators run at once and their merged calls are the sum of theirs; and an emulated round
# trip of 5 ms grows the one-connection p50 by 5 ms (-20%, +60%: see below). Skips (exit 77) where namespaces cannot
# be built (no root, no ip/tc), and skips a part whose tool (wirebench merge, a delay emulator) is
# missing, with a one-line reason.
#   multihost_test.sh WIREBENCH SOURCE_DIR
set -uo pipefail
export WIREBENCH=$1
multihost=$2/scripts/multihost
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0 skipped=()
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# mh NAME ARGS...: runs scripts/multihost with its results in $work/NAME; stderr in $work/NAME.err.
mh() { local name=$1; shift; "$multihost" -o "$work/$name" "$@" >"$work/$name.out" 2>"$work/$name.err"; }

# json PYTHON-EXPRESSION FILE: the expression on d (the parsed file); calls(d) counts every outcome.
json() {
  python3 - "$2" <<PY
import json, sys
d = json.load(open(sys.argv[1]))
def calls(d): return sum(sum(r["outcomes"].values()) for p in d["points"] for r in p["repeats"])
print($1)
PY
}

# Two generators against a mux server for 1 s, at the same time. Its refusals decide the skip.
mh two -g 2 -p mux -w 4 -D 1 -R 1 --warmup 0.2
rc=$?
if [ $rc -eq 2 ] && grep -qE "needs root|needs ip and tc|cannot build network namespaces" "$work/two.err"; then
  echo "SKIP: $(cat "$work/two.err")"
  exit 77
fi
if [ $rc -ne 0 ]; then
  fail "two generators: exit $rc: $(tail -1 "$work/two.err")"
else
  for k in 1 2; do
    [ "$(json "calls(d) > 0" "$work/two/gen-$k.json")" = True ] || fail "generator $k made no calls"
  done
  if [ -f "$work/two/all.json" ]; then
    want=$(($(json "calls(d)" "$work/two/gen-1.json") + $(json "calls(d)" "$work/two/gen-2.json")))
    got=$(json "calls(d)" "$work/two/all.json")
    [ "$got" = "$want" ] || fail "merged calls $got, the generators' sum $want"
  else
    skipped+=("merge: this wirebench has no merge subcommand")
  fi
fi

# Without CAP_NET_ADMIN (dropped from the bounding set: root, but not enough), one line and exit 2.
if command -v setpriv >/dev/null; then
  setpriv --bounding-set -net_admin --inh-caps -net_admin "$multihost" -o "$work/nocap" -D 0.1 \
    >/dev/null 2>"$work/nocap.err"
  rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l <"$work/nocap.err")" -eq 1 ] && grep -q "needs root" "$work/nocap.err" ||
    fail "without CAP_NET_ADMIN: exit $rc, stderr: $(cat "$work/nocap.err")"
fi

# The round trip: 1 worker on 1 connection, closed loop; delay=0ms keeps the emulator on the path
# so that only the delay differs between the two runs. 5 ms, not less: toxiproxy's timers wake
# 0.1-0.35 ms late (measured here on a busy 2-core machine), which is 17% of 2 ms but 7% of 5 ms.
p50() { json "sorted(r['latency_us']['p50'] for r in d['points'][0]['repeats'])[0]" "$work/$1/gen-1.json"; }
if mh base -g 1 -p line -w 1 -D 1 -R 1 --warmup 0.2 --link delay=0ms; then
  if mh slow -g 1 -p line -w 1 -D 1 -R 1 --warmup 0.2 --link delay=5ms; then
    base=$(p50 base) slow=$(p50 slow)
    grown=$(awk -v a="$base" -v b="$slow" 'BEGIN { print b - a }')
    echo "p50 ${base}us at delay=0ms, ${slow}us at delay=5ms: grown by ${grown}us ($(head -1 "$work/slow.out" | sed 's/.*link: //'))"
    # At least the delay (less would mean it was not on the path), and well short of twice it (a
    # delay applied each way): toxiproxy's timers run late on a loaded machine, by 1 ms in an ASan
    # run beside other tests (6.03 ms seen), so the bound above is not 20%.
    awk -v g="$grown" 'BEGIN { exit !(g >= 4000 && g <= 8000) }' || fail "p50 grew by ${grown}us, not 5000us (4000 to 8000)"
  else
    fail "delay=5ms: $(tail -1 "$work/slow.err")"
  fi
elif grep -q "link delay needs" "$work/base.err"; then
  skipped+=("round trip: $(sed 's/^multihost: //' "$work/base.err")")
else
  fail "delay=0ms: $(tail -1 "$work/base.err")"
fi

for s in "${skipped[@]+"${skipped[@]}"}"; do echo "skipped part: $s"; done
[ "$failures" -eq 0 ]
