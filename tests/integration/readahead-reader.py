#!/usr/bin/env python3
"""Workloads for the readahead tests, each counting for itself what the kernel
did, so blktune's figures are checked against the kernel, not its own sums.

  readahead-reader.py read FILE BS         read() the whole file, BS bytes a call
  readahead-reader.py mmap-seq FILE        touch every page of a mapping, in order
  readahead-reader.py mmap-rand FILE N SEED  touch N random pages of a mapping
  readahead-reader.py mmap-rand-threads FILE N SEED  the same, each touch by a
                                           new thread (a task that has read
                                           no file: no readahead state)

For the mmap modes, before each touch the page is looked up in this process's
page table (/proc/self/pagemap bit 63, present: the touch will not fault) and
in the page cache (cachestat(2): a page whose read is still in flight is in
the cache; mincore would say no until it is up to date). Prints "key value"
lines:
  touches        pages touched (read: pages read)
  cached_faults  first touches that faulted on a page already in the page cache
  read_faults    first touches that faulted on a page not in the page cache
  no_fault       touches of pages already mapped (by fault-around, a large
                 folio or an earlier touch)
  mapped         pages of the file present in this process's page table at
                 the end, while still mapped (pagemap)
"""
import ctypes
import mmap
import os
import random
import struct
import sys
import threading

PS = mmap.PAGESIZE


def mapping_start(fd, size):
    ino = os.fstat(fd).st_ino
    want = (size + PS - 1) // PS * PS
    with open("/proc/self/maps") as f:
        for line in f:
            w = line.split()
            if len(w) >= 6 and int(w[4]) == ino and int(w[2], 16) == 0:
                lo, hi = (int(x, 16) for x in w[0].split("-"))
                if hi - lo == want:
                    return lo
    sys.exit("readahead-reader: mapping not found in /proc/self/maps")


def present(pm, va):
    return struct.unpack("<Q", os.pread(pm, 8, va // PS * 8))[0] >> 63 & 1


NR_CACHESTAT = 451  # the same on every architecture (new syscall table)


def cached(libc, fd, p):
    rng = struct.pack("QQ", p * PS, PS)
    st = ctypes.create_string_buffer(40)
    if libc.syscall(NR_CACHESTAT, fd, rng, st, 0) != 0:
        sys.exit("readahead-reader: cachestat: %s" % os.strerror(ctypes.get_errno()))
    return struct.unpack_from("Q", st.raw)[0] > 0


def do_mmap(path, order, threads=False):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    fd = os.open(path, os.O_RDONLY)
    size = os.fstat(fd).st_size
    m = mmap.mmap(fd, size, prot=mmap.PROT_READ)
    start = mapping_start(fd, size)
    pm = os.open("/proc/self/pagemap", os.O_RDONLY)
    seen = set()
    ncached = read = nofault = 0
    s = 0
    for p in order:
        va = start + p * PS
        if present(pm, va):
            nofault += 1
        elif p in seen:
            sys.exit("readahead-reader: a touched page left the page table")
        else:
            if cached(libc, fd, p):
                ncached += 1
            else:
                read += 1
        seen.add(p)
        if threads:
            got = []
            t = threading.Thread(target=lambda: got.append(m[p * PS]))
            t.start()
            t.join()
            s += got[0]
        else:
            s += m[p * PS]
    npages = (size + PS - 1) // PS
    raw = os.pread(pm, 8 * npages, start // PS * 8)
    mapped = sum(1 for (e,) in struct.iter_unpack("<Q", raw) if e >> 63 & 1)
    print("touches %d" % len(order))
    print("cached_faults %d" % ncached)
    print("read_faults %d" % read)
    print("no_fault %d" % nofault)
    print("mapped %d" % mapped)
    m.close()


def main():
    mode, path = sys.argv[1], sys.argv[2]
    if mode == "read":
        bs = int(sys.argv[3])
        n = 0
        with open(path, "rb", buffering=0) as f:
            while True:
                b = f.read(bs)
                if not b:
                    break
                n += len(b)
        print("touches %d" % ((n + PS - 1) // PS))
        return
    size = os.path.getsize(path)
    pages = (size + PS - 1) // PS
    if mode == "mmap-seq":
        do_mmap(path, list(range(pages)))
    elif mode in ("mmap-rand", "mmap-rand-threads"):
        r = random.Random(int(sys.argv[4]))
        do_mmap(path, [r.randrange(pages) for _ in range(int(sys.argv[3]))], mode == "mmap-rand-threads")
    else:
        sys.exit("usage: readahead-reader.py read|mmap-seq|mmap-rand|mmap-rand-threads FILE ...")


main()
