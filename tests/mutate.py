#!/usr/bin/env python3
"""Mutation testing of blktune's core modules (make mutate; not run in CI).

Each mutant is one small change to one source file, made in a scratch copy of
the tree (never the working tree). The mutant is built and tested, narrowest
suite first:
  1. the Check suites of the unit tests that include the module's header,
     run in the ASan/UBSan test binary (an off-by-one write must crash);
  2. every other unit suite that can run the module's code (its test file
     names a function of the module, or of a module calling into it; a
     module's functions are those its header declares and the external
     ones its .c defines, for a module a shared header declares);
  3. the integration/e2e scripts mapped to the module (root only, INTEGRATION=0
     turns this stage off), each in a mount namespace where only the loop
     devices it attaches are writable (tests/mutate-sandbox.sh).
A mutant that any stage fails (or that runs past the time limit) is killed; a
mutant that does not compile is counted apart ("stillborn"); a mutant every
stage passes survived. Survivors listed in tests/mutate-equivalent (with the
reason they cannot change behaviour) are counted as equivalent.
Every unit suite and script the planned mutants would run is first run on
the unmutated tree: a suite that fails there stops the run (fix it first);
a script that fails there (broken, or flaky under load) is said, noted in
the report and left out, so its failures are not counted as kills.

Operators: relational swapped and boundary shifted (< <= > >= == !=),
arithmetic swapped (+ - * / %, += -=), logical swapped (&& ||), constants
changed (N -> N+1, N-1; 0 <-> 1), conditions negated (if/while), statements
and calls deleted, break/continue deleted.

  tests/mutate.py [--modules "model stats"] [--max N] [--seed S]
                  [--timeout SEC] [--jobs N] [--list] [--report FILE]
--max samples N mutants per module (seeded, so a run is repeatable); the
score is then that of the sample.
"""
import argparse
import fcntl
import hashlib
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORE = ("model stats tunable-table journal tunable snapshot source-diskstats "
        "trace readahead columns sweep sweep-stats compare ab").split()

# Scripts (relative to tests/) that exercise a module end to end, run when
# the unit suites let a mutant live.
SCRIPTS = {
    "model": ["integration/devtable.sh"],
    "stats": ["integration/sweep.sh"],
    "tunable-table": ["integration/tunables-set-restore.sh"],
    "tunable": ["integration/tunables-set-restore.sh", "integration/tunables-failpaths.sh",
                "integration/tunables-crash.sh"],
    "journal": ["integration/journal-safety.sh", "integration/tunables-crash.sh",
                "integration/tunables-set-restore.sh"],
    "snapshot": ["integration/sweep.sh", "integration/sweep-intervals.sh"],
    "source-diskstats": ["integration/devtable.sh"],
    "trace": ["integration/trace-loop.sh"],
    "readahead": ["integration/readahead-seq.sh"],
    "columns": ["integration/docs.sh", "integration/devtable.sh"],
    "sweep": ["integration/sweep-failpaths.sh", "integration/sweep.sh", "integration/sweep-intervals.sh"],
}

REL = {"<": ["<=", ">="], "<=": ["<", ">"], ">": [">=", "<="], ">=": [">", "<"],
       "==": ["!="], "!=": ["=="]}
ARITH = {"+": ["-"], "-": ["+"], "*": ["/"], "/": ["*"], "%": ["*"],
         "+=": ["-="], "-=": ["+="]}
LOGIC = {"&&": ["||"], "||": ["&&"]}


def code_mask(text):
    """True for each character that is code (not comment, string, char
    literal or preprocessor #include/#if line)."""
    mask = [True] * len(text)
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start:
            m = re.match(r"[ \t]*#\s*(include|if|ifdef|ifndef|elif|else|endif|pragma|undef)\b", text[i:])
            if m:
                j = text.find("\n", i)
                j = n if j < 0 else j
                for k in range(i, j):
                    mask[k] = False
                i = j
                continue
        at_line_start = False
        if c == "\n":
            at_line_start = True
            i += 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                mask[k] = False
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                mask[k] = False
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            for k in range(i, min(j + 1, n)):
                mask[k] = False
            i = j + 1
        else:
            i += 1
    return mask


