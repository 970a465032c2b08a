# Shared by the scripts/compare-* scripts (sourced, not run): interleaved repeats and medians.
# Expects $repeats to be set.

# Placement: with two or more cores every server runs on CPU 0 and every load tool on CPU 1, so a
# server's figure is one core's worth and the tool never takes its cycles. One core: no pinning.
if [ "$(nproc)" -ge 2 ]; then
  on_server_cpu=(taskset -c 0)
  on_load_cpu=(taskset -c 1)
  placement_env=(WIREBENCH_SERVER_CPUS=0 WIREBENCH_CLIENT_CPUS=1)  # the same for bench binaries
else
  on_server_cpu=()
  on_load_cpu=()
  placement_env=()
fi

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# compare LABEL "OURS-COMMAND" "THEIRS-COMMAND" THEIR-NAME: runs both REPEATS times, interleaved
# (ours, theirs, ours, ...) so that drift hits both, and prints the medians and ours/theirs.
compare() {
  local ours=() theirs=() i
  for ((i = 0; i < repeats; i++)); do
    ours+=("$(eval "$2")")
    theirs+=("$(eval "$3")")
  done
  local o t
  o=$(printf '%s\n' "${ours[@]}" | median)
  t=$(printf '%s\n' "${theirs[@]}" | median)
  printf '%-44s ours %10.0f  %-15s %10.0f  ours/theirs %5.2fx   (runs: ours %s; theirs %s)\n' \
    "$1" "$o" "$4" "$t" "$(echo "$o $t" | awk '{print $2 ? $1 / $2 : 0}')" "${ours[*]}" "${theirs[*]}"
}

# floor_ratios PROTOCOL...: one call at a time on one TCP connection, client and server on one CPU
# (CPU 0), p50 of each protocol against two plain threads doing blocking write and read (the
# floor), from build/release/bench/wirebench_macro; REPEATS runs, medians, protocol/floor.
floor_ratios() {
  local pattern run
  pattern="raw_pingpong/tcp|greet/($(IFS='|'; echo "$*"))/tcp/workers:1/"
  echo "== one connection on one CPU: p50 against the raw socket floor, median of $repeats runs"
  for ((run = 0; run < repeats; run++)); do
    WIREBENCH_SERVER_CPUS=0 WIREBENCH_CLIENT_CPUS=0 build/release/bench/wirebench_macro \
      --benchmark_filter="$pattern" --benchmark_min_time=2 2>/dev/null |
      sed -nE 's/^raw_pingpong\/tcp\/.* p50_us=([0-9.]+).*/floor \1/p;
               s/^greet\/([^/]+)\/tcp\/workers:1\/.* p50_us=([0-9.]+).*/\1 \2/p'
  done | awk '{v[$1] = v[$1] " " $2} END {for (k in v) print k v[k]}' | while read -r name values; do
    printf '%s %s\n' "$name" "$(printf '%s\n' $values | median)"
  done | awk '{p50[$1] = $2; order[NR] = $1} END {
    f = p50["floor"]
    for (i = 1; i <= NR; i++) if ((k = order[i]) != "floor")
      printf "%-44s p50 %7.2f us  floor %7.2f us  ours/floor %5.2fx\n", k, p50[k], f, p50[k] / f }'
}
