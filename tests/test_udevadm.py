"""test_udevadm.py: udevadm info -a walks a device's real parents, as systemd's
udevadm does, udevadm info shows the links udev made (S: lines), and every
kobjects line says what its object is. One boot."""
import re

import pytest

import kobold

INTRO = """
Udevadm info starts with the device specified by the devpath and then
walks up the chain of parent devices. It prints for every device
found, all possible attributes in the udev rules key format.
A rule to match, can be composed by the attributes of the device
and the attributes from one single parent device.

"""


@pytest.fixture(scope="module")
def vm(tmp_path_factory):
    disk = tmp_path_factory.mktemp("udevadm") / "vd.img"
    with open(disk, "wb") as f:
        f.truncate(1024 * 1024)
    k = kobold.boot(qemu_args=["-drive", "file=%s,if=none,id=vd0,format=raw" % disk,
                               "-device", "virtio-blk-pci,drive=vd0,serial=KOBOLD-UDEV"])
    yield k
    k.close()


def devices(walk):
    """[(devpath, {KEY: value}, {attr: value})] in the order printed."""
    found = []
    for block in walk.split("\n\n"):
        m = re.match(r"  looking at (?:parent )?device '([^']*)':\n", block)
        if not m:
            continue
        keys = dict(re.findall(r'^    ([A-Z]+)=="(.*)"$', block, re.M))
        attrs = dict(re.findall(r'^    ATTRS?\{(\w+)\}=="(.*)"$', block, re.M))
        found.append((m.group(1), keys, attrs))
    return found


def test_attribute_walk_follows_the_real_parents(vm):
    bdf = vm.run("readlink -f /sys/class/block/vda/device").strip().split("/")[-2]
    walk = vm.run("udevadm info -a /sys/class/block/vda")
    assert walk.startswith(INTRO), walk
    assert "looking at device '/class/block/vda':\n" in walk
    got = devices(walk)
    pci = "/devices/pci0000:00/" + bdf
    assert [d for d, _, _ in got] == ["/class/block/vda", pci + "/virtio0", pci,
                                      "/devices/pci0000:00"], walk
    # no driver link on a class device (2.6.12 on): the driver shows on the parent
    assert got[0][1] == {"KERNEL": "vda", "SUBSYSTEM": "block", "DRIVER": ""}
    assert got[0][2]["serial"] == "KOBOLD-UDEV" and got[0][2]["size"] == "2048"
    assert got[1][1] == {"KERNELS": "virtio0", "SUBSYSTEMS": "virtio", "DRIVERS": "virtio_blk"}
    assert got[1][2]["vendor"] == "0x1af4" and got[1][2]["device"] == "0x0002", walk
    assert got[2][1] == {"KERNELS": bdf, "SUBSYSTEMS": "pci", "DRIVERS": "virtio-pci"}
    assert got[2][2]["vendor"] == "0x1af4" and got[2][2]["class"] == "0x010000", walk
    assert got[3][1] == {"KERNELS": "pci0000:00", "SUBSYSTEMS": "", "DRIVERS": ""}
    assert walk.endswith('DRIVERS==""\n\n'), walk[-200:]
    # from the bus's link, the walk starts at the device the link points to
    assert [d for d, _, _ in devices(vm.run("udevadm info -a /sys/bus/virtio/devices/virtio0"))] \
        == [pci + "/virtio0", pci, "/devices/pci0000:00"]


def test_disk_links_back_and_its_events_name_the_device(vm):
    """The device's directory links back to its disk ("block:vda", 2.6.16's form,
    2.6.15's CLASS:ID for class devices); the disk's events carry PHYSDEVPATH,
    PHYSDEVBUS and PHYSDEVDRIVER, as 2.6.10 on."""
    dev = vm.run("readlink -f /sys/class/block/vda/device").strip()
    assert "block:vda" in vm.run("ls %s" % dev).split()
    assert vm.run("readlink %s/block:vda" % dev).strip() == "../../../../class/block/vda"
    assert "driver" not in vm.run("ls /sys/class/block/vda").split()
    journal = vm.run("udevadm monitor --journal -p").split("\n\n")
    add = [e for e in journal if re.search(r"add +/class/block/vda \(block\)", e)]
    assert add, journal[-5:]
    keys = add[-1].split("\n")
    assert "PHYSDEVPATH=" + dev[len("/sys"):] in keys, add[-1]
    assert "PHYSDEVBUS=virtio" in keys and "PHYSDEVDRIVER=virtio_blk" in keys, add[-1]


def test_info_shows_the_links_udev_made(vm):
    """S: lines, relative to /dev, after N:, and DEVLINKS among the E: lines, as
    systemd's udevadm info prints them; a device without links has neither."""
    bdf = vm.run("readlink -f /sys/class/block/vda/device").strip().split("/")[-2]
    info = vm.run("udevadm info /sys/class/block/vda").split("\n")
    assert info[:4] == ["P: /class/block/vda", "N: vda", "S: disk/by-id/virtio-KOBOLD-UDEV",
                        "S: disk/by-path/pci-" + bdf], info
    assert info[4] == "E: DEVPATH=/class/block/vda", info
    assert "E: DEVLINKS=/dev/disk/by-id/virtio-KOBOLD-UDEV /dev/disk/by-path/pci-" + bdf in info
    assert vm.run("udevadm info /sys/block/vda").split("\n") == info
    sbd = vm.run("udevadm info /sys/class/block/sbd0")
    assert "\nS: " not in sbd and "DEVLINKS" not in sbd, sbd


def test_a_class_device_without_a_device_has_no_parents(vm):
    got = devices(vm.run("udevadm info -a /sys/class/sbd/sbd0"))
    assert [(path, keys) for path, keys, _ in got] == [
        ("/class/sbd/sbd0", {"KERNEL": "sbd0", "SUBSYSTEM": "sbd", "DRIVER": ""})]
    attrs = got[0][2]  # labs 1 and 2 add size_kb and max_sectors to these
    assert {"ro": "0", "version": "1.0"}.items() <= attrs.items(), attrs


def test_info_refuses_what_is_no_device(vm):
    for path in ("/sys/class/block", "/sys/bus/pci", "/sys/kernel", "/sys/class/block/vda/size"):
        for opt in ("", "-a "):
            out = vm.run("udevadm info %s%s" % (opt, path)).strip()
            assert out == "udevadm: %s: No such device" % path, out


def test_every_kobjects_line_says_what_it_is(vm):
    # A file of the built-in block class pins no module: rmmod goes ahead
    # and the open file keeps the disk's class device sbd0 as `deleted`.
    assert vm.run("open /sys/class/block/sbd0/size").strip() == "fd 3"
    assert vm.run("rmmod sbd") == ""
    out = vm.run("kobjects")
    vm.run("close 3")
    vm.run("modprobe sbd")
    lines = out.strip().split("\n")
    assert lines[0] == "REFS STATE       PATH"
    states = set()
    for line in lines[1:]:
        m = re.match(r"^ {0,3}\d+ (\w+) +(.*)$", line)
        assert m, line
        state, what = m.groups()
        states.add(state)
        if state == "added":
            assert re.match(r"^/\S+$", what), line
        elif state == "initialized":  # never added: no path; its name and what it is
            assert re.match(r"^[\w:.-]+ \(not in sysfs.*\)$", what), line
        else:
            assert state == "deleted" and re.match(r"^[\w:.-]+$", what), line
        assert "(unnamed)" not in what and "?" not in what, line
    assert states == {"added", "initialized", "deleted"}, out
    assert re.search(r"^   1 initialized class_obj \(not in sysfs, the kset of \d+ objects\)$", out, re.M), out
