"""test_labs_concurrency.py: the concurrency labs' starters and wrong solutions fail
their checkers as they should (labs 16-19: a kernel thread, a race, a deadlock, a
producer and a consumer). tests/test_labs.py checks that each checker fails on the
starting tree and passes with the reference solution; this file checks that the
checkers catch the mistakes each lab is about, in bounded time."""
import os
import re
import shutil
import time

from test_labs import ROOT, base, build, patch, workdir  # noqa: F401 (fixtures)
from test_labs_compose import starter_checker
import labtree  # noqa: E402 (test_labs put scripts/ on the path)


def failed(r):
    """The checklist lines of the checks that failed."""
    return [l.strip()[len("FAIL  "):] for l in r.stdout.split("\n") if l.strip().startswith("FAIL  ")]


def fails(r, *checks):
    """The checker failed exactly these checks (their checklist lines' beginnings)."""
    assert r.returncode == 1, r.stdout
    got = failed(r)
    assert len(got) == len(checks) and all(f.startswith(c) for f, c in zip(got, checks)), r.stdout


def wrong(base, workdir, lab, rel, old, new, stop_at_fail=False):
    """Lab N's checker on the reference solution with one piece of REL replaced (a
    solution with one mistake); stop_at_fail: only as far as its first failed check."""
    tree, _ = base
    d = os.path.join(workdir, "lab%d-wrong" % lab)
    shutil.copytree(tree, d, symlinks=True)
    assert labtree.apply(d, patch(lab))[0]
    target = os.path.join(d, rel)
    with open(target) as f:
        text = f.read()
    assert old in text, "labs/solutions/lab%d.patch no longer has %r" % (lab, old)
    with open(target, "w") as f:
        f.write(text.replace(old, new))
    r = labtree.run_checker(ROOT, lab, build(d), d, stop_at_fail=stop_at_fail)
    shutil.rmtree(d, ignore_errors=True)
    return r


def test_lab16_starter_and_a_thread_that_never_stops_fail(base, workdir):
    """The lab 16 starter (a thread that returns at once, an exit that does not stop it)
    passes only the rmmod check; a thread that ignores kthread_should_stop() makes rmmod
    hang in kthread_stop, which the checker reports within its time instead of hanging."""
    starter, r = starter_checker(base, workdir, 16, "kticker.c", "drivers/misc/kticker.c")
    assert r.stdout.count("PASS  ") == 1 and "PASS  rmmod kticker returns at once" in r.stdout, r.stdout
    assert "the thread must run until kthread_should_stop() is true" in r.stdout, r.stdout
    shutil.rmtree(starter, ignore_errors=True)

    t0 = time.time()
    r = wrong(base, workdir, 16, "drivers/misc/kticker.c", "while (!kthread_should_stop()) {", "for (;;) {",
              stop_at_fail=True)
    took = time.time() - t0
    assert r.returncode == 1 and r.stdout.count("PASS  ") == 2, r.stdout
    assert "FAIL  rmmod kticker returns at once" in r.stdout, r.stdout
    assert "rmmod kticker did not return within 5 s" in r.stdout, r.stdout
    assert took < 120, "the checker took %.0f s on a thread that never stops" % took


def test_lab19_starter_and_a_reader_ctrl_c_cannot_end_fail(base, workdir):
    """The lab 19 starter (a reader of the empty ring gets EAGAIN, a polling producer)
    fails the two checks of a waiting read and the hidden one that reads with cat; the reference with wait_event instead of
    wait_event_interruptible first fails the Ctrl-C check, within its time; without the
    reader's wake_up of the producer, the check of the full ring. (Each of those two only as
    far as its first failed check: the later ones pass, tried by hand.)"""
    starter, r = starter_checker(base, workdir, 19, "kring.c", "drivers/misc/kring.c")
    assert "Resource temporarily unavailable" in r.stdout, r.stdout
    # Whether a poll every 20 ms keeps up with the full ring's reads depends on timing.
    got = [f for f in failed(r) if not f.startswith("echo 10 > produce")]
    assert len(got) == 3 and got[0].startswith("with pause_ms 300, a read on the empty ring waits") and \
        got[1].startswith("a read on the empty ring waits; Ctrl-C ends it") and \
        got[2].startswith("200 items through the 4 slots"), r.stdout
    shutil.rmtree(starter, ignore_errors=True)

    r = wrong(base, workdir, 19, "drivers/misc/kring.c",
              "wait_event_interruptible(kring_readers, kring_count() > 0)",
              "({ wait_event(kring_readers, kring_count() > 0); 0; })", stop_at_fail=True)
    assert r.stdout.count("PASS  ") == 4 and failed(r)[0].startswith("a read on the empty ring waits; Ctrl-C"), \
        r.stdout
    assert "Ctrl-C did not end the waiting read within 2 s" in r.stdout, r.stdout

    r = wrong(base, workdir, 19, "drivers/misc/kring.c", "\twake_up(&kring_producer);\n\tlen =", "\tlen =",
              stop_at_fail=True)
    assert r.stdout.count("PASS  ") == 2 and failed(r)[0].startswith("echo 10 > produce fills the 4 slots"), \
        r.stdout
    assert "is it woken (wake_up) when a read makes room?" in r.stdout, r.stdout


