"""test_sysfs.py: the shell over /sys: ls, cd, pwd, cat, echo > FILE, tree, readlink,
open/read/write/close/fds, udevadm, kobjects and trace, with their errors."""
import re


def test_top_of_sys(kernel):
    assert kernel.run("ls /sys").split() == ["bus", "class", "devices", "kernel"]
    assert kernel.run("ls /").split() == ["sys"]


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
    assert re.search(r"^1 directories, \d+ files$", out, re.M), out


def test_open_file_outlives_rmmod_and_release_runs_at_close(kernel):
    assert kernel.run("open /sys/class/sbd/sbd0/version").strip() == "fd 3"
    assert kernel.run("read 3").strip() == "1.0"
    kernel.run("rmmod sbd")
    assert "/class/sbd/sbd0" not in kernel.run("ls /sys/class/sbd")
    assert kernel.run("read 3").strip() == "read: /sys/class/sbd/sbd0/version: No such device"
    assert kernel.run("fds").strip() == "3 /sys/class/sbd/sbd0/version (deleted)"
    objs = kernel.run("kobjects")
    assert re.search(r"^\s+\d+ deleted\s+sbd0$", objs, re.M), objs
    kernel.run("trace on")
    out = kernel.run("close 3")
    kernel.run("trace off")
    assert "release" in out and "sbd0" in out, out
    assert "sbd0" not in kernel.run("kobjects")
    assert kernel.run("read 3").strip() == "read: 3: Bad file descriptor"
    kernel.run("modprobe sbd")
    assert kernel.run("cat /sys/class/sbd/sbd0/version").strip() == "1.0"


def test_write_through_open_fd(kernel):
    assert kernel.run("open /sys/class/sbd/sbd0/ro").strip() == "fd 3"
    kernel.run("write 3 1")
    assert kernel.run("read 3").strip() == "1"
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
    mon = kernel.run("udevadm monitor")
    assert re.search(r"^KERNEL\[\d+\.\d{6}\] add      /class/block/sbd0 \(block\)$", mon, re.M), mon
    props = kernel.run("udevadm monitor -p")
    block = props[props.index("add      /class/block/sbd0"):].split("\n\n")[0]
    for key in ["ACTION=add", "DEVPATH=/class/block/sbd0", "SUBSYSTEM=block", "SEQNUM=",
                "MAJOR=" + major, "MINOR=" + minor, "DEVNAME=sbd0"]:
        assert key in block, block
    sbd = props[props.index("add      /class/sbd/sbd0"):].split("\n\n")[0]
    assert "SBD_SIZE_KB=4096" in sbd


def test_uevent_file_sends_events(kernel):
    before = kernel.run("cat /sys/kernel/uevent_seqnum").strip()
    kernel.run("echo change > /sys/class/block/sbd0/uevent")
    after = kernel.run("cat /sys/kernel/uevent_seqnum").strip()
    assert int(after) == int(before) + 1
    assert "change   /class/block/sbd0 (block)" in kernel.run("udevadm monitor")
    assert "Invalid argument" in kernel.run("echo explode > /sys/class/block/sbd0/uevent")
    assert kernel.run("cat /sys/kernel/uevent_seqnum").strip() == after


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
