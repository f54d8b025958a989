"""test_vfs.py: files beyond /sys: the RAM filesystem at /, mounts, /dev nodes made
from the device model, block and char device nodes, and the shell's file commands.
One QEMU boot for the whole file (a virtio disk and a second serial port)."""
import re

import pytest

import kobold

LOG_LINE = re.compile(r"^\[\s*\d+\.\d+\] ")
DISK_TEXT = b"Kobold vfs test disk: sector 0\n"


def sh(k, command):
    """Runs a command; its output without kernel log lines printed meanwhile."""
    out = k.run(command)
    return "".join(l + "\n" for l in out.split("\n") if l and not LOG_LINE.match(l))


@pytest.fixture(scope="module")
def vm(tmp_path_factory):
    d = tmp_path_factory.mktemp("vfs")
    img = str(d / "disk.img")
    with open(img, "wb") as f:
        f.truncate(4 << 20)
        f.write(DISK_TEXT)
    com2 = str(d / "com2.txt")
    k = kobold.boot("", qemu_args=[
        "-drive", "file=%s,if=none,id=d0,format=raw" % img,
        "-device", "virtio-blk-pci,drive=d0", "-serial", "file:" + com2])
    k.img, k.com2 = img, com2
    yield k
    k.close()


def meminfo(k):
    out = sh(k, "meminfo")
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^(\w+):\s+(\d+)$", out, re.M)}


def test_root_is_a_ram_filesystem_with_sys_and_dev_mounted(vm):
    assert sh(vm, "ls /").split() == ["dev", "etc", "mnt", "proc", "sys", "tmp"]
    assert sh(vm, "mount") == ("rootfs on / type rootfs (rw)\n"
                               "sysfs on /sys type sysfs (rw)\n"
                               "devtmpfs on /dev type devtmpfs (rw)\n"
                               "proc on /proc type proc (rw)\n")
    df = sh(vm, "df").split("\n")
    assert df[0].split() == ["Filesystem", "1K-blocks", "Used", "Available", "Use%", "Mounted", "on"]
    assert [l.split()[-1] for l in df[1:4]] == ["/", "/sys", "/dev"]
    assert re.search(r"^drwxrwxrwt tmp$", sh(vm, "ls -l /"), re.M)


def test_ls_of_several_operands_is_laid_out_as_coreutils(vm):
    """Missing operands reported first, then the files sorted, one a line, then each
    directory under its header, a blank line before each header that follows output;
    names with a leading '.' with -a only, in ls and in tree."""
    assert sh(vm, "mkdir /tmp/ls1 /tmp/ls2") == "" and sh(vm, "touch /tmp/ls2/b") == ""
    assert vm.run("ls /tmp/ls2 /dev/zero /nonexist /tmp/ls1 /dev/null") == (
        "ls: cannot access '/nonexist': No such file or directory\n"
        "/dev/null\n/dev/zero\n\n/tmp/ls1:\n\n/tmp/ls2:\nb\n")
    assert vm.run("ls -l /dev/zero /dev/null") == (
        "crw-rw-rw-      1,   3 /dev/null\ncrw-rw-rw-      1,   5 /dev/zero\n")
    assert vm.run("ls /nonexist /tmp/ls2") == (
        "ls: cannot access '/nonexist': No such file or directory\n/tmp/ls2:\nb\n")
    # A name with a leading '.' only with -a, which adds . and .. (-la and -al alike).
    assert sh(vm, "touch /tmp/ls2/.dot") == ""
    assert vm.run("ls /tmp/ls2") == "b\n"
    assert vm.run("ls -a /tmp/ls2") == ".\n..\n.dot\nb\n"
    assert vm.run("ls -al /tmp/ls2") == vm.run("ls -la /tmp/ls2") == (
        "drwxr-xr-x .\ndrwxrwxrwt ..\n-rw-r--r-- .dot\n-rw-r--r-- b\n")
    assert vm.run("ls -lq /tmp") == "ls: invalid option -- 'q'\nusage: ls [-la] [PATH...]\n"
    # tree hides them too, as tree(1) does, and shows them with -a.
    assert vm.run("tree /tmp/ls2") == "/tmp/ls2\n`-- b\n\n0 directories, 1 file\n"
    assert vm.run("tree -a /tmp/ls2") == "/tmp/ls2\n|-- .dot\n`-- b\n\n0 directories, 2 files\n"
    assert vm.run("tree -x") == "usage: tree [-a] [PATH]\n"
    assert sh(vm, "rm -r /tmp/ls1 /tmp/ls2") == ""


