#!/usr/bin/env python3
"""Time from exec to the full-screen view's first frame (the table's DEVICE
header on the terminal), blktune under a pseudo-terminal, tracing on and
with --no-trace, interleaved ABBA. Usage: first-frame.py BLKTUNE DIR PAIRS
(DIR: a private directory for the journal and XDG_STATE_HOME)."""
import os
import pty
import select
import signal
import statistics
import struct
import sys
import termios
import time
import fcntl


def first_frame(blktune, workdir, extra):
    """(seconds from the fork to DEVICE on the screen, to "trace on" when
    tracing); None where not seen in 10 s."""
    env = dict(os.environ, TERM="xterm-256color", XDG_STATE_HOME=os.path.join(workdir, "state"))
    t0 = time.monotonic()
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(blktune, [blktune, "-d", "1", "--journal-dir", os.path.join(workdir, "journal")] + extra, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 160, 0, 0))
    seen, found, traced = b"", None, None
    want_trace = "--no-trace" not in extra
    while time.monotonic() - t0 < 10:
        r, _, _ = select.select([fd], [], [], 0.5)
        if not r:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen = seen[-64:] + chunk
        if found is None and b"DEVICE" in seen:
            found = time.monotonic() - t0
        if want_trace and b"trace on" in seen:
            traced = time.monotonic() - t0
        if found is not None and (traced is not None or not want_trace):
            break
    os.write(fd, b"q")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        try:
            os.read(fd, 65536)
        except OSError:
            pass
        time.sleep(0.02)
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    os.close(fd)
    return found, traced


def main():
    blktune, workdir, pairs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    on, off, loads = [], [], []
    for i in range(pairs):
        order = [("on", []), ("off", ["--no-trace"])]
        if i % 2:
            order.reverse()
        for name, extra in order:
            t, traced = first_frame(blktune, workdir, extra)
            if t is None or (name == "on" and traced is None):
                print(f"first-frame: no {'frame' if t is None else 'trace on'} in 10 s (tracing {name})")
                return 1
            (on if name == "on" else off).append(t)
            if traced is not None:
                loads.append(traced)
            print(f"# pair {i + 1} tracing {name}: {t * 1000:.1f} ms" +
                  (f", trace on at {traced * 1000:.1f} ms" if traced is not None else ""))
    ratios = [a / b for a, b in zip(on, off)]
    print(f"first-frame: {pairs} ABBA pairs, ms to the first frame, median (min..max): "
          f"tracing {statistics.median(on) * 1000:.1f} ({min(on) * 1000:.1f}..{max(on) * 1000:.1f}), "
          f"--no-trace {statistics.median(off) * 1000:.1f} ({min(off) * 1000:.1f}..{max(off) * 1000:.1f})")
    print(f"first-frame: tracing / --no-trace {statistics.median(on) / statistics.median(off):.3f}, "
          f"per-pair median {statistics.median(ratios):.3f} ({min(ratios):.3f}..{max(ratios):.3f}) (target <= 1.2)")
    print(f"first-frame: the header says \"trace on\" after {statistics.median(loads) * 1000:.1f} ms "
          f"({min(loads) * 1000:.1f}..{max(loads) * 1000:.1f}): the tracer's load, behind the first frame")
    return 0


if __name__ == "__main__":
    sys.exit(main())
