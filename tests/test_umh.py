"""test_umh.py: the hotplug helper (/proc/sys/kernel/hotplug, 2.6's /sbin/hotplug)
and call_usermodehelper behind it, in two boots. Boot one: a busybox sh helper logs
argv and env per event for a hot-added and removed virtio disk and for modprobe/rmmod
sbd; helpers that hang, exit non-zero, are missing or not executable, a path too long;
the in-kernel udev switched off at run time. Boot two (udev.enabled=0): busybox mdev
on a tmpfs /dev, coldplug (add written to uevent files) and hotplug with
/etc/mdev.conf rules (owner, group, mode, a link), /proc refusing chown and chmod, and a
storm of modprobe/rmmod cycles (UMH_CYCLES, 10 here, 100 in make umh-soak): every
event seen, no zombie, memory and kobjects back where they were."""
import os
import re
import subprocess
import time

import pytest

import kobold
from test_virtio import disk, image, sh

ROOT = kobold.ROOT
CYCLES = int(os.environ.get("UMH_CYCLES", "10"))

# Each event's argv and env, in a file named by its SEQNUM (written whole, then renamed).
LOGGER = """#!/bin/sh
mkdir -p /tmp/hp
{ echo "argv: $0 $*"; env | sort; } > /tmp/hp/.$SEQNUM
mv /tmp/hp/.$SEQNUM /tmp/hp/$SEQNUM
"""
# Hangs on sbd0's add in the sbd class; every other event is logged.
HANG = """#!/bin/sh
if [ "$DEVPATH" = /class/sbd/sbd0 ] && [ "$ACTION" = add ]; then echo "$SEQNUM" > /tmp/hung; exec sleep 600; fi
exec /sbin/hotplug "$@"
"""
FAIL = """#!/bin/sh
echo "$SEQNUM" >> /tmp/failed
echo "hp-fail: exit 3 for $SEQNUM"
exit 3
"""
# The block class's helpers sleep: they finish after the sbd class's, sent later.
SLOW_BLOCK = """#!/bin/sh
[ "$1" = block ] && sleep 2
echo "$SEQNUM $1" >> /tmp/order
"""
# The storm's: shell built-ins only, one exec per event.
COUNT = """#!/bin/sh
echo "SEQNUM=$SEQNUM $1 $ACTION" > /tmp/hp/$SEQNUM
"""
# sbd's nodes: owner root, group 6 (disk), mode 640, in disks/ with a link where mdev would
# have put them; a hot-added virtio disk: owner 1, group 6, mode 600 (vda, coldplugged, has
# mdev's default: root's, 660).
MDEV_CONF = """sbd([0-9]+) 0:6 640 >disks/sbd%1
vd[b-z] 1:6 600
"""


@pytest.fixture(scope="module")
def images(tmp_path_factory):
    p = subprocess.run(["make", "-s", "rootfs"], cwd=ROOT, capture_output=True, text=True,
                       timeout=900)
    assert p.returncode == 0, p.stdout + p.stderr
    tmp = tmp_path_factory.mktemp("umh")
    entries = []
    for name, text, path, mode in (("logger", LOGGER, "/sbin/hotplug", "0755"),
                                   ("hang", HANG, "/usr/bin/hp-hang", "0755"),
                                   ("fail", FAIL, "/usr/bin/hp-fail", "0755"),
                                   ("slow", SLOW_BLOCK, "/usr/bin/hp-slow-block", "0755"),
                                   ("count", COUNT, "/usr/bin/hp-count", "0755"),
                                   ("noexec", LOGGER, "/usr/bin/hp-noexec", "0644"),
                                   ("mdev.conf", MDEV_CONF, "/etc/mdev.conf", "0644")):
        (tmp / name).write_text(text)
        entries.append("file %s %s %s 0 0" % (path, tmp / name, mode))
    out = tmp / "umh.cpio"
    return kobold.user_initrd(out, entries), tmp


def seqnum(k):
    # a helper's first system-call notice may cut through the command's echo
    return int(re.findall(r"^(\d+)$", sh(k, "cat /sys/kernel/uevent_seqnum"), re.M)[-1])


def wait_for(k, command, done, timeout=60):
    """Runs command until done(output) holds; the last output."""
    end = time.time() + timeout
    while True:
        out = sh(k, command)
        if done(out) or time.time() > end:
            return out
        time.sleep(0.2)


