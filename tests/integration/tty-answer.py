#!/usr/bin/env python3
"""tty-answer.py PROMPT HOOK ANSWER CMD...: run CMD on a pseudo-terminal;
when PROMPT appears in its output, run the shell command HOOK (something
done while the user is being asked), then type ANSWER and a newline. Prints
everything CMD printed and exits with its status (124 when PROMPT did not
come within 20 s; CMD is killed then, and 20 s after the answer)."""
import os
import pty
import signal
import subprocess
import sys
import time


def read_until(fd, out, done, deadline):
    """Read fd onto out until done(out), its end, or the deadline."""
    while not done(out) and time.time() < deadline:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: the terminal's other side closed
            break
        if not chunk:
            break
        out += chunk
    return out


prompt, hook, answer, cmd = sys.argv[1].encode(), sys.argv[2], sys.argv[3], sys.argv[4:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(cmd[0], cmd)
out = read_until(fd, b"", lambda o: prompt in o, time.time() + 20)
if prompt not in out:
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    sys.stdout.write(out.decode(errors="replace"))
    sys.exit(124)
subprocess.run(hook, shell=True, check=False)
os.write(fd, answer.encode() + b"\n")
out = read_until(fd, out, lambda o: False, time.time() + 20)
done, status = os.waitpid(pid, os.WNOHANG)
if not done:  # still running after 20 s: bounded, killed
    os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace"))
sys.exit(os.waitstatus_to_exitcode(status))
