"""Lab 18's hidden check (the teacher's copy only, as labs/solutions/): the order in the
source, for paths the checks do not run. (A label_store turned round, the class's sem
first, fails it, and lockdep reports it too, against the order the device model's probes
took at boot: dev->sem, then a child's, then the class's.)"""
import os
import re

import kobold
from labcheck import expect

FILE = os.path.join("drivers", "misc", "kswitch.c")
CLASS_SEM = re.compile(r"(?:cls|class)\s*(?:->|\.)\s*sem\b")


def source():
    """drivers/misc/kswitch.c of the tree this kernel was built from, or None."""
    d = os.path.dirname(os.path.abspath(kobold.KERNEL))
    while os.path.dirname(d) != d:
        if os.path.isfile(os.path.join(d, FILE)):
            with open(os.path.join(d, FILE)) as f:
                return re.sub(r"/\*.*?\*/|//[^\n]*", "", f.read(), flags=re.S)
        d = os.path.dirname(d)
    return None


def model_order(s):
    """every function takes a port's dev->sem before the class's sem, as the device model does"""
    text = source()
    expect(text is not None, "%s is not next to the kernel" % FILE)
    for m in re.finditer(r"^\w[^\n;]*\b(\w+)\([^)]*\)\s*\{(.*?)^\}", text, re.M | re.S):
        downs = re.findall(r"\bdown(?:_interruptible|_nested)?\s*\(\s*&\s*([^,)]+)", m.group(2))
        kinds = ["class" if CLASS_SEM.search(d) else "dev" for d in downs]
        expect(not ("class" in kinds and "dev" in kinds[kinds.index("class"):]),
               "%s takes %s: the class's sem before a device's, against the device model's order "
               "(docs/locking.md: dev->sem before a class's sem)" % (m.group(1), ", then ".join(downs)))


CHECKS = [model_order]
