"""test_userspace.py: Linux i386 programs on Kobold, in one boot per CPU count: the
usertests suite against Linux's recorded run, busybox's sh with a script (a pipeline, a
loop, a sysfs write, proc, ps), Ctrl-C of sleep, $?, executables that must be refused
with ENOEXEC, and memory back to its level once every process is gone. One more boot,
2 CPUs with 48 MiB and pid_max=320: processes on CPU 1, the PID wrap, the OOM killer,
and job control in busybox sh."""
import os
import re
import struct
import time

import pytest

import kobold

ROOT = kobold.ROOT
BUILD = os.path.dirname(kobold.KERNEL)
LINUX = os.path.join(ROOT, "tests", "user", "usertests-linux.txt")


def bad_executables():
    """Files execve must refuse with ENOEXEC: (name, bytes)."""
    with open(os.path.join(BUILD, "user", "usertests"), "rb") as f:
        good = bytearray(f.read())
    phoff, = struct.unpack_from("<I", good, 28)
    absurd = bytearray(good)  # the first PT_LOAD's p_memsz reaches over the kernel
    for i in range(struct.unpack_from("<H", good, 44)[0]):
        if struct.unpack_from("<I", good, phoff + 32 * i)[0] == 1:  # the first PT_LOAD
            struct.pack_into("<I", absurd, phoff + 32 * i + 20, 0xF0000000)
            break
    wrong_arch = bytearray(good[:64])
    struct.pack_into("<H", wrong_arch, 18, 62)  # e_machine EM_X86_64
    return [("bad-magic", b"hello, world\n"), ("bad-segment", bytes(absurd)),
            ("bad-arch", bytes(wrong_arch) + bytes(4096)), ("no-interp", b"#!\n"),
            ("truncated", bytes(good[:40]))]


@pytest.fixture(scope="module")
def images(tmp_path_factory):
    kobold.build_user()
    tmp = tmp_path_factory.mktemp("userspace")
    entries = ["dir /usr 0755 0 0", "dir /usr/bin 0755 0 0", "dir /usr/share 0755 0 0"]
    for prog in ("usertests", "lsblk", "ueventmon", "oomgrow"):
        entries.append("file /usr/bin/%s %s 0755 0 0" % (prog, os.path.join(BUILD, "user", prog)))
    entries.append("file /usr/share/scenario.sh %s 0755 0 0"
                   % os.path.join(ROOT, "tests", "user", "scenario.sh"))
    script = tmp / "script-ok"
    script.write_text("#!/bin/sh\necho \"script ran: $0 $1\"\n")
    entries.append("file /usr/bin/script-ok %s 0755 0 0" % script)
    for name, data in bad_executables():
        (tmp / name).write_bytes(data)
        entries.append("file /usr/bin/%s %s 0755 0 0" % (name, tmp / name))
    out = tmp / "user.cpio"
    return kobold.user_initrd(out, entries)


# On 1 and 2 CPUs; a run that chose its CPUs (KOBOLD_SMP=N) boots with those only.
CPUS = [kobold.SMP] if kobold.SMP else ["1", "2"]


@pytest.fixture(scope="module", params=CPUS, ids=["smp" + n for n in CPUS])
def k(request, images):
    k = kobold.boot(qemu_args=["-initrd", images, "-smp", request.param])
    yield k
    k.close()


def test_usertests_as_on_linux(k):
    """Each test passes as on Debian's Linux (tests/user/usertests-linux.txt); a test
    that may differ must be named in docs/differences.md."""
    out = k.run("usertests", timeout=180)
    results = {name: res for res, name in re.findall(r"^(ok|FAIL) (\w+)", out, re.M)}
    with open(LINUX) as f:
        linux = re.findall(r"^ok (\w+)$", f.read(), re.M)
    with open(os.path.join(ROOT, "docs", "differences.md")) as f:
        documented = f.read()
    assert linux and set(results) == set(linux), out
    for name in linux:
        assert results[name] == "ok" or "`%s`" % name in documented, out
    assert re.search(r"usertests: \d+ passed, \d+ failed", out), out
    # the kernel's log lines: Linux 2.6.25's unhandled SIGSEGV, and an unknown call once
    assert re.search(r"usertests\[\d+\]: segfault at 8 ip [0-9a-f]{8} sp [0-9a-f]{8} error 6 "
                     r"in usertests\[8049000\+[0-9a-f]+\]\n", out), out
    assert out.count("system call unknown (1000) is not implemented: ENOSYS") == 1, out


