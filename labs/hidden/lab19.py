"""Lab 19's hidden checks (the teacher's copy only, as labs/solutions/): a ring whose
indices are updated outside the lock, or a reader that can take an item twice, fails them."""
import re
import time

from labcheck import expect

DIR = "/sys/class/misc/kring/"


def many_items(s):
    """200 items through the 4 slots, read by cat on the other CPU: each once, in order"""
    if s.k is None:
        s.fresh(qemu_args=["-smp", "2"])
    s.run("close 3")
    if "kring" not in s.ls("/sys/class/misc"):
        s.run("modprobe kring")
    s.dirty = True
    s.run("echo 200 > %sproduce" % DIR)
    s.k.send("cat /dev/kring\r")
    time.sleep(1.5)
    s.k.send("\x03")
    s.k.expect(r"kobold:(/[^\r\n#]*)# ", timeout=5)
    items = [int(l) for l in s.k.output().split("\n") if re.fullmatch(r"\d+", l.strip())]
    expect(len(items) == 200 and items == list(range(items[0], items[0] + 200)),
           "cat /dev/kring after echo 200 > produce read %d items: %s ... %s" % (len(items), items[:5], items[-5:]))


CHECKS = [many_items]
