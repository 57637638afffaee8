#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
"""Closing line of `make test`: summarise BUILD/meson-logs/testlog.json.

    devtools/test-summary.py BUILD [BUILD...]

With several build trees (`make test` runs the ASan build's unit tests too)
the counts are added up; tests of the second tree are named BUILD:test.

meson writes testlog.json (one JSON object per test, one per line) anew on
every `meson test`. This prints the failed and skipped tests by name, then a
last plain line

    N passed, N failed, N skipped

(OK and EXPECTEDFAIL count as passed; FAIL, TIMEOUT, ERROR, UNEXPECTEDPASS and
INTERRUPT as failed; SKIP as skipped). It exits 0 even when tests failed: the
Makefile keeps meson's exit status. Exit 2 when there is no log to read.

With MBUFX_NO_SKIP=1 (CI sets it: its machine can run every test once
devtools/setup.sh has run) a skipped test is an error too: exit 1, with the
reason each one gave.
"""

import json
import os
import sys

PASSED = {"OK", "EXPECTEDFAIL"}
SKIPPED = {"SKIP"}


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[0])
        print("usage: test-summary.py BUILD [BUILD...]")
        return 2
    passed, failed, skipped = [], [], []
    for i, build in enumerate(sys.argv[1:]):
        path = os.path.join(build, "meson-logs", "testlog.json")
        try:
            with open(path, encoding="utf-8") as f:
                lines = [line for line in f if line.strip()]
        except OSError as e:
            print(f"test-summary: {e}")
            return 2
        tag = "" if i == 0 else os.path.basename(os.path.normpath(build)) + ":"
        for line in lines:
            t = json.loads(line)
            result = t.get("result", "ERROR")
            name = tag + t.get("name", "?")
            if result in PASSED:
                passed.append(name)
            elif result in SKIPPED:
                why = [ln.strip() for ln in t.get("stdout", "").splitlines()
                       if "SKIP" in ln.upper()]
                skipped.append(name + (f" ({why[-1]})" if why else ""))
            else:
                failed.append(f"{name} ({result})")
    if skipped:
        print("skipped: " + ", ".join(skipped))
    if failed:
        print("failed: " + ", ".join(failed))
    print(f"{len(passed)} passed, {len(failed)} failed, {len(skipped)} skipped")
    if skipped and os.environ.get("MBUFX_NO_SKIP") == "1":
        print("test-summary: MBUFX_NO_SKIP=1: a skipped test counts as a failure here")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
