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
