"""test_devapi.py: the tree in transition, from the shell. A class member of
the newer API (vtcon0, a struct device made by device_create) lives in
/sys/devices/virtual/<class>/ and its class holds a link to it; the article's
class devices (sbd0) stay directories in /sys/class. Both send events with the
same core variables, both have a uevent file that sends them, and the tools
(udevadm info, tree, kobjects) show both. One boot."""
import re

import pytest

import kobold

VT = "/sys/devices/virtual/vtconsole/vtcon0"


@pytest.fixture(scope="module")
def vm():
    k = kobold.boot()
    yield k
    k.close()


def test_a_struct_device_member_is_a_link_a_class_device_a_directory(vm):
    assert vm.run("ls -l /sys/class/vtconsole").strip() == \
        "lrwxrwxrwx vtcon0 -> ../../devices/virtual/vtconsole/vtcon0"
    sbd = vm.run("ls -l /sys/class/sbd").strip()
    assert re.match(r"^d\S+ sbd0$", sbd), sbd
    assert vm.run("readlink -f /sys/class/vtconsole/vtcon0").strip() == VT
    assert vm.run("readlink %s/subsystem" % VT).strip() == "../../../../class/vtconsole"
    assert vm.run("ls /sys/devices/virtual/vtconsole").split() == ["vtcon0"]
    assert vm.run("ls %s" % VT).split() == ["bind", "name", "subsystem", "uevent"]
    assert "device" not in vm.run("ls /sys/class/sbd/sbd0").split()  # no parent: no link


def test_the_newer_attributes_read_and_write(vm):
    assert vm.run("cat /sys/class/vtconsole/vtcon0/name").strip() == "(S) VGA+"
    lines = vm.run("ls -l %s" % VT).split("\n")
    assert "-rw-r--r-- bind" in lines and "-r--r--r-- name" in lines, lines
    assert vm.run("echo 0 > /sys/class/vtconsole/vtcon0/bind").strip() == ""
    assert vm.run("cat %s/bind" % VT).strip() == "0"
    assert vm.run("echo maybe > %s/bind" % VT).strip() == "echo: write error: Invalid argument"
    assert vm.run("cat %s/bind" % VT).strip() == "0"  # unchanged by the refused write
    assert vm.run("echo 1 > %s/bind" % VT).strip() == ""
    assert vm.run("cat %s/bind" % VT).strip() == "1"
    assert vm.run("echo 1 > %s/name" % VT).strip() == \
        "echo: write error: Permission denied"


def event_blocks(out):
    return [b.split("\n") for b in out.strip().split("\n\n") if b.startswith("KERNEL[")]


def test_events_of_both_kinds_carry_the_same_core_variables(vm):
    vm.run("echo change > /sys/class/vtconsole/vtcon0/uevent")
    vm.run("echo change > /sys/class/sbd/sbd0/uevent")
    blocks = event_blocks(vm.run("udevadm monitor --journal -p"))
    seen = {}
    for b in blocks:
        m = re.match(r"^KERNEL\[[\d.]+\] (\w+) +(\S+) \((\S+)\)$", b[0])
        assert m, b
        seen[(m.group(1), m.group(2))] = (m.group(3), b[1:])
    # the old kind's uevent file sends add whatever is written (2.6.15-2.6.25)
    assert ("change", "/class/sbd/sbd0") not in seen
    for action in ("add", "change"):
        new = seen[(action, "/devices/virtual/vtconsole/vtcon0")]
        old = seen[("add", "/class/sbd/sbd0")]
        assert new[0] == "vtconsole" and old[0] == "sbd", (new, old)
        for subsystem, keys, devpath, act in [
                (new[0], new[1], "/devices/virtual/vtconsole/vtcon0", action),
                (old[0], old[1], "/class/sbd/sbd0", "add")]:
            assert keys[:3] == ["ACTION=" + act, "DEVPATH=" + devpath,
                                "SUBSYSTEM=" + subsystem], keys
            assert keys[3].startswith("SEQNUM="), keys
    assert vm.run("cat %s/uevent" % VT).strip() == ""  # no dev_t, no keys of its own
    assert vm.run("cat /sys/class/sbd/sbd0/uevent").endswith("Permission denied\n")


def test_udevadm_tree_and_kobjects_show_both(vm):
    info = vm.run("udevadm info /sys/class/vtconsole/vtcon0").split("\n")
    assert info[:3] == ["P: /devices/virtual/vtconsole/vtcon0",
                        "E: DEVPATH=/devices/virtual/vtconsole/vtcon0",
                        "E: SUBSYSTEM=vtconsole"], info
    old = vm.run("udevadm info /sys/class/sbd/sbd0").split("\n")
    assert old[0] == "P: /class/sbd/sbd0" and "E: SUBSYSTEM=sbd" in old, old
    walk = vm.run("udevadm info -a /sys/class/vtconsole/vtcon0")
    assert "looking at device '/devices/virtual/vtconsole/vtcon0':" in walk, walk
    assert 'ATTR{name}=="(S) VGA+"' in walk and "looking at parent device" not in walk, walk
    tree = vm.run("tree /sys/class/vtconsole")
    assert "`-- vtcon0 -> ../../devices/virtual/vtconsole/vtcon0" in tree, tree
    kobjects = vm.run("kobjects")
    for path in ("/class/vtconsole", "/devices/virtual/vtconsole",
                 "/devices/virtual/vtconsole/vtcon0", "/class/sbd/sbd0"):
        assert re.search(r"^ +\d+ added +%s$" % re.escape(path), kobjects, re.M), kobjects
    assert "PANIC" not in vm.transcript()


def test_interfaces_and_events_of_both_kinds_in_the_kernel():
    """The devapi suite in QEMU: one class_interface follows a class_device and
    struct device members (add/remove and add_dev/remove_dev, in order), events
    at the new paths, groups, devres. The shell has no interface on a class with
    both kinds of member, so this boot runs the suite itself."""
    status, text = kobold.run_to_exit("test=devapi,devres loglevel=3", timeout=max(kobold.TIMEOUT, 60))
    cases = kobold.parse_ktap(text)
    assert status == kobold.EXIT_SUCCESS, text[-3000:]
    for case in ("devapi.devapi_interface_sees_both_kinds", "devapi.devapi_events_carry_the_class_keys",
                 "devapi.devapi_class_member_with_a_parent", "devres.devres_unwinds_under_fault_injection"):
        assert cases.get(case, (False,))[0], (case, text[-3000:])
