"""Lab 12's hidden checks (the teacher's copy only, as labs/solutions/): a driver
with one misc device for all, or a minor that is never given back, fails them."""
from labcheck import expect, expect_eq

BUS = "/sys/bus/kbus"


def two_at_once(s):
    """two misc devices at once: each its own minor and node reading its own name; one deleted, the other works"""
    if s.k is None:
        s.fresh()
    for name in s.ls(BUS + "/devices"):
        s.run("echo %s > %s/del" % (name, BUS))
    for name in ("one", "two"):
        expect_eq(s.text('echo "%s misc" > %s/add' % (name, BUS)), "", 'echo "%s misc" > add' % name)
    nodes = [s.text("ls -l /dev/" + n) for n in ("one", "two")]
    minors = {n.split(",")[1].split()[0] for n in nodes if "," in n}
    expect(len(minors) == 2, "ls -l /dev/one /dev/two:\n%s\n(two nodes with two minors wanted)" % "\n".join(nodes))
    expect_eq([s.text("cat /dev/one"), s.text("cat /dev/two")], ["one", "two"], "cat /dev/one, cat /dev/two")
    s.run("echo one > %s/del" % BUS)
    expect_eq(s.text("cat /dev/two"), "two", "cat /dev/two after deleting one")
    s.run("echo two > %s/del" % BUS)


two_at_once.points = 2


def minors_come_back(s):
    """20 rounds of add and del: the driver's minors are given back (no device left unbound)"""
    if s.k is None:
        s.fresh()
    for i in range(20):
        s.run('echo "m%d misc" > %s/add' % (i, BUS))
        bound = "driver" in s.ls("%s/devices/m%d" % (BUS, i))
        s.run("echo m%d > %s/del" % (i, BUS))
        expect(bound, "round %d: m%d was not bound: the minors of the devices deleted before are "
               "not given back" % (i + 1, i))


CHECKS = [two_at_once, minors_come_back]
