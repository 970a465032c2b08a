#!/usr/bin/env bash
# The wirebench program as a user meets it: list, help, --version, usage errors (one line, exit
# 2), serve and call over TCP and Unix sockets, and a clean exit 0 on SIGINT and SIGTERM.
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

# Starts a server on ENDPOINT in the background and waits for the endpoint it reports (up to 60 s:
# on a machine busy with builds a start has been seen to take more than 5); says how it ended if not.
start_server() {  # start_server PROTOCOL ENDPOINT [SERVE-FLAGS...]
  local protocol=$1 listen=$2
  shift 2
  "$wb" serve --protocol "$protocol" --listen "$listen" --threads 2 "$@" 2>"$work/serve.log" &
  server_pid=$!
  # Up to 60 s: ctest runs this beside compile-heavy tests (install_and_consume) on 2 cores.
  for _ in $(seq 1200); do
    grep -q "serving" "$work/serve.log" 2>/dev/null && break
    kill -0 "$server_pid" 2>/dev/null || break  # it exited: its log says why
    sleep 0.05
  done
  bound=$(sed -n 's/^wirebench: serving [^ ]* on \([^ ]*\) .*/\1/p' "$work/serve.log")
  [ -n "$bound" ] && return 0
  # How it ended (a status above 128 is a signal: 143 SIGTERM, 137 SIGKILL, 139 SIGSEGV).
  local how="still running after 60 s"
  kill -0 "$server_pid" 2>/dev/null || { wait "$server_pid"; how="exited with status $?"; }
  echo "  serve $how; serve.log: $(cat "$work/serve.log")" >&2
  false
}
stop_server() {  # stop_server SIGNAL: the server must exit 0 and say so
  kill -"$1" "$server_pid"
  wait "$server_pid"
  local rc=$?
  server_pid=
  [ $rc -eq 0 ] && grep -q "stopped on SIG$1" "$work/serve.log"
}

check "list names both protocols" bash -c "'$wb' list | grep -q '^line' && '$wb' list | grep -q '^length-prefixed'"
# list --json: every protocol with the fields scripts/soak reads; the greet bytes a server reads.
check "list --json carries servers and greet bytes" python3 -c "
import json, subprocess, sys
ps = {p['name']: p for p in json.loads(subprocess.check_output([sys.argv[1], 'list', '--json']))}
assert ps['line']['greet_request_hex'] == b'wirebench\\n'.hex(), ps['line']
assert ps['http1-close']['server_of'] == 'http1' and ps['http1']['server_of'] is None
assert ps['resp-sync']['server_of'] == 'resp' and ps['redis-server']['server_program'] == 'redis-server'
assert ps['http2']['greet_request_hex'] is None and ps['mux']['multiplexed']
assert all(p['server_of'] in ps for p in ps.values() if p['server_of'])
" "$wb"
check "--help exits 0" exit_is 0 "$wb" --help
check "--version exits 0" exit_is 0 "$wb" --version
check "--version names the program, the libraries and the I/O path this build waits with" \
  bash -c "head -1 '$work/out' | grep -qE '^wirebench [0-9]+\.[0-9]+\.[0-9]+$' && grep -q '^nghttp2 ' '$work/out' && grep -qE '^io-path (reactor|async_wait): asio ' '$work/out'"
