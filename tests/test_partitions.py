"""test_partitions.py: partition tables read by add_disk (an MBR with logical
partitions, a GPT, a GPT whose primary header is damaged), partitions as
kobjects below their disk, I/O bounded to a partition, lsblk's tree, and
blockdev --rereadpt refused while a partition is held. One QEMU boot."""
import re

import partimg
from test_virtio import cat, disk, image, sh

SECTOR = 512


def test_mbr_and_gpt_partitions(boot_with, tmp_path):
    mbr = partimg.mbr(str(tmp_path / "mbr.img"), 16, [(2048, 8192, partimg.LINUX),
                                                      (10240, 20000, partimg.EXTENDED)],
                      [(12288, 2048), (16384, 4096)], ext_index=1)
    gpt = partimg.gpt(str(tmp_path / "gpt.img"), 8, [(2048, 6143), (6144, 14335)])
    bad = partimg.gpt(str(tmp_path / "bad.img"), 8, [(2048, 4095)], corrupt_primary=True)
    k = boot_with(qemu_args=disk(mbr, "d0") + disk(gpt, "d1") + disk(bad, "d2"))
    assert sh(k, "lsblk") == (
        "NAME   MAJ:MIN RM   SIZE RO TYPE\n"
        "sbd0   254:0    0     4M  0 disk\n"
        "vda    253:0    0    16M  0 disk\n"
        "├─vda1 253:1    0     4M  0 part\n"
        "├─vda2 253:2    0     1K  0 part\n"
        "├─vda5 253:5    0     1M  0 part\n"
        "└─vda6 253:6    0     2M  0 part\n"
        "vdb    253:16   0     8M  0 disk\n"
        "├─vdb1 253:17   0     2M  0 part\n"
        "└─vdb2 253:18   0     4M  0 part\n"
        "vdc    253:32   0     8M  0 disk\n"
        "└─vdc1 253:33   0     1M  0 part\n")
    log = k.run("dmesg")
    assert " vda: vda1 vda2 < vda5 vda6 >\n" in log
    assert " vdb: vdb1 vdb2\n" in log
    assert "vdc: GPT: primary header at sector 1: header CRC mismatch" in log
    assert "vdc: Primary GPT is invalid, using alternate GPT." in log

    # Each partition is a kobject below its disk, and in /sys/class/block by a link.
    P = "/sys/class/block/vda/vda5"
    assert sh(k, "ls " + P).split() == ["dev", "partition", "ro", "size", "start", "stat", "uevent"]
    assert [cat(k, P + "/" + f) for f in ["dev", "partition", "start", "size", "ro"]] == \
        ["253:5", "5", "12288", "2048", "0"]
    assert sh(k, "readlink /sys/class/block/vda5").strip() == "vda/vda5"
    assert cat(k, "/sys/class/block/vdb2/start") == "6144"
    # 2.6.10's block_hotplug: a partition's keys name its disk's device first
    disk_dev = sh(k, "readlink -f /sys/class/block/vda/device").strip()[len("/sys"):]
    assert re.match(r"/devices/pci0000:00/0000:00:0[0-9a-f]\.0/virtio\d+$", disk_dev), disk_dev
    assert cat(k, P + "/uevent").split("\n") == \
        ["PHYSDEVPATH=" + disk_dev, "PHYSDEVBUS=virtio", "PHYSDEVDRIVER=virtio_blk",
         "MAJOR=253", "MINOR=5", "DEVNAME=vda5", "DEVTYPE=partition", "PARTN=5"]
    events = sh(k, "udevadm monitor --journal -p")
    assert "add      /class/block/vda/vda5 (block)\nACTION=add\nDEVPATH=/class/block/vda/vda5\n" \
           "SUBSYSTEM=block\n" in events
    assert events.index("/class/block/vda (block)") < events.index("/class/block/vda/vda1 (block)")

    # I/O on vda5 lands at its start and stops at its end; its stat counts it.
    assert sh(k, "blk write vda5 2047 last sector of vda5") == ""
    assert k.run("blk write vda5 2048 one too far") == "blk: vda5: Invalid argument\n"
    assert k.run("blk read vda5 2040 9") == "blk: vda5: Invalid argument\n"
    assert "|last sector of v|" in sh(k, "blk read vda %d" % (12288 + 2047))
    sh(k, "blk flush vda")
    with open(mbr, "rb") as f:
        f.seek((12288 + 2047) * SECTOR)
        assert f.read(20) == b"last sector of vda5\0"
    assert cat(k, P + "/stat").split() == ["0", "0", "1", "1"]	# the refused ones are not counted
    assert k.run("blk read vda7 0") == "blk: vda7: No such device\n"

    # Re-reading the table: refused while a partition is held, then done.
    assert k.run("open /sys/class/block/vda/vda1/size") == "fd 3\n"
    assert k.run("blockdev --rereadpt vda") == \
        "blockdev: ioctl error on BLKRRPART: Device or resource busy\n"
    assert k.run("blockdev --rereadpt vda1") == "blockdev: ioctl error on BLKRRPART: Invalid argument\n"
    assert k.run("blockdev --rereadpt sbd0") == "blockdev: ioctl error on BLKRRPART: Invalid argument\n"
    assert sh(k, "close 3") == ""
    partimg.mbr(mbr, 16, [(2048, 4096, partimg.LINUX), (8192, 100, partimg.LINUX)])
    k.run("blockdev --rereadpt vda")
    assert [l.split()[0] for l in sh(k, "lsblk").split("\n")[2:5]] == ["vda", "├─vda1", "└─vda2"]
    assert cat(k, "/sys/class/block/vda2/size") == "100"
    assert "No such file" in k.run("ls /sys/class/block/vda5")
    events = sh(k, "udevadm monitor --journal")
    assert "remove   /class/block/vda/vda6 (block)" in events
    assert sh(k, "blockdev --getsz vda1") == "4096\n"