def test_lab18_starter_and_a_label_store_turned_round_fail(base, workdir):
    """The lab 18 starter works and fails only the validator's check (its report shown)
    and the hidden source check; the reference with label_store turned round (the
    class's sem first) agrees with reset_store but not with the order the device model's
    probes took at boot, and fails the same two."""
    starter, r = starter_checker(base, workdir, 18, "kswitch.c", "drivers/misc/kswitch.c")
    fails(r, "label, reset, label, reset: the lock validator finds no inversion", "every function takes a port's dev->sem")
    assert "WARNING: possible circular locking dependency detected" in r.stdout, r.stdout
    assert "while holding (&dev->sem), taken at label_store+" in r.stdout, r.stdout
    assert "reset_store takes cls->sem, then ports[i]->sem" in r.stdout, r.stdout
    shutil.rmtree(starter, ignore_errors=True)

    r = wrong(base, workdir, 18, "drivers/misc/kswitch.c", "\tdown(&dev->sem);\n\tdown(&dev->class->sem);",
              "\tdown(&dev->class->sem);\n\tdown(&dev->sem);")
    fails(r, "label, reset, label, reset: the lock validator finds no inversion", "every function takes a port's dev->sem")
    assert "taken at class_add_device+" in r.stdout, r.stdout
    assert "label_store takes dev->class->sem, then dev->sem" in r.stdout, r.stdout


def registration_fails(r):
    """Lab 17's checker stopped at one of its two registration checks (100 keys, or the
    runs of 1 to 2000: which one the boot's own spin_unlocks before it decide, so any
    change to the kernel may move it), with a key registered twice."""
    assert r.returncode == 1 and r.stdout.count("PASS  ") in (1, 2), r.stdout
    first_fail = re.search(r"FAIL  (.*)", r.stdout).group(1)
    assert first_fail.startswith(("with the injection, echo 100 > run leaves 100 entries",
                                  "runs of 1, 7, 500 and 2000 keys")), r.stdout
    assert re.search(r"\): \d+ entries, [1-9]\d* of them a key registered twice", r.stdout), r.stdout


def test_lab17_starter_fails_the_same_way_every_run_and_a_lock_per_step_fails(base, workdir):
    """Booted with the injected preemption, the lab 17 starter (no lock around a
    registration) fails a registration check, twice in a row with the same
    numbers (which the boot's own spin_unlocks before it decide: not fixed here); the reference with the lock dropped and taken again between the lookup and
    the insert (a lock around each step, not around both) fails it too."""
    starter = os.path.join(workdir, "lab17-starter")
    shutil.copytree(base[0], starter, symlinks=True)
    shutil.copy(os.path.join(ROOT, "labs", "lab17", "kreg.c"), os.path.join(starter, "drivers/misc/kreg.c"))
    kernel = build(starter)
    runs = [labtree.run_checker(ROOT, 17, kernel, starter, stop_at_fail=True) for _ in range(2)]
    for r in runs:
        registration_fails(r)
    assert runs[0].stdout == runs[1].stdout, (runs[0].stdout, runs[1].stdout)
    shutil.rmtree(starter, ignore_errors=True)

    r = wrong(base, workdir, 17, "drivers/misc/kreg.c", "\t\treturn 0;\n\t}\n\tlist_add_tail(",
              "\t\treturn 0;\n\t}\n\tspin_unlock(&kreg_lock);\n\tspin_lock(&kreg_lock);\n\tlist_add_tail(",
              stop_at_fail=True)
    registration_fails(r)


def test_lab17_preemption_off_instead_of_the_lock_fails_on_two_cpus(base, workdir):
    """The reference with preempt_disable() and preempt_enable() where kreg_register takes
    and drops kreg_lock: on one CPU no thread is switched between the lookup and the
    insert, so every one-CPU check passes; on two CPUs both threads run at once, and the
    two-CPU check (15 runs of 2000 keys) finds a key registered twice."""
    lock = "\tspin_lock(&kreg_lock);\n\tif (kreg_find(key)) {\n\t\tspin_unlock(&kreg_lock);\n\t\tkfree(e);\n" \
           "\t\treturn 0;\n\t}\n\tlist_add_tail(&e->node, &kreg_list);\n\tkreg_entries++;\n\tspin_unlock(&kreg_lock);\n"
    r = wrong(base, workdir, 17, "drivers/misc/kreg.c", lock,
              lock.replace("spin_lock(&kreg_lock)", "preempt_disable()").replace("spin_unlock(&kreg_lock)",
                                                                                 "preempt_enable()"))
    fails(r, "the same on two CPUs at once")
    assert re.search(r"run \d+ of 15 on two CPUs, [^)]*\): \d+ entries, [1-9]\d* of them a key registered twice",
                     r.stdout), r.stdout
