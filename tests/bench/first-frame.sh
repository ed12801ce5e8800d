#!/usr/bin/env bash
# The full-screen view's first frame, tracing on against --no-trace (issue
# 14): the tracer loads in a thread behind the first frame, so the two should
# match. ABBA pairs (PAIRS, default 10) under a pseudo-terminal, each run in
# its own journal directory and XDG_STATE_HOME. Usage: first-frame.sh [build]
build=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
[ -x "$top/$build/blktune" ] || { echo "skip - $build/blktune missing"; exit 77; }
tmp=$(mktemp -d /tmp/blktune-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
python3 "$top/tests/bench/first-frame.py" "$top/$build/blktune" "$tmp" "${PAIRS:-10}"