def test_partitions_are_block_devices_to_every_command(boot_with, tmp_path):
    """blk bench and blockdev take a partition by name, and a disk by name or by
    its node, as util-linux and fio do."""
    mbr = partimg.mbr(str(tmp_path / "mbr.img"), 16, [(2048, 8192, partimg.LINUX),
                                                      (10240, 20000, partimg.EXTENDED)],
                      [(12288, 2048), (16384, 4096)], ext_index=1)
    with open(mbr, "rb") as f:
        before = f.read()
    k = boot_with(qemu_args=disk(mbr, "d0"))
    assert sh(k, "blockdev --getsz /dev/sbd0") == "8192\n"
    assert sh(k, "blockdev --getsz /dev/vda") == "%d\n" % (16 * 2048)
    assert sh(k, "blockdev --getsz vda5") == "2048\n"
    assert sh(k, "blockdev --getsize64 vda6") == "%d\n" % (4096 * SECTOR)
    assert k.run("blockdev --getsz /dev/null") == "blockdev: cannot open /dev/null: No such file or directory\n"
    out = sh(k, "blk bench vda5 write seq 4 1 --verify")
    assert out.startswith("vda5 write seq bs=4K depth=1: 1048576 bytes in "), out
    out = sh(k, "blk bench vda5 read seq 4 1 --verify")
    assert out.startswith("vda5 read seq bs=4K depth=1: 1048576 bytes in "), out
    assert k.run("blk bench vda5 read seq 2048 1") == "blk: vda5: Invalid argument\n"  # 2 MiB > vda5
    sh(k, "blk flush vda")
    with open(mbr, "rb") as f:  # the pattern filled vda5 and nothing beside it
        after = f.read()
    start, end = 12288 * SECTOR, (12288 + 2048) * SECTOR
    assert after[start:start + 8] == bytes([0, 0, 0, 0, 1, 0, 0, 0])  # word i of sector 0 holds i
    assert after[end - SECTOR:end - SECTOR + 4] == (2047 * 128).to_bytes(4, "little")
    assert after[:start] == before[:start] and after[end:] == before[end:]


