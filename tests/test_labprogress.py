"""The time on a lab that `make check-lab` logs and shows (scripts/labprogress.py)."""

import datetime
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import labcheck  # noqa: E402
import labprogress  # noqa: E402

UTC = datetime.timezone.utc


def at(minutes):
    return datetime.datetime(2026, 12, 5, 14, 0, tzinfo=UTC) + datetime.timedelta(minutes=minutes)


def test_work_adds_the_gaps_and_leaves_out_breaks(tmp_path):
    log = tmp_path / "progress"
    for m, passed in ((0, 1), (10, 3), (40, 5), (41, 5), (200, 7), (225, 8)):
        labprogress.append(str(log), passed, 8, at(m))
    assert log.read_text().splitlines()[:2] == ["2026-12-05T14:00:00Z 1/8", "2026-12-05T14:10:00Z 3/8"]
    # 10 + 30 (exactly BREAK counts) + 1 + a break of 159 + 25
    assert labprogress.worked(labprogress.runs(str(log))) == datetime.timedelta(minutes=66)
    assert labprogress.summary(str(log)) == (
        "Time on this lab: 1 h 06 min of work over 6 runs of the checker since 05 Dec 14:00 UTC "
        "(a gap of more than 30 minutes between runs counts as a break).")


def test_one_run_or_a_broken_log_says_nothing_and_breaks_nothing(tmp_path):
    log = tmp_path / "progress"
    assert labprogress.summary(str(log)) is None  # no log yet
    labprogress.append(str(log), 0, 8, at(0))
    assert labprogress.summary(str(log)) is None  # nothing to measure with one run
    with open(log, "a") as f:
        f.write("garbage\n\n2026-13-45T99:00:00Z 1/8\n")
    labprogress.append(str(log), 8, 8, at(5))
    assert labprogress.runs(str(log)) == [at(0), at(5)]
    assert "5 min of work over 2 runs" in labprogress.summary(str(log))
    labprogress.append(str(tmp_path / "no" / "such" / "dir"), 1, 8)  # skipped, no error


def test_durations_read_as_words():
    assert labprogress.duration(datetime.timedelta(seconds=59)) == "under a minute"
    assert labprogress.duration(datetime.timedelta(minutes=12)) == "12 min"
    assert labprogress.duration(datetime.timedelta(minutes=125)) == "2 h 05 min"


def test_the_checklist_logs_each_run_and_a_lab_done_shows_its_time(tmp_path, monkeypatch, capsys):
    log = tmp_path / "progress"
    labprogress.append(str(log), 0, 2, datetime.datetime.now(UTC) - datetime.timedelta(minutes=7))

    def passes(s):
        """passes"""

    def fails(s):
        """fails"""
        raise AssertionError("no")

    monkeypatch.setenv("LABCHECK_LOG", str(log))
    assert labcheck.run("Lab 0", [passes, fails]) == 1
    assert "Time on this lab" not in capsys.readouterr().out
    assert labcheck.run("Lab 0", [passes, passes]) == 0
    out = capsys.readouterr().out
    assert "7 min of work over 3 runs of the checker" in out
    assert [line.split()[1] for line in log.read_text().splitlines()] == ["0/2", "1/2", "2/2"]
    monkeypatch.delenv("LABCHECK_LOG")  # the grader's way: nothing logged
    assert labcheck.run("Lab 0", [passes, passes]) == 0
    assert "Time on this lab" not in capsys.readouterr().out
    assert len(log.read_text().splitlines()) == 3


def test_make_check_lab_logs_to_the_labs_file_that_git_ignores():
    make = subprocess.run(["make", "-n", "check-lab", "LAB=1"], cwd=ROOT, capture_output=True, text=True)
    assert "LABCHECK_LOG=labs/lab1/.progress" in make.stdout, make.stdout + make.stderr
    ignored = subprocess.run(["git", "check-ignore", "-q", "labs/lab1/.progress"], cwd=ROOT)
    assert ignored.returncode == 0
