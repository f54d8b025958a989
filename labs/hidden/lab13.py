"""Lab 13's hidden checks (the teacher's copy only, as labs/solutions/): a script that
handles a fixed list of names, or only the first disk of a load, fails them."""
import sys

from labcheck import expect_eq


def six_disks(s):
    """modprobe sbd nr=6: six nodes 254:0..5 and their links; rmmod: none left"""
    check = sys.modules["__main__"]  # lab 13's checker: its helpers
    start, nodes, wait, state = check.start, check.nodes, check.wait, check.sbd_state
    start(s)
    s.run("rmmod sbd")
    check.settle(s)
    s.run("modprobe sbd nr=6")
    want = state(s, 6)
    wait(s, "nodes", lambda: nodes(s, list(want)) == want)
    expect_eq(nodes(s, list(want)), want, "the nodes and links after modprobe sbd nr=6")
    s.run("rmmod sbd")
    wait(s, "none", lambda: not any(nodes(s, list(want)).values()))
    expect_eq([p for p, v in nodes(s, list(want)).items() if v], [], "left after rmmod sbd")
    s.run("modprobe sbd")


CHECKS = [six_disks]