def test_long_output_reaches_a_file_and_dev_null_whole(boot_with, tmp_path):
    """A command's output past the shell's 64 KiB buffer goes on to the file as it
    comes; /dev/null takes any amount."""
    data = bytes((i * 7919 + i // 256) & 0xff for i in range(300 * SECTOR))
    k = boot_with(qemu_args=disk(image(tmp_path, "r.img", 1, data=data), "d0"))
    assert k.run("blk read vda 0 300 > /dev/null") == ""
    assert k.run("blk read vda 0 300 > /tmp/big") == ""
    lines = 300 * SECTOR // 16
    assert "Size: %d " % (lines * 79 + 9) in sh(k, "stat /tmp/big")
    assert k.run("blk read vda 0 300 >> /tmp/big") == ""
    assert "Size: %d " % (2 * (lines * 79 + 9)) in sh(k, "stat /tmp/big")


def test_partition_nodes_reach_their_own_sectors_only(boot_with, tmp_path):
    """/dev/vda5 is a node of its own (253:5), made with the partition and gone with
    it; reads and writes through it, synchronous or N in flight, stay inside it."""
    mbr = partimg.mbr(str(tmp_path / "nodes.img"), 16, [(2048, 8192, partimg.LINUX),
                                                       (10240, 20000, partimg.EXTENDED)],
                      [(12288, 2048), (16384, 4096)], ext_index=1)
    with open(mbr, "r+b") as f:
        for sector, mark in [(2048, b"first partition"), (12288, b"fifth partition")]:
            f.seek(sector * SECTOR)
            f.write(mark)
    with open(mbr, "rb") as f:
        before = f.read()
    k = boot_with(qemu_args=disk(mbr, "d0"))
    listing = sh(k, "ls -l /dev")
    for name, minor in [("vda1", 1), ("vda5", 5), ("vda6", 6)]:
        assert re.search(r"^brw------- +253, +%d %s$" % (minor, name), listing, re.M), listing
    assert "fifth partition" in sh(k, "hexdump -C -n 16 /dev/vda5")
    assert "first partition" in sh(k, "hexdump -C -n 16 /dev/vda1")
    out = k.run("dd if=/dev/zero of=/dev/vda5 bs=512 count=1 seek=2048")
    assert "No space left on device" in out, out  # one sector past vda5's end
    assert "bytes" in sh(k, "dd if=/dev/zero of=/dev/vda5 bs=512 count=1 seek=2047")
    out = sh(k, "dd if=/dev/vda6 of=/dev/null bs=4096 depth=4")
    assert "\n%d bytes" % (4096 * SECTOR) in out, out  # all of vda6, no more
    sh(k, "blk flush vda")
    with open(mbr, "rb") as f:
        data = f.read()
    last = (12288 + 2047) * SECTOR  # vda5's last sector: the only one written
    assert data[last:last + SECTOR] == b"\0" * SECTOR
    assert data[:last] == before[:last] and data[last + SECTOR:] == before[last + SECTOR:]
    fd = re.fullmatch(r"fd (\d+)\n", sh(k, "open /dev/vda5")).group(1)  # the node holds vda5
    assert k.run("blockdev --rereadpt vda") == \
        "blockdev: ioctl error on BLKRRPART: Device or resource busy\n"
    assert sh(k, "close " + fd) == ""
    assert sh(k, "blockdev --rereadpt vda") == ""
    assert "vda5" in sh(k, "ls /dev")  # the table read again: vda5 and its node again
    assert sh(k, "rmmod virtio_blk") == ""
    assert not re.search(r" vda\d*$", sh(k, "ls -l /dev"), re.M)
