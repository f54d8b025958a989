"""test_block.py: the block class, the sbd RAM disk driver and the blkstat interface."""
import re


def lsblk(kernel):
    rows = kernel.run("lsblk").strip().split("\n")
    assert rows[0].split() == ["NAME", "MAJ:MIN", "RM", "SIZE", "RO", "TYPE"], rows
    return {r.split()[0]: r.split() for r in rows[1:]}


def test_default_ram_disk(kernel):
    disks = lsblk(kernel)
    assert disks["sbd0"][2:] == ["0", "4M", "0", "disk"]
    assert kernel.run("ls /sys/class/sbd").split() == ["sbd0"]


def test_several_disks_with_the_sizes_asked_for(boot_with):
    k = boot_with("sbd.nr=3 sbd.size=1024")
    disks = lsblk(k)
    assert sorted(d for d in disks if d.startswith("sbd")) == ["sbd0", "sbd1", "sbd2"]
    for i in range(3):
        assert k.run("cat /sys/class/block/sbd%d/size" % i).strip() == "2048"
        assert disks["sbd%d" % i][3] == "1M"
    majors = {disks[d][1].split(":")[0] for d in disks if d.startswith("sbd")}
    assert len(majors) == 1
    k.run("rmmod sbd")
    k.run("modprobe sbd nr=2 size=512")
    disks = lsblk(k)
    assert sorted(d for d in disks if d.startswith("sbd")) == ["sbd0", "sbd1"]
    assert k.run("cat /sys/class/block/sbd1/size").strip() == "1024"


def test_bad_parameters_are_refused_and_change_nothing(kernel):
    before = sorted(kernel.run("kobjects").split("\n"))
    kernel.run("rmmod sbd")
    out = kernel.run("modprobe sbd nr=17")
    assert out.strip().endswith("modprobe: ERROR: could not insert 'sbd': Invalid argument"), out
    assert "Invalid argument" in kernel.run("modprobe sbd nr=abc")
    assert "Invalid argument" in kernel.run("modprobe sbd size=0")
    assert "sbd" not in kernel.run("lsmod")
    assert "sbd" not in kernel.run("ls /sys/class")
    kernel.run("modprobe sbd")
    assert sorted(kernel.run("kobjects").split("\n")) == before


def test_attributes_and_uevent_agree(kernel):
    dev = kernel.run("cat /sys/class/block/sbd0/dev").strip()
    major, minor = dev.split(":")
    # a class device's uevent file is write-only (2.6.15-2.6.25): udev knows the keys
    assert kernel.run("cat /sys/class/block/sbd0/uevent").strip() == \
        "cat: /sys/class/block/sbd0/uevent: Permission denied"
    info = kernel.run("udevadm info /sys/class/block/sbd0").split("\n")
    assert [l for l in info if l.startswith(("E: MAJOR", "E: MINOR", "E: DEVNAME", "E: DEVTYPE"))] == \
        ["E: MAJOR=" + major, "E: MINOR=" + minor, "E: DEVNAME=sbd0", "E: DEVTYPE=disk"]
    row = lsblk(kernel)["sbd0"]
    assert row[1] == dev
    assert "E: SBD_SIZE_KB=4096" in kernel.run("udevadm info /sys/class/sbd/sbd0").split("\n")


def test_ro_written_and_honoured(kernel):
    kernel.run("blk write sbd0 3 before")
    kernel.run("echo 1 > /sys/class/sbd/sbd0/ro")
    assert kernel.run("cat /sys/class/block/sbd0/ro").strip() == "1"
    assert lsblk(kernel)["sbd0"][4] == "1"
    assert kernel.run("blk write sbd0 3 after").strip() == "blk: sbd0: Read-only file system"
    assert "|before" in kernel.run("blk read sbd0 3")
    kernel.run("echo 0 > /sys/class/sbd/sbd0/ro")
    assert kernel.run("blk write sbd0 3 after") == ""
    assert "|after" in kernel.run("blk read sbd0 3")


def test_write_read_round_trip_and_hexdump_format(kernel):
    assert kernel.run('blk write sbd0 7 "Hello, block layer"') == ""
    out = kernel.run("blk read sbd0 7")
    lines = out.strip().split("\n")
    assert lines[0] == "00000e00  48 65 6c 6c 6f 2c 20 62  6c 6f 63 6b 20 6c 61 79  |Hello, block lay|"
    assert lines[1].startswith("00000e10  65 72 00 00")
    assert lines[2] == "00000e20  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|"
    assert lines[3] == "*"
    assert lines[4] == "00001000"
    assert len(lines) == 5


