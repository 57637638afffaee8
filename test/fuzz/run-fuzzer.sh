#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
#
# Run one libFuzzer harness: replay its seed corpus and its regression
# inputs (each once), then fuzz for SECONDS, with the harness's dictionary
# (dict/HARNESS.dict next to this script) when there is one.
#
#   run-fuzzer.sh HARNESS SECONDS SEED_DIR [REGRESS_DIR] [-- LIBFUZZER_ARGS...]
#
# New inputs go to $FUZZ_CORPUS (a directory kept between runs) or to a
# temporary directory removed at the end; crash inputs to $FUZZ_ARTIFACTS
# (default: the current directory). FUZZ_RUNS=N stops after N executions
# instead of SECONDS. Exit 0 when nothing was found, 1 on a crash, a leak,
# undefined behaviour, a failed check or a timeout (libFuzzer's own 77 would
# read as "skipped" to meson).
set -eu

[ $# -ge 3 ] || { echo "usage: $0 HARNESS SECONDS SEED_DIR [REGRESS_DIR] [-- ARGS]" >&2; exit 2; }
harness=$1 seconds=$2 seeds=$3
shift 3
regress=""
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
    regress=$1
    shift
fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift

tmp=""
corpus=${FUZZ_CORPUS:-}
if [ -z "$corpus" ]; then
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/mbufx-fuzz.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT INT TERM
    corpus=$tmp
fi
mkdir -p "$corpus"
artifacts=${FUZZ_ARTIFACTS:-.}
mkdir -p "$artifacts"

set -- -error_exitcode=1 -timeout_exitcode=1 -timeout=25 -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="$artifacts/$(basename "$harness")-" "$@"
if [ -n "${FUZZ_RUNS:-}" ]; then
    set -- -runs="$FUZZ_RUNS" "$@"
else
    set -- -max_total_time="$seconds" "$@"
fi
# test/fuzz/dict/HARNESS.dict: tokens of the input language (option names,
# rule keywords, commands) that mutations alone find slowly
dict=$(dirname "$0")/dict/$(basename "$harness").dict
[ -f "$dict" ] && set -- -dict="$dict" "$@"
# test/fuzz/options/HARNESS: more libFuzzer flags (e.g. -max_len)
opts=$(dirname "$0")/options/$(basename "$harness")
# shellcheck disable=SC2046
[ -f "$opts" ] && set -- $(cat "$opts") "$@"
dirs="$corpus $seeds"
[ -n "$regress" ] && [ -d "$regress" ] && dirs="$dirs $regress"
# shellcheck disable=SC2086
exec "$harness" "$@" $dirs