def test_busybox_sh_runs_a_script(k):
    out = k.run("sh /usr/share/scenario.sh one", timeout=60)
    assert "pipeline: 3\n" in out, out
    assert "loop 1\nloop 2\nloop 3\n" in out, out
    assert "ro: 1\n" in out, out
    assert "proc: (cut)\n" in out, out
    assert "ps: 1\n" in out, out
    assert "slept\n" in out, out
    assert "args: /usr/share/scenario.sh 1\n" in out, out
    assert k.run("cat /sys/class/sbd/sbd0/ro") == "0\n"


def test_script_with_an_interpreter(k):
    assert k.run("script-ok arg") == "script ran: /usr/bin/script-ok arg\n"


@pytest.mark.parametrize("name", ["bad-magic", "bad-segment", "bad-arch", "no-interp",
                                  "truncated"])
def test_bad_executable_is_enoexec(k, name):
    assert k.run(name) == "kobold: %s: Exec format error\n" % name
    assert k.run("busybox echo alive") == "alive\n"


def test_ctrl_c_stops_sleep(k):
    k.send("busybox sleep 20\r")
    time.sleep(1)
    start = time.time()
    k.send("\x03")
    k.expect(kobold.PROMPT, timeout=10)
    assert time.time() - start < 3


def test_status_in_dollar_question(k):
    """$? is the last command's status: a program's exit status, 128 + N for a
    signal, 126/127 when it cannot run, a builtin's 0 or 1; '$?' stays as it is."""
    assert k.run("sh -c 'exit 7'; echo $?").endswith("7\n")
    assert k.run("sh -c 'kill -9 $$'; echo $?").endswith("137\n")
    assert k.run("bad-magic; echo $?").endswith("126\n")
    assert k.run("no-such-program; echo $?").endswith("127\n")
    assert k.run("cat /nope; echo $? '$?' \"x$?y\"").endswith("1 $? x1y\n")
    assert k.run("echo $?") == "0\n"


def test_processes_leave_nothing_behind(k):
    k.run("busybox true")
    before = k.snapshot()
    k.run("usertests fork_wait_exit dup_and_pipe exec_with_args", timeout=60)
    k.run("sh -c 'echo a | cat > /dev/null'")
    after = k.snapshot()
    assert before["BytesInUse"] == after["BytesInUse"], (before, after)
    assert before["ObjectsInUse"] == after["ObjectsInUse"], (before, after)
    assert before["kobjects"] == after["kobjects"]


@pytest.fixture(scope="module")
def small(images):
    """2 CPUs, 48 MiB and pid_max=320 (the OOM killer and the PID wrap come soon), and
    job control in busybox sh."""
    k = kobold.boot(append="pid_max=320", qemu_args=["-initrd", images, "-smp", "2", "-m", "48M"])
    yield k
    k.close()


def test_processes_run_on_every_cpu(small):
    """Four busy processes at once on 2 CPUs: CPU 1 spends time in user mode
    (/proc/stat), and each process finishes its loop and reads its own
    /proc/PID/stat (field 39: the CPU it ran on last) through its own TSS and
    TLS slots. /proc/stat's "processes" counts the sh and its three forks."""
    before = small.run("cat /proc/stat")
    out = small.run("sh -c 'busy() { i=0; while [ $i -lt 1500 ]; do i=$((i+1)); done; "
                    "cut -d\" \" -f39 /proc/self/stat; }; busy & busy & busy & busy; wait'",
                    timeout=60)
    after = small.run("cat /proc/stat")
    assert sorted(re.findall(r"^(\d+)$", out, re.M)) in (["0"] * i + ["1"] * (4 - i) for i in range(5)), out
    ticks = {int(c): int(t) for c, t in re.findall(r"^cpu(\d+) (\d+) ", before, re.M)}
    later = {int(c): int(t) for c, t in re.findall(r"^cpu(\d+) (\d+) ", after, re.M)}
    assert sorted(later) == [0, 1] and later[1] > ticks[1], (before, after)
    forks = [int(re.search(r"^processes (\d+)$", t, re.M).group(1)) for t in (before, after)]
    assert forks[1] - forks[0] == 4 + 4, (before, after)  # sh, 3 busy, 4 cut