def logged(k, first, last):
    """The logger's records of events first..last ({seq: text}), once all are there."""
    want = {str(n) for n in range(first, last + 1)}
    wait_for(k, "ls /tmp/hp", lambda out: want <= set(out.split()))
    return {n: sh(k, "cat /tmp/hp/%d" % n) for n in range(first, last + 1)}


def env_of(record):
    return dict(l.split("=", 1) for l in record.splitlines() if "=" in l and not l.startswith("argv"))


def zombies(k):
    stats = sh(k, "sh -c 'cat /proc/[0-9]*/stat'")
    return [l for l in stats.splitlines() if re.match(r"\d+ \(.*\) Z ", l)]


def helpers_gone(k, name):
    return wait_for(k, "ps", lambda out: name not in out, timeout=30)


@pytest.fixture(scope="module")
def k(images, tmp_path_factory):
    tmp = images[1]
    mon = str(tmp / "mon.sock")
    args = ["-initrd", images[0]] + disk(image(tmp, "a.img", 1), "d0")
    for i in range(2):  # device_del takes its drive with it
        args += ["-drive", "file=%s,if=none,id=hp%d,format=raw" % (image(tmp, "h%d.img" % i, 2), i)]
    k = kobold.boot(qemu_args=args, monitor=mon)
    yield k
    k.close()


def test_helper_path_settings(k):
    """/proc/sys/kernel/hotplug and /sys/kernel/uevent_helper are one setting, default
    /sbin/hotplug; a path longer than 255 bytes is refused and changes nothing; [khelper]
    is a kernel thread."""
    assert sh(k, "ls /proc/sys").split() == ["fs", "kernel", "vm"]
    assert "hotplug" in sh(k, "ls /proc/sys/kernel").split()
    assert sh(k, "cat /proc/sys/kernel/hotplug") == "/sbin/hotplug\n"
    assert sh(k, "cat /sys/kernel/uevent_helper") == "/sbin/hotplug\n"
    assert re.search(r"^\s+\d+ root\s+\S+ \[khelper\]$", sh(k, "ps"), re.M)
    long = "/" + "x" * 300
    assert "Invalid argument" in sh(k, "echo %s > /proc/sys/kernel/hotplug" % long)
    assert "No such file or directory" in sh(k, "echo %s > /sys/kernel/uevent_helper" % long)
    assert sh(k, "cat /proc/sys/kernel/hotplug") == "/sbin/hotplug\n"
    assert sh(k, "echo /sbin/other > /sys/kernel/uevent_helper") == ""
    assert sh(k, "cat /proc/sys/kernel/hotplug") == "/sbin/other\n"
    assert sh(k, "echo /sbin/hotplug > /proc/sys/kernel/hotplug") == ""
    assert sh(k, "cat /sys/kernel/uevent_helper") == "/sbin/hotplug\n"
    # the table's other entry, an integer within 2.6's bounds
    assert sh(k, "cat /proc/sys/kernel/pid_max") == "32768\n"
    assert "Invalid argument" in sh(k, "echo 300 > /proc/sys/kernel/pid_max")
    assert "Invalid argument" in sh(k, "echo 12x > /proc/sys/kernel/pid_max")
    assert sh(k, "echo 4096 > /proc/sys/kernel/pid_max") == ""
    assert sh(k, "cat /proc/sys/kernel/pid_max") == "4096\n"
    assert sh(k, "echo 32768 > /proc/sys/kernel/pid_max") == ""


def test_helper_gets_argv_and_env_of_sbd_events(k):
    first = seqnum(k) + 1
    k.run("rmmod sbd")
    k.run("modprobe sbd nr=2 size=64")
    last = seqnum(k)
    recs = logged(k, first, last)
    assert len(recs) == 6  # 2 removes (block, sbd), 4 adds
    by_path = {(env_of(r)["ACTION"], env_of(r)["DEVPATH"]): r for r in recs.values()}
    blk = by_path[("add", "/class/block/sbd1")]
    assert blk.startswith("argv: /sbin/hotplug block\n"), blk
    e = env_of(blk)
    assert e["SUBSYSTEM"] == "block" and e["MAJOR"] == "254" and e["MINOR"] == "1", e
    assert e["HOME"] == "/" and e["PATH"] == "/sbin:/bin:/usr/sbin:/usr/bin", e
    cls = by_path[("add", "/class/sbd/sbd0")]
    assert cls.startswith("argv: /sbin/hotplug sbd\n") and env_of(cls)["SBD_SIZE_KB"] == "64"
    assert env_of(by_path[("remove", "/class/sbd/sbd0")])["ACTION"] == "remove"
    for n, r in recs.items():  # SEQNUM as sent, the journal's keys all there
        assert env_of(r)["SEQNUM"] == str(n)
    helpers_gone(k, "hotplug")
    assert zombies(k) == []


