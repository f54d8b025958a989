"""Lab 21's hidden checks (the teacher's copy only, as labs/solutions/): a ring
that loses its order when it wraps, or a poll that never sees room come back,
fails them."""
import labuser


def ring_wraps(s):
    """the FIFO keeps its order across the ring's end (writes and reads of 3000, 2000, 1096 bytes)"""
    labuser.passes(labuser.start(s, "scullptest"), "scullptest", "ring_wraps")


def poll_out_blocks(s):
    """a poll for POLLOUT on a full FIFO sleeps until another process reads"""
    labuser.passes(labuser.start(s, "scullptest"), "scullptest", "poll_out_blocks")


CHECKS = [ring_wraps, poll_out_blocks]