def test_create_write_append_read_rename_remove(vm):
    assert sh(vm, "echo one > /tmp/f") == ""
    assert sh(vm, "echo two >> /tmp/f") == ""
    assert sh(vm, "cat /tmp/f") == "one\ntwo\n"
    assert sh(vm, "echo three > /tmp/f") == ""
    assert sh(vm, "cat /tmp/f") == "three\n"
    assert sh(vm, "mkdir /tmp/d") == ""
    assert sh(vm, "mkdir -p /tmp/d/e/f") == ""
    assert sh(vm, "mv /tmp/f /tmp/d") == ""  # into the directory, as coreutils
    assert sh(vm, "ls /tmp/d").split() == ["e", "f"]
    assert sh(vm, "ln -s d/e /tmp/link") == ""
    assert sh(vm, "readlink /tmp/link") == "d/e\n"
    assert sh(vm, "readlink -f /tmp/link/f") == "/tmp/d/e/f\n"
    sh(vm, "cd /tmp/link")
    assert sh(vm, "pwd") == "/tmp/d/e\n"
    assert sh(vm, "cat ../f") == "three\n"
    sh(vm, "cd /")
    assert sh(vm, "touch /tmp/d/empty") == ""
    stat = sh(vm, "stat /tmp/d/f")
    assert "Size: 6 " in stat and "regular file" in stat and "(0644/-rw-r--r--)" in stat, stat
    assert "regular empty file" in sh(vm, "stat /tmp/d/empty")
    assert vm.run("tree /tmp/d") == ("/tmp/d\n|-- e\n|   `-- f\n|-- empty\n`-- f\n\n"
                                     "2 directories, 2 files\n")
    assert "rmdir: failed to remove '/tmp/d': Directory not empty" in vm.run("rmdir /tmp/d")
    assert "rm: cannot remove '/tmp/d': Is a directory" in vm.run("rm /tmp/d")
    assert sh(vm, "rm -r /tmp/d /tmp/link") == ""
    assert sh(vm, "ls /tmp") == ""


def test_bad_input_gets_coreutils_errors_and_changes_nothing(vm):
    sh(vm, "echo x > /tmp/file")
    assert "mkdir: cannot create directory '/tmp/file': File exists" in vm.run("mkdir /tmp/file")
    assert "cat: /tmp/nope: No such file or directory" in vm.run("cat /tmp/nope")
    assert "cat: /tmp: Is a directory" in vm.run("cat /tmp")
    assert ("mkdir: cannot create directory '/sys/x': Operation not permitted"
            in vm.run("mkdir /sys/x"))
    assert ("mv: cannot move '/tmp/file' to '/sys/file': Invalid cross-device link"
            in vm.run("mv /tmp/file /sys/file"))
    assert "stat: cannot statx '/nope': No such file or directory" in vm.run("stat /nope")
    long_name = "/tmp/" + "n" * 256
    assert "touch: cannot touch '%s': File name too long" % long_name in vm.run("touch " + long_name)
    assert "rmdir: failed to remove '/sys': Device or resource busy" in vm.run("rmdir /sys")
    assert "rm: it is dangerous to operate recursively on '/'" in vm.run("rm -r /tmp/..")
    sh(vm, "cd /../../..")
    assert sh(vm, "pwd") == "/\n"
    assert sh(vm, "ls /tmp") == "file\n"
    assert sh(vm, "cat /tmp/file") == "x\n"
    sh(vm, "rm /tmp/file")