check "serve --help exits 0" exit_is 0 "$wb" serve --help
check "unknown flag exits 2" exit_is 2 "$wb" serve --protocol line --bogus
check "unknown flag is one line naming it" one_line_error "bogus"
check "unknown protocol exits 2" exit_is 2 "$wb" serve --protocol nope
check "unknown protocol is named" one_line_error "unknown protocol 'nope'"
check "bad endpoint exits 2" exit_is 2 "$wb" serve --protocol line --listen tcp://nowhere:80
check "bad endpoint is explained" one_line_error "numeric IP"
check "no subcommand exits 2" exit_is 2 "$wb"
check "a bad server setting exits 2" exit_is 2 "$wb" serve --protocol line --idle-timeout 5
check "a bad server setting is one line naming the flag" one_line_error "--idle-timeout 5: durations look like"
check "--tls on a protocol without TLS exits 2 (serve)" exit_is 2 "$wb" serve --protocol resp-sync --tls --listen tcp://127.0.0.1:0
check "--tls on a protocol without TLS is one line (serve)" one_line_error "--tls: protocol 'resp-sync' does not speak TLS"
check "--tls on a protocol without TLS exits 2 (call)" exit_is 2 "$wb" call --protocol resp-sync --tls --connect tcp://127.0.0.1:9 x
check "--tls on a protocol without TLS is one line (call)" one_line_error "--tls: protocol 'resp-sync' does not speak TLS"
check "--keepalive on a protocol without a ping exits 2 (serve)" exit_is 2 "$wb" serve --protocol line --keepalive 1s --listen tcp://127.0.0.1:0
check "--keepalive on a protocol without a ping is one line (serve)" one_line_error "--keepalive: protocol 'line' has no ping for keep-alive"
check "--keepalive on a protocol without a ping exits 2 (call)" exit_is 2 "$wb" call --protocol line --keepalive 1s --connect tcp://127.0.0.1:9 x
check "--keepalive on a protocol without a ping is one line (call)" one_line_error "--keepalive: protocol 'line' has no ping for keep-alive"
check "--keepalive on a protocol without a ping exits 2 (run)" exit_is 2 "$wb" run --protocol resp --keepalive 1s --quick
check "--keepalive on a protocol without a ping is one line (run)" one_line_error "--keepalive: protocol 'resp' has no ping for keep-alive"
check "--keepalive-timeout without --keepalive exits 2" exit_is 2 "$wb" call --protocol http2 --keepalive-timeout 1s --connect tcp://127.0.0.1:9 x
check "--keepalive-timeout without --keepalive is one line" one_line_error "--keepalive-timeout needs --keepalive"
check "--keepalive 0s exits 2" exit_is 2 "$wb" call --protocol http2 --keepalive 0s --connect tcp://127.0.0.1:9 x
check "--keepalive 0s is one line" one_line_error "--keepalive 0s: a duration above 0"
check "--tls on a protocol without TLS exits 2 (run)" exit_is 2 "$wb" run --protocol line,redis-server --tls
check "--tls on a protocol without TLS is one line (run)" one_line_error "--tls: protocol 'redis-server' does not speak TLS"
check "--insecure with --tls-ca exits 2" exit_is 2 "$wb" call -p line --insecure --tls-ca "$0" x
check "--insecure with --tls-ca is one line" one_line_error "--insecure and --tls-ca do not go together"

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

# wirebench run: the load generator, on short runs (behaviour here, never speed).
json_has() {  # json_has FILE PYTHON-EXPRESSION-ON-d: true when the expression holds
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1"
}
quick=(--duration 0.2 --warmup 0.05 --repeats 1 --quiet)
check "run --help exits 0" exit_is 0 "$wb" run --help
check "run closed loop over two protocols and worker counts" exit_is 0 "$wb" run \
  --protocol line,mux --workers 1,3 "${quick[@]}" --out "$work/run.json"
check "run prints a row per point" bash -c "[ \$(grep -cE '^(line|mux) +closed' '$work/out') -eq 4 ]"
check "run says where the results are" grep -q "results in $work/run.json and $work/run.csv" "$work/err"
# stdout and stderr in one file: the table is flushed before the results line, which ends it.
"$wb" run --protocol line --workers 1 "${quick[@]}" --out "$work/both.json" >"$work/both" 2>&1
check "with stdout and stderr in one file, the results line comes after the table" \
  bash -c "tail -1 '$work/both' | grep -q '^wirebench: results in ' && grep -qE '^line +closed' '$work/both'"
check "run JSON has every point with successful calls and both CPUs" json_has "$work/run.json" \
  "len(d['points']) == 4 and all(p['summary']['outcomes']['ok'] > 0 and p['summary']['server_cpu_us_per_call'] is not None for p in d['points']) and d['machine']['kernel'] and d['libraries']['nghttp2'] and d['libraries']['io-path'].split(':')[0] in ('reactor', 'async_wait')"
check "run JSON records the layout: a connection per line worker, one mux connection" json_has \
  "$work/run.json" "[(p['parameters']['protocol'], p['parameters']['workers'], p['parameters']['connections']) for p in d['points']] == [('line',1,1),('line',3,3),('mux',1,1),('mux',3,1)]"
check "run CSV has a header and a row per point" bash -c "[ \$(wc -l <'$work/run.csv') -eq 5 ] && head -1 '$work/run.csv' | grep -q '^protocol,load,workers,'"
check "each repeat has a timeline of 100 ms intervals whose calls are the run's, warm-up included" \
  json_has "$work/run.json" "all((t := r['timeline'])['interval_ns'] == 100000000 and sum(t['ok']) >= r['outcomes']['ok'] > 0 and len(t['ok']) >= 2 and len(t['p99_us']) == len(t['ok']) and t['start_unix'] < r['window_start_unix'] for p in d['points'] for r in p['repeats'])"
check "run --interval sets the timeline's" exit_is 0 "$wb" run --protocol line --interval 20ms \
  "${quick[@]}" --out "$work/interval.json"
check "... and the timeline has that many intervals" json_has "$work/interval.json" \
  "(t := d['points'][0]['repeats'][0]['timeline'])['interval_ns'] == 20000000 and len(t['ok']) >= 12"
check "run --interval 0 exits 2" exit_is 2 "$wb" run --protocol line --interval 0
check "run --interval 0 says what it takes" one_line_error "--interval 0: a duration of 1ms or more"
check "run open loop sends the planned calls" exit_is 0 "$wb" run --protocol line --rate 2000 \
  --load uniform,poisson "${quick[@]}" --out "$work/open.json"
