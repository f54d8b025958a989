#!/usr/bin/env python3
"""Lab 23 checker: mylsblk, lsblk in user space from /sys alone (docs/labs/lab23-lsblk.md).
One boot with two virtio disks (an MBR one with a logical partition, a GPT one) and two
RAM disks; the program's output is compared with /sys, read through the shell."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import labuser  # noqa: E402
import partimg  # noqa: E402 (tests/, on the path through labuser)
from labcheck import expect, expect_eq, run  # noqa: E402

# What a solution may change (a new program; the kernel's transcripts do not change).
FILES = ["user/mylsblk.c"]
ADDS = []

PROG = "/usr/bin/mylsblk"
TREE = re.compile("^(\u251c\u2500|\u2514\u2500)")


def disks():
    d = labuser.workdir()
    mbr = partimg.mbr(os.path.join(d, "mbr.img"), 16, [(2048, 8192, partimg.LINUX),
                                                       (10240, 8192, partimg.EXTENDED)],
                      [(12288, 4096)], ext_index=1)
    gpt = partimg.gpt(os.path.join(d, "gpt.img"), 8, [(40, 2087), (2088, 10000)])
    args = []
    for i, (img, serial) in enumerate([(mbr, "lab23-mbr"), (gpt, "lab23-gpt")]):
        args += ["-drive", "file=%s,if=none,id=vd%d,format=raw" % (img, i),
                 "-device", "virtio-blk-pci,drive=vd%d,serial=%s" % (i, serial)]
    return args


def start(s):
    """One boot: the program in an initramfs, the disks, two RAM disks of 1 MiB."""
    if s.k is None:
        s.boot("sbd.nr=2 sbd.size=1024", qemu_args=["-initrd", labuser.initrd({"mylsblk": labuser.build("mylsblk")})]
               + disks())
    return s


LOG = re.compile(r"^\[ *\d+\.\d+\] .*\n?", re.M)


def prog(s, args=""):
    """What the program printed, without the kernel's log lines (its first ENOSYS calls)."""
    return LOG.sub("", s.run((PROG + " " + args).strip()))


def cat_each(s, paths):
    """One cat of every path: its first line for each, None where it has none."""
    out = s.run("cat " + " ".join(paths)).split("\n")
    got = []
    for path in paths:
        line = out.pop(0) if out else ""
        got.append(None if line.startswith("cat: " + path) else line.strip())
    return got


def sysfs(s):
    """{name: [MAJ:MIN, RM, bytes, RO, TYPE, disk]} from /sys/class/block, read by the shell
    (once a boot, and again after a check that changes the devices)."""
    if getattr(s, "devs_of", None) is s.k:
        return s.devs
    names = s.ls("/sys/class/block")
    d = ["/sys/class/block/" + n for n in names]
    dev, size, part = (cat_each(s, [p + "/" + a for p in d]) for a in ("dev", "size", "partition"))
    disks = [n for n, p in zip(names, part) if p is None]
    rm, ro = (dict(zip(disks, cat_each(s, ["/sys/class/block/%s/%s" % (n, a) for n in disks])))
              for a in ("removable", "ro"))
    devs = {}
    for n, dv, sz, p in zip(names, dev, size, part):
        disk = n if p is None else max((x for x in disks if n.startswith(x)), key=len)
        devs[n] = [dv, rm[disk], int(sz) * 512, ro[disk], "part" if p else "disk", disk]
    s.devs, s.devs_of = devs, s.k
    return devs


def rows(out):
    """The table's rows, split into columns, the tree's branches taken off the names."""
    lines = [l for l in out.split("\n") if l.strip()]
    expect(lines and lines[0].split() == ["NAME", "MAJ:MIN", "RM", "SIZE", "RO", "TYPE"],
           "the first line is not the header NAME MAJ:MIN RM SIZE RO TYPE:\n" + out)
    return [[TREE.sub("", l).split()[0]] + l.split()[-5:] for l in lines[1:]]


def want(devs, names):
    return [[n, devs[n][0], devs[n][1], str(devs[n][2]), devs[n][3], devs[n][4]] for n in names]


