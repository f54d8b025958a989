"""Lab 23's hidden checks (the teacher's copy only, as labs/solutions/): a program
with a fixed table of devices, or one that sorts sbd10 before sbd2 differently
from strcmp, or parses options by hand, fails them."""
import labuser
from labcheck import expect_eq


def twelve_ram_disks(s):
    """sbd loaded with 12 disks: mylsblk still prints what lsblk prints (sbd10 and sbd11 among them)"""
    import importlib
    check = importlib.import_module("__main__")
    labuser.start(s, "mylsblk")
    s.run("rmmod sbd")
    s.run("modprobe sbd nr=12 size=64")
    check.same_as_lsblk(s, "after modprobe sbd nr=12 size=64")
    s.devs_of = None


def combined_options(s):
    """-bd is -b -d, as getopt reads it"""
    check = __import__("__main__")
    labuser.start(s, "mylsblk")
    expect_eq(check.prog(s, "-bd"), check.prog(s, "-b -d"), "mylsblk -bd against mylsblk -b -d")


CHECKS = [twelve_ram_disks, combined_options]
