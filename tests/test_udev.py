"""test_udev.py: udevd runs the rules on every event as deferred work: the
built-in by-id and by-path links of virtio disks, a user's rules file read
after `udevadm control --reload` (SYMLINK, MODE, RUN, ATTR, a bad line
reported by file:line), UDEV lines in a live monitor for a QEMU device_add,
`udevadm test`, `trigger`, `settle`, and the links gone after device_del.
One QEMU boot for the scenario."""
import os
import re
import time

from kobold import ROOT
from test_virtio import disk, image, qemu_has_slot, sh

RULES = "/etc/udev/rules.d/50-x.rules"


def test_rules_links_run_and_monitor_for_a_hot_added_disk(boot_with, tmp_path):
    mon = str(tmp_path / "mon.sock")
    args = disk(image(tmp_path, "a.img", 1), "d0", ",serial=bootdisk")
    args += ["-drive", "file=%s,if=none,id=hp0,format=raw" % image(tmp_path, "h.img", 2)]
    k = boot_with(qemu_args=args, monitor=mon)

    # The built-in rules ran on the boot's events: links for vda.
    assert sh(k, "readlink /dev/disk/by-id/virtio-bootdisk") == "../../vda\n"
    assert sh(k, "readlink /dev/disk/by-path/pci-0000:00:04.0") == "../../vda\n"
    assert sh(k, "ls /dev/disk/by-id") == "virtio-bootdisk\n"  # sbd0 has no serial

    # A rules file written in the shell, one bad line among good ones.
    # there at boot, with only what the tree's etc/ built in (lab 10's file, once solved)
    tree = os.path.join(ROOT, "etc", "udev", "rules.d")
    built_in = sorted(os.listdir(tree)) if os.path.isdir(tree) else []
    assert sh(k, "ls /etc/udev/rules.d") == "".join(n + "\n" for n in built_in)
    lines = ['# my rules',
             'KERNEL=="vd*[!0-9]", SUBSYSTEM=="block", SYMLINK+="my/$kernel my/%k-again", \\',
             '  MODE="0640"',
             'KERNEL="oops"',
             'KERNEL=="vdb", RUN+="echo hello from $kernel $attr{serial} > /tmp/run.txt"',
             'SUBSYSTEM=="sbd", KERNEL=="sbd*", ATTR{ro}="1"',
             'SUBSYSTEM=="pci", ACTION=="add", RUN+="ps > /tmp/ps.txt"']
    for i, line in enumerate(lines):
        assert sh(k, "echo '%s' %s %s" % (line, ">" if i == 0 else ">>", RULES)) == ""
    assert "my" not in sh(k, "ls /dev").split()
    out = k.run("udevadm control --reload")
    assert "udevd: /etc/udev/rules.d/50-x.rules:4 Invalid operator for KERNEL.\n" in out, out

    # udevadm test: what the rules would do, nothing done.
    out = sh(k, "udevadm test /sys/class/block/vda")
    assert '/etc/udev/rules.d/50-x.rules:2 SYMLINK+="my/vda my/vda-again"\n' in out, out
    assert '(built-in)/60-persistent-storage.rules:5 SYMLINK+="disk/by-id/virtio-bootdisk"\n' in out
    assert "DEVLINKS=/dev/my/vda /dev/my/vda-again /dev/disk/by-id/virtio-bootdisk " \
        "/dev/disk/by-path/pci-0000:00:04.0\n" in out, out
    assert "ls: cannot access" in k.run("ls /dev/my")
    out = sh(k, "udevadm test /sys/bus/virtio/devices/virtio0")  # a link to the device
    assert "DEVPATH=/devices/pci0000:00/0000:00:04.0/virtio0\n" in out, out
    assert "(built-in)/80-drivers.rules:2 RUN{builtin}+=\"kmod load\"\n" in out, out
    assert out.endswith("run: 'kmod load'\n"), out

    # device_add: UDEV lines after the KERNEL ones, in a live monitor.
    k.run("trace on")
    k.send("udevadm monitor --udev -s block\r")
    k.expect("monitor will print the received events for:\r*\n"
             "UDEV - the event which udev sends out after rule processing\r*\n\r*\n")
    k.monitor("device_add virtio-blk-pci,drive=hp0,id=hot0,addr=0x6,serial=hotone")
    k.expect(r"UDEV  \[\d+\.\d{6}\] add      /class/block/vdb \(block\)\r*\n")
    k.child.send("\x03")
    k.wait_prompt()
    out = k.output()
    assert "KERNEL[" not in out and "(pci)" not in out, out
    k.run("trace off")
    log = k.run("dmesg")  # the chain: SCI, work, scan, probe, class device, event, rule, link
    chain = ["acpi_sci_interrupt GPE 1", "acpiphp_check_bus", "class_device_add /class/block/vdb",
             "kobject_hotplug /class/block/vdb add", "udev_rules_apply /class/block/vdb add",
             "udev_node_add_link /dev/disk/by-id/virtio-hotone ../../vdb"]
    at = [log.find("trace: " + c) for c in chain]
    assert -1 not in at and at == sorted(at), list(zip(chain, at))

    assert sh(k, "readlink /dev/my/vdb") == "../vdb\n"
    assert sh(k, "readlink /dev/my/vdb-again") == "../vdb\n"
    assert sh(k, "readlink /dev/disk/by-id/virtio-hotone") == "../../vdb\n"
    assert sh(k, "readlink /dev/disk/by-path/pci-0000:00:06.0") == "../../vdb\n"
    assert re.search(r"^brw-r----- +253, +16 vdb$", sh(k, "ls -l /dev"), re.M)
    assert sh(k, "cat /tmp/run.txt") == "hello from vdb hotone\n"
    # ps, run by udevd for the PCI function's event: the virtio and block
    # events wait behind it, so udevd's next run is pending.
    ps = sh(k, "cat /tmp/ps.txt")
    assert re.search(r"^ +3 root +\d+:\d\d \[events/0\]$", ps, re.M), ps
    assert "[events/0]: 1 work item pending\n  udevd_work_fn\n" in ps, ps
    assert re.search(r"^ +\d+ udevd_work_fn$", sh(k, "ps"), re.M)
    props = sh(k, "udevadm monitor --journal -p -s block")
    assert "DEVNAME=vdb" in props

    # ATTR{ro}="1" on a new sbd disk, after a modprobe.
    assert sh(k, "cat /sys/class/sbd/sbd0/ro") == "0\n"  # loaded before the rules
    assert sh(k, "rmmod sbd") == ""
    k.run("modprobe sbd")
    k.run("udevadm settle")  # udevd handles sbd0's event at idle: the shell does not wait for it
    assert sh(k, "cat /sys/class/sbd/sbd0/ro") == "1\n"

    # trigger re-applies the rules to devices that exist: vda gets my/vda now.
    assert sh(k, "readlink /dev/my/vda").startswith("readlink:")
    assert sh(k, "udevadm trigger --subsystem-match=block") == ""
    assert sh(k, "udevadm settle") == ""
    assert sh(k, "readlink /dev/my/vda") == "../vda\n"
    assert "udevadm: unknown action 'bogus'" in k.run("udevadm trigger --action=bogus")
    assert k.run("udevadm test /class/block/nope") == "udevadm: /class/block/nope: No such device\n"

    # device_del: the device's links go, the other disk's stay.
    k.monitor("device_del hot0")
    for _ in range(40):
        if not qemu_has_slot(k, 6):
            break
        time.sleep(0.05)
    assert not qemu_has_slot(k, 6)
    k.run("udevadm settle")  # takes the log lines the removal printed at the prompt
    assert sh(k, "ls /dev/disk/by-id") == "virtio-bootdisk\n"
    assert sh(k, "ls /dev/my") == "vda\nvda-again\n"
    assert "pci-0000:00:06.0" not in sh(k, "ls /dev/disk/by-path")