check "run open loop: uniform plans rate x duration, every call ends ok" json_has "$work/open.json" \
  "[(p['parameters']['load'], p['parameters']['workers']) for p in d['points']] == [('uniform',64),('poisson',64)] and d['points'][0]['summary']['planned'] == 400 and all(p['summary']['outcomes']['ok'] == p['summary']['planned'] for p in d['points'])"
check "an open loop's timeline has what was due, warm-up and window: 2000/s over 0.25 s" \
  json_has "$work/open.json" "sum(d['points'][0]['repeats'][0]['timeline']['due']) == 500 and sum(d['points'][0]['repeats'][0]['timeline']['sent']) == 500"
for transport in unix abstract; do
  check "run over $transport sockets" exit_is 0 "$wb" run --protocol length-prefixed \
    --transport "$transport" "${quick[@]}" --out "$work/$transport.json"
  check "run over $transport records it" json_has "$work/$transport.json" \
    "d['points'][0]['parameters']['transport'] == '$transport' and d['points'][0]['summary']['outcomes']['ok'] > 0"
done
check "run the comparison scenario, shortened" exit_is 0 "$wb" run --scenario comparison --quick \
  --protocol line --duration 1 --quiet --out "$work/cmp.json"
check "the comparison runs bursty then uniform at 100/s" json_has "$work/cmp.json" \
  "[(p['parameters']['load'], p['parameters']['rate'], p['summary']['planned']) for p in d['points']] == [('bursty',100,100),('uniform',100,100)]"
check "a number out of range exits 2" exit_is 2 "$wb" run --protocol line --duration 0
check "... and says the range as given, not to six decimals" one_line_error "--duration: 0: must be from 0.01 to 86400 "
check "a number that must be positive and is not exits 2" exit_is 2 "$wb" run --protocol line --late-after 0
check "... and says so without 309 digits" one_line_error "--late-after: 0: must be above 0 "
check "run without a rate for an open loop exits 2" exit_is 2 "$wb" run --protocol line --load poisson
check "run without a rate says what to do" one_line_error "give its rate with --rate"
check "run with an unknown protocol exits 2" exit_is 2 "$wb" run --protocol line,nope
check "run with an unknown protocol names it" one_line_error "unknown protocol 'nope'"
check "run with a bad load exits 2" exit_is 2 "$wb" run --protocol line --load sometimes --rate 5
check "run pinned to a CPU that is not there exits 2" exit_is 2 "$wb" run --protocol line --server-cpus 1000
check "run pinned to a CPU that is not there says which exist" one_line_error "this machine has CPUs 0 to"
# grpc++ (the grpcpp backends) is left out under ThreadSanitizer (tests/CMakeLists.txt says why).
if [ -n "${WIREBENCH_TEST_WITHOUT_GRPCPP:-}" ]; then
  echo "cli_test: the grpc++ checks are skipped (ThreadSanitizer build)" >&2
else
  check "run a gRPC server on each engine" exit_is 0 "$wb" run --protocol grpcpp-stream \
    --server-engine callback --server-threads 2 "${quick[@]}" --out "$work/engine.json"
  check "run records the engine in JSON" json_has "$work/engine.json" \
    "d['points'][0]['parameters']['server_engine'] == 'callback' and d['points'][0]['summary']['outcomes']['ok'] > 0"
  check "run records the engine in CSV" grep -q ',2,callback,' "$work/engine.csv"
  check "a gRPC client process runs gRPC's poll poller, and says so" json_has "$work/engine.json" \
    "d['libraries']['grpc-poller'] == 'poll'"
  check "run with the user's GRPC_POLL_STRATEGY" exit_is 0 env GRPC_POLL_STRATEGY=epoll1 "$wb" run \
    --protocol grpcpp "${quick[@]}" --out "$work/epoll1.json"
  check "the user's GRPC_POLL_STRATEGY wins" json_has "$work/epoll1.json" \
    "d['libraries']['grpc-poller'] == 'epoll1' and d['points'][0]['summary']['outcomes']['ok'] > 0"
  check "run gRPC beside another protocol" exit_is 0 "$wb" run --protocol line,grpcpp "${quick[@]}"
  check "... labels each placement with its protocols" bash -c \
    "grep -q '^placement (line): server threads' '$work/out' && grep -q '^placement (grpcpp): .*(cq engine)' '$work/out'"
  check "serve grpc with its default engine" start_server grpcpp "tcp://127.0.0.1:0"
  check "serve names the default engine, cq" grep -q 'with 2 thread(s) on the cq engine' "$work/serve.log"
  check "serve grpc stops cleanly" stop_server TERM
fi
check "run records no engine for a protocol with one server" json_has "$work/run.json" \
  "d['points'][0]['parameters']['server_engine'] == ''"
