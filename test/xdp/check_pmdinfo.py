#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
"""Test: dpdk-pmdinfo.py on the built plugin lists net_mbufx_xdp with its
device arguments (the string gen.py pmdinfo generated at build time from the
driver's devargs table), and the driver guide documents exactly those: the
guide's parameter table and its --vdev synopsis name every key and no other,
and the synopsis gives an enumerated key the values the driver takes.
Usage: check_pmdinfo.py PMDINFO_TOOL PLUGIN.so GUIDE.rst; exit 77 without the
tool.

doc_problems() is also used by test_xdp.py (case bad_args), which checks the
guide's defaults against the driver's help line."""

import json
import os
import re
import subprocess
import sys


def guide_params(rst):
    """(synopsis {name: value}, table {name: default cell}) of the guide's
    Parameters section."""
    text = open(rst).read()
    sec = text[text.index('\nParameters\n'):]
    syn = sec[sec.index('--vdev net_mbufx_xdp'):sec.index('\n\n', sec.index('--vdev'))]
    synopsis = dict(re.findall(r'([a-z_]+)=([^\[\],\s]+)', syn))
    rules = [m.start() for m in re.finditer(r'^=+ =+', sec, re.M)]
    body = sec[rules[1]:rules[2]]
    table = {n: d.strip('`') for n, d in
             re.findall(r'^``([a-z_]+)``\s+(\S+)', body, re.M)}
    return synopsis, table


def doc_problems(rst, params, defaults=None):
    """What the guide gets wrong about params ({name: "<syntax>"}) and, when
    given, defaults ({name: default or None}): a list of sentences."""
    synopsis, table = guide_params(rst)
    bad = []
    for what, names in (('parameter table', table), ('--vdev synopsis', synopsis)):
        if set(names) != set(params):
            bad.append('%s: missing %s, not a parameter %s' % (
                what, sorted(set(params) - set(names)), sorted(set(names) - set(params))))
    for name, syntax in params.items():
        if '|' in syntax and name in synopsis and synopsis[name] != syntax.strip('<>'):
            bad.append('--vdev synopsis: %s=%s, the driver takes %s=%s' %
                       (name, synopsis[name], name, syntax.strip('<>')))
    for name, d in (defaults or {}).items():
        if d is not None and name in table and table[name] != d:
            bad.append('parameter table: %s defaults to %s, the driver to %s' %
                       (name, table[name], d))
    return bad


def main():
    tool, plugin, rst = sys.argv[1], sys.argv[2], sys.argv[3]
    if not os.path.exists(tool):
        print("SKIP: no dpdk-pmdinfo.py (package dpdk-dev)")
        return 77
    out = subprocess.run([tool, plugin], check=True, capture_output=True,
                         text=True).stdout
    drivers = json.loads(out)
    names = [d.get("name") for d in drivers]
    if names != ["net_mbufx_xdp"]:
        print("FAIL: drivers listed: %s" % names)
        return 1
    pairs = [p.split("=", 1) for p in drivers[0]["params"].split()]
    params = dict(pairs)
    if len(params) != len(pairs) or not all(re.fullmatch(r'<[^<>=]+>', s)
                                            for s in params.values()):
        print("FAIL: params string %r: want unique name=<syntax> pairs" %
              drivers[0]["params"])
        return 1
    bad = doc_problems(rst, params)
    for b in bad:
        print("FAIL: %s: %s" % (rst, b))
    if bad:
        return 1
    print("ok: %s, as documented in %s" % (drivers[0], os.path.basename(rst)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
