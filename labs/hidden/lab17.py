"""Lab 17's hidden check (the teacher's copy only, as labs/solutions/): another seed and
rate of injection, so that only a registration that is one critical section passes."""
import re

from labcheck import expect

CLS = "/sys/class/kreg"
INJECT = "preempt_inject=spin_unlock,every=3,seed=7"


def other_seed(s):
    """with preempt_inject=spin_unlock,every=3,seed=7: 300 keys, each once"""
    s.fresh(append=INJECT, qemu_args=["-smp", "1"])
    s.run("echo 300 > %s/run" % CLS)
    got = [s.text("cat %s/%s" % (CLS, f)) for f in ("entries", "duplicates")]
    expect(got == ["300", "0"], "echo 300 > run (%s): entries %s, duplicates %s" % (INJECT, got[0], got[1]))


CHECKS = [other_seed]
