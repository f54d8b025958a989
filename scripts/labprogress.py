"""labprogress.py: the time a student spent on a lab, from the runs of its checker.

`make check-lab LAB=N` appends one line per run to labs/labN/.progress (not in
git, never taken by a grader): the time in UTC and the checks that passed,
as `2026-12-05T14:02:11Z 3/8`. When every check passes, the checklist ends
with the time the log shows: the gaps between one run and the next, added
up, where a gap longer than BREAK counts as a break and adds nothing. What
came before the first run (reading the page) is not in it; a teacher who
collects these lines from a class has a measured figure for each lab's
hours, which docs/labs/README.md's estimates are not (docs/teaching.md).
"""

import datetime
import os

BREAK = datetime.timedelta(minutes=30)
STAMP = "%Y-%m-%dT%H:%M:%SZ"


def append(path, passed, total, now=None):
    """Adds this run to the log at path (made if missing); a log that cannot be
    written is skipped silently: the checklist matters, not its log."""
    now = now or datetime.datetime.now(datetime.timezone.utc)
    try:
        with open(path, "a") as f:
            f.write("%s %d/%d\n" % (now.strftime(STAMP), passed, total))
    except OSError:
        pass


def runs(path):
    """The times of the runs logged at path, oldest first; lines it cannot read are skipped."""
    times = []
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    for line in lines:
        try:
            t = datetime.datetime.strptime(line.split()[0], STAMP)
        except (IndexError, ValueError):
            continue
        times.append(t.replace(tzinfo=datetime.timezone.utc))
    return sorted(times)


def worked(times):
    """The time between runs, breaks (gaps over BREAK) left out."""
    gaps = (b - a for a, b in zip(times, times[1:]))
    return sum((g for g in gaps if g <= BREAK), datetime.timedelta())


def duration(td):
    """'1 h 05 min', '12 min', 'under a minute'."""
    minutes = int(td.total_seconds()) // 60
    if minutes == 0:
        return "under a minute"
    if minutes < 60:
        return "%d min" % minutes
    return "%d h %02d min" % (minutes // 60, minutes % 60)


def summary(path):
    """The line the checklist ends with when the lab is done, or None with fewer than two runs."""
    times = runs(path)
    if len(times) < 2:
        return None
    return ("Time on this lab: %s of work over %d runs of the checker since %s UTC "
            "(a gap of more than %d minutes between runs counts as a break)."
            % (duration(worked(times)), len(times), times[0].strftime("%d %b %H:%M"),
               BREAK.seconds // 60))


def log_path():
    """The log `make check-lab` names in LABCHECK_LOG, or None (grading and tests log nothing)."""
    return os.environ.get("LABCHECK_LOG") or None
