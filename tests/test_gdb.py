"""test_gdb.py: the gdb sessions of docs/gdb.md, run in batch mode.

QEMU starts halted (-S) with its gdb stub on a unix socket in a private
directory; `gdb -batch -nx -x SCRIPT` sessions attach, stop and look, and
detach, while the test drives the shell over the serial port in between, so
each helper's output is compared with what the shell prints for the same
objects in the same boot. Every `(gdb)` command and every shell command of
docs/gdb.md is one of the commands below (test_doc_commands_are_tested).
KOBOLD_GDB_TRANSCRIPTS=DIR keeps each session's output there, for the doc;
KOBOLD_GDB_RUNS=N runs the stepping walkthrough N times in a row (make gdb-soak).
"""
import itertools
import os
import re
import shutil
import subprocess
import tempfile
import time

import pytest

import kobold

ROOT = kobold.ROOT
HELPERS = os.path.join(ROOT, "scripts", "gdb", "kobold.py")
GDB = os.environ.get("KOBOLD_GDB", "gdb")
DOC = os.path.join(ROOT, "docs", "gdb.md")
TRANSCRIPTS = os.environ.get("KOBOLD_GDB_TRANSCRIPTS")
RUNS = int(os.environ.get("KOBOLD_GDB_RUNS", "1"))
# As make debug runs QEMU (its QEMU_DEBUG): one TCG thread. With QEMU 7's
# default multi-threaded TCG, about one single step in 150 stops before its
# instruction runs, and gdb takes it for a new hit of the breakpoint it steps over.
QEMU_DEBUG = ["-accel", "tcg,thread=single"]
SESSIONS = itertools.count(1)

PREAMBLE = """set pagination off
set confirm off
set width 0
set height 0
target remote {sock}
source {helpers}
"""

# Boot: every class device registered until the shell starts (docs/gdb.md, the
# end of the walkthrough).
BOOT = """break class_device_register
break shell_run
continue
while !$_caller_is("shell_run", 0)
  echo @@@ stop\\n
  bt
  p cd->class_id
  p cd->class->name
  continue
end
detach
"""

# The walkthrough on the DEBUG=1 kernel, command for command.
WALK = """break class_device_register
continue
bt
p cd->class_id
p cd->class->name
kobold-kobject cd
next
step
next
step
finish
kobold-kobject cd
finish
step
step
step
tbreak kobject_add
continue
bt 4
p kobj->parent->k_name
tbreak sysfs_create_dir
continue
finish
kobold-sysfs /sys/class/block
finish
kobold-kobject cd
tbreak kobject_hotplug
continue
finish
kobold-uevents
tbreak blkstat_add
continue
bt 4
finish
finish
finish
finish
finish
bt 3
continue
bt 3
p cd->class_id
p cd->class->name
finish
kobold-sysfs /sys/class/sbd
delete
detach
"""

# The helpers at the prompt, each compared with the shell command after it.
HELPERS_VS_SHELL = [
    ("kobold-kobjects", "kobjects"),
    ("kobold-uevents", "udevadm monitor --journal"),
    ("kobold-uevents -p", "udevadm monitor --journal -p"),
    ("kobold-sysfs /sys", "tree /sys"),
    ("kobold-sysfs /sys/class/sbd", "tree /sys/class/sbd"),
]
HELPERS_MORE = [
    "kobold-classes",
    "kobold-kobject /sys/class/sbd/sbd0",
    'p $kobold_class_device("sbd0", "sbd")->class_id',
    'kobold-kobject $kobold_class_device("sbd0", "sbd")',
    'p $kobold_class_device("vda")->class_id',
    'p $kobold_kobject("/sys/class/block")->k_name',
    'p $container_of($kobold_kobject("/sys/class/sbd/sbd0"), "struct class_device", "kobj")',
    "kobold-kobject /sys/class/vtconsole/vtcon0",
]
SHELL_MORE = ["ls /sys/class", "ls -l /sys/class/block", "ls -l /sys/class/sbd"]