def test_pids_wrap_at_pid_max(small):
    """As 2.6's alloc_pidmap: past pid_max - 1 the next PID is 300, and one in use
    (a sleeping process, the shell itself) is skipped; the boot's low PIDs stay."""
    small.run("sh -c 'i=0; while [ $i -lt 320 ]; do : & wait; i=$((i+1)); done'", timeout=120)
    out = small.run("sh -c 'sleep 30 & s=$!; i=0; while [ $i -lt 25 ]; do : & echo $!; "
                    "wait $!; i=$((i+1)); done; echo sleeper $s self $$; kill $s'", timeout=60)
    pids = [int(p) for p in re.findall(r"^(\d+)$", out, re.M)]
    sleeper, shell = map(int, re.search(r"sleeper (\d+) self (\d+)", out).groups())
    assert len(pids) == 25 and all(300 <= p < 320 for p in pids + [sleeper, shell]), out
    assert any(b < a for a, b in zip(pids, pids[1:])), out  # it wrapped
    assert sleeper not in pids and shell not in pids, out
    assert re.search(r"^ +2 root .*\[kthreadd\]$", small.run("ps"), re.M)


def test_oom_kills_the_largest_and_memory_returns(small):
    """A process that touches page after page is killed with Linux's line; the
    kernel goes on, and the pages and the slab come back to where they were."""
    def pages_free():
        return int(re.search(r"^PagesFree:\s+(\d+)$", small.run("meminfo"), re.M).group(1))

    small.run("oomgrow", timeout=60)  # the first run's one-time allocations stay
    before, free = small.snapshot(), pages_free()
    out = small.run("oomgrow; echo status $?", timeout=60)
    m = re.search(r"Out of memory: Killed process (\d+) \(oomgrow\)", out)
    assert m and "status 137\n" in out, out
    assert small.run("busybox echo alive") == "alive\n"
    after = small.snapshot()
    assert (after["BytesInUse"], after["ObjectsInUse"]) == (before["BytesInUse"],
                                                           before["ObjectsInUse"]), (before, after)
    assert pages_free() == free


def test_job_control_in_busybox_sh(small):
    """Ctrl-Z stops the job in front (SIGTSTP from n_tty), sh hears of it through
    wait4's WUNTRACED; bg and fg continue it (SIGCONT); a background read of the
    terminal stops with SIGTTIN; fg gives it the terminal back. With TOSTOP set, a
    background write stops with SIGTTOU, as does a background change of the settings."""
    def line(text, expect, timeout=15):
        small.send(text)
        small.expect(expect, timeout=timeout)
        return small.output()

    line("sh\r", r"# ")
    small.send("sleep 30\r")
    time.sleep(1)
    line("\x1a", r"\[1\]\+  Stopped +sleep 30\r*\n.*# ")
    line("cut -d' ' -f3 /proc/$(pidof sleep)/stat\r", r"\nT\r*\n.*# ")
    line("bg\r", r"\[1\] sleep 30\r*\n.*# ")
    line("cut -d' ' -f3 /proc/$(pidof sleep)/stat\r", r"\nS\r*\n.*# ")
    line("fg\r", r"sleep 30\r*\n")
    time.sleep(0.5)
    line("\x03", r"# ")
    line("echo status $?\r", r"status 130\r*\n.*# ")
    line("cat &\r", r"# ")
    time.sleep(0.5)
    line("jobs\r", r"Stopped \(tty input\) +cat\r*\n.*# ")
    line("fg\r", r"cat\r*\n")
    line("hello\r", r"hello\r*\nhello\r*\n")
    line("\x04", r"# ")
    line("stty tostop\r", r"# ")
    line("echo out &\r", r"# ")
    time.sleep(0.5)
    line("jobs\r", r"Stopped \(tty output\) +echo out\r*\n.*# ")
    line("fg\r", r"echo out\r*\nout\r*\n.*# ")
    line("stty -tostop &\r", r"# ")  # a setting changed from behind: SIGTTOU with or without TOSTOP
    time.sleep(0.5)
    line("jobs\r", r"Stopped \(tty output\) +stty -tostop\r*\n.*# ")
    line("fg\r", r"stty -tostop\r*\n.*# ")
    line("echo free &\r", r"free\r*\n")
    small.send("exit\r")
    small.expect(kobold.PROMPT)
