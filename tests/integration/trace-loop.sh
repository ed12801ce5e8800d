#!/usr/bin/env bash
# Traced request sizes, latency and per-CPU counts on a loop device this test
# creates: 10000 x 4 KiB + 3000 x 64 KiB O_DIRECT reads must land exactly in
# their size buckets; a workload pinned to CPU 1 must show every submission on
# CPU 1. Needs root (BPF); skipped with the reason otherwise.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/trace-common.bash"
t_need_root
t_loop_create 256 || t_skip "cannot create a loop device"
dev=$T_LOOP
tp_settle
tp_open "$dev"
trap 'tp_close; t_cleanup' EXIT

# the kernel's own count of completed reads (diskstats, field 1)
reads() { awk '{print $1}' "/sys/block/${dev#/dev/}/stat"; }
r0=$(reads)
tp_cmd start
dd if="$dev" of=/dev/null bs=4k count=10000 iflag=direct status=none
dd if="$dev" of=/dev/null bs=64k count=3000 skip=100 iflag=direct status=none
tp_cmd stop || t_fail "probe answered"
r1=$(reads)

echo "# recursion misses (all devices): ${TP[misses]:-?}"
t_eq "traced as request-based" "${TP[path]:-}" rq
t_near "reads issued (counted at completion; exact: ${TP[issued_read]:-})" "${TP[issued_read]:-0}" 13000 13
t_eq "no writes issued" "${TP[issued_write]:-}" 0
t_near "4 KiB bucket" "${TP[size_read_le_4096]:-0}" 10000 10
t_near "4 KiB bucket bytes" "${TP[size_read_le_4096_bytes]:-0}" $((10000 * 4096)) $((10 * 4096))
t_near "64 KiB bucket" "${TP[size_read_le_65536]:-0}" 3000 3
t_near "64 KiB bucket bytes" "${TP[size_read_le_65536_bytes]:-0}" $((3000 * 65536)) $((3 * 65536))
t_eq "read buckets hold every request" "$(tp_sum size_read_ '[0-9]')" "${TP[completed_read]:-}"
t_near "bytes completed" "${TP[bytes_read]:-0}" $((10000 * 4096 + 3000 * 65536)) $((13 * 65536))
# A completion is lost now and then (about 1 in 10^4-10^5 on this busy VM, not
# a recursion miss: "misses" above; ARCHITECTURE.md 1 saw 0.02-0.4 %): allow
# 0.1 % (4 of 13000 were lost in one CI-like run), print exact. With one program per request (at completion) the issue
# side is no longer counted apart, so issues, sizes and bytes share it.
t_near "reads completed (exact: ${TP[completed_read]:-})" "${TP[completed_read]:-0}" 13000 13
t_eq "the kernel counted 13000 reads (diskstats)" "$((r1 - r0))" 13000
t_near "completions summed over CPUs = the kernel's count (diskstats)" "$(tp_sum cpu _completed)" "$((r1 - r0))" 13
t_eq "submissions summed over CPUs = completions" "$(tp_sum cpu _issued)" "${TP[completed]:-}"
t_eq "every completion has a latency" "${TP[lat_n]:-}" "${TP[completed]:-}"
t_eq "no completion without start time" "${TP[no_start]:-}" 0
t_check "p50 <= p90 <= p99 <= max" awk -v a="${TP[lat_p50_us]}" -v b="${TP[lat_p90_us]}" \
	-v c="${TP[lat_p99_us]}" -v d="${TP[lat_max_us]}" 'BEGIN { exit !(a > 0 && a <= b && b <= c && c <= d) }'
classes=$(tp_sum class_ '')
t_eq "every completion classed" "$classes" "${TP[completed]:-}"
if [ "${TP[ncpu]:-0}" -le 16 ]; then
	for c in same_cpu same_llc same_node elsewhere; do
		t_eq "kernel class $c = matrix grouped in user space" "${TP[class_$c]}" "${TP[group_$c]}"
	done
else
	t_subskip "${TP[ncpu]} CPUs: the probe prints no CPU matrix past 16, kernel classes unchecked"
fi
if command -v python3 >/dev/null; then
	t_check "JSON fields parse" python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert len(d["lat_hist_us"]) == 32 and len(d["rq_size_hist"]["read"]) == 15' "${TP[json]}"
else
	t_subskip "no python3: the JSON output is not parsed"
fi

# Pinned to CPU 1: every request was submitted there (rq->mq_ctx->cpu), and
# dispatched to the driver there too.
if [ "$(nproc)" -ge 2 ]; then
	tp_cmd start
	taskset -c 1 dd if="$dev" of=/dev/null bs=4k count=2000 iflag=direct status=none
	tp_cmd stop
	t_eq "pinned: issued on CPU 1" "${TP[cpu1_issued]:-}" 2000
	t_eq "pinned: issued on CPU 0" "${TP[cpu0_issued]:-}" 0
	if [ "${TP[ncpu]:-0}" -le 16 ]; then
		t_eq "pinned: completions submitted from CPU 1" "$(tp_sum matrix_ _from_1)" "${TP[completed]:-}"
	else
		t_subskip "${TP[ncpu]} CPUs: the probe prints no CPU matrix past 16, pinned matrix unchecked"
	fi
	t_eq "pinned: same-CPU + other classes = completions" "$(tp_sum class_ '')" "${TP[completed]:-}"
else
	t_subskip "one CPU: the pinned workload cannot run off CPU 0"
fi
tp_close
t_done
