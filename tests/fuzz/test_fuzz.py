"""test_fuzz.py: each libFuzzer target in tests/fuzz/, built with ASan and UBSan
and run for a few seconds; any crash, sanitizer report or failed check fails.
`make fuzz` runs them longer (FUZZ_SECONDS)."""
import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NAMES = sorted(f[len("fuzz_"):-2] for f in os.listdir(os.path.dirname(__file__))
               if f.startswith("fuzz_") and f.endswith(".c"))
SECONDS = os.environ.get("KOBOLD_FUZZ_SECONDS", "3")


@pytest.fixture(scope="module")
def built():
    p = subprocess.run(["make", "-s", "fuzz-build"], cwd=ROOT, capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    return os.path.join(ROOT, "build", "fuzz")


def test_every_target_is_listed():
    assert NAMES == ["cpio", "kstrto", "readline", "shell_parse", "sysfs_lookup", "udev_rules"]


@pytest.mark.parametrize("name", NAMES)
def test_fuzz_target_runs_clean(built, name, tmp_path):
    p = subprocess.run([os.path.join(built, "fuzz_" + name), "-max_total_time=" + SECONDS,
                        "-max_len=6000", "-print_final_stats=1",
                        "-artifact_prefix=%s/" % tmp_path],
                       capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0"))
    assert p.returncode == 0, p.stderr[-4000:]
    assert "ERROR" not in p.stderr and "runtime error" not in p.stderr, p.stderr[-4000:]
    runs = int(re.search(r"stat::number_of_executed_units: (\d+)", p.stderr).group(1))
    assert runs > 1000, p.stderr[-2000:]
    print("fuzz_%s: %d runs" % (name, runs))
