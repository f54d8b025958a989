"""test_sysfs.py: the shell over /sys: ls, cd, pwd, cat, echo > FILE, tree, readlink,
open/read/write/close/fds, udevadm, kobjects and trace, with their errors."""
import re


def disk_image(tmp_path, kib=1024):
    path = tmp_path / "vd.img"
    with open(path, "wb") as f:
        f.truncate(kib * 1024)
    return ["-drive", "file=%s,if=none,id=vd0,format=raw" % path,
            "-device", "virtio-blk-pci,drive=vd0"]


def test_top_of_sys(kernel):
    assert kernel.run("ls /sys").split() == ["block", "bus", "class", "devices", "firmware", "kernel", "power"]
    assert kernel.run("ls /").split() == ["dev", "etc", "mnt", "proc", "sys", "tmp"]


def test_ls_is_sorted_and_l_shows_types_and_links(kernel):
    names = kernel.run("ls /sys/class/block/sbd0").split()
    assert names == sorted(names)
    assert {"dev", "size", "ro", "removable", "uevent"} <= set(names)
    longfmt = kernel.run("ls -l /sys/class/sbd/sbd0")
    assert re.search(r"^-rw-r--r-- ro$", longfmt, re.M), longfmt
    assert re.search(r"^-r--r--r-- version$", longfmt, re.M), longfmt


def test_ls_errors(kernel):
    assert kernel.run("ls /sys/nope").strip() == \
        "ls: cannot access '/sys/nope': No such file or directory"
    assert "invalid option" in kernel.run("ls -z")
    assert kernel.run('ls -l ""').strip() == "ls: cannot access '': No such file or directory"


def test_cd_pwd_relative_dot_dot_and_root(kernel):
    kernel.run("cd /sys/class")
    assert kernel.cwd() == "/sys/class"
    assert kernel.run("pwd").strip() == "/sys/class"
    kernel.run("cd sbd/sbd0")
    assert kernel.cwd() == "/sys/class/sbd/sbd0"
    assert kernel.run("cat version").strip() == "1.0"
    kernel.run("cd ../../..")
    assert kernel.cwd() == "/sys"
    kernel.run("cd ../../../..")
    assert kernel.cwd() == "/"
    kernel.run("cd /sys//class/./block/")
    assert kernel.cwd() == "/sys/class/block"
    kernel.run("cd")
    assert kernel.cwd() == "/"


def test_cd_errors_leave_cwd_alone(kernel):
    kernel.run("cd /sys/class")
    assert kernel.run("cd nope").strip() == "cd: nope: No such file or directory"
    assert kernel.run("cd sbd/sbd0/version").strip() == "cd: sbd/sbd0/version: Not a directory"
    assert kernel.cwd() == "/sys/class"


def test_cat_reads_attributes_and_reports_errors(kernel):
    assert kernel.run("cat /sys/class/block/sbd0/size").strip() == "8192"
    assert kernel.run("cat /sys/class/block/sbd0/dev /sys/class/block/sbd0/ro").split() == \
        [kernel.run("cat /sys/class/block/sbd0/dev").strip(), "0"]
    assert kernel.run("cat /sys/class").strip() == "cat: /sys/class: Is a directory"
    assert kernel.run("cat /sys/x").strip() == "cat: /sys/x: No such file or directory"


def test_echo_stores_and_errors(kernel):
    kernel.run("echo 1 > /sys/class/sbd/sbd0/ro")
    assert kernel.run("cat /sys/class/block/sbd0/ro").strip() == "1"
    assert kernel.run("echo 2 > /sys/class/sbd/sbd0/ro").strip() == \
        "echo: write error: Invalid argument"
    assert kernel.run("cat /sys/class/block/sbd0/ro").strip() == "1"
    assert kernel.run("echo 1 > /sys/class/block/sbd0/size").strip() == \
        "echo: write error: Permission denied"
    assert kernel.run("echo " + "x" * 900 + " > /sys/class/sbd/sbd0/ro").strip() == \
        "echo: write error: Invalid argument"