def test_monitor_prints_both_kinds_and_bad_options(kernel):
    out = kernel.run("udevadm monitor --journal --udev")
    assert out == "udevadm: --journal keeps the kernel's events only: drop --udev\n", out
    out = kernel.run("udevadm control")
    assert out == "usage: udevadm control --reload|--exit\n", out
    out = kernel.run("udevadm test")
    assert out.startswith("usage: udevadm test [--action=ACTION] DEVPATH"), out
    kernel.send("udevadm monitor\r")
    kernel.expect("monitor will print the received events for:\r*\n"
                  "UDEV - the event which udev sends out after rule processing\r*\n"
                  "KERNEL - the kernel uevent\r*\n\r*\n")
    kernel.child.send("\x03")
    kernel.wait_prompt()


PCI_DEV = "/sys/devices/pci0000:00/0000:00:01.0"


def rules(k, *lines):
    for i, line in enumerate(lines):
        assert sh(k, "echo '%s' %s %s" % (line, ">" if i == 0 else ">>", RULES)) == ""
    assert sh(k, "udevadm control --reload") == ""


def answers(k, command):
    """What command printed, without the log lines of a flood and without the echo of what
    was typed, which a log line may push down or cut in two (`echo ch[ 2.26] udevd: ...`,
    then `ange > ...`)."""
    k.run(command)
    text = re.sub(r"\[\s*\d+\.\d+\] [^\n]*\n", "", k.output())  # a log line, from its stamp to its end
    pos = 0
    for ch in command:  # the echo, across the line breaks the log lines left in it
        while text[pos:pos + 1] == "\n":
            pos += 1
        assert text[pos:pos + 1] == ch, "no echo of %r in:\n%s" % (command, text)
        pos += 1
    return text[pos:].lstrip("\n")