def test_helper_gets_a_hot_added_and_removed_virtio_disk(k):
    first = seqnum(k) + 1
    k.monitor("device_add virtio-blk-pci,drive=hp0,id=hot0,addr=0x6")
    wait_for(k, "lsblk", lambda out: "vdb" in out)
    mid = seqnum(k)
    recs = logged(k, first, mid)
    adds = {env_of(r)["DEVPATH"]: r for r in recs.values()}
    pci = adds["/devices/pci0000:00/0000:00:06.0"]
    assert pci.startswith("argv: /sbin/hotplug pci\n")
    assert env_of(pci)["MODALIAS"].startswith("pci:v00001AF4d00001001"), pci
    vdb = env_of(adds["/class/block/vdb"])
    assert (vdb["MAJOR"], vdb["MINOR"], vdb["DEVNAME"]) == ("253", "16", "vdb"), vdb
    k.monitor("device_del hot0")
    wait_for(k, "lsblk", lambda out: "vdb" not in out)
    gone = logged(k, mid + 1, seqnum(k))
    removed = [env_of(r)["DEVPATH"] for r in gone.values() if env_of(r)["ACTION"] == "remove"]
    assert "/class/block/vdb" in removed and "/devices/pci0000:00/0000:00:06.0" in removed


def test_helpers_run_side_by_side_and_finish_out_of_order(k):
    """The block class's helper sleeps two seconds: the sbd class's, sent after it, ends first."""
    assert sh(k, "echo /usr/bin/hp-slow-block > /proc/sys/kernel/hotplug") == ""
    first = seqnum(k) + 1
    k.run("rmmod sbd")  # two disks: block sbd0, sbd sbd0, block sbd1, sbd sbd1
    out = wait_for(k, "cat /tmp/order", lambda out: len(out.split()) == 8)
    done = [int(l.split()[0]) for l in out.splitlines()]
    assert sorted(done) == list(range(first, first + 4)), out
    for blk in (first, first + 2):  # each disk: its sbd event, sent second, done first
        assert done.index(blk + 1) < done.index(blk), out


def test_a_hanging_helper_stalls_nothing(k):
    assert sh(k, "echo /usr/bin/hp-hang > /proc/sys/kernel/hotplug") == ""
    first = seqnum(k) + 1
    k.run("modprobe sbd nr=2")
    last = seqnum(k)
    hung = wait_for(k, "cat /tmp/hung", lambda out: out.strip().isdigit()).strip()
    want = {str(n) for n in range(first, last + 1)} - {hung}  # the hung one never logs
    out = wait_for(k, "ls /tmp/hp", lambda out: want <= set(out.split()))
    assert want <= set(out.split()), out
    k.run("rmmod sbd")  # events after the hung helper still reach the next helpers
    after = seqnum(k)
    out = wait_for(k, "ls /tmp/hp", lambda out: str(after) in out.split())
    assert str(after) in out.split()
    assert "sleep" in sh(k, "ps")
    k.run("killall sleep")
    helpers_gone(k, "sleep")
    assert zombies(k) == []


def test_a_failing_helper_costs_no_log_line(k):
    """A non-zero exit: 2.6's hotplug never waited for the helper, so nobody saw it."""
    assert sh(k, "echo /usr/bin/hp-fail > /proc/sys/kernel/hotplug") == ""
    first = seqnum(k) + 1
    out = k.run("modprobe sbd")
    last = seqnum(k)
    ran = wait_for(k, "cat /tmp/failed", lambda o: len(o.split()) == last - first + 1)
    assert sorted(ran.split(), key=int) == [str(n) for n in range(first, last + 1)]
    assert "call_usermodehelper" not in out + k.run("dmesg")
    assert "hp-fail: exit 3 for %d" % last in k.transcript()  # its stdout: the console
    assert zombies(k) == []