# Who drops the last reference: the shell opens, unloads and closes around it.
# The disk's file is the block class's (built in), so it pins no module: rmmod
# sbd goes ahead, and the open file keeps the disk until close.
WATCH = """set $cd = $kobold_class_device("sbd0", "block")
kobold-kobject $cd
watch -l $cd->kobj.kref.refcount.counter
break disk_release
shell touch {ready}
continue
bt
continue
bt
continue
bt
kobold-kobject $cd
detach
"""
WATCH_SHELL = ["open /sys/class/block/sbd0/size", "rmmod sbd", "kobjects", "close 3"]

FRAME = re.compile(r"^#(\d+)\s+(?:0x[0-9a-f]+ in )?(\S+) \(", re.M)


def frames(text):
    return [m.group(2) for m in FRAME.finditer(text)]


def strings(text):
    """The strings gdb printed for $N = ... values, in order."""
    return re.findall(r'^\$\d+ = (?:\(.*?\) )?(?:0x[0-9a-f]+ (?:<[^>]*> )?)?"([^"]*)"', text, re.M)


def lines(text):
    return [line.rstrip() for line in text.replace("\r", "").strip("\n").split("\n")]


class GdbVM:
    """QEMU halted at its first instruction, a gdb stub on a private unix socket."""

    def __init__(self, kernel, qemu_args=()):
        self.dir = tempfile.mkdtemp(prefix="kobold-gdb-")
        self.sock = os.path.join(self.dir, "gdb.sock")
        self.kernel = kernel
        self.nscripts = 0
        self.bg = None
        saved, kobold.KERNEL = kobold.KERNEL, kernel
        try:
            self.vm = kobold.Kobold(qemu_args=QEMU_DEBUG + ["-S", "-gdb", "unix:%s,server=on,wait=off" % self.sock]
                                    + list(qemu_args))
        finally:
            kobold.KERNEL = saved
        deadline = time.time() + kobold.TIMEOUT
        while not os.path.exists(self.sock):
            assert self.vm.child.isalive(), "QEMU exited:\n" + self.vm.transcript()
            assert time.time() < deadline, "QEMU made no gdb socket"
            time.sleep(0.02)

    def _args(self, body):
        self.nscripts += 1
        path = os.path.join(self.dir, "session%d.gdb" % self.nscripts)
        with open(path, "w") as f:
            f.write(PREAMBLE.format(sock=self.sock, helpers=HELPERS) + body)
        return [GDB, "-batch", "-nx", "-x", path, self.kernel]

    def _check(self, out):
        if TRANSCRIPTS:
            name = "%02d-%s.out" % (next(SESSIONS), os.path.basename(os.path.dirname(self.kernel)))
            with open(os.path.join(TRANSCRIPTS, name), "w") as f:
                f.write(out)
        assert "Error in sourced command file" not in out and "Python Exception" not in out, out
        assert "Traceback" not in out, out
        return out

    def gdb(self, body):
        """One batch session: attach (the VM stops), run body, detach."""
        r = subprocess.run(self._args(body), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=kobold.TIMEOUT)
        return self._check(r.stdout)

    def gdb_start(self, body):
        """A session that goes on while the shell is used (its script continues the VM)."""
        self.bg = subprocess.Popen(self._args(body), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True)

    def gdb_wait(self):
        out = self.bg.communicate(timeout=kobold.TIMEOUT)[0]
        return self._check(out)

    def close(self):
        if self.bg and self.bg.poll() is None:
            self.bg.kill()
            self.bg.wait()
        self.vm.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def gdb_sections(out, commands):
    """Splits a session's output at its `echo @@@ CMD` markers: {CMD: output}."""
    parts = re.split(r"^@@@ (.*)$", out, flags=re.M)
    return {parts[i]: parts[i + 1].strip("\n") for i in range(1, len(parts) - 1, 2)
            if parts[i] in commands}


def marked(commands):
    return "".join("echo @@@ %s\\n\n%s\n" % (c, c) for c in commands) + "detach\n"


def processes_using(path):
    """Pids whose command line mentions path (QEMU and gdb both do)."""
    pids = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                if path.encode() in f.read():
                    pids.append(int(pid))
        except OSError:
            pass
    return pids


def has_symbol(kernel, name):
    out = subprocess.run(["nm", kernel], capture_output=True, text=True).stdout
    return re.search(r" [tT] %s$" % re.escape(name), out, re.M) is not None


