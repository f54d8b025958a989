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
    assert NAMES == ["gpt", "kstrto", "msdos", "readline", "shell_parse", "sysfs_lookup",
                     "udev_events", "udev_rules"]


SEEDS = {  # tests/fuzz/partition_seeds.py writes them: each case the parsers must get right
    "msdos": ["chain_loops_back", "ebr_read_fails_enomem", "extended_past_the_end",
              "more_than_minors", "overlap_and_past_the_end", "primaries_and_logicals",
              "two_extended_chains"],
    "gpt": ["entries_enomem", "good", "header_read_enomem", "more_entries_than_minors",
            "no_crc_fix", "primary_damaged_backup_used"],
}


def test_partition_seeds_are_the_generated_ones(tmp_path):
    for name, cases in SEEDS.items():
        assert sorted(os.listdir(os.path.join(os.path.dirname(__file__), "corpus", name))) == cases
    p = subprocess.run(["/usr/bin/python3", os.path.join(os.path.dirname(__file__), "partition_seeds.py"),
                        str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    for name, cases in SEEDS.items():
        for case in cases:
            with open(os.path.join(os.path.dirname(__file__), "corpus", name, case), "rb") as kept, \
                    open(os.path.join(tmp_path, name, case), "rb") as made:
                assert kept.read() == made.read(), "%s/%s: run partition_seeds.py" % (name, case)


@pytest.mark.parametrize("name", NAMES)
def test_fuzz_target_runs_clean(built, name, tmp_path):
    seeds = os.path.join(os.path.dirname(__file__), "corpus", name)
    corpus = [str(tmp_path / "corpus"), seeds] if os.path.isdir(seeds) else []
    os.makedirs(tmp_path / "corpus")
    p = subprocess.run([os.path.join(built, "fuzz_" + name), "-max_total_time=" + SECONDS,
                        "-max_len=6000", "-print_final_stats=1",
                        "-artifact_prefix=%s/" % tmp_path] + corpus,
                       capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0"))
    assert p.returncode == 0, p.stderr[-4000:]
    assert "ERROR" not in p.stderr and "runtime error" not in p.stderr, p.stderr[-4000:]
    runs = int(re.search(r"stat::number_of_executed_units: (\d+)", p.stderr).group(1))
    assert runs > 1000, p.stderr[-2000:]
    print("fuzz_%s: %d runs" % (name, runs))


CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


@pytest.mark.parametrize("name", sorted(os.listdir(CORPUS)) if os.path.isdir(CORPUS) else [])
def test_corpus_cases_run_clean(built, name, tmp_path):
    """Each kept bad input (tests/fuzz/corpus/NAME/*), whole, through its target."""
    files = sorted(os.path.join(CORPUS, name, f) for f in os.listdir(os.path.join(CORPUS, name)))
    p = subprocess.run([os.path.join(built, "fuzz_" + name), "-runs=1", "-max_len=200000",
                        "-artifact_prefix=%s/" % tmp_path] + files,
                       capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0"))
    assert p.returncode == 0, p.stderr[-4000:]
    assert p.stderr.count("Executed ") == len(files), p.stderr[-4000:]
