"""test_initramfs.py: the root filesystem from multiboot modules: `make
rootfs`'s busybox archive, a second archive over it (later over earlier),
and a corrupt one that loses nothing unpacked before it."""
import os
import re
import shutil
import subprocess

import pytest

import kobold

ROOTFS = os.path.join(kobold.ROOT, "build", "rootfs.cpio")
BUSYBOX = os.path.join(kobold.ROOT, "build", "rootfs", "bin", "busybox")
APPLETS = os.path.join(kobold.ROOT, "scripts", "rootfs", "busybox-applets.txt")


@pytest.fixture(scope="module")
def rootfs():
    p = subprocess.run(["make", "-s", "rootfs"], cwd=kobold.ROOT, capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    return ROOTFS


def applets(directory):
    """The applet names busybox --list-full puts in directory ("sbin", "usr/bin", "" for /)."""
    with open(APPLETS) as f:
        paths = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    return sorted(p.rpartition("/")[2] for p in paths if p.rpartition("/")[0] == directory)


def cpio(tmp_path, name, entries):
    """An archive made by scripts/gen_init_cpio.py from its entry lines."""
    return kobold.cpio(tmp_path / name, entries)


def names(text):
    return [line for line in text.split("\n") if line]


def test_busybox_rootfs_with_a_second_archive_over_it(rootfs, tmp_path, boot_with):
    hostname = tmp_path / "hostname"
    hostname.write_text("second archive\n")
    over = cpio(tmp_path, "over.cpio", ["file /etc/hostname %s 0600 0 0" % hostname,
                                        "slink /bin/sh /bin/true 0777 0 0",
                                        "dir /srv 0750 0 0"])
    k = boot_with(qemu_args=["-initrd", "%s,%s" % (rootfs, over)])
    log = k.run("dmesg")
    m = re.search(r"initramfs: rootfs\.cpio: \d+ KiB, (\d+) member\(s\) unpacked\n", log)
    assert m, log
    nlinks = sum(len(applets(d)) for d in ("bin", "sbin", "usr/bin", "usr/sbin")) - 1  # not busybox
    nlinks += len(applets(""))  # /linuxrc
    assert int(m.group(1)) == 12 + 1 + nlinks + 5 + 1, log  # dirs, busybox, links, /etc, mtab
    assert re.search(r"initramfs: over\.cpio: 1 KiB, 3 member\(s\) unpacked\n", log), log

    for d in ("bin", "sbin", "usr/bin", "usr/sbin"):
        assert names(k.run("ls /" + d)) == applets(d), d
    assert {"bin", "etc", "mnt", "proc", "sbin", "srv", "sys", "tmp", "usr"} <= set(names(k.run("ls /")))
    assert k.run("readlink /sbin/mdev") == "/bin/busybox\n"
    assert k.run("readlink /usr/bin/[[") == "/bin/busybox\n"
    assert k.run("readlink /linuxrc") == "/bin/busybox\n"
    st = k.run("stat /bin/busybox")
    assert "Size: %d" % os.path.getsize(BUSYBOX) in st, st
    assert "(0755/-rwxr-xr-x)" in st, st
    assert k.run("hexdump -C -n 4 /bin/busybox").startswith("00000000  7f 45 4c 46"), "not an ELF"
    assert k.run("cat /etc/passwd") == "root:x:0:0:root:/root:/bin/sh\n"
    # the second archive, over the first
    assert k.run("cat /etc/hostname") == "second archive\n"
    assert "(0600/-rw-------)" in k.run("stat /etc/hostname")
    assert k.run("readlink /bin/sh") == "/bin/true\n"
    assert "drwxr-x--- srv" in k.run("ls -l /")


def mem_free_kib(k):
    return int(re.search(r"^MemFree:\s+(\d+) kB$", k.run("cat /proc/meminfo"), re.M).group(1))


def test_archive_pages_are_freed_once_unpacked(rootfs, boot_with):
    """The files' copies stay in the RAM filesystem; the archive's own pages go back."""
    plain = mem_free_kib(boot_with())
    with_rootfs = mem_free_kib(boot_with(qemu_args=["-initrd", rootfs]))
    size_kib = os.path.getsize(rootfs) // 1024
    assert size_kib // 2 < plain - with_rootfs < size_kib * 3 // 2, (plain, with_rootfs, size_kib)


def test_corrupt_archive_keeps_what_came_before(rootfs, tmp_path, boot_with):
    one = tmp_path / "one"
    one.write_text("kept\n")
    good = cpio(tmp_path, "good.cpio", ["dir /data 0755 0 0", "file /data/one %s 0644 0 0" % one,
                                        "file /data/two %s 0644 0 0" % one])
    with open(good, "rb") as f:
        data = f.read()
    cut = tmp_path / "cut.cpio"
    cut.write_bytes(data[:data.index(b"data/two") + 4])  # inside the third member's name
    junk = tmp_path / "junk.cpio"
    junk.write_bytes(b"\x1f\x8b\x08\x00" + bytes(60))
    k = boot_with(qemu_args=["-initrd", "%s,%s,%s" % (rootfs, cut, junk)])
    log = k.run("dmesg")
    assert re.search(r"initramfs: cut\.cpio: corrupt cpio at byte \d+: truncated name; "
                     r"the 2 member\(s\) before it are kept\n", log), log
    assert "initramfs: junk.cpio: corrupt cpio at byte 0: compressed (gzip)" in log, log
    assert k.run("cat /data/one") == "kept\n"
    assert k.run("cat /data/two") == "cat: /data/two: No such file or directory\n"
    assert k.run("readlink /sbin/mdev") == "/bin/busybox\n"  # the first archive is whole
    assert k.run("echo still here") == "still here\n"


def test_grub_module_lines_unpack_in_order(rootfs, tmp_path):
    """GRUB's module lines, as -initrd's files: each an archive, the later over the earlier."""
    motd = tmp_path / "motd"
    motd.write_text("from grub\n")
    over = cpio(tmp_path, "over.cpio", ["file /etc/hostname %s 0644 0 0" % motd])
    iso_dir = tmp_path / "iso"
    (iso_dir / "boot" / "grub").mkdir(parents=True)
    shutil.copy(kobold.KERNEL, iso_dir / "boot" / "kobold.elf")
    shutil.copy(rootfs, iso_dir / "boot" / "rootfs.cpio")
    shutil.copy(over, iso_dir / "boot" / "over.cpio")
    (iso_dir / "boot" / "grub" / "grub.cfg").write_text(
        "set timeout=0\nserial --unit=0 --speed=115200\nterminal_input serial\n"
        "terminal_output serial\nmenuentry Kobold {\n\tmultiboot /boot/kobold.elf\n"
        "\tmodule /boot/rootfs.cpio rootfs.cpio\n\tmodule /boot/over.cpio over.cpio\n\tboot\n}\n")
    iso = str(tmp_path / "k.iso")
    p = subprocess.run(["grub-mkrescue", "-o", iso, str(iso_dir)], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    saved, kobold.ISO = kobold.ISO, iso
    try:
        k = kobold.boot(grub=True)
    finally:
        kobold.ISO = saved
    try:
        log = k.run("dmesg")
        assert "Boot loader: GRUB" in log, log
        assert re.search(r"initramfs: rootfs\.cpio: \d+ KiB, \d+ member\(s\) unpacked\n"
                         r"(?:.*\n)?.*initramfs: over\.cpio: 1 KiB, 1 member\(s\) unpacked\n", log), log
        assert k.run("cat /etc/hostname") == "from grub\n"
        assert k.run("readlink /bin/sh") == "/bin/busybox\n"
    finally:
        k.close()