@pytest.fixture(scope="module")
def gdb_installed():
    """gdb itself: make test's deps install it as root; otherwise the test names the command."""
    r = subprocess.run([os.path.join(ROOT, "scripts", "need.sh"), GDB, "gdb"], capture_output=True,
                       text=True, env=dict(os.environ, KOBOLD_NO_INSTALL="1"))
    assert r.returncode == 0, r.stderr.strip()


@pytest.fixture(params=["O2", "debug"])
def vm_with_disk(request, gdb_installed):
    """The normal kernel or the DEBUG=1 one (docs/gdb.md shows the latter), with a virtio disk."""
    kernel = kobold.KERNEL if request.param == "O2" else request.getfixturevalue("debug_kernel")
    d = tempfile.mkdtemp(prefix="kobold-gdb-disk-")
    img = os.path.join(d, "disk.img")
    with open(img, "wb") as f:
        f.truncate(1 << 20)
    vm = GdbVM(kernel, ["-drive", "file=%s,if=none,id=d0,format=raw" % img,
                        "-device", "virtio-blk-pci,drive=d0"])
    yield vm
    vm.close()
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture(scope="module")
def debug_kernel(gdb_installed):
    """The DEBUG=1 kernel (build/debug), made if missing or stale."""
    path = os.environ.get("KOBOLD_DEBUG_KERNEL")
    if path:
        return path
    r = subprocess.run(["make", "-s", "DEBUG=1"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, "make DEBUG=1 failed:\n" + r.stdout + r.stderr
    return os.path.join(ROOT, "build", "debug", "kobold.elf")


def test_registrations_helpers_and_last_reference(vm_with_disk):
    vm = vm_with_disk
    sock = vm.sock

    # 1. Boot under gdb: every class device registration until the shell runs.
    out = vm.gdb(BOOT)
    stops = []
    for chunk in out.split("@@@ stop")[1:]:
        fr = frames(chunk)
        vals = strings(chunk)
        assert fr and fr[0] == "class_device_register" and len(vals) >= 2, chunk
        stops.append((vals[0], vals[1], fr, chunk))
    found = {(cid, cls): fr for cid, cls, fr, _ in stops}
    assert len(found) == len(stops), "a class device registered twice?\n" + out
    assert ("sbd0", "block") in found and ("sbd0", "sbd") in found, out
    for key in [("sbd0", "block"), ("sbd0", "sbd")]:
        assert "sbd_init" in found[key], "the RAM disk's stop does not name sbd_init:\n" + out
    assert found[("sbd0", "block")][1:3] == ["add_disk", "sbd_setup_disk"], out
    assert found[("sbd0", "sbd")][1] == "sbd_add", out
    if has_symbol(vm.kernel, "virtblk_probe"):
        assert ("vda", "block") in found, "no stop for the virtio disk:\n" + out
        assert found[("vda", "block")][1] == "add_disk", out
        assert "virtblk_probe" in found[("vda", "block")], out
    else:
        # drivers/block/virtio_blk.c is not in this kernel: no vda may appear.
        assert not any(cid.startswith("vd") for cid, _, _, _ in stops), out
    assert "shell_run ()" in out and "detached" in out, out
    if "/debug/" in vm.kernel:
        assert "optimized out" not in out, "DEBUG=1 should show every argument:\n" + out

    # 2. At the prompt: the helpers print what the shell prints.
    k = vm.vm
    k.wait_prompt()
    shell = {cmd: k.run(cmd) for _, cmd in HELPERS_VS_SHELL}
    shell.update({cmd: k.run(cmd) for cmd in SHELL_MORE})
    helpers = [h for h, _ in HELPERS_VS_SHELL] + HELPERS_MORE
    if not has_symbol(vm.kernel, "virtblk_probe"):
        helpers.remove('p $kobold_class_device("vda")->class_id')
    got = gdb_sections(vm.gdb(marked(helpers)), helpers)
    for helper, cmd in HELPERS_VS_SHELL:
        assert lines(got[helper]) == lines(shell[cmd]), "%s differs from %s:\n%s\n---\n%s" % (
            helper, cmd, got[helper], shell[cmd])

    classes = {}
    for line in lines(got["kobold-classes"]):
        m = re.match(r"^(\S+): \(struct class \*\) 0x", line)
        if m:
            cur = classes.setdefault(m.group(1), {})
            continue
        m = re.match(r"^    (\S+)\s+\S+\s+refs (\d+)\s+(\S+)\s+\(struct class_device \*\)", line)
        if m:
            cur[m.group(1)] = (int(m.group(2)), m.group(3))
    assert sorted(classes) == lines(shell["ls /sys/class"]), got["kobold-classes"]
    kobjects = {}
    for line in lines(shell["kobjects"])[1:]:
        refs, state, path = line.split(None, 2)
        kobjects[path] = (int(refs), state)
    for cls in ("block", "sbd"):
        dirs = [l.split()[-1] for l in lines(shell["ls -l /sys/class/%s" % cls]) if l.startswith("d")]
        assert sorted(classes[cls]) == dirs, got["kobold-classes"]
        for dev, refs_state in classes[cls].items():
            assert kobjects["/class/%s/%s" % (cls, dev)] == refs_state, (dev, got["kobold-classes"])
    # the newer API's members: struct devices, listed with their /sys/devices path
    m = re.search(r"^    vtcon0\s+-\s+refs (\d+)\s+(\S+)\s+\(struct device \*\) 0x[0-9a-f]+ -> (\S+)$",
                  got["kobold-classes"], re.M)
    assert m, got["kobold-classes"]
    assert m.group(3) == "/devices/virtual/vtconsole/vtcon0", got["kobold-classes"]
    assert kobjects[m.group(3)] == (int(m.group(1)), m.group(2)), got["kobold-classes"]
    vt = got["kobold-kobject /sys/class/vtconsole/vtcon0"]
    assert "  in:       (struct device *) 0x" in vt, vt
    assert "  path:     /devices/virtual/vtconsole/vtcon0\n" in vt + "\n", vt
    assert "'/devices/virtual/vtconsole'" in vt, vt
    assert "  release:  device_release -> device_create_release (the device's)" in vt, vt

    one = got["kobold-kobject /sys/class/sbd/sbd0"]
    refs, state = kobjects["/class/sbd/sbd0"]
    assert "  path:     /class/sbd/sbd0\n" in one + "\n", one
    assert "  refcount: %d\n" % refs in one and "  state:    %s\n" % state in one, one
    assert "  parent:   0x" in one and "'/class/sbd'" in one, one
    assert re.search(r"  release:  class_dev_release -> sbd_release \(class sbd\)", one), one
    assert got['kobold-kobject $kobold_class_device("sbd0", "sbd")'] == one
    assert strings(got['p $kobold_class_device("sbd0", "sbd")->class_id']) == ["sbd0"]
    assert strings(got['p $kobold_kobject("/sys/class/block")->k_name']) == ["block"]
    assert "(struct class_device *) 0x" in \
        got['p $container_of($kobold_kobject("/sys/class/sbd/sbd0"), "struct class_device", "kobj")']
    if has_symbol(vm.kernel, "virtblk_probe"):
        assert strings(got['p $kobold_class_device("vda")->class_id']) == ["vda"]

    # 3. Who drops the last reference, and when release runs.
    assert k.run(WATCH_SHELL[0]).strip() == "fd 3"
    ready = os.path.join(vm.dir, "ready")
    vm.gdb_start(WATCH.format(ready=ready))
    deadline = time.time() + kobold.TIMEOUT
    while not os.path.exists(ready):
        assert vm.bg.poll() is None, vm.bg.communicate()[0]
        assert time.time() < deadline, "gdb did not set its watchpoint"
        time.sleep(0.02)
    time.sleep(0.1)  # the script's continue: typed input waits in the UART anyway
    assert k.run(WATCH_SHELL[1]).strip() == ""
    after_rmmod = k.run(WATCH_SHELL[2])
    assert re.search(r"^   1 deleted     sbd0$", after_rmmod, re.M), after_rmmod
    assert k.run(WATCH_SHELL[3]).strip() == ""
    out = vm.gdb_wait()
    hits = re.findall(r"Old value = (\d+)\nNew value = (\d+)", out)
    assert hits == [("2", "1"), ("1", "0")], out
    by_stop = out.split("Old value = ")
    # rmmod: sbd_exit -> ... -> sbd_release -> sbd_free -> put_disk drops the driver's reference
    first = frames(by_stop[1])
    assert "sbd_release" in first and "sbd_exit" in first and "cmd_rmmod" in first, out
    last = frames(by_stop[2].split("disk_release (cd=")[0])
    assert "kobject_put" in last and "sysfs_close" in last and "cmd_close" in last, out
    release = out.split("Breakpoint 2, disk_release (cd=")[1]
    assert frames(release)[0] == "disk_release" and "cmd_close" in frames(release), out
    assert "  state:    released\n" in release and "  refcount: 0\n" in release, out
    assert "detached" in out

    # 4. The end: the VM still answers, then QEMU goes, and nothing is left running.
    assert "sbd0" not in k.run("kobjects")
    k.close()
    vm.close()
    assert not k.child.isalive()
    assert processes_using(sock) == [], "stray QEMU or gdb"


# From a user program into the kernel (docs/userspace.md): usertests' symbols at the
# addresses its ET_EXEC file gives, a hardware breakpoint on glibc's int $0x80 (a
# software one would be written into whichever address space is loaded), one
# stepi into the kernel's entry, then the sysfs attribute's show.
USER = """add-symbol-file {prog}
hbreak _dl_sysinfo_int80 if $eax == 3
shell touch {ready}
continue
echo @@@ user\\n
bt 3
x/i $pc
p/x $cs
stepi
echo @@@ kernel\\n
x/i $pc
p/x $cs
break uevent_seqnum_show
continue
echo @@@ show\\n
bt
delete
detach
"""


def user_cpio(tmp_path):
    """usertests in /bin, as a second initramfs."""
    prog = os.path.join(os.path.dirname(kobold.KERNEL), "user", "usertests")
    r = subprocess.run(["make", "-s", "user"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    out = tmp_path / "user.cpio"
    with open(out, "wb") as f:
        subprocess.run(["python3", os.path.join(ROOT, "scripts", "gen_init_cpio.py"), "-"],
                       input=("dir /bin 0755 0 0\nfile /bin/usertests %s 0755 0 0\n" % prog).encode(),
                       stdout=f, check=True)
    return prog, str(out)


def test_stepping_from_a_user_program_into_the_kernel(debug_kernel, tmp_path):
    """docs/userspace.md's session, on make debug's kernel."""
    prog, cpio = user_cpio(tmp_path)
    vm = GdbVM(debug_kernel, ["-initrd", cpio])
    try:
        ready = os.path.join(vm.dir, "ready")
        vm.gdb_start(USER.format(prog=prog, ready=ready))
        deadline = time.time() + kobold.TIMEOUT
        while not os.path.exists(ready):
            assert vm.bg.poll() is None, vm.bg.communicate()[0]
            assert time.time() < deadline, "gdb did not set its breakpoint"
            time.sleep(0.02)
        vm.vm.expect(kobold.PROMPT, timeout=60)
        vm.vm.send("usertests sysfs_attributes\r")
        out = vm.gdb_wait()
        got = gdb_sections(out, ["user", "kernel", "show"])
        assert frames(got["user"])[:3] == ["_dl_sysinfo_int80", "read", "sysfs_attributes"], out
        assert "int    $0x80" in got["user"] and re.search(r"= 0x73$", got["user"], re.M), out
        assert re.search(r"<vector128>", got["kernel"]) and re.search(r"= 0x8$", got["kernel"], re.M), out
        show = frames(got["show"])
        assert show[0] == "uevent_seqnum_show" and "vfs_read" in show, out
        assert show.index("sys_read") < show.index("do_syscall") < show.index("common_entry"), out
        assert "detached" in out
        vm.vm.expect(r"ok sysfs_attributes", timeout=30)
        vm.vm.expect(kobold.PROMPT, timeout=30)
    finally:
        vm.close()


def walk_once(kernel):
    vm = GdbVM(kernel)
    try:
        out = vm.gdb(WALK)
        vm.vm.wait_prompt()
    finally:
        vm.close()
    return out


def test_stepping_a_registration_on_the_debug_kernel(debug_kernel):
    """docs/gdb.md's walkthrough; KOBOLD_GDB_RUNS times in a row, each in a new QEMU, no retry."""
    for run in range(1, RUNS + 1):
        try:
            check_walk(walk_once(debug_kernel))
        except AssertionError as e:
            raise AssertionError("run %d of %d:\n%s" % (run, RUNS, e)) from None


def check_walk(out):
    assert "optimized out" not in out, "DEBUG=1 should show every argument:\n" + out
    steps = out.split("Temporary breakpoint ")
    first = steps[0]
    assert frames(first)[:5] == ["class_device_register", "add_disk", "sbd_setup_disk", "sbd_add",
                                 "sbd_init"], out
    assert strings(first)[:2] == ["sbd0", "block"], out
    # At the stop, class_device_initialize has not run; step goes into it.
    before, init = first.split("class_device_initialize (cd=", 1)
    assert "  refcount: 0\n  state:    uninitialized\n" in before, out
    assert "kobject_init (kobj=" in init, "step does not go into the calls:\n" + out
    init, add = init.split("class_device_add (cd=", 1)
    assert "  refcount: 1\n  state:    initialized\n" in init and "  sysfs:    none\n" in init, out
    assert "class_dev_release -> disk_release (class block)" in init, out
    assert "class_device_get (cd=" in add and "kobject_get (kobj=" in add, out
    kadd = next(s for s in steps if s.startswith("2, kobject_add"))
    assert frames(kadd)[:3] == ["kobject_add", "class_device_add", "class_device_register"], out
    assert strings(kadd) == ["block"], out
    sdir = next(s for s in steps if s.startswith("3, sysfs_create_dir"))
    assert "/sys/class/block\n`-- sbd0\n\n1 directory, 0 files" in sdir, out
    assert "  path:     /class/block/sbd0\n  refcount: 2\n  state:    added\n" in sdir, out
    # 2.6.15's order: the add event first, then the interfaces' add.
    hot = next(s for s in steps if s.startswith("4, kobject_hotplug"))
    events = [l for l in lines(hot) if l.startswith("KERNEL[")]
    assert events and events[-1].endswith(" add      /class/block/sbd0 (block)"), out
    intf = next(s for s in steps if s.startswith("5, blkstat_add"))
    assert frames(intf)[:3] == ["blkstat_add", "interface_add", "class_device_add"], out
    back, sbd = intf.split("Value returned", 1)[1].split("Breakpoint 1, ")
    assert re.search(r"^class_device_register \(cd=.*\n.*\nValue returned is \$\d+ = 0$", back, re.M), out
    assert frames(back) == ["sbd_setup_disk", "sbd_add", "sbd_init"], out
    assert frames(sbd)[:3] == ["class_device_register", "sbd_add", "sbd_init"], out
    assert strings(sbd) == ["sbd0", "sbd"], out
    # Back in sbd_add, which adds its attribute files next: only uevent so far.
    assert re.search(r"^0x[0-9a-f]+ in sbd_add \(index=0\)", sbd, re.M), out
    assert "/sys/class/sbd\n`-- sbd0\n    `-- uevent\n\n1 directory, 1 file" in sbd, out
    assert "detached" in out


def make_n(*args):
    r = subprocess.run(["make", "-n"] + list(args), cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout.replace("\\\n", " ")


def test_make_debug_and_gdb_rules():
    """make debug: qemu-system-i386, halted, stub on the port make gdb attaches to; no KVM;
    one TCG thread; both on the -O0 kernel, whatever DEBUG= says: gdb loads the very
    file QEMU boots."""
    for debug in ([], ["DEBUG=1"], ["DEBUG=0"]):
        out = make_n(*(debug + ["debug", "gdb"]))
        qemu = [l for l in out.split("\n") if " -gdb " in l]
        gdb = [l for l in out.split("\n") if l.lstrip().startswith("gdb ")]
        assert len(qemu) == 1 and len(gdb) == 1, out
        assert qemu[0].lstrip().startswith("qemu-system-i386 ") and " -S " in qemu[0], qemu
        assert "kvm" not in qemu[0].lower() and "x86_64" not in qemu[0]
        assert "-accel tcg,thread=single" in qemu[0], qemu
        port = re.search(r"-gdb tcp:localhost:(\d+)", qemu[0]).group(1)
        assert "target remote localhost:%s" % port in gdb[0], gdb
        assert "source scripts/gdb/kobold.py" in gdb[0], gdb
        booted = re.search(r"-kernel (\S+)", qemu[0]).group(1)
        assert gdb[0].split()[-1] == booted, (booted, gdb)
        assert booted.startswith("build/debug/"), booted
        # The file QEMU boots is a copy of the -O0 kernel, built by make DEBUG=1.
        assert re.search(r"^cp build/debug/kobold\.elf %s$" % re.escape(booted), out, re.M), out
        assert re.search(r"make.* DEBUG=1 build/debug/kobold\.elf", out), out
        assert re.search(r"^\s*make gdb\s*$", out.replace('echo "', "").replace('"', ""), re.M), \
            "make debug should say what to type next"


def test_make_gdb_without_make_debug_says_what_to_do():
    """No make debug on that port: make gdb says so instead of hanging at `target remote`."""
    r = subprocess.run(["make", "-s", "gdb", "GDB_PORT=1"], cwd=ROOT, capture_output=True, text=True,
                       stdin=subprocess.DEVNULL, timeout=60)
    assert r.returncode != 0
    assert "no 'make debug' runs on port 1: start it in another terminal first" in r.stderr, r.stderr


def test_make_gdb_says_when_the_kernel_was_rebuilt(tmp_path):
    """make gdb loads the copy QEMU boots, and says so when the kernel changed since."""
    gdb = tmp_path / "gdb"
    gdb.write_text("#!/bin/sh\necho \"gdb $*\"\n")
    gdb.chmod(0o755)
    running = os.path.join(ROOT, "build", "debug", "running-2.elf")
    os.makedirs(os.path.dirname(running), exist_ok=True)
    with open(running, "w") as f:
        f.write("not the kernel")
    env = dict(os.environ, PATH="%s:%s" % (tmp_path, os.environ["PATH"]))
    try:
        r = subprocess.run(["make", "-s", "gdb", "GDB_PORT=2"], cwd=ROOT, capture_output=True,
                           text=True, env=env, stdin=subprocess.DEVNULL, timeout=60)
    finally:
        os.unlink(running)
    assert r.returncode == 0, r.stderr
    assert "build/debug/kobold.elf was rebuilt after 'make debug' started" in r.stderr, r.stderr
    assert "run 'make debug' again" in r.stderr, r.stderr
    assert r.stdout.strip().endswith("target remote localhost:2 build/debug/running-2.elf"), r.stdout


def doc_commands():
    """(gdb) and kobold:...# commands in docs/gdb.md's fenced blocks."""
    gdb_cmds, shell_cmds, fenced = [], [], False
    with open(DOC) as f:
        for line in f:
            if line.startswith("```"):
                fenced = not fenced
                continue
            if not fenced:
                continue
            m = re.match(r"^\(gdb\) (.*?)\s*$", line)
            if m:
                gdb_cmds.append(m.group(1))
            m = re.match(r"^kobold:/[^#]*# (.*?)\s*$", line)
            if m:
                shell_cmds.append(m.group(1))
    return gdb_cmds, shell_cmds


def test_doc_commands_are_tested():
    gdb_cmds, shell_cmds = doc_commands()
    assert gdb_cmds and shell_cmds
    tested_gdb = set()
    for script in (BOOT, WALK, WATCH):
        tested_gdb.update(l.strip() for l in script.split("\n"))
    tested_gdb.update(h for h, _ in HELPERS_VS_SHELL)
    tested_gdb.update(HELPERS_MORE)
    tested_shell = {c for _, c in HELPERS_VS_SHELL} | set(SHELL_MORE) | set(WATCH_SHELL)
    missing = [c for c in gdb_cmds if c not in tested_gdb and not c.startswith("shell ")]
    assert not missing, "docs/gdb.md shows gdb commands no test runs: %s" % missing
    missing = [c for c in shell_cmds if c not in tested_shell]
    assert not missing, "docs/gdb.md shows shell commands no test runs: %s" % missing
