"""test_docs.py: every shell transcript in README.md, docs/*.md and docs/labs/*.md
(```console blocks, see scripts/doccheck.py) is run on a real boot and must print
what the doc says, so the docs cannot go stale."""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import doccheck  # noqa: E402

KNOWN_OPTIONS = {"skip", "continue", "append", "solution"}


def groups():
    """Blocks checked on the starting tree, a block and the blocks that continue it."""
    out = []
    for path in doccheck.doc_files():
        for b in doccheck.parse_file(path):
            if b.skipped() or b.for_solution():
                continue
            if b.continues() and out and out[-1][0].path == path:
                out[-1].append(b)
            else:
                out.append([b])
    return out


GROUPS = groups()


@pytest.mark.parametrize("group", GROUPS, ids=[g[0].name for g in GROUPS])
def test_transcript(group):
    failures = doccheck.check_blocks(group)
    assert not failures, "\n\n".join(failures)


def test_docs_have_transcripts_and_known_directives():
    names = {os.path.relpath(g[0].path, ROOT) for g in GROUPS}
    for doc in ["README.md", "docs/tutorial.md", "docs/block.md", "docs/device-model.md"]:
        assert doc in names, "%s has no checked transcript" % doc
    for path in doccheck.doc_files():
        for b in doccheck.parse_file(path):
            assert set(b.options) <= KNOWN_OPTIONS, "%s: unknown check option %s" % (b.name, b.options)
            assert b.steps, "%s: a console block with no command" % b.name


def test_matcher_accepts_placeholders_and_rejects_differences():
    m = doccheck.matches
    assert m(["[...] sbd: 1 disk of 4096 KiB, major ..."], ["[    0.05] sbd: 1 disk of 4096 KiB, major 254"])
    assert m(["a", "...", "d"], ["a", "b", "c", "d"])
    assert m(["a", "...", "d"], ["a", "d"])
    assert m(["a  "], ["a", ""])
    assert not m(["1.0"], ["1.1"])
    assert not m(["a", "d"], ["a", "b", "d"])
    assert not m(["a"], ["a", "b"])
    assert not m(["x...y"], ["x", "y"])  # an inline ... stays within its line


def test_a_wrong_transcript_fails(tmp_path):
    doc = tmp_path / "wrong.md"
    doc.write_text("```console\nkobold:/# cat /sys/class/sbd/sbd0/version\n9.9\n```\n"
                   "```console\nkobold:/sys# ls\n```\n")
    failures = doccheck.check_blocks(doccheck.parse_file(str(doc)))
    assert len(failures) == 2
    assert "+1.0" in failures[0] and "-9.9" in failures[0], failures[0]
    assert "the prompt shows /sys but the shell is in /" in failures[1], failures[1]