class Mutant:
    def __init__(self, module, path, text, start, end, repl, op):
        self.module, self.path, self.op = module, path, op
        self.start, self.end, self.repl = start, end, repl
        self.line = text.count("\n", 0, start) + 1
        ls = text.rfind("\n", 0, start) + 1
        le = text.find("\n", start)
        le = len(text) if le < 0 else le
        self.orig_line = text[ls:le]
        self.new_line = text[ls:start] + repl + text[end:le] if end <= le else None
        # Identity survives edits elsewhere in the file: the line's text, how
        # many identical lines come before it, the column and the change.
        nth = text[:ls].split("\n").count(self.orig_line)
        h = hashlib.sha1(("%s|%s|%d|%d|%s|%s" % (path, self.orig_line.strip(), nth,
                                                 start - ls, text[start:end], repl)).encode())
        self.id = "%s:%s" % (module, h.hexdigest()[:10])

    def apply(self, text):
        return text[:self.start] + self.repl + text[self.end:]

    def diff(self, text):
        new = self.apply(text).split("\n")
        old = text.split("\n")
        out = ["--- a/%s" % self.path, "+++ b/%s" % self.path]
        # the changed lines, with one line of context either side
        a = self.line - 1
        b_old = text.count("\n", 0, self.end) + 1
        b_new = a + (b_old - a) - (text[self.start:self.end].count("\n") - self.repl.count("\n"))
        lo = max(0, a - 1)
        out.append("@@ -%d +%d @@" % (lo + 1, lo + 1))
        for k in range(lo, a):
            out.append(" " + old[k])
        for k in range(a, b_old):
            out.append("-" + old[k])
        for k in range(a, b_new):
            out.append("+" + new[k])
        if b_old < len(old):
            out.append(" " + old[b_old])
        return "\n".join(out)


def matching_paren(text, i):
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "(":
            depth += 1
        elif text[j] == ")":
            depth -= 1
            if depth == 0:
                return j
    return -1