def test_missing_or_unrunnable_helper_costs_one_log_line(k):
    """Missing: one line in dmesg (KERN_DEBUG, not on the console) however many events;
    not executable: one warning on the console. Nothing else. Said again once a helper
    has run."""
    assert sh(k, "echo /sbin/nope > /proc/sys/kernel/hotplug") == ""
    first = seqnum(k) + 1
    out = k.run("rmmod sbd")
    k.run("udevadm settle")
    assert seqnum(k) - first + 1 > 1  # several events, one line
    assert "nope" not in out
    assert len(re.findall(r"call_usermodehelper: /sbin/nope \w+: No such file or directory",
                          k.run("dmesg"))) == 1
    assert sh(k, "echo /usr/bin/hp-noexec > /proc/sys/kernel/hotplug") == ""
    mark = len(k.transcript())
    k.run("modprobe sbd")
    k.run("udevadm settle")  # the helper has been tried; its warning may follow the prompt
    for _ in range(50):
        if "hp-noexec" in k.run("dmesg"):
            break
        time.sleep(0.1)
    assert "hp-noexec" in k.transcript()[mark:]  # a warning: on the console
    assert len(re.findall(r"call_usermodehelper: /usr/bin/hp-noexec (block|sbd): "
                          r"Permission denied", k.run("dmesg"))) == 1
    assert sh(k, "echo > /proc/sys/kernel/hotplug") == ""  # empty: no helper at all
    k.run("rmmod sbd")
    k.run("modprobe sbd")
    k.run("udevadm settle")
    assert "hp-noexec" not in k.run("dmesg").split("Permission denied")[-1]
    assert zombies(k) == []


def test_udev_switched_off_at_run_time_leaves_the_helper(k):
    assert sh(k, "echo /sbin/hotplug > /proc/sys/kernel/hotplug") == ""
    assert "udevd: exiting" in k.run("udevadm control --exit")
    first = seqnum(k) + 1
    k.monitor("device_add virtio-blk-pci,drive=hp1,id=hot1,addr=0x7,serial=AFTER")
    wait_for(k, "lsblk", lambda out: "vdb" in out)
    recs = logged(k, first, seqnum(k))
    assert any(env_of(r).get("DEVPATH") == "/class/block/vdb" for r in recs.values())
    assert "virtio-AFTER" not in sh(k, "ls /dev/disk/by-id")  # udev's rule did not run
    assert "/dev/vdb" in sh(k, "ls /dev/vdb")  # devtmpfs is the kernel's, not udev's


# ---- boot two: mdev, the storm --------------------------------------------------------

@pytest.fixture(scope="module")
def k2(images):
    tmp = images[1]
    mon = str(tmp / "mon2.sock")
    args = ["-initrd", images[0]] + disk(image(tmp, "b.img", 1), "d0")
    args += ["-drive", "file=%s,if=none,id=hp0,format=raw" % image(tmp, "h2.img", 2)]
    k = kobold.boot("udev.enabled=0", qemu_args=args, monitor=mon)
    yield k
    k.close()


def stat(k, path):
    return sh(k, "/bin/stat -c '%F %u:%g %a %t:%T' " + path).strip()


def hotplug_doc_mdev():
    """docs/hotplug.md's mdev.conf and the stat lines it shows for the nodes."""
    with open(os.path.join(ROOT, "docs", "hotplug.md")) as f:
        text = f.read()
    conf = re.search(r"link\. With\n\n```\n(.*?)```", text, re.S).group(1)
    return conf, re.findall(r"^/dev/\S+ \w+ special file .*$", text, re.M)


def settled(k, path, want):
    """path's stat once mdev has made the node and set its owner and mode (or the last seen)."""
    return wait_for(k, "/bin/stat -c '%F %u:%g %a %t:%T' " + path,
                    lambda out: out.strip() == want).strip()


