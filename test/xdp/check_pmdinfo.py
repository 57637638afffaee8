#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
"""Test: dpdk-pmdinfo.py on the built plugin lists net_mbufx_xdp with each of
its device arguments (the string gen.py pmdinfo generated at build time).
Usage: check_pmdinfo.py PMDINFO_TOOL PLUGIN.so; exit 77 without the tool."""

import json
import os
import subprocess
import sys

WANT = {"iface": "<string>", "start_queue": "<int>", "queue_count": "<int>",
        "shared_umem": "<0|1>", "busy_budget": "<int>", "force_copy": "<0|1>",
        "mode": "<drv|skb>", "bind_mode": "<auto|copy|zc>",
        "tx_kick_us": "<int>", "rx_refill": "<late|classic>"}


def main():
    tool, plugin = sys.argv[1], sys.argv[2]
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
    params = dict(p.split("=", 1) for p in drivers[0]["params"].split())
    if params != WANT:
        print("FAIL: params %s, want %s" % (params, WANT))
        return 1
    print("ok: %s" % drivers[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
