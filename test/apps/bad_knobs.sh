#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
#
# The knobs of the long targets refuse a bad value before running anything:
# make soak (SOAK_MINUTES, SOAK_PORTS) and make fuzz (FUZZ_SECONDS,
# FUZZ_RUNS) exit 2 with a message naming the variable.
#
#     bad_knobs.sh TOP_SRC_DIR BUILD_DIR
set -u
top=$1 build=$2
fail=0

expect() {	# expect VAR=VALUE MESSAGE_PART COMMAND...
    what=$1 part=$2
    shift 2
    out=$(env "$what" "$@" 2>&1)
    rc=$?
    if [ $rc -ne 2 ] || ! printf '%s' "$out" | grep -q -- "$part"; then
        echo "FAIL: $what $*: exit $rc, output: $out"
        fail=1
    else
        echo "ok: $what -> exit 2: $out"
    fi
}

expect SOAK_MINUTES=ten SOAK_MINUTES "$top/devtools/soak.sh" "$build"
expect SOAK_PORTS=nic SOAK_PORTS "$top/devtools/soak.sh" "$build"
expect "SOAK_PORTS=vhost nic" SOAK_PORTS "$top/devtools/soak.sh" "$build"
expect FUZZ_RUNS=abc FUZZ_RUNS "$top/devtools/fuzz.sh" "$build" 5
expect FUZZ_RUNS=0 FUZZ_RUNS "$top/devtools/fuzz.sh" "$build" 5
expect FUZZ_SECONDS=5s FUZZ_SECONDS "$top/devtools/fuzz.sh" "$build" 5s
exit $fail