def order(devs, disks_only=False):
    """Disks sorted by name, each followed by its partitions (sorted)."""
    out = []
    for d in sorted(n for n in devs if devs[n][4] == "disk"):
        out.append(d)
        if not disks_only:
            out += sorted(n for n in devs if devs[n][4] == "part" and devs[n][5] == d)
    return out


def groups(out):
    """The table as its header and its disks, each disk's line with its partitions'
    lines, in name order (lsblk lists disks in the order it finds them)."""
    lines = [l for l in out.split("\n") if l.strip()]
    disks = []
    for l in lines[1:]:
        if TREE.match(l) and disks:
            disks[-1].append(l)
        else:
            disks.append([l])
    return lines[:1], sorted(disks)


def same_as_lsblk(s, what):
    got, wanted = prog(s), s.run("lsblk")
    expect(groups(got) == groups(wanted), "%s: mylsblk printed\n%s\nthe kernel's lsblk "
           "(util-linux's format)\n%s" % (what, got, wanted))


def default_output(s):
    """mylsblk prints what lsblk prints (util-linux's table and tree): 2 virtio disks with MBR and GPT partitions, 2 RAM disks"""
    same_as_lsblk(start(s), "at boot")


default_output.points = 3


def follows_sys(s):
    """it reads /sys, not a list of its own: sbd1 made read-only, sbd reloaded with 3 disks of 2 MiB"""
    start(s)
    s.run("echo 1 > /sys/class/sbd/sbd1/ro")
    same_as_lsblk(s, "after echo 1 > /sys/class/sbd/sbd1/ro")
    s.run("rmmod sbd")
    s.run("modprobe sbd nr=3 size=2048")
    same_as_lsblk(s, "after rmmod sbd; modprobe sbd nr=3 size=2048")
    s.devs_of = None  # the checks after it read /sys again


follows_sys.points = 2


def in_bytes(s):
    """-b: each SIZE in bytes (size in sectors times 512)"""
    devs = sysfs(start(s))
    expect_eq(rows(prog(s, "-b")), want(devs, order(devs)), "mylsblk -b's rows (name, numbers, sizes)")


def disks_only(s):
    """-d: the disks alone, no partitions"""
    devs = sysfs(start(s))
    expect_eq([r[0] for r in rows(prog(s, "-d"))], order(devs, True), "mylsblk -d: the names")
    expect_eq(rows(prog(s, "-b -d")), want(devs, order(devs, True)), "mylsblk -b -d's rows")


def named(s):
    """/dev paths name devices: a disk with its partitions, a partition alone; the device found by its numbers"""
    devs = sysfs(start(s))
    got = rows(prog(s, "-b /dev/vdb /dev/sbd0"))
    expect_eq(got, want(devs, ["vdb"] + order({n: v for n, v in devs.items() if v[5] == "vdb"})[1:] + ["sbd0"]),
              "mylsblk -b /dev/vdb /dev/sbd0")
    out = prog(s, "-b /dev/vda5")
    expect_eq(rows(out), want(devs, ["vda5"]), "mylsblk -b /dev/vda5")
    expect(not TREE.search(out.split("\n")[1]), "mylsblk /dev/vda5: a partition named alone has no branch:\n" + out)
    s.run("ln -s /dev/vda1 /tmp/first")
    expect_eq(rows(prog(s, "-b /tmp/first")), want(devs, ["vda1"]), "mylsblk -b /tmp/first (a link to /dev/vda1)")


named.points = 2


def not_a_block_device(s):
    """a path that is no block device: "lsblk: PATH: not a block device" on stderr; the devices that are still listed"""
    start(s)
    for path in ["/dev/nosuch", "/dev/null", "/sys/class/block/vda"]:
        out = prog(s, path).strip()
        expect_eq(out, "lsblk: %s: not a block device" % path, "mylsblk " + path)
    out = prog(s, "/dev/sbd0 /dev/nosuch")
    expect("lsblk: /dev/nosuch: not a block device" in out and re.search(r"^sbd0 ", out, re.M),
           "mylsblk /dev/sbd0 /dev/nosuch printed:\n" + out)


CHECKS = [default_output, follows_sys, in_bytes, disks_only, named, not_a_block_device]

if __name__ == "__main__":
    sys.exit(run("Lab 23: lsblk in user space", CHECKS))