def test_readlink_relative_and_resolved(kernel):
    assert kernel.run("readlink /sys/class/sbd/sbd0").strip() == \
        "readlink: /sys/class/sbd/sbd0: Invalid argument"
    assert kernel.run("readlink -f /sys/class/sbd/../block/./sbd0").strip() == \
        "/sys/class/block/sbd0"


def test_tree_draws_the_class(kernel):
    out = kernel.run("tree /sys/class/sbd")
    assert out.startswith("/sys/class/sbd\n`-- sbd0\n"), out
    assert "    |-- ro\n" in out and "    `-- version\n" in out
    assert re.search(r"^1 directory, \d+ files$", out, re.M), out


def test_open_attribute_pins_its_module(kernel):
    assert kernel.run("open /sys/class/sbd/sbd0/version").strip() == "fd 3"
    assert re.search(r"^sbd\s+\d+  1$", kernel.run("lsmod"), re.M)
    assert kernel.run("rmmod sbd").strip() == "rmmod: ERROR: Module sbd is in use"
    assert kernel.run("cat /sys/class/sbd/sbd0/version").strip() == "1.0"
    assert kernel.run("read 3").strip() == "1.0"
    assert kernel.run("close 3") == ""
    # the core's uevent file pins the class's owner (sbd_class.owner = THIS_MODULE)
    assert kernel.run("open /sys/class/sbd/sbd0/uevent").strip() == "fd 3"
    assert kernel.run("rmmod sbd").strip() == "rmmod: ERROR: Module sbd is in use"
    assert kernel.run("close 3") == ""
    assert re.search(r"^sbd\s+\d+  0$", kernel.run("lsmod"), re.M)
    assert kernel.run("rmmod sbd") == ""
    assert "sbd" not in kernel.run("lsmod")
    kernel.run("modprobe sbd")
    assert kernel.run("cat /sys/class/sbd/sbd0/version").strip() == "1.0"


def test_read_fd_serves_one_snapshot_by_offset(kernel):
    assert kernel.run("open /sys/class/sbd/sbd0/ro").strip() == "fd 3"
    assert kernel.run("read 3") == "0\n"
    assert kernel.run("echo 1 > /sys/class/sbd/sbd0/ro") == ""
    assert kernel.run("read 3") == ""  # at the end of the first show()'s snapshot
    assert kernel.run("close 3") == ""
    assert kernel.run("open /sys/class/sbd/sbd0/ro").strip() == "fd 3"
    assert kernel.run("read 3") == "1\n"  # a new open calls show() again


def test_open_file_outlives_pci_remove_and_release_runs_at_close(boot_with, tmp_path):
    k = boot_with(qemu_args=disk_image(tmp_path))
    bdf = k.run("readlink -f /sys/class/block/vda/device").strip().split("/")[-2]
    assert re.match(r"^0000:00:[0-9a-f]{2}\.\d$", bdf), bdf
    assert k.run("open /sys/class/block/vda/size").strip() == "fd 3"
    assert k.run("read 3").strip() == "2048"
    assert k.run("echo 1 > /sys/bus/pci/devices/%s/remove" % bdf) == ""
    assert "virtio_blk" in k.run("lsmod")  # the driver stays; its device went
    assert "vda" not in k.run("ls /sys/class/block /sys/block")
    assert k.run("read 3").strip() == "read: /sys/class/block/vda/size: No such device"
    assert k.run("fds").strip() == "3 /sys/class/block/vda/size (deleted)"
    objs = k.run("kobjects")
    assert re.search(r"^\s+\d+ deleted\s+vda$", objs, re.M), objs
    k.run("trace on")
    out = k.run("close 3")
    k.run("trace off")
    assert re.search(r"trace: \S*release\S* \S*vda", out), out
    assert "vda" not in k.run("kobjects")
    assert k.run("read 3").strip() == "read: 3: Bad file descriptor"
    assert "vda: 2048 sectors" in k.run("echo 1 > /sys/bus/pci/rescan")
    assert k.run("cat /sys/block/vda/size").strip() == "2048"