check "a run without gRPC never starts it" json_has "$work/run.json" \
  "'grpc-poller' not in d['libraries']"
check "run with an engine a protocol lacks exits 2" exit_is 2 "$wb" run --protocol grpcpp,line --server-engine cq
check "run with an engine a protocol lacks names it" one_line_error "server-engine cq: line has one server implementation"
check "run --connect with an engine exits 2" exit_is 2 "$wb" run --protocol grpcpp --connect tcp://127.0.0.1:1 --server-engine cq
check "run --connect with an engine says where engines are chosen" one_line_error "wirebench serve --engine"
check "serve with an unknown engine exits 2" exit_is 2 "$wb" serve --protocol grpcpp --engine fast
check "serve with an unknown engine lists the engines" one_line_error "engine fast: grpcpp offers cq, callback"
check "run --connect needs one protocol" exit_is 2 "$wb" run --protocol line,mux --connect tcp://127.0.0.1:1
check "serve for run --connect" start_server mux "tcp://127.0.0.1:0"
check "run --connect loads a server started elsewhere" exit_is 0 "$wb" run --protocol mux \
  --connect "$bound" --workers 4 "${quick[@]}" --out "$work/remote.json"
check "run --connect records a remote server without its CPU" json_has "$work/remote.json" \
  "d['points'][0]['parameters']['transport'] == 'remote' and d['points'][0]['summary']['server_cpu_us_per_call'] is None and d['points'][0]['summary']['outcomes']['ok'] > 0"
check "the remote server still stops cleanly" stop_server TERM
# TLS: the servers a run starts get a certificate made for the run, which its client verifies.
check "run --tls over four protocols" exit_is 0 "$wb" run --protocol line,http1,resp,grpc --tls \
  --workers 2 "${quick[@]}" --out "$work/tls.json"
check "... and its table says so in a transport column" grep -qE '^line +closed +tcp\+tls ' "$work/out"
check "run --tls records TLS in the transport, every call a success" json_has "$work/tls.json" \
  "all(p['parameters']['transport'] == 'tcp+tls' and p['summary']['outcomes']['ok'] > 0 and not p['summary']['errors'] for p in d['points']) and len(d['points']) == 4"
# A TLS server with a self-signed certificate: the system's CAs refuse it, --insecure takes it;
# --cert-out writes it for clients to verify against.
check "serve --cert-out without --tls exits 2" exit_is 2 "$wb" serve -p http1 --cert-out "$work/cert.pem"
check "... and says it needs --tls" one_line_error "--cert-out needs --tls"
check "serve --tls --cert-out" start_server http1 "tcp://127.0.0.1:0" --tls --cert-out "$work/cert.pem"
check "... says TLS, and where the certificate is, in its start-up line" \
  grep -q "over TLS (a self-signed certificate .* written to $work/cert.pem: clients verify it with --tls-ca" "$work/serve.log"
check "call --tls-ca verifies the certificate serve wrote" bash -c \
  "[ \"\$('$wb' call -p http1 --tls-ca '$work/cert.pem' -c '$bound' ann)\" = 'hello, ann' ]"
check "the --cert-out server stops cleanly" stop_server TERM
check "serve --tls for call" start_server http1 "tcp://127.0.0.1:0" --tls
check "... says it made a certificate clients cannot verify" grep -q "over TLS (a self-signed certificate made at start-up: clients need --insecure" "$work/serve.log"
check "call --tls verifies against the system's CAs and refuses a self-signed server" \
  exit_is 1 "$wb" call -p http1 --tls -c "$bound" ann
check "the refusal says it was TLS" grep -q "tls" "$work/out" "$work/err"
check "call --insecure takes the self-signed server" bash -c \
  "[ \"\$('$wb' call -p http1 -k -c '$bound' ann)\" = 'hello, ann' ]"
check "the TLS server stops cleanly" stop_server TERM
# Mutual TLS and names: serve --tls-client-ca serves only clients whose certificate its CA signed
# (--cert/--key); --tls-server-name is the name verified instead of the address dialed; --resolve
# dials an address for a URL's host, which stays the name TLS verifies. Certificates by openssl.
make_cert() {  # make_cert NAME: NAME.pem and NAME.key in $work, a self-signed P-256 cert for NAME
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj "/CN=$1" \
    -addext "subjectAltName=DNS:$1" -keyout "$work/$1.key" -out "$work/$1.pem" 2>"$work/err"
}
check "openssl makes a server and two client certificates" bash -c \
  "$(declare -f make_cert); work='$work'; make_cert wirebench.test && make_cert client && make_cert stranger"
