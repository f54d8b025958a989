"""test_udev_compare.py: Kobold's `udevadm test` against what systemd 252's
udevadm printed for the same rules on the same disk (recorded by
`make udev-compare --record` in tests/udev_compare/linux-252.json, from
Debian 12's udev package in Debian's Linux): every case agrees, but for the
differences kept on purpose (docs/differences.md), which are checked as such."""
import json
import os

import pytest

import udev_kobold
from udev_compare import cases, results

HERE = os.path.dirname(os.path.abspath(__file__))
RECORD = os.path.join(HERE, "udev_compare", "linux-252.json")


@pytest.fixture(scope="module")
def kobold_outputs(tmp_path_factory):
    return udev_kobold.run_cases(str(tmp_path_factory.mktemp("udev-compare")))


def test_the_record_is_systemds_and_covers_every_case():
    with open(RECORD) as f:
        rec = json.load(f)
    assert rec["udevadm"] == "252"
    assert sorted(rec["cases"]) == sorted(n for n, _, _ in cases.CASES)
    assert len(cases.CASES) >= 50
    for name, c in rec["cases"].items():  # udevadm test's own banner, in each
        assert "This program is for debugging only" in c["output"], name


@pytest.mark.parametrize("name,dev", [(n, d) for n, d, _ in cases.CASES])
def test_kobold_agrees_with_systemd(kobold_outputs, name, dev):
    with open(RECORD) as f:
        linux = results.reduce(json.load(f)["cases"][name]["output"])
    kobold = results.reduce(kobold_outputs[name])
    diff = results.differences(linux, kobold)
    kept = udev_kobold.KEPT.get(name, ())
    assert set(diff) <= set(kept), "\n".join(
        "%s:\n  systemd 252: %r\n  Kobold:      %r" % (f, l, k) for f, (l, k) in diff.items())
    for field in kept:  # a kept difference is Kobold's refusal, named with file and line
        assert any(e.startswith(results.RULES + ":") for e in kobold[field]), kobold