def test_a_rule_that_retriggers_its_own_event_does_not_hold_the_shell(boot_with):
    k = boot_with("udev.event_timeout=3")
    # The loop of docs/hotplug.md: each change event's program sends the next one.
    rules(k, 'ACTION=="change", SUBSYSTEM=="pci", RUN+="echo change > /sys$devpath/uevent"')
    assert sh(k, "echo change > %s/uevent" % PCI_DEV) == ""
    for _ in range(3):  # the loop runs on while the shell waits for keys
        assert sh(k, "echo still here") == "still here\n"
    seq = int(sh(k, "cat /sys/kernel/uevent_seqnum"))
    assert int(sh(k, "cat /sys/kernel/uevent_seqnum")) > seq  # it goes on in the background
    out = sh(k, "udevadm settle --timeout=1")  # the event in hand, and the next it sent
    assert re.fullmatch(r"udevadm settle - timeout of 1 seconds reached, the event queue "
                        r"contains:\n(/sys/devices/pci0000:00/0000:00:01\.0 \(\d+\)\n){1,2}", out), out
    assert sh(k, "udevadm settle --timeout=x") == "udevadm: invalid timeout value 'x'\n"
    # The same loop made by an ATTR= assignment, and by udevadm trigger in a rule.
    rules(k, 'ACTION=="change", SUBSYSTEM=="pci", ATTR{uevent}="change"')
    assert sh(k, "echo still here") == "still here\n"
    rules(k, 'ACTION=="change", SUBSYSTEM=="pci", RUN+="udevadm trigger --action=change '
          '--subsystem-match=pci"')
    assert answers(k, "echo change > %s/uevent" % PCI_DEV) == ""
    assert answers(k, "echo still here") == "still here\n"
    assert answers(k, "echo still here") == "still here\n"
    # Rules gone, the queue drains.
    assert answers(k, "rm %s" % RULES) == ""
    assert answers(k, "udevadm control --reload") == ""
    assert sh(k, "udevadm settle") == ""


def test_a_run_program_past_the_event_timeout_is_killed_and_logged(boot_with):
    k = boot_with("udev.event_timeout=2")
    rules(k, 'ACTION=="change", SUBSYSTEM=="pci", RUN+="udevadm monitor --kernel", '
          'RUN+="echo never > /tmp/never"')
    # the event's programs run beside the shell: their first lines may come before the prompt
    out = sh(k, "echo change > %s/uevent" % PCI_DEV)
    assert out in ("", "monitor will print the received events for:\nKERNEL - the kernel uevent\n"), out
    start = time.time()
    out = k.run("udevadm settle", timeout=30)
    assert time.time() - start > 1.5, out
    log = k.run("dmesg")
    assert re.search(r"udevd: SEQNUM=\d+ DEVPATH=/devices/pci0000:00/0000:00:01\.0: "
                     r"'udevadm monitor --kernel' timed out after 2 s, killed\n", log), log
    assert "No such file" in k.run("cat /tmp/never")  # the event's later programs are not run
    assert sh(k, "echo back") == "back\n"