def test_sys_block_links_follow_the_disks(kernel):
    assert kernel.run("ls -l /sys/block").strip() == "lrwxrwxrwx sbd0 -> ../class/block/sbd0"
    assert kernel.run("readlink -f /sys/block/sbd0").strip() == "/sys/class/block/sbd0"
    assert kernel.run("cat /sys/block/sbd0/size").strip() == "8192"
    kernel.run("rmmod sbd")
    assert kernel.run("ls /sys/block") == ""
    kernel.run("modprobe sbd nr=2")
    assert kernel.run("ls /sys/block").split() == ["sbd0", "sbd1"]


def test_write_through_open_fd(kernel):
    assert kernel.run("open /sys/class/sbd/sbd0/ro").strip() == "fd 3"
    assert kernel.run("write 3 1") == ""
    # one position for reads and writes, as in 2.6: the write moved it past "1\n"
    assert kernel.run("read 3") == ""
    assert kernel.run("cat /sys/class/sbd/sbd0/ro").strip() == "1"
    assert "Invalid argument" in kernel.run("write 3 7")
    assert kernel.run("close 3") == ""
    assert "Bad file descriptor" in kernel.run("close 3")
    assert "Bad file descriptor" in kernel.run("read banana")


def test_udevadm_info_and_monitor(kernel):
    info = kernel.run("udevadm info /sys/class/block/sbd0")
    assert "P: /class/block/sbd0\n" in info
    assert "N: sbd0\n" in info
    assert "E: SUBSYSTEM=block\n" in info
    major, minor = kernel.run("cat /sys/class/block/sbd0/dev").strip().split(":")
    assert "E: MAJOR=%s\n" % major in info and "E: MINOR=%s\n" % minor in info
    walk = kernel.run("udevadm info -a /sys/class/block/sbd0")
    assert "looking at device '/class/block/sbd0':" in walk
    assert 'ATTR{size}=="8192"' in walk
    mon = kernel.run("udevadm monitor --journal")
    assert re.search(r"^KERNEL\[\d+\.\d{6}\] add      /class/block/sbd0 \(block\)$", mon, re.M), mon
    props = kernel.run("udevadm monitor --journal -p")
    block = props[props.index("add      /class/block/sbd0"):].split("\n\n")[0]
    for key in ["ACTION=add", "DEVPATH=/class/block/sbd0", "SUBSYSTEM=block", "SEQNUM=",
                "MAJOR=" + major, "MINOR=" + minor, "DEVNAME=sbd0"]:
        assert key in block, block
    sbd = props[props.index("add      /class/sbd/sbd0"):].split("\n\n")[0]
    assert "SBD_SIZE_KB=4096" in sbd


def test_uevent_file_sends_events(kernel):
    before = kernel.run("cat /sys/kernel/uevent_seqnum").strip()
    # a class device's uevent, as 2.6.15-2.6.25: any write sends add
    kernel.run("echo change > /sys/class/block/sbd0/uevent")
    after = kernel.run("cat /sys/kernel/uevent_seqnum").strip()
    assert int(after) == int(before) + 1
    journal = kernel.run("udevadm monitor --journal").strip().split("\n")
    assert journal[-1].endswith("add      /class/block/sbd0 (block)"), journal[-3:]
    assert kernel.run("echo explode > /sys/class/block/sbd0/uevent") == ""
    assert int(kernel.run("cat /sys/kernel/uevent_seqnum")) == int(after) + 1
    # a struct device's takes an action name and refuses anything else
    assert "Invalid argument" in kernel.run("echo explode > /sys/class/vtconsole/vtcon0/uevent")
    assert int(kernel.run("cat /sys/kernel/uevent_seqnum")) == int(after) + 1


def test_trace_logs_registration(kernel):
    kernel.run("trace on")
    out = kernel.run("modprobe sbd nr=2")
    out = kernel.run("rmmod sbd") + kernel.run("modprobe sbd nr=2")
    kernel.run("trace off")
    assert "trace: class_device_register" in out or "trace: class_device_add" in out, out
    assert "sbd1" in out
    assert "trace is off" in kernel.run("trace")


def test_tab_completes_paths(kernel):
    kernel.send("cat /sys/class/sb\t")
    kernel.expect("/sys/class/sbd/")
    kernel.send("sbd0/ver\t")
    kernel.expect("version ")
    kernel.send("\r")
    kernel.wait_prompt()
    assert "1.0" in kernel.output()