def test_memory_is_returned_after_rm(vm):
    def fill_and_remove():
        sh(vm, "mkdir /tmp/big")
        assert "65536 bytes (66 kB, 64 KiB) copied" in sh(vm, "dd if=/dev/vda of=/tmp/big/f bs=4k count=16")
        during = meminfo(vm)
        sh(vm, "rm -r /tmp/big")
        return during

    # Once first: kmalloc keeps the pages of its size classes, so a class's first use
    # costs a page for good; the second round must then give back every page it took.
    fill_and_remove()
    before = meminfo(vm)
    during = fill_and_remove()
    assert during["PagesFree"] <= before["PagesFree"] - 16
    after = meminfo(vm)
    assert after["BytesInUse"] == before["BytesInUse"], (before, after)
    assert after["ObjectsInUse"] == before["ObjectsInUse"]
    assert after["PagesFree"] == before["PagesFree"]


def test_mount_tmpfs_and_umount(vm):
    assert sh(vm, "mount -t tmpfs none /mnt") == ""
    assert "none on /mnt type tmpfs (rw)" in sh(vm, "mount")
    sh(vm, "echo inside > /mnt/x")
    assert re.search(r"^none +\d+ +4 +\d+ +\d+% /mnt$", sh(vm, "df"), re.M)
    sh(vm, "cd /mnt")
    assert "umount: /mnt: target is busy." in vm.run("umount /mnt")
    sh(vm, "cd /")
    assert sh(vm, "umount /mnt") == ""
    assert sh(vm, "ls /mnt") == ""
    assert "umount: /mnt: not mounted." in vm.run("umount /mnt")
    assert "mount: /mnt: unknown filesystem type 'nofs'." in vm.run("mount -t nofs none /mnt")


def test_dev_has_a_node_per_disk_that_comes_and_goes_with_the_driver(vm):
    dev = sh(vm, "ls -l /dev")
    assert re.search(r"^brw-------    253,   0 vda$", dev, re.M), dev
    assert re.search(r"^brw-------    254,   0 sbd0$", dev, re.M), dev
    assert re.search(r"^crw-rw-rw-      1,   3 null$", dev, re.M), dev
    sh(vm, "rmmod sbd")
    assert "sbd0" not in sh(vm, "ls /dev")
    sh(vm, "modprobe sbd nr=2")
    assert [n for n in sh(vm, "ls /dev").split() if n.startswith(("sbd", "vd"))] == \
        ["sbd0", "sbd1", "vda"]
    assert sh(vm, "open /dev/sbd1") == "fd 3\n"
    assert "rmmod: ERROR: Module sbd is in use" in vm.run("rmmod sbd")
    assert "sbd1" in sh(vm, "ls /dev")
    sh(vm, "close 3")
    sh(vm, "rmmod sbd")
    assert "sbd" not in sh(vm, "ls /dev")
    sh(vm, "modprobe sbd")


def test_dd_through_dev_vda_reaches_the_host_image(vm):
    assert sh(vm, "hexdump -C -n 16 /dev/vda") == (
        "00000000  4b 6f 62 6f 6c 64 20 76  66 73 20 74 65 73 74 20  |Kobold vfs test |\n"
        "00000010\n")
    sh(vm, "echo written through /dev/vda > /tmp/w")
    out = sh(vm, "dd if=/tmp/w of=/dev/vda bs=512 seek=9")
    assert out.startswith("0+1 records in\n0+1 records out\n25 bytes copied, "), out
    assert re.search(r"copied, [\d.e-]+ s, [\d.]+ [kMG]?B/s$", out.strip())
    sh(vm, "blk flush /dev/vda")
    with open(vm.img, "rb") as f:
        f.seek(9 * 512)
        assert f.read(25) == b"written through /dev/vda\n"
    assert "|written through |" in sh(vm, "blk read /dev/vda 9")
    out = sh(vm, "dd if=/dev/vda of=/tmp/copy bs=1k skip=4 count=1")
    assert "1024 bytes (1.0 kB, 1.0 KiB) copied" in out
    assert sh(vm, "hexdump -C -n 8 -s 512 /tmp/copy").startswith("00000200  77 72 69 74")
    sh(vm, "rm /tmp/w /tmp/copy")


