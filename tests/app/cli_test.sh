#!/usr/bin/env bash
# The wirebench program as a user meets it: list, help, usage errors (one line, exit 2), serve and
# call over TCP and Unix sockets, and a clean exit 0 on SIGINT and SIGTERM.
set -uo pipefail
wb=$1
work=$(mktemp -d)
server_pid=
cleanup() { [ -n "$server_pid" ] && kill -9 "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
failures=0 passed=0
check() {  # check NAME COMMAND...: passes when the command succeeds
  local name=$1; shift
  if "$@"; then
    passed=$((passed + 1))
  else
    echo "FAIL: $name" >&2
    [ -s "$work/err" ] && sed 's/^/  stderr: /' "$work/err" >&2
    failures=$((failures + 1))
  fi
}
exit_is() { local want=$1; shift; "$@" >"$work/out" 2>"$work/err"; [ $? -eq "$want" ]; }
one_line_error() { [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "^wirebench: .*$1" "$work/err"; }

# Starts a server on ENDPOINT in the background and waits for the endpoint it reports.
start_server() {
  "$wb" serve --protocol "$1" --listen "$2" --threads 2 2>"$work/serve.log" &
  server_pid=$!
  for _ in $(seq 100); do
    grep -q "serving" "$work/serve.log" 2>/dev/null && break
    sleep 0.05
  done
  bound=$(sed -n 's/.* on \([^ ]*\) with.*/\1/p' "$work/serve.log")
  [ -n "$bound" ]
}
stop_server() {  # stop_server SIGNAL: the server must exit 0 and say so
  kill -"$1" "$server_pid"
  wait "$server_pid"
  local rc=$?
  server_pid=
  [ $rc -eq 0 ] && grep -q "stopped on SIG$1" "$work/serve.log"
}

check "list names both protocols" bash -c "'$wb' list | grep -q '^line' && '$wb' list | grep -q '^length-prefixed'"
check "--help exits 0" exit_is 0 "$wb" --help
check "serve --help exits 0" exit_is 0 "$wb" serve --help
check "unknown flag exits 2" exit_is 2 "$wb" serve --protocol line --bogus
check "unknown flag is one line naming it" one_line_error "bogus"
check "unknown protocol exits 2" exit_is 2 "$wb" serve --protocol nope
check "unknown protocol is named" one_line_error "unknown protocol 'nope'"
check "bad endpoint exits 2" exit_is 2 "$wb" serve --protocol line --listen tcp://nowhere:80
check "bad endpoint is explained" one_line_error "numeric IP"
check "no subcommand exits 2" exit_is 2 "$wb"

for proto in line length-prefixed; do
  for where in "tcp://127.0.0.1:0" "tcp://[::1]:0" "unix:$work/s.sock" "unix:@wirebench-cli-$$"; do
    if check "$proto serve on $where" start_server "$proto" "$where"; then
      check "$proto call over $where" bash -c \
        "[ \"\$('$wb' call -p $proto -c '$bound' ann bo)\" = \$'hello, ann\nhello, bo' ]"
      check "$proto SIGTERM exits 0 on $where" stop_server TERM
    fi
  done
done

check "serve for the bind test" start_server line "tcp://127.0.0.1:0"
check "a taken port exits 2" exit_is 2 "$wb" serve --protocol line --listen "$bound"
check "a taken port is one line naming it" one_line_error "cannot bind $bound"
check "SIGINT exits 0" stop_server INT
# A socket path nobody can be listening on (a freed TCP port may be taken by a parallel test).
check "calling a dead endpoint exits 1" exit_is 1 "$wb" call -p line -c "unix:$work/nobody.sock" x
check "a failed call says why" grep -q "could not connect" "$work/err"

echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