def generate(module, path, text):
    mask = code_mask(text)
    muts = []

    def code(s, e):
        return all(mask[s:e])

    def add(s, e, repl, op):
        if code(s, e):
            muts.append(Mutant(module, path, text, s, e, repl, op))

    # operators: only binary ones, written with a space either side (the
    # project's style), which tells a - b from -x, a * b from *p, a < b from
    # #include <...>.
    ops = sorted(list(REL) + list(ARITH) + list(LOGIC), key=len, reverse=True)
    pat = re.compile(r"(?<=[\w)\]]) (%s) (?=[\w(!&*\-.\"'])" % "|".join(re.escape(o) for o in ops))
    for m in pat.finditer(text):
        o = m.group(1)
        s, e = m.start(1), m.end(1)
        # skip "x = -1" style (the - belongs to the number after '= ')
        table = REL if o in REL else ARITH if o in ARITH else LOGIC
        kind = "relational" if o in REL else "arithmetic" if o in ARITH else "logical"
        for r in table[o]:
            add(s, e, r, "%s %s->%s" % (kind, o, r))
    # constants: integer literals not part of an identifier or a float
    for m in re.finditer(r"(?<![\w.])(0x[0-9a-fA-F]+|\d+)([uUlL]*)(?![\w.])", text):
        s, e = m.start(1), m.end(1)
        if not code(s, e):
            continue
        ls = text.rfind("\n", 0, s) + 1
        line = text[ls:text.find("\n", s)]
        if re.match(r"\s*#\s*(include|if)", line):
            continue
        lit = m.group(1)
        octal = len(lit) > 1 and lit[0] == "0" and lit[1] != "x"
        v = int(lit, 8) if octal else int(lit, 0)
        for nv in sorted({v + 1, v - 1} if v > 1 else {1 - v}):
            if nv < 0:
                continue
            rep = hex(nv) if lit.startswith("0x") else "0%o" % nv if octal else str(nv)
            add(s, e, rep, "constant %s->%s" % (m.group(1), rep))
    # conditions negated
    for m in re.finditer(r"\b(if|while) \(", text):
        if not code(m.start(), m.end()):
            continue
        o = m.end() - 1
        c = matching_paren(text, o)
        if c < 0:
            continue
        cond = text[o + 1:c]
        muts.append(Mutant(module, path, text, o + 1, c, "!(%s)" % cond,
                           "negate %s condition" % m.group(1)))
    # statements deleted: one-line expression statements (calls,
    # assignments, increments), break and continue.
    for m in re.finditer(r"(?m)^([ \t]+)([^\n]*;)[ \t]*$", text):
        s, e = m.start(2), m.end(2)
        stmt = m.group(2)
        if not code(s, e - 1):
            continue
        prev = text[:m.start()].rstrip()
        if prev.endswith(",") or prev.endswith("(") or prev.endswith("=") or \
           prev.endswith("&&") or prev.endswith("||") or prev.endswith("?") or \
           prev.endswith(":") and not prev.endswith("default:") and not re.search(r"case [^\n]*:$", prev):
            continue  # continuation of a longer statement
        if re.match(r"(break|continue);$", stmt):
            add(s, e, ";", "delete %s" % stmt[:-1])
            continue
        if re.match(r"(return|goto|case|default|else|do|typedef|struct|enum|union|static|const|unsigned|signed|"
                    r"int|char|long|short|double|float|bool|void|size_t|ssize_t|uint\d+_t|int\d+_t|"
                    r"FILE|DIR|off_t|pid_t|mode_t|va_list)\b", stmt):
            continue
        if stmt.count("(") != stmt.count(")") or stmt.endswith("};") or stmt.startswith("}"):
            continue
        # assignment, compound assignment, increment or call
        if not re.match(r"[\w\->\[\].*() ]+?(=[^=]|\+=|-=|\*=|/=|\|=|&=|<<=|>>=|\+\+|--|\()", stmt) and \
           not re.match(r"(\+\+|--)\w", stmt):
            continue
        # declarations like "struct foo *p = ..." start with a type: crude
        # check for "word word" or "word *word" at the start
        if re.match(r"[A-Za-z_]\w* \*?[A-Za-z_]\w*( |\[|;|=)", stmt) and not re.match(r"\w+ (=|\+=|-=)", stmt):
            continue
        add(s, e, ";", "delete statement")
    # de-duplicate (the same edit found twice)
    seen, out = set(), []
    for mu in muts:
        key = (mu.start, mu.end, mu.repl)
        if key not in seen:
            seen.add(key)
            out.append(mu)
    return out


def unit_suites(module):
    """Check suites (suite_create names) of the unit test files that include
    the module's header."""
    suites = []
    udir = os.path.join(TOP, "tests", "unit")
    for f in sorted(os.listdir(udir)):
        if not f.endswith(".c"):
            continue
        t = open(os.path.join(udir, f)).read()
        if '#include "%s.h"' % module in t:
            suites += re.findall(r'suite_create\("([^"]+)"\)', t)
    return suites


def header_functions(module):
    """Names of the functions a module's header declares."""
    path = os.path.join(TOP, "include", module + ".h")
    if not os.path.exists(path):
        return set()
    text = re.sub(r"/\*.*?\*/", "", open(path).read(), flags=re.S)
    names = set(re.findall(r"\b([a-z_][a-z0-9_]*)\s*\([^;{]*\)\s*;", text))
    # function names have an underscore (module_verb); types do not count
    return {n for n in names if "_" in n.strip("_") and not n.endswith("_t")}


def module_functions(module):
    """The module's functions: its header's declarations and the external
    functions its .c defines, for a module whose functions a shared header
    declares (output-json.c's output_json is in output.h)."""
    names = set(header_functions(module))
    path = os.path.join(TOP, "src", module + ".c")
    if os.path.exists(path):
        text = re.sub(r"/\*.*?\*/", "", open(path).read(), flags=re.S)
        # a definition at column 0, not static: "type name(args)" then "{"
        for m in re.finditer(r"^(?!static\b)[a-z][^\n;(=]*?\b([a-z_][a-z0-9_]*)\(([^;{]*)\)\s*\n\{", text, re.M):
            names.add(m.group(1))
    return {n for n in names if "_" in n.strip("_") and not n.endswith("_t")}