check "--cert without --key exits 2" exit_is 2 "$wb" call -p http1 --cert "$work/client.pem" -c tcp://127.0.0.1:9 x
check "... and asks for the key" one_line_error "--cert needs --key"
check "--resolve without --url exits 2" exit_is 2 "$wb" call -p http1 --resolve a.test:1:127.0.0.1 -c tcp://127.0.0.1:9 x
check "... and says what it maps" one_line_error "--resolve maps a --url's host to an address"
check "--resolve to a name exits 2" exit_is 2 "$wb" call -p http1 --url http://a.test:1/ --resolve a.test:1:nowhere
check "... and says it takes an address" one_line_error "'nowhere' is not an IP address"
check "--resolve for another host exits 2 (not a lookup of the real one)" exit_is 2 "$wb" run -p http1 \
  --url http://a.test:1/ --resolve b.test:1:127.0.0.1
check "... and names the URL's host and port" one_line_error "no rule names the --url's a.test:1"
check "serve --tls-client-ca" start_server http1 "tcp://127.0.0.1:0" --tls-cert "$work/wirebench.test.pem" \
  --tls-key "$work/wirebench.test.key" --tls-client-ca "$work/client.pem"
port=${bound##*:}
mtls=(--tls-ca "$work/wirebench.test.pem" --cert "$work/client.pem" --key "$work/client.key")
check "call --cert --key --tls-server-name is served" bash -c \
  "[ \"\$('$wb' call -p http1 -c '$bound' ${mtls[*]} --tls-server-name wirebench.test ann)\" = 'hello, ann' ]"
check "the address dialed is not the certificate's name: exit 1" exit_is 1 "$wb" call -p http1 \
  -c "$bound" "${mtls[@]}" ann
check "... refused as TLS" grep -qi "tls" "$work/out" "$work/err"
check "no client certificate: exit 1" exit_is 1 "$wb" call -p http1 -c "$bound" \
  --tls-ca "$work/wirebench.test.pem" --tls-server-name wirebench.test ann
check "another CA's client certificate: exit 1" exit_is 1 "$wb" call -p http1 -c "$bound" \
  --tls-ca "$work/wirebench.test.pem" --tls-server-name wirebench.test --cert "$work/stranger.pem" \
  --key "$work/stranger.key" ann
check "call --url https://wirebench.test --resolve, verified and served" exit_is 0 "$wb" call -p http1 \
  --url "https://wirebench.test:$port/greet?name=r" --resolve "wirebench.test:$port:127.0.0.1" \
  "${mtls[@]}" --expect-body '{"greeting":"hello, r"}'
check "run --resolve with a client certificate, every call a success" exit_is 0 "$wb" run -p http1 \
  --url "https://wirebench.test:$port/greet?name=r" --resolve "wirebench.test:$port:127.0.0.1" \
  "${mtls[@]}" --workers 2 "${quick[@]}" --out "$work/mtls.json"
check "... recorded" json_has "$work/mtls.json" \
  "d['points'][0]['summary']['outcomes']['ok'] > 0 and d['points'][0]['summary']['outcomes']['ok'] == sum(d['points'][0]['summary']['outcomes'].values())"
check "the mutual TLS server stops cleanly" stop_server TERM
# -n: a number of calls per repeat instead of a duration (closed: shared by the workers; open:
# that many arrivals at the rate), recorded in the results.
check "run -n: a closed loop of exactly 500 calls per repeat" exit_is 0 "$wb" run -p line -n 500 \
  --workers 3 --warmup 0.05 -R 2 --quiet --out "$work/n.json"
check "... each repeat made and counted 500, and the count is recorded" json_has "$work/n.json" \
  "d['points'][0]['parameters']['calls'] == 500 and all(sum(r['outcomes'].values()) == 500 and r['issued'] == 500 and r['outcomes']['ok'] == 500 and r['gave_up'] == '' for r in d['points'][0]['repeats'])"
check "... and in the CSV" python3 -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows[0]['calls'] == '500', rows[0]
" "$work/n.csv"
check "run -n with --rate: 300 arrivals at 3000/s" exit_is 0 "$wb" run -p mux --rate 3000 -n 300 \
  --warmup 0.05 -R 1 --quiet --out "$work/n-open.json"
check "... planned and answered, each once" json_has "$work/n-open.json" \
  "all(r['planned'] == 300 and r['outcomes']['ok'] == 300 and sum(r['outcomes'].values()) == 300 for r in d['points'][0]['repeats'])"
check "-n with --find-max-rate exits 2" exit_is 2 "$wb" run -p line -n 10 --find-max-rate --slo 'p99<=1ms'
check "... and says why" one_line_error "-n: --find-max-rate times each step"
check "-n 0 exits 2" exit_is 2 "$wb" run -p line -n 0
# A run whose every call fails: its latencies are "-", not "0us".
check "serve http1 for a run whose calls all fail" start_server http1 "tcp://127.0.0.1:0"
check "a run of 404s exits 3 (no call succeeded)" exit_is 3 "$wb" run -p http1 --url "http://${bound#tcp://}/nope" --workers 1 \
  "${quick[@]}"
check "... shows no latency where no call succeeded" \
  grep -qE '^http1 +closed +remote +1 +1 +0 +0-0 +- +- +- +- +- +- +[1-9]' "$work/out"
check "the 404 server stops cleanly" stop_server TERM
# User calls (--url, --path, --command): flags that do not fit the protocol, or each other, are
# one-line errors with exit 2, before anything is dialed.
check "-X on resp exits 2" exit_is 2 "$wb" run -p resp --command PING -X POST
check "-X on resp says it is for HTTP" one_line_error "--method is for an HTTP request, not --command"
check "a URL on resp exits 2" exit_is 2 "$wb" call -p resp --url http://127.0.0.1:9/x
check "a URL on resp says what resp sends" one_line_error "protocol 'resp' sends a RESP command (--command), not an HTTP request"
check "a command on line exits 2" exit_is 2 "$wb" run -p line --command PING
check "a command on line says it sends only its greet call" one_line_error "protocol 'line' sends only its greet call"
check "resp-sync refuses a command" exit_is 2 "$wb" run -p resp-sync --command PING
# MessagePack-RPC user calls: --method without a URL, -d its params as a JSON array.
check "run a MessagePack-RPC method" exit_is 0 "$wb" run -p msgpack-rpc --method greet -d '["rpc"]' \
  --workers 4 "${quick[@]}" --out "$work/rpc-call.json"
check "every MessagePack-RPC call succeeded, the method recorded" json_has "$work/rpc-call.json" \
  "all(p['summary']['outcomes']['ok'] > 0 and not p['summary']['errors'] and p['parameters']['requests'][0]['method'] == 'greet' for p in d['points'])"
check "params that are not an array exit 2" exit_is 2 "$wb" run -p msgpack-rpc --method greet -d '{"a": 1}'
check "... and say what they must be" one_line_error "MessagePack-RPC params are a JSON array"
# gRPC user calls: any unary method from its .proto, the request as JSON (-d).
echo_proto="$(cd "$(dirname "$0")/../.." && pwd)/proto/echo.proto"
check "--call without --proto exits 2" exit_is 2 "$wb" run -p grpc --call wirebench.echo.Echo/Get
check "--call without --proto says so" one_line_error "give the .proto that defines it"
check "--proto without --call exits 2" exit_is 2 "$wb" run -p grpc --proto "$echo_proto"
check "--call on http1 exits 2" exit_is 2 "$wb" run -p http1 --call wirebench.echo.Echo/Get --proto "$echo_proto"
check "--call on http1 says what http1 sends" one_line_error "protocol 'http1' sends an HTTP request"
check "a request that is not the method's message exits 2 before the run" exit_is 2 "$wb" run -p grpc \
  --call wirebench.echo.Echo/Get --proto "$echo_proto" -d '{"nope": 1}'
check "... and names the message" one_line_error "not a wirebench.echo.EchoRequest"
check "run a gRPC method from its .proto" exit_is 0 "$wb" run -p grpc --call wirebench.echo.Echo/Greet \
  --proto "$echo_proto" -d '{"name": "dyn"}' --workers 4 "${quick[@]}" --out "$work/grpc-call.json"
check "run a gRPC method found by reflection (no .proto)" exit_is 0 "$wb" run -p grpc \
  --call wirebench.echo.Echo/Greet --reflect -d '{"name": "r"}' --workers 2 "${quick[@]}" \
  --out "$work/grpc-reflect.json"
check "every call by reflection succeeded" json_has "$work/grpc-reflect.json" \
  "d['points'][0]['summary']['outcomes']['ok'] > 0 and not d['points'][0]['summary']['errors'] and d['points'][0]['parameters']['requests'][0]['reflect']"
check "run a server-streaming gRPC method (a stream per call)" exit_is 0 "$wb" run -p grpc \
  --call wirebench.echo.Echo/Expand --proto "$echo_proto" -d '{"text": "a b"}' --workers 4 \
  "${quick[@]}" --out "$work/grpc-stream-call.json"
check "every streaming call succeeded" json_has "$work/grpc-stream-call.json" \
  "d['points'][0]['summary']['outcomes']['ok'] > 0 and not d['points'][0]['summary']['errors']"
check "every gRPC user call succeeded, the method recorded" json_has "$work/grpc-call.json" \
  "all(p['summary']['outcomes']['ok'] > 0 and not p['summary']['errors'] and p['parameters']['requests'][0]['method'] == 'wirebench.echo.Echo/Greet' for p in d['points']) and len(d['points']) == 1"
check "-H without a URL exits 2" exit_is 2 "$wb" run -p http1 -H 'Accept: */*'
check "-H without a URL says to give one" one_line_error "give its --url or --path too"
check "a bad header exits 2" exit_is 2 "$wb" run -p http1 --path / -H 'no colon'
check "an unbalanced quote exits 2" exit_is 2 "$wb" call -p resp --command 'SET "k v'
check "an unbalanced quote is named" one_line_error "unbalanced quotes"
check "a header HTTP/2 forbids exits 2 before the run" exit_is 2 "$wb" run -p http2 --path / -H 'Connection: close'
check "a header HTTP/2 forbids is named" one_line_error "HTTP/2 forbids connection-specific headers"
check "-d @ a missing file exits 2" exit_is 2 "$wb" run -p http1 --path / -d "@$work/no-such-file"
# A URL's host name is looked up only when no --connect says where to go: with --connect this
# call fails to connect (exit 1), never on the name (a lookup would be traffic off this machine).
check "with --connect a URL's host name is not looked up" exit_is 1 "$wb" call -p http1 \
  --url http://example.invalid/ --connect tcp://127.0.0.1:9 --timeout 2
check "with --connect the name is the Host header only" bash -c "! grep -q 'does not resolve' '$work/err'"
check "names with a user call exit 2" exit_is 2 "$wb" call -p http1 --path / alice
check "--duration's short form is -D now (-d is the body)" exit_is 2 "$wb" run -p line -d 5
# Against our own servers (started by run): a path ours serves and one it does not.
check "run http1 with a user path" exit_is 0 "$wb" run -p http1 --path '/greet?name=x' \
  --expect-body '{"greeting":"hello, x"}' "${quick[@]}" --out "$work/user.json"
check "the user call is recorded and every call succeeded" json_has "$work/user.json" \
  "d['points'][0]['parameters']['requests'][0]['target'] == '/greet?name=x' and d['points'][0]['summary']['outcomes']['ok'] > 0 and d['points'][0]['summary']['outcomes']['other_error'] == 0 and d['points'][0]['summary']['outcomes']['wrong_reply'] == 0"
check "the CSV says which request was sent" grep -q 'GET /greet?name=x expecting 200' "$work/user.csv"
check "run resp with a user command" exit_is 0 "$wb" run -p resp --command 'GREET "a b"' \
  --expect-reply 'hello, a b' "${quick[@]}" --out "$work/resp.json"
check "every resp user call succeeded" json_has "$work/resp.json" \
  "d['points'][0]['parameters']['requests'][0]['args'] == ['GREET', 'a b'] and d['points'][0]['summary']['outcomes']['ok'] > 0 and d['points'][0]['summary']['outcomes']['ok'] == sum(d['points'][0]['summary']['outcomes'].values())"
check "run http2 with a path ours does not serve counts its 404s and exits 3" exit_is 3 "$wb" run -p http2 \
  --path /nope "${quick[@]}" --out "$work/404.json"
check "the 404s are failed calls by status" json_has "$work/404.json" \
  "d['points'][0]['summary']['outcomes']['ok'] == 0 and d['points'][0]['summary']['errors']['status_404'] > 0"

# Without --connect a URL's host name is resolved (here the machine's own name, when /etc/hosts
# maps it to 127.0.0.1, the address the server listens on; else the check is left out).
if [ "$(getent hosts "$(hostname)" | awk '{print $1; exit}')" = 127.0.0.1 ] &&
   check "an http1 server for a named URL starts" start_server http1 "tcp://127.0.0.1:0"; then
  port=${bound##*:}
  check "a URL naming this host by name is dialed" exit_is 0 "$wb" call -p http1 \
    --url "http://$(hostname):$port/greet?name=x" --expect-body '{"greeting":"hello, x"}'
  stop_server TERM
else
  echo "left out: $(hostname) does not resolve to 127.0.0.1 here"
fi

# A server started by `run` must not outlive it, even when run is killed outright.
wirebench_children() {  # the pids of the wirebench processes whose parent is $1
  awk -v parent="$1" '$2 == "(wirebench)" && $4 == parent { print $1 }' /proc/[0-9]*/stat 2>/dev/null
}
gone() {  # gone PID: exited (or a zombie waiting for init), within 5 s
  for _ in $(seq 100); do
    { [ ! -e "/proc/$1" ] || grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; } && return 0
    sleep 0.05
  done
  return 1
}
server_of_killed_run() {
  "$wb" run --protocol line --duration 30 --warmup 0 --repeats 1 --quiet >/dev/null 2>&1 &
  local run_pid=$! child=
  for _ in $(seq 100); do
    child=$(wirebench_children "$run_pid")
    [ -n "$child" ] && break
    sleep 0.05
  done
  kill -9 "$run_pid"
  wait "$run_pid" 2>/dev/null
  [ -n "$child" ] && gone "$child"
}
check "a server started by run exits when run is killed" server_of_killed_run
check "run against nobody exits 1" exit_is 1 "$wb" run --protocol line \
  --connect "unix:$work/nobody.sock" "${quick[@]}"
check "run against nobody is one line naming the endpoint and the reason" \
  one_line_error "line: no connection to unix:$work/nobody.sock could be made: No such file"

# A server that answers every call with somebody else's greeting: call must not print it as
# an answer, whatever the protocol (python3 plays the server: not our code).
wrong_server() {
  python3 - "$work/wrong.sock" <<'PY' &
import os, socket, sys
path = sys.argv[1]
s = socket.socket(socket.AF_UNIX)
s.bind(path)
s.listen(1)
c, _ = s.accept()
buf = b""
while b"\n" not in buf:
    buf += c.recv(100)
c.sendall(b"hello, mallory\n")
c.recv(100)
PY
  server_pid=$!
  for _ in $(seq 100); do [ -S "$work/wrong.sock" ] && return 0; sleep 0.05; done
  return 1
}
if check "a wrong-greeting server starts" wrong_server; then
  check "a wrong greeting exits 1" exit_is 1 "$wb" call -p line -c "unix:$work/wrong.sock" alice
  check "a wrong greeting is reported, not printed as the answer" \
    bash -c "grep -q \"got a wrong reply: 'hello, mallory'\" '$work/err' && ! grep -q mallory '$work/out'"
  kill "$server_pid" 2>/dev/null
  server_pid=
fi

# Two generators loading one server at the same time, merged: the merged calls are the sum of
# theirs, and a file merged with itself, or with a run that is not one, is refused in one line.
two_generators() {
  local g pids=()
  for g in 1 2; do
    "$wb" run -p line --connect "$bound" --workers 2 --duration 0.5 --warmup 0.1 --repeats 1 -q \
      -o "$work/gen-$g.json" >/dev/null 2>&1 &
    pids+=($!)
  done
  wait "${pids[0]}" && wait "${pids[1]}"
}
ok_calls() {  # ok_calls FILE: the successful calls of its first point's first repeat
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["points"][0]["repeats"][0]["outcomes"]["ok"])' "$1"
}
if check "a server for two generators starts" start_server line "tcp://127.0.0.1:0"; then
  check "two generators run at the same time" two_generators
  stop_server TERM
  check "merge exits 0" exit_is 0 "$wb" merge "$work/gen-1.json" "$work/gen-2.json" -o "$work/all.json"
  check "merge prints the table with summed workers" grep -qE "^line +closed +remote +4 " "$work/out"
  sum=$(( $(ok_calls "$work/gen-1.json") + $(ok_calls "$work/gen-2.json") ))
  check "merged calls are the sum of the generators'" [ "$(ok_calls "$work/all.json")" = "$sum" ]
  check "merging a file with itself exits 1" exit_is 1 "$wb" merge "$work/gen-1.json" "$work/gen-1.json"
  check "merging a file with itself is one line" one_line_error "holds the same run as"
  echo '{"format": "wirebench-results-1"}' >"$work/old.json"
  check "merging a format-1 file exits 1" exit_is 1 "$wb" merge "$work/gen-1.json" "$work/old.json"
  check "merging a format-1 file says why" one_line_error "holds no latency histograms"
fi

# --find-max-rate against a server of known capacity: 4 workers, each request holding its worker
# for 20 ms, serve at most 200 calls/s; the knee found must be within 15% of that. The target
# (p99 <= 100 ms) leaves room for a machine busy with builds (tens of ms of scheduling delay),
# and 1.2 s per step lets a queue 15% over capacity grow past it.
check "--find-max-rate without --slo exits 2" exit_is 2 "$wb" run -p mux --find-max-rate
check "--find-max-rate without --slo says what to add" one_line_error "needs the target to meet: --slo"
check "--slo without --find-max-rate exits 2" exit_is 2 "$wb" run -p mux --slo 'p99<=1ms'
check "a bad --slo exits 2" exit_is 2 "$wb" run -p mux --find-max-rate --slo 'p99<1ms'
check "a bad --slo is one line naming the part" one_line_error "'p99<1ms' is not NAME<=LIMIT"
knee_within_15_percent() {
  python3 - "$work/knee.json" <<'PY'
import json, sys
knee = json.load(open(sys.argv[1]))["knees"][0]
found = knee["max_rate_met"]
print(f"knee {found:.0f}/s against a capacity of 200/s; steps:",
      [(round(s["rate"]), s["violation"] or "met") for s in knee["steps"]])
sys.exit(0 if 170 <= found <= 230 else 1)
PY
}
if check "a server of known capacity starts" start_server mux "tcp://127.0.0.1:0" --workers 4 \
     --service-time busy:20ms; then
  check "--find-max-rate runs" exit_is 0 "$wb" run -p mux --connect "$bound" --find-max-rate \
    --slo 'p99<=100ms' --rate 25 --duration 1 --warmup 0.2 --repeats 1 -q -o "$work/knee.json"
  check "the knee line is printed" grep -q "^knee: mux uniform workers=64: .* calls/s met p99<=100ms" "$work/out"
  check "the knee is within 15% of the known capacity" knee_within_15_percent
  stop_server TERM
fi

echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
