#!/usr/bin/env python3
"""bpftrace's linear histograms (lhist) as exact percentiles, for the
trace-split tests. Usage: bt-hist.py BT_OUTPUT FINE COARSE P...: the maps
FINE and COARSE of BT_OUTPUT (FINE tried first, COARSE where the rank is
beyond it) at each percentile P (0..1). Prints "count N" (COARSE's total)
and "pP X" per P, X in microseconds, or "pP none" beyond both."""
import re
import sys


def read(path):
    hist, cur = {}, None
    for line in open(path):
        m = re.match(r'@(\w+):', line)
        if m:
            cur = m.group(1)
            hist[cur] = []  # printed again (an interval probe): the last print counts
            continue
        m = re.match(r'\[(\d+), (\d+|\.\.\.)\)\s+(\d+)', line.strip())
        if m and cur is not None:
            hi = float("inf") if m.group(2) == "..." else int(m.group(2))
            hist[cur].append((int(m.group(1)), hi, int(m.group(3))))
    return hist


def exact(hist, rank):
    cum = 0
    for lo, hi, c in hist:
        if c and cum + c >= rank:
            return None if hi == float("inf") else lo + (hi - lo) * (rank - cum) / c
        cum += c
    return None


def main():
    h = read(sys.argv[1])
    fine, coarse = h.get(sys.argv[2], []), h.get(sys.argv[3], [])
    tot = sum(c for _, _, c in coarse)
    print("count", tot)
    for p in sys.argv[4:]:
        rank = float(p) * tot
        x = exact(fine, rank)
        if x is None:
            x = exact(coarse, rank)
        print("p%d" % round(float(p) * 100), "none" if x is None else "%.1f" % x)


main()