def test_out_of_range_and_bad_arguments(kernel):
    assert kernel.run("blk read sbd0 8192").strip() == "blk: sbd0: Invalid argument"
    assert kernel.run("blk read sbd0 8191 2").strip() == "blk: sbd0: Invalid argument"
    assert kernel.run("blk write sbd0 99999999 x").strip() == "blk: sbd0: Invalid argument"
    assert kernel.run("blk read sbd9 0").strip() == "blk: sbd9: No such device"
    assert kernel.run("blk read sbd0 zero").strip() == "blk: invalid sector 'zero'"
    assert "usage" in kernel.run("blk read sbd0")
    assert "usage" in kernel.run("blk")
    assert "usage" in kernel.run("blk bench sbd0 read seq 0")
    assert kernel.run("blk flush sbd0") == ""


def test_blk_bench_prints_figures(kernel):
    out = kernel.run("blk bench sbd0 read seq 64 2")
    m = re.match(r"sbd0 read seq bs=64K depth=1: (\d+) bytes in (\d+)\.(\d{3}) ms, (\d+)\.(\d{2}) MiB/s, (\d+) IOPS",
                 out.strip())
    assert m, out
    assert int(m.group(1)) == 2 * 1024 * 1024
    assert int(m.group(6)) > 0
    assert "bytes in" in kernel.run("blk bench sbd0 write rand 4 1")


def test_blkstat_interface_semantics(boot_with):
    k = boot_with("sbd.nr=2")
    for d in ("sbd0", "sbd1"):
        assert "stat" in k.run("ls /sys/class/block/%s" % d).split()
    k.run("blk read sbd0 0 4")
    fields = k.run("cat /sys/class/block/sbd0/stat").split()
    assert len(fields) == 11
    assert fields[0] == "1" and fields[2] == "4"
    k.run("trace on")
    out = k.run("rmmod blkstat")
    k.run("trace off")
    removed = re.findall(r"trace: class_interface_remove (\S+)", out)
    assert removed == ["/class/block/sbd0", "/class/block/sbd1"], out
    for d in ("sbd0", "sbd1"):
        assert "stat" not in k.run("ls /sys/class/block/%s" % d).split()
    k.run("trace on")
    out = k.run("modprobe blkstat")
    k.run("trace off")
    added = re.findall(r"trace: class_interface_add (\S+)", out)
    assert added == ["/class/block/sbd0", "/class/block/sbd1"], out
    for d in ("sbd0", "sbd1"):
        assert "stat" in k.run("ls /sys/class/block/%s" % d).split()
    # a disk that joins later gets add from the loaded interface
    k.run("rmmod sbd")
    k.run("modprobe sbd nr=3")
    assert "stat" in k.run("ls /sys/class/block/sbd2").split()


def test_load_unload_cycles_leave_memory_and_kobjects_as_they_were(kernel):
    def snapshot():
        mem = dict(re.findall(r"^(\w+):\s+(\d+)$", kernel.run("meminfo"), re.M))
        return mem["BytesInUse"], mem["ObjectsInUse"], sorted(kernel.run("kobjects").split("\n"))

    kernel.run("rmmod sbd")
    kernel.run("modprobe sbd")
    before = snapshot()
    for _ in range(10):
        kernel.run("rmmod sbd")
        kernel.run("rmmod blkstat")
        kernel.run("modprobe sbd nr=4 size=64")
        kernel.run("modprobe blkstat")
        kernel.run("rmmod sbd")
        kernel.run("modprobe sbd")
    assert snapshot() == before


def test_open_attributes_pin_their_own_modules(kernel):
    assert kernel.run("open /sys/class/sbd/sbd0/ro").strip() == "fd 3"
    assert kernel.run("open /sys/class/block/sbd0/stat").strip() == "fd 4"
    assert kernel.run("rmmod sbd").strip() == "rmmod: ERROR: Module sbd is in use"
    assert kernel.run("rmmod blkstat").strip() == "rmmod: ERROR: Module blkstat is in use"
    assert kernel.run("close 3") == ""
    # stat is blkstat's: the disk can go while blkstat, and so stat's code, stays
    assert kernel.run("rmmod sbd") == ""
    assert kernel.run("read 4").strip() == "read: /sys/class/block/sbd0/stat: No such device"
    assert "sbd" not in kernel.run("lsblk")
    assert "rmmod: ERROR: Module blkstat is in use" in kernel.run("rmmod blkstat")
    kernel.run("trace on")
    out = kernel.run("close 4")
    assert re.search(r"trace: \S*release\S* \S*sbd0", out), out
    kernel.run("trace off")
    assert "sbd0" not in kernel.run("kobjects")
    assert kernel.run("rmmod blkstat") == ""
    kernel.run("modprobe blkstat")
    kernel.run("modprobe sbd")
    assert kernel.run("cat /sys/class/sbd/sbd0/ro").strip() == "0"
