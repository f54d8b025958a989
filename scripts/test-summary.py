#!/usr/bin/python3
"""test-summary.py: print pytest's counts from its JUnit XML files, added up, as the
last line: "N passed, N failed" (", N skipped" when any were skipped). A missing or
broken report counts as one failure."""
import sys
import xml.etree.ElementTree as ET

total = failed = skipped = 0
for path in sys.argv[1:]:
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        print("test-summary: no report (%s)" % e)
        total += 1
        failed += 1
        continue
    for s in [root] if root.tag == "testsuite" else root.findall("testsuite"):
        total += int(s.get("tests", 0))
        failed += int(s.get("failures", 0)) + int(s.get("errors", 0))
        skipped += int(s.get("skipped", 0))
passed = total - failed - skipped
line = "%d passed, %d failed" % (passed, failed)
if skipped:
    line += ", %d skipped" % skipped
print(line)