def test_char_devices_null_zero_full_kmsg_and_ttys1(vm):
    dev = sh(vm, "ls -l /dev")
    for line in ["crw-rw-rw-      1,   3 null", "crw-rw-rw-      1,   5 zero",
                 "crw-rw-rw-      1,   7 full", "crw-r--r--      1,  11 kmsg",
                 "crw-------      4,  64 ttyS0", "crw-------      4,  65 ttyS1"]:
        assert re.search("^%s$" % line, dev, re.M), (line, dev)
    # serial8250 registers Linux's four legacy lines; QEMU has two ports here
    assert "crw-------      4,  66 ttyS2" in dev
    assert vm.run("echo x > /dev/ttyS2") == "kobold: /dev/ttyS2: No such device or address\n"
    assert sh(vm, "readlink /sys/class/mem/null") == "../../devices/virtual/mem/null\n"
    assert sh(vm, "cat /sys/class/tty/ttyS1/dev") == "4:65\n"
    assert sh(vm, "echo gone > /dev/null") == "" and sh(vm, "cat /dev/null") == ""
    assert "3072 bytes (3.1 kB, 3.0 KiB) copied" in sh(vm, "dd if=/dev/zero of=/tmp/z bs=1k count=3")
    assert vm.run("hexdump -C /tmp/z") == (
        "00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n"
        "*\n00000c00\n")
    assert "echo: write error: No space left on device" in vm.run("echo x > /dev/full")
    out = vm.run("dd if=/dev/zero of=/dev/full count=1")
    assert "dd: error writing '/dev/full': No space left on device" in out
    assert "1+0 records in\n0+0 records out\n0 bytes copied" in out
    sh(vm, "echo into the log > /dev/kmsg")
    assert "into the log" in vm.run("dmesg").strip().split("\n")[-1]
    assert re.match(r"^\d,0,\d+,-;Kobold", sh(vm, "cat /dev/kmsg"))
    sh(vm, "echo out of the second port > /dev/ttyS1")
    with open(vm.com2, "rb") as f:
        assert f.read() == b"out of the second port\r\n"
    assert sh(vm, "mknod /tmp/ttyS3 c 4 67") == ""
    assert "cat: /tmp/ttyS3: No such device or address" in vm.run("cat /tmp/ttyS3")
    # an open node pins its driver's module; mem is built in, so this one pins nothing
    assert sh(vm, "open /dev/zero") == "fd 3\n" and sh(vm, "close 3") == ""
    # Ctrl-C stops an endless copy within the contract's 100 ms (plus the serial round trip)
    vm.send("dd if=/dev/zero of=/dev/null bs=512 count=100000000\r")
    vm.expect("dd if=")
    vm.send("\x03")
    vm.wait_prompt()
    assert "records out" in vm.child.before
    sh(vm, "rm /tmp/ttyS3 /tmp/z")


def test_tab_completes_any_path(vm):
    sh(vm, "mkdir /tmp/completion_dir")
    vm.send("ls /tmp/compl\t")
    vm.expect("completion_dir/")
    vm.send("\x15\r")
    vm.wait_prompt()
    vm.send("cat /sys/kernel/uevent_s\t")
    vm.expect("uevent_seqnum ")
    vm.send("\r")
    vm.wait_prompt()
    assert re.search(r"^\d+\s*$", vm.child.before.split("\n", 1)[1].strip(), re.M)
    sh(vm, "rmdir /tmp/completion_dir")


def test_disk_removed_under_an_open_node(vm):
    """Last: the disk goes. Its node goes at once, I/O fails, the release waits for close."""
    assert sh(vm, "open /dev/vda") == "fd 3\n"
    sh(vm, "echo 1 > /sys/bus/pci/devices/0000:00:04.0/remove")
    assert "vda" not in sh(vm, "ls /dev").split()
    assert sh(vm, "fds") == "3 /dev/vda (deleted)\n"
    assert "read: /dev/vda: No such device" in vm.run("read 3")
    assert re.search(r"^\s+1 deleted\s+vda$", sh(vm, "kobjects"), re.M)
    sh(vm, "close 3")
    assert "vda" not in sh(vm, "kobjects")
