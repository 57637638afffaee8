# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
#
# Sourced by the scripts of test/dpdk/ (with $here set to test/dpdk), after
# devtools/lib.sh, which it sources itself: one DPDK process environment per
# test.
#
#     here=$(cd "$(dirname "$0")" && pwd)
#     . "$here/common.sh"
#     [ $# -eq 2 ] || usage "BUILD NAME"
#     [ -x "$TOOL" ] || skip "$TOOL not installed"
#     dpdk_env BUILD NAME
#
# dpdk_env sets
#   build    the absolute path of BUILD
#   PREFIX   a --file-prefix unique to this run (name + pid): two build trees
#            testing at once never share EAL runtime state
#   MEM      EAL memory arguments: "--huge-unlink -m 256" with hugepages,
#            "--no-huge -m 1024" without (--huge-unlink is refused there)
#   PLUGIN   "-d librte_mempool_mbufx.so", with LD_LIBRARY_PATH exported so
#            that the bare name resolves to BUILD's plugin (EAL refuses -d
#            paths below a world-writable directory such as /tmp)
#   WORK     a scratch directory for logs
# and installs an EXIT trap that kills every process registered with
# dpdk_track PID, removes WORK and the EAL runtime directory of PREFIX.
# With --huge-unlink no hugepage file outlives its process; --no-huge makes
# none.

# shellcheck disable=SC2154 # $here: set by the script that sources this
. "$here/../../devtools/lib.sh"

# usage ARGS: the script's synopsis, exit 2.
usage() {
    echo "usage: $0 $1"
    exit 2
}

# skip WHY: the test cannot run here, exit 77 (meson: skipped).
skip() {
    echo "SKIP: $1"
    exit 77
}

dpdk_cleanup() {
    for p in $DPDK_PIDS; do
        if kill -0 "$p" 2>/dev/null; then
            kill "$p" 2>/dev/null || true
            sleep 1
            kill -9 "$p" 2>/dev/null || true
        fi
    done
    [ -n "${WORK:-}" ] && rm -rf "$WORK"
    [ -n "${PREFIX:-}" ] && rm -rf "${DPDK_RUNDIR:?}/$PREFIX"
    return 0
}

dpdk_track() {
    DPDK_PIDS="$DPDK_PIDS $1"
}

dpdk_env() {
    build=$(cd "$1" && pwd)
    PREFIX="mbufx_$2_$$"
    DPDK_PIDS=""
    if [ "$(id -u)" -eq 0 ]; then
        DPDK_RUNDIR=/var/run/dpdk
    else
        DPDK_RUNDIR=${XDG_RUNTIME_DIR:-/tmp}/dpdk
    fi
    MEM=$(mbufx_mem_args 256)
    [ -n "$MEM" ] || MEM="--huge-unlink -m 256"
    mbufx_plugin_args "$build"
    # shellcheck disable=SC2034 # used by the scripts that source this
    PLUGIN=$MBUFX_PLUGIN_ARGS
    WORK=$(mktemp -d "${TMPDIR:-/tmp}/mbufx-$2.XXXXXX")
    trap dpdk_cleanup EXIT
    trap 'exit 1' INT TERM HUP PIPE
}

# fail MESSAGE [LOG]: print the message and the log, exit 1.
fail() {
    echo "FAIL: $1"
    if [ -n "${2:-}" ] && [ -f "$2" ]; then
        echo "---- $2 (last 60 lines) ----"
        tail -n 60 "$2"
    fi
    exit 1
}

# testpmd_start EAL_AND_APP_ARGS...: interactive dpdk-testpmd ($TESTPMD) on
# the mbufx driver, fed through a FIFO on fd 3, its line-buffered output in
# $log = $WORK/testpmd.log, its pid in $pid; returns at its first prompt,
# having checked that it selected the mbufx ops. The arguments follow
# "--file-prefix=$PREFIX $PLUGIN --mbuf-pool-ops-name=mbufx".
testpmd_start() {
    log=$WORK/testpmd.log
    mkfifo "$WORK/in"
    # shellcheck disable=SC2086 # PLUGIN: two words
    stdbuf -oL -eL "$TESTPMD" --file-prefix="$PREFIX" $PLUGIN \
        --mbuf-pool-ops-name=mbufx "$@" <"$WORK/in" >"$log" 2>&1 &
    pid=$!
    dpdk_track $pid
    exec 3>"$WORK/in"
    wait_for "testpmd> " 1 120
    grep -q "preferred mempool ops selected: mbufx" "$log" ||
        fail "testpmd did not select the mbufx ops" "$log"
}

# Interactive testpmd fed through a FIFO on fd 3, its line-buffered output in
# $log, its pid in $pid (the caller's variables):
# wait_for PATTERN COUNT SECONDS: until PATTERN occurs COUNT times in $log.
wait_for() {
    t=0
    while [ "$(grep -c -- "$1" "$log" || true)" -lt "$2" ]; do
        kill -0 "$pid" 2>/dev/null || fail "testpmd died waiting for '$1'" "$log"
        [ $t -lt $(($3 * 5)) ] || fail "timeout waiting for '$1'" "$log"
        sleep 0.2
        t=$((t + 1))
    done
}

# send COMMAND: one line to testpmd.
send() {
    echo "$1" >&3
}

# send_dump_mempool: ask testpmd to dump every mempool. Its command is
# "dump mempool" from DPDK 25.11 on and "dump_mempool" before: both are sent,
# and testpmd answers the one it does not know with "Command not found".
send_dump_mempool() {
    send "dump mempool"
    send "dump_mempool"
}

# wait_exit PID SECONDS: until PID is gone (fail after SECONDS); its status.
wait_exit() {
    t=0
    while kill -0 "$1" 2>/dev/null; do
        [ $t -lt $(($2 * 5)) ] || fail "pid $1 did not exit" "${log:-}"
        sleep 0.2
        t=$((t + 1))
    done
    rc=0
    wait "$1" || rc=$?
    return $rc
}
