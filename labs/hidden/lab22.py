"""Lab 22's hidden checks (the teacher's copy only, as labs/solutions/): a driver
whose vm_ops->open counts nothing fails the split; the mprotect one checks that
the kernel's write protection holds over a device's page."""
import labuser


def split_counts(s):
    """a partial munmap splits the mapping in two: mappings counts 2, then 0"""
    labuser.passes(labuser.start(s, "scullmtest"), "scullmtest", "split_counts")


def mprotect_read_only(s):
    """mprotect to PROT_READ: a store into the device's page is SIGSEGV"""
    labuser.passes(labuser.start(s, "scullmtest"), "scullmtest", "mprotect_read_only")


CHECKS = [split_counts, mprotect_read_only]