def reach_suites(module):
    """Suites that can run the module's code: those of test files naming a
    function of the module, or of a module that calls into it (to any
    depth). A mutant no such suite runs cannot be killed by the others."""
    srcdir = os.path.join(TOP, "src")
    texts = {f[:-2]: open(os.path.join(srcdir, f)).read() for f in os.listdir(srcdir) if f.endswith(".c")}
    funcs = set(module_functions(module))
    seen, todo = {module}, [module]
    while todo:
        m = todo.pop()
        names = module_functions(m)
        for other, t in texts.items():
            if other not in seen and any(re.search(r"\b%s\b" % re.escape(n), t) for n in names):
                seen.add(other)
                todo.append(other)
    for m in seen:
        funcs |= module_functions(m)
    suites = []
    udir = os.path.join(TOP, "tests", "unit")
    for f in sorted(os.listdir(udir)):
        if not f.endswith(".c"):
            continue
        t = open(os.path.join(udir, f)).read()
        if any(re.search(r"\b%s\b" % re.escape(n), t) for n in funcs):
            suites += re.findall(r'suite_create\("([^"]+)"\)', t)
    return suites


def all_suites():
    out = []
    udir = os.path.join(TOP, "tests", "unit")
    for f in sorted(os.listdir(udir)):
        if f.endswith(".c"):
            out += re.findall(r'suite_create\("([^"]+)"\)', open(os.path.join(udir, f)).read())
    return out


def load_equivalent():
    eq = {}
    path = os.path.join(TOP, "tests", "mutate-equivalent")
    if os.path.exists(path):
        for line in open(path):
            line = line.strip()
            if line and not line.startswith("#"):
                mid, _, why = line.partition(" ")
                eq[mid] = why.strip()
    return eq


def run(cmd, cwd, timeout, env=None):
    """(status, output): status is 'pass', 'fail' or 'timeout'. Past the
    time limit the command's whole process group (a script's blktune, fio)
    gets SIGTERM, so a script can clean up (its loop devices), then
    SIGKILL."""
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        for sig, grace in ((signal.SIGTERM, 30), (signal.SIGKILL, None)):
            try:
                os.killpg(p.pid, sig)
            except ProcessLookupError:
                pass
            try:
                out, _ = p.communicate(timeout=grace)
                break
            except subprocess.TimeoutExpired:
                continue
        return "timeout", (out or b"").decode(errors="replace")
    return ("pass" if p.returncode == 0 else "fail"), out.decode(errors="replace")


def sync_tree(src, dst):
    """Copy src over dst, writing only files whose content differs (so make
    rebuilds only what changed) and removing files src no longer has."""
    for root, dirs, files in os.walk(src):
        rel = os.path.relpath(root, src)
        droot = os.path.join(dst, rel)
        os.makedirs(droot, exist_ok=True)
        for f in files + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
            a, b = os.path.join(root, f), os.path.join(droot, f)
            if os.path.islink(a):
                if not os.path.islink(b) or os.readlink(b) != os.readlink(a):
                    if os.path.lexists(b):
                        shutil.rmtree(b) if os.path.isdir(b) and not os.path.islink(b) else os.unlink(b)
                    os.symlink(os.readlink(a), b)
                continue
            if not os.path.exists(b) or open(a, "rb").read() != open(b, "rb").read():
                # a fresh mtime: the copy must look newer than objects built
                # from a mutant of it
                shutil.copyfile(a, b)
                shutil.copymode(a, b)
        for name in set(os.listdir(droot)) - set(files) - set(dirs):
            path = os.path.join(droot, name)
            if os.path.islink(path) or os.path.isfile(path):
                os.unlink(path)


