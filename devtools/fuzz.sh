#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
#
# `make fuzz`: run every libFuzzer harness of a fuzzing build in turn.
#
#   devtools/fuzz.sh BUILD SECONDS [HARNESS...]
#
# Each harness (BUILD/test/fuzz/fuzz_*) replays its seeds and regression
# inputs, then fuzzes SECONDS (FUZZ_RUNS=N: N inputs instead), through
# test/fuzz/run-fuzzer.sh. The corpus is kept and grows in
# BUILD/fuzz-corpus/HARNESS; crash inputs land in BUILD/fuzz-artifacts
# (replay one: BUILD/test/fuzz/HARNESS FILE; once fixed, add it to
# test/fuzz/regress/HARNESS/). Logs: BUILD/fuzz-logs/HARNESS.log (or in
# $FUZZ_LOGDIR); the table
# printed at the end (executions, rate, coverage "cov" = edges and "ft" =
# features as libFuzzer counts them, corpus, peak RSS) is also written to
# summary-DATE.md next to the logs. Exit 1 when a harness found something.
set -eu

[ $# -ge 2 ] || { echo "usage: $0 BUILD SECONDS [HARNESS...]" >&2; exit 2; }
build=$1 seconds=$2
shift 2
case $seconds in
''|*[!0-9]*) echo "fuzz: FUZZ_SECONDS=$seconds: want a whole number of seconds" >&2; exit 2 ;;
esac
case ${FUZZ_RUNS-1} in
''|*[!0-9]*|0) echo "fuzz: FUZZ_RUNS=$FUZZ_RUNS: want a positive number of inputs" >&2; exit 2 ;;
esac
top=$(cd "$(dirname "$0")/.." && pwd)
fuzzdir=$build/test/fuzz
if [ $# -eq 0 ]; then
    for h in "$fuzzdir"/fuzz_*; do
        [ -x "$h" ] && [ -f "$h" ] && set -- "$@" "$(basename "$h")"
    done
fi
[ $# -gt 0 ] || { echo "fuzz: no harness in $fuzzdir (make fuzz-build)" >&2; exit 2; }

logs=${FUZZ_LOGDIR:-$build/fuzz-logs}
mkdir -p "$logs" "$build/fuzz-artifacts"
summary=$logs/summary-$(date +%Y%m%d-%H%M%S).md
{
    echo "| harness | result | executions | exec/s | seconds | cov | ft | corpus | peak RSS MB |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
} > "$summary"
failed=0
for h in "$@"; do
    log=$logs/$h.log
    echo "fuzz: $h for ${FUZZ_RUNS:+$FUZZ_RUNS runs}${FUZZ_RUNS:-$seconds s} (log: $log)"
    t0=$(date +%s)
    rc=0
    FUZZ_CORPUS=$build/fuzz-corpus/$h FUZZ_ARTIFACTS=$build/fuzz-artifacts \
        "$top/test/fuzz/run-fuzzer.sh" "$fuzzdir/$h" "$seconds" \
        "$top/test/fuzz/corpus/$h" "$top/test/fuzz/regress/$h" > "$log" 2>&1 || rc=$?
    t1=$(date +%s)
    result=ok
    if [ $rc -ne 0 ]; then
        result=FAILED
        failed=1
        grep -a -m3 -E "ERROR|FUZZ CHECK|runtime error|Test unit written" "$log" | sed 's/^/    /' || true
    fi
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
    last=$(grep -a -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$log" | tail -1 || true)
    cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
    ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
    corp=$(echo "$last" | sed -n 's/.* corp: \([^ ]*\).*/\1/p')
    echo "| $h | $result | ${execs:-?} | ${rate:-?} | $((t1 - t0)) | ${cov:-?} | ${ft:-?} | ${corp:-?} | ${rss:-?} |" >> "$summary"
done
echo
cat "$summary"
[ $failed -eq 0 ] || echo "fuzz: crash inputs in $build/fuzz-artifacts"
exit $failed