def test_mdev_fills_and_follows_a_tmpfs_dev(k2):
    """Coldplug as 2.6's start_udev did it: "add" written to each class device's uevent
    file replays its event to the helper, mdev. (busybox 1.26 on, as Debian's, scans
    /sys/dev for mdev -s: Linux 2.6.27's layout, not Kobold's; see docs/hotplug.md.)"""
    k = k2
    assert "udevd: off (udev.enabled=0)" in k.run("dmesg")
    assert sh(k, "sh -c 'mount -t tmpfs none /dev && echo /sbin/mdev > /proc/sys/kernel/hotplug"
                 " && for u in /sys/class/*/*/uevent; do echo add > $u; done'") == ""
    wait_for(k, "sh -c 'ls /dev /dev/disks'", lambda out: "vda" in out and "sbd0" in out)
    assert "none on /dev type tmpfs" in sh(k, "mount")
    assert stat(k, "/dev/vda") == "block special file 0:0 660 fd:0"
    assert stat(k, "/dev/null") == "character special file 0:0 660 1:3"
    assert settled(k, "/dev/disks/sbd0", "block special file 0:6 640 fe:0") == "block special file 0:6 640 fe:0"
    assert sh(k, "readlink /dev/sbd0").strip() == "disks/sbd0"
    k.run("rmmod sbd")
    wait_for(k, "ls /dev", lambda out: "sbd0" not in out.split())
    assert "sbd0" not in sh(k, "ls /dev").split()
    assert "sbd0" not in sh(k, "ls /dev/disks").split()
    k.run("modprobe sbd nr=2")
    wait_for(k, "ls /dev/disks", lambda out: "sbd1" in out.split())
    assert settled(k, "/dev/disks/sbd1", "block special file 0:6 640 fe:1") == "block special file 0:6 640 fe:1"
    assert sh(k, "readlink /dev/sbd1").strip() == "disks/sbd1"
    k.monitor("device_add virtio-blk-pci,drive=hp0,id=hot0,addr=0x6")
    wait_for(k, "ls /dev", lambda out: "vdb" in out.split())
    assert settled(k, "/dev/vdb", "block special file 1:6 600 fd:10") == "block special file 1:6 600 fd:10"
    conf, lines = hotplug_doc_mdev()  # the doc shows this very state
    assert conf == MDEV_CONF
    assert sh(k, "/bin/stat -c '%n %F %u:%g %a %t:%T' " + " ".join(l.split()[0] for l in lines)
              ).strip().splitlines() == lines
    k.monitor("device_del hot0")
    wait_for(k, "ls /dev", lambda out: "vdb" not in out.split())
    assert "vdb" not in sh(k, "ls /dev").split()
    assert sh(k, "echo /sbin/hotplug > /proc/sys/kernel/hotplug") == ""


def test_proc_keeps_no_owners(k2):
    """/proc has no setattr: chmod and chown answer EPERM and change nothing
    (docs/differences.md: 2.6 kept them in the proc_dir_entry)."""
    k = k2
    assert "Operation not permitted" in sh(k, "chmod 600 /proc/uptime")
    assert "Operation not permitted" in sh(k, "chown 1:2 /proc/uptime")
    assert stat(k, "/proc/uptime") == "regular empty file 0:0 444 0:0"


def test_storm_of_cycles_every_event_seen_nothing_left(k2):
    k = k2
    assert sh(k, "echo /usr/bin/hp-count > /proc/sys/kernel/hotplug") == ""
    k.run("sh -c 'rm -rf /tmp/hp; mkdir /tmp/hp'")
    k.run("rmmod sbd; modprobe sbd")  # warm: the helper has run once
    helpers_gone(k, "hp-count")
    k.run("sh -c 'rm -rf /tmp/hp; mkdir /tmp/hp'")
    before = k.snapshot()
    first = seqnum(k) + 1
    for _ in range(CYCLES):
        k.run("rmmod sbd; modprobe sbd")
    last = seqnum(k)
    assert last - first + 1 == 4 * CYCLES
    want = list(range(first, last + 1))

    def seqnums(out):
        return sorted(int(n) for n in re.findall(r"SEQNUM=(\d+) ", out))

    # the shell's read and echo: no exec, whose arguments 400 names would overflow
    every = "sh -c 'for f in /tmp/hp/*; do read l < $f; echo \"$l \"; done'"
    wait_for(k, "ls /tmp/hp", lambda out: len(out.split()) >= len(want), timeout=60 + 3 * CYCLES)
    seen = wait_for(k, every, lambda out: seqnums(out) == want, timeout=30)
    assert seqnums(seen) == want, seen
    helpers_gone(k, "hp-count")
    assert zombies(k) == []
    k.run("sh -c 'rm -rf /tmp/hp; mkdir /tmp/hp'")
    after = k.snapshot()
    assert before["BytesInUse"] == after["BytesInUse"], (before, after)
    assert before["ObjectsInUse"] == after["ObjectsInUse"], (before, after)
    assert before["kobjects"] == after["kobjects"]

