"""udev_kobold.py: the udev comparison cases (tests/udev_compare/cases.py)
through Kobold's `udevadm test`: the rules files come on a second disk (vdb,
each file at an offset that is a multiple of its size, copied out with dd),
vda is the disk the Linux guest had, and the built-in rules files are masked
by empty files of the same name, so that only the case's rules apply."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts",
                                "bench"))
import kobold  # noqa: E402
import linux_guest  # noqa: E402
import partimg  # noqa: E402
from udev_compare import cases  # noqa: E402

RULES_D = "/etc/udev/rules.d"
MASK = ("60-persistent-storage.rules", "80-drivers.rules")

# Differences kept on purpose, by case: the fields docs/differences.md explains.
KEPT = {
    "rules-10000": ("errors",),  # at most 1,024 rules, the rest refused with file:line
    "line-64k": ("errors",),  # the refused line is named, with file:line
}


def cases_disk(path):
    """All the case files on one image; {name: (offset, size)}."""
    where, pos = {}, 0
    with open(path, "wb") as f:
        for name, _, text in cases.CASES:
            data = text.encode()
            pos = -(-pos // len(data)) * len(data)
            f.seek(pos)
            f.write(data)
            where[name] = (pos, len(data))
            pos += len(data)
        f.truncate(-(-pos // 512) * 512 + 512)
    return where


def disk(path):
    """16 MiB with one primary partition, as the Linux guest's."""
    return partimg.mbr(path, 16, [(2048, 8192, partimg.LINUX)])


def boot(workdir):
    os.makedirs(workdir, exist_ok=True)
    img = disk(os.path.join(workdir, "disk.img"))
    files = os.path.join(workdir, "cases.img")
    where = cases_disk(files)
    k = kobold.boot("loglevel=3", timeout=120, qemu_args=[
        "-drive", "file=%s,if=none,id=vd0,format=raw" % img,
        "-device", "virtio-blk-pci,drive=vd0,serial=kobold-disk",
        "-drive", "file=%s,if=none,id=vd1,format=raw,readonly=on" % files,
        "-device", "virtio-blk-pci,drive=vd1,serial=cases"])
    k.where = where
    k.run("touch " + " ".join("%s/%s" % (RULES_D, m) for m in MASK))
    return k


def run_case(k, name, dev):
    """What Kobold's udevadm test prints with the case's file in place."""
    off, size = k.where[name]
    out = k.run("dd if=/dev/vdb of=%s/50-test.rules bs=%d skip=%d count=1"
                % (RULES_D, size, off // size), timeout=120)
    if "copied" not in out:
        raise AssertionError("dd of the case %s: %s" % (name, out))
    out = k.run("udevadm test --action=add /sys/class/block/" + dev, timeout=120)
    k.run("rm %s/50-test.rules" % RULES_D)
    return out


def run_cases(workdir):
    """{name: output} for every case, in one boot."""
    k = boot(workdir)
    # Each case's three commands wait for their prompt and start nothing that runs on
    # after it: pexpect's 50 ms pause before each send was most of the cases' time.
    k.child.delaybeforesend = None
    try:
        return {name: run_case(k, name, dev) for name, dev, _ in cases.CASES}
    finally:
        k.close()