class Scratch:
    """A copy of the tree to build mutants in: build/mutate/tree, kept between
    runs so only what changed is rebuilt (its own -O0 ASan objects)."""

    def __init__(self, where, jobs, cflags):
        self.dir = os.path.abspath(where)
        os.makedirs(self.dir, exist_ok=True)
        # One run a scratch tree: two runs whose reports share a directory
        # rebuilt each other's mutants under each other's tests (a kill read
        # as a survivor, ETXTBSY on a binary the other was linking).
        self.lock = open(os.path.join(self.dir, ".mutate-lock"), "w")
        try:
            fcntl.flock(self.lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            sys.exit("mutate: another run is using %s: give --report in another directory" % self.dir)
        for d in ("src", "include", "tests", "bpf", "mk", "contrib", "man"):
            if os.path.isdir(os.path.join(TOP, d)):
                sync_tree(os.path.join(TOP, d), os.path.join(self.dir, d))
        sync_tree_file = os.path.join(self.dir, "GNUmakefile")
        if not os.path.exists(sync_tree_file) or \
                open(os.path.join(TOP, "GNUmakefile")).read() != open(sync_tree_file).read():
            shutil.copy2(os.path.join(TOP, "GNUmakefile"), self.dir)
        # The BPF skeletons from the working tree's build (no clang -target bpf here).
        os.makedirs(os.path.join(self.dir, "build", "obj"), exist_ok=True)
        for f in os.listdir(os.path.join(TOP, "build")) if os.path.isdir(os.path.join(TOP, "build")) else []:
            if f.endswith(".skel.h") or f.endswith(".bpf.o"):
                a, b = os.path.join(TOP, "build", f), os.path.join(self.dir, "build", f)
                if not os.path.exists(b) or open(a, "rb").read() != open(b, "rb").read():
                    shutil.copy2(a, b)
        self.jobs = jobs
        self.cflags = cflags
        # objects built with other flags must be rebuilt once
        stamp = os.path.join(self.dir, "build", ".mutate-cflags")
        if not os.path.exists(stamp) or open(stamp).read() != cflags:
            shutil.rmtree(os.path.join(self.dir, "build", "asan"), ignore_errors=True)
            shutil.rmtree(os.path.join(self.dir, "build", "obj"), ignore_errors=True)
            for f in ("blktune", "test-unit"):
                if os.path.exists(os.path.join(self.dir, "build", f)):
                    os.unlink(os.path.join(self.dir, "build", f))
            os.makedirs(os.path.join(self.dir, "build", "obj"), exist_ok=True)
            with open(stamp, "w") as f:
                f.write(cflags)

    def make(self, targets, timeout=600):
        return run(["make", "--no-print-directory", "-j%d" % self.jobs, "BUILD=build",
                    "CFLAGS=" + self.cflags] + targets, self.dir, timeout)

    def restore(self, path, text):
        with open(os.path.join(self.dir, path), "w") as f:
            f.write(text)


def test_mutant(sc, mu, suites, others, scripts, timeout, integration, limits):
    """Returns (result, detail): killed/survived/stillborn. limits: a
    suite's time limit, when it needs more than timeout."""
    st, out = sc.make(["build/asan/test-unit"])
    if st != "pass":
        return "stillborn", out[-400:]
    env = dict(os.environ, BLKTUNE_FIXTURES=os.path.join(sc.dir, "tests", "fixtures"),
               ASAN_OPTIONS="detect_leaks=1:abort_on_error=1",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1", CK_DEFAULT_TIMEOUT=str(timeout))
    for stage, group in (("unit", suites), ("unit (other suites)", others)):
        for s in group:
            st, out = run(["build/asan/test-unit", s], sc.dir, limits.get(s, timeout), env)
            if st != "pass":
                return "killed", "%s suite %s: %s" % (stage, s, "timeout" if st == "timeout" else "failed")
    if integration and scripts:
        st, out = sc.make(["build/blktune"])
        if st != "pass":
            return "stillborn", out[-400:]
        env = script_env(sc)
        for s in scripts:
            why = run_script(sc, s, timeout, env)
            if why:
                return "killed", "script %s: %s" % (s, why)
    return "survived", ""


def script_env(sc):
    # A mutant makes many checks fail: each failing wait gives up after
    # its own short time, not the loaded-machine floor of tests/lib.sh.
    return dict(os.environ, BLKTUNE=os.path.join(sc.dir, "build", "blktune"),
                BLKTUNE_FIXTURES=os.path.join(sc.dir, "tests", "fixtures"),
                T_WAIT_MIN=os.environ.get("T_WAIT_MIN", "3"))


def run_script(sc, s, timeout, env):
    """Runs integration script s (relative to tests/) on the scratch tree's
    build; None when it passed or skipped, else how it failed."""
    # in a mount namespace where only the script's own loop devices are
    # writable (tests/mutate-sandbox.sh)
    st, out = run([os.path.join(TOP, "tests", "mutate-sandbox.sh"), "bash", os.path.join("tests", s)],
                  sc.dir, timeout * 4, env)
    if st == "timeout" or (st == "fail" and "not ok - " in out):
        # the first failed assertion: a kill a flaky script made (one the
        # mutant cannot reach) shows in the report
        first = next((l for l in out.split("\n") if l.startswith("not ok - ")), "")
        return "%s%s" % (st, (": " + first[:160]) if first else "")
    if st == "fail" and "skip - " not in out:
        return "exit status"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--modules", default=" ".join(CORE))
    ap.add_argument("--max", type=int, default=0, help="mutants sampled per module (0: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=30,
                    help="seconds per suite per mutant, at least (a suite gets three times its time on the "
                         "unmutated tree when that is more; with --no-baseline, give one above the slowest "
                         "suite's time)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    ap.add_argument("--only", default="", help="run only these mutant ids (space separated)")
    ap.add_argument("--scripts", default=None,
                    help="scripts (relative to tests/, space separated) instead of the module's own")
    ap.add_argument("--report", default=os.path.join(TOP, "build", "mutate", "report.txt"))
    ap.add_argument("--no-baseline", action="store_true",
                    help="skip running the unit suites and scripts on the unmutated tree first (a re-run of "
                         "--only mutants right after a full run; a suite or script failing unmutated would "
                         "count as kills)")
    ap.add_argument("--integration", type=int, default=1 if os.geteuid() == 0 else 0)
    ap.add_argument("--cflags", default="-O0 -g0",
                    help="CFLAGS of the scratch build (default -O0 -g0: mutants compile fast)")
    a = ap.parse_args()
    # SIGTERM, SIGHUP: leave through the finally clause (scratch copy removed)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda signo, frame: sys.exit(128 + signo))

    modules = a.modules.split()
    for mod in modules:
        if not os.path.exists(os.path.join(TOP, "src", mod + ".c")):
            sys.exit("mutate: no such module src/%s.c" % mod)
    only = set(a.only.split())
    equivalent = load_equivalent()
    rng = random.Random(a.seed)
    plan = []
    for mod in modules:
        path = "src/%s.c" % mod
        text = open(os.path.join(TOP, path)).read()
        ms = generate(mod, path, text)
        if only:
            ms = [m for m in ms if m.id in only]
        elif a.max and len(ms) > a.max:
            ms = sorted(rng.sample(ms, a.max), key=lambda m: m.start)
        plan.append((mod, path, text, ms))
    if a.list:
        for mod, path, text, ms in plan:
            for m in ms:
                print("%s %s:%d %s\n    %s\n => %s" % (m.id, path, m.line, m.op, m.orig_line.strip(),
                                                       (m.new_line or "").strip()))
        return 0

    os.makedirs(os.path.dirname(a.report), exist_ok=True)
    print("mutate: preparing a scratch copy of the tree and its ASan unit-test build ...", flush=True)
    sc = Scratch(os.path.join(os.path.dirname(a.report), "tree"), a.jobs, a.cflags)
    rep = open(a.report, "w")
    try:
        st, out = sc.make(["build/asan/test-unit"] + (["build/blktune"] if a.integration else []), timeout=1800)
        if st != "pass":
            print(out[-2000:])
            sys.exit("mutate: the unmutated tree does not build")
        everything = all_suites()
        # Every suite a mutant of these modules runs must pass on the
        # unmutated tree, or a failure would count as a kill.
        needed = set()
        for mod, path, text, ms in plan:
            if ms:
                needed |= set(unit_suites(mod)) | set(reach_suites(mod))
        env = dict(os.environ, BLKTUNE_FIXTURES=os.path.join(sc.dir, "tests", "fixtures"),
                   ASAN_OPTIONS="detect_leaks=1:abort_on_error=1",
                   UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1", CK_DEFAULT_TIMEOUT=str(a.timeout))
        # A suite slower than --timeout unmutated (record's limits case takes
        # longer under -O0 ASan) would time out under every mutant, each
        # counted as a kill: each suite gets three times its unmutated time.
        limits = {}
        for s in [s for s in everything if s in needed and not a.no_baseline]:
            t0 = time.time()
            st, out = run(["build/asan/test-unit", s], sc.dir, a.timeout * 4, env)
            limits[s] = max(a.timeout, 3 * (time.time() - t0))
            if st != "pass":
                print(out[-3000:])
                sys.exit("mutate: unit suite %s fails on the unmutated tree: fix it first" % s)

        def module_scripts(mod):
            return [s for s in (a.scripts.split() if a.scripts is not None else SCRIPTS.get(mod, []))
                    if os.path.exists(os.path.join(TOP, "tests", s))]
        # So must every script they run: one that fails unmutated (broken,
        # or flaky under load) would kill whatever mutant reached it. It is
        # said, and left out of the run.
        broken = {}
        if a.integration and not a.no_baseline:
            senv = script_env(sc)
            for s in dict.fromkeys(s for mod, path, text, ms in plan if ms for s in module_scripts(mod)):
                why = run_script(sc, s, a.timeout, senv)
                if why:
                    broken[s] = why
                    print("mutate: script %s fails on the unmutated tree (%s): left out, its failures "
                          "would count as kills" % (s, why), flush=True)
        summary = []
        for mod, path, text, ms in plan:
            suites = unit_suites(mod)
            reach = reach_suites(mod)
            others = [s for s in everything if s not in suites and s in reach]
            scripts = [s for s in module_scripts(mod) if s not in broken]
            left_out = [s for s in module_scripts(mod) if s in broken] if a.integration else []
            print("== %s: %d mutants; unit suites %s; scripts %s%s" % (
                mod, len(ms), " ".join(suites) or "(none)",
                (" ".join(scripts) or "(none)") if a.integration else "(off)",
                "; left out (failing unmutated) %s" % " ".join(left_out) if left_out else ""), flush=True)
            counts = dict(killed=0, survived=0, stillborn=0, equivalent=0)
            survivors = []
            target = os.path.join(sc.dir, path)
            t0 = time.time()
            for i, m in enumerate(ms, 1):
                with open(target, "w") as f:
                    f.write(m.apply(text))
                res, detail = test_mutant(sc, m, suites, others, scripts, a.timeout, a.integration, limits)
                if res == "survived" and m.id in equivalent:
                    res = "equivalent"
                counts[res] += 1
                print("  [%d/%d] %-10s %s line %d: %s%s" % (i, len(ms), res, m.id, m.line, m.op,
                                                           ("  (" + detail + ")") if res == "killed" else ""),
                      flush=True)
                if res == "survived":
                    survivors.append(m)
                elif res == "equivalent":
                    survivors.append(m)
            with open(target, "w") as f:
                f.write(text)
            live = counts["killed"] + counts["survived"]
            score = 100.0 * counts["killed"] / live if live else 100.0
            summary.append((mod, counts, score, len(ms), time.time() - t0))
            rep.write("== %s: killed %d / %d non-equivalent (%.1f%%), equivalent %d, stillborn %d\n" % (
                mod, counts["killed"], live, score, counts["equivalent"], counts["stillborn"]))
            for s in left_out:
                rep.write("script %s left out: it fails on the unmutated tree (%s)\n" % (s, broken[s]))
            for m in survivors:
                tag = "EQUIVALENT (%s)" % equivalent[m.id] if m.id in equivalent else "SURVIVED"
                rep.write("\n%s %s  %s\n%s\n" % (tag, m.id, m.op, m.diff(text)))
            rep.write("\n")
            rep.flush()
        rep.close()
        print("\nmodule              killed  live  score   equiv  stillborn  sampled  seconds")
        for mod, c, score, n, secs in summary:
            print("%-18s %7d %5d %5.1f%% %7d %10d %8d %8.0f" % (
                mod, c["killed"], c["killed"] + c["survived"], score, c["equivalent"], c["stillborn"], n, secs))
        print("survivors' diffs: %s" % a.report)
        if a.max:
            print("(a sample of at most %d mutants per module, seed %d)" % (a.max, a.seed))
    finally:
        # put every mutated file back (the tree is kept for the next run)
        for mod, path, text, ms in plan:
            sc.restore(path, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
