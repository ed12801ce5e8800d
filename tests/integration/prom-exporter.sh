#!/usr/bin/env bash
# The Prometheus exporter's own behaviour, without root, a device or
# Prometheus: blktune -b --no-trace over a copy of the sata fixture, serving
# 127.0.0.1 on a port above 20000 and writing a textfile.
#  - a textfile that cannot be written (its directory removed) leaves the
#    endpoint updating; before, scrapes saw the last sample forever;
#  - the directory made again is written again (the man page: "retried the
#    next interval"); before, ENOENT every interval;
#  - the textfile is 0644 under umask 077 (node_exporter is another user);
#  - 40 idle connections leave /metrics answered (before: 16 took it), and an
#    idle one is closed within 3 s (before: 10 s);
#  - 405 says Allow: GET, HEAD; error bodies are text/plain;
#  - a malformed --listen is a bad command line: exit status 2, one line.
. "$(dirname "$0")/../lib.sh"
for c in curl python3; do
	command -v $c > /dev/null || t_skip "no $c"
done
export BLKTUNE_JOURNAL_DIR=$T_TMP/journal XDG_STATE_HOME=$T_TMP/state
FIX=${BLKTUNE_FIXTURES:-$T_TOP/tests/fixtures}
cp -r "$FIX/sata" "$T_TMP/sata"
tf=$T_TMP/tf
mkdir "$tf"

# A malformed --listen, refused before anything runs: exit 2, one line.
for bad in 127.0.0.1:80x :9101 1.2.3.4:0 127.0.0.1:65536 '[::1]9101' 127.0.0.1; do
	"$BLKTUNE" -b -d 0.5 -n 1 --root "$T_TMP/sata" --no-trace --listen "$bad" > /dev/null 2> "$T_TMP/bad.err"
	rc=$?
	t_eq "--listen $bad: exit status 2 (bad command line)" "$rc" 2
	t_eq "--listen $bad: one line on stderr" "$(wc -l < "$T_TMP/bad.err")" 1
done

# The server, under umask 077, for at most 200 s (-n 400 at -d 0.5).
port=$((20000 + $$ % 20000))
bpid=
for ((try = 0; try < 5; try++)); do
	(umask 077; exec "$BLKTUNE" -b -d 0.5 -n 400 --root "$T_TMP/sata" --no-trace \
		--listen "127.0.0.1:$port" --textfile "$tf" > /dev/null 2> "$T_TMP/blktune.err") &
	bpid=$!
	t_until 10 sh -c "curl -sf -m 2 'http://127.0.0.1:$port/metrics' > /dev/null || ! kill -0 $bpid 2> /dev/null"
	kill -0 $bpid 2> /dev/null && break
	grep -qi "address already in use" "$T_TMP/blktune.err" || break
	port=$((port + 1))
done
if ! kill -0 "$bpid" 2> /dev/null; then
	t_fail "blktune --listen 127.0.0.1:$port did not start: $(head -c 300 "$T_TMP/blktune.err")"
	t_done
	exit 1
fi
url=http://127.0.0.1:$port/metrics
# the sample time on /metrics (the first series' timestamp, ms)
stamp() { curl -s -m 2 "$url" | awk '$1 !~ /^#/ && NF == 3 { print $3; exit }'; }
# stamp_moves_from T: within 10 scrapes 0.6 s apart, one newer than T
stamp_moves_from() {
	local i s
	for ((i = 0; i < 10; i++)); do
		sleep 0.6
		s=$(stamp)
		[ -n "$s" ] && [ "$s" != "$1" ] && return 0
	done
	return 1
}

t_check "textfile written" t_until 10 test -s "$tf/blktune.prom"
t_eq "textfile mode under umask 077" "$(stat -c %a "$tf/blktune.prom")" 644

# The textfile's directory goes: the endpoint goes on.
rm -f "$tf"/* "$tf"/.blktune* 2> /dev/null
rmdir "$tf"
sleep 1.2 # two intervals: the failure has happened
s0=$(stamp)
t_check "a sample time on /metrics ($s0)" test -n "$s0"
t_check "/metrics goes on updating while the textfile cannot be written" stamp_moves_from "$s0"
t_check "the failure is said, naming the directory" \
	grep -qF -- "--textfile $tf: No such file or directory" "$T_TMP/blktune.err"
# ... and comes back: written again in the directory made again.
mkdir "$tf"
t_check "textfile written again in the re-created directory" t_until 10 test -s "$tf/blktune.prom"

# Idle connections: 40 held open, a scrape is answered; an idle one is
# closed by the server within 3 s (+ 2 s of slack).
held=$(python3 - "$port" <<'PY'
import socket, sys, time
port = int(sys.argv[1])
socks = [socket.create_connection(("127.0.0.1", port), timeout=2) for _ in range(40)]
time.sleep(0.3)
import subprocess
r = subprocess.run(["curl", "-s", "-m", "2", "-o", "/dev/null", "-w", "%{http_code}",
                    "http://127.0.0.1:%d/metrics" % port], capture_output=True, text=True)
t0 = time.monotonic()
s = socks[0]
s.settimeout(8)
try:
    closed = s.recv(1) == b""
except OSError:
    closed = False
print(r.stdout or "none", "%.1f" % (time.monotonic() - t0) if closed else "open")
for s in socks:
    s.close()
PY
)
read -r code idle <<< "$held"
t_eq "/metrics answered with 40 idle connections open" "$code" 200
t_check "an idle connection is closed within 5 s ($idle s)" \
	awk -v t="$idle" 'BEGIN { exit !(t != "open" && t <= 5) }'

# Errors: plain text, and 405 names the methods allowed.
curl -s -m 2 -i -X POST "$url" | tr -d '\r' > "$T_TMP/post"
t_eq "POST: 405" "$(awk 'NR == 1 { print $2 }' "$T_TMP/post")" 405
t_eq "405 has Allow" "$(grep -i '^allow:' "$T_TMP/post")" "Allow: GET, HEAD"
t_eq "405 body is text/plain" "$(grep -i '^content-type:' "$T_TMP/post")" "Content-Type: text/plain; charset=utf-8"
t_eq "404 body is text/plain" "$(curl -s -m 2 -o /dev/null -w '%{content_type}' "http://127.0.0.1:$port/")" \
	"text/plain; charset=utf-8"
t_eq "/metrics is the exposition format" "$(curl -s -m 2 -o /dev/null -w '%{content_type}' "$url")" \
	"text/plain; version=0.0.4; charset=utf-8"

t_stop "$bpid" INT
t_done
