#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
#
# mbufx on the DPDK of other Debian releases: Debian 13 trixie (DPDK 24.11)
# and Debian sid (DPDK 25.11), each in a minimal system of its own.
#
#     devtools/distro-test.sh BUILD [test|bench] [SUITE...]   (default: trixie sid)
#
# For each suite:
#   1. the system: debootstrap --variant=minbase from the Debian archive into
#      $MBUFX_CHROOT_DIR/SUITE (default /var/cache/mbufx/chroot), kept for
#      the next run on this machine (a half-made one is never used: it is
#      built beside and renamed when complete); sid's Release file may be
#      past its Valid-Until date on a mirror, so that check is off in there.
#      Packages are refreshed when the system is a week old;
#   2. mounts: the system on itself (ip netns needs / to be a mount point),
#      proc, sys, dev with its own hugetlbfs, tmpfs on /dev/shm and
#      /run (network namespaces made by the tests live there), this source
#      tree at /mbufx/src and, if MBUFX_DPDK_GIT names a DPDK git clone, that
#      clone read-only at /mbufx/dpdk.git. Every mount is undone on every way
#      out (a trap; processes still running in the system are killed first);
#   3. inside: devtools/setup.sh (the release's own DPDK packages and build
#      tools, by the same names as here), then with `test`: a -Dwerror=true
#      build and the fast and dpdk suites, and a clang fuzzing build and the
#      fuzz suite; with `bench`: the driver benchmark and the net_ring
#      forwarding rows.
#
# DPDK's driver headers for the AF_XDP PMD come from the release's source
# package through apt (devtools/dpdk-sdk.sh); where the archive does not
# serve it, from MBUFX_DPDK_GIT. Test logs land in BUILD/distros/SUITE
# (meson-logs/testlog.json, build.log), then one line per suite and a total
# line "N passed, N failed, N skipped". Exit status non-zero when anything
# failed. Needs root (debootstrap, mount, chroot).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: distro-test.sh BUILD [test|bench] [SUITE...]}
shift
what=test
case "${1:-}" in test|bench) what=$1; shift ;; esac
suites=${*:-trixie sid}
root=${MBUFX_CHROOT_DIR:-/var/cache/mbufx/chroot}
mirror=${MBUFX_DEBIAN_MIRROR:-http://deb.debian.org/debian}
mkdir -p "$build/distros"
logs=$(cd "$build/distros" && pwd)

[ "$(id -u)" -eq 0 ] || { echo "distro-test: needs root (debootstrap, mount, chroot)" >&2; exit 1; }
if ! command -v debootstrap >/dev/null 2>&1; then
    echo "distro-test: installing debootstrap"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null ||
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
            apt-get install -y -qq debootstrap >/dev/null; }
fi

# one run at a time on these systems
mkdir -p "$root"
exec 9>"$root/.lock"
flock -n 9 || { echo "distro-test: another run holds $root/.lock" >&2; exit 1; }

now() { date +%s; }
t_all=$(now)
mounts=""          # mounted paths, newest first
sys=""             # the system being used

unmount_all() {
    if [ -n "$sys" ]; then
        # processes left in the system (a test that hung) hold mounts
        for p in /proc/[0-9]*; do
            r=$(readlink "$p/root" 2>/dev/null) || continue
            case "$r" in "$sys"|"$sys"/*) kill -9 "${p#/proc/}" 2>/dev/null || true ;; esac
        done
    fi
    for m in $mounts; do
        umount -R "$m" 2>/dev/null || umount -R -l "$m" 2>/dev/null ||
            echo "distro-test: could not unmount $m" >&2
    done
    mounts=""
}
trap 'unmount_all' EXIT
trap 'exit 130' INT TERM HUP

# mount_in SYS TARGET ARGS...: mount and remember it
mount_in() {
    _t=$1$2
    shift 2
    mkdir -p "$_t"
    mount "$@" "$_t"
    mounts="$_t $mounts"
}

mount_system() {
    sys=$1
    # the root a mount point of its own: `ip netns exec` makes / a slave
    mount_in "$sys" "" --bind "$sys"
    mount_in "$sys" /proc -t proc proc
    mount_in "$sys" /sys --bind /sys
    mount_in "$sys" /dev --bind /dev
    mount_in "$sys" /dev/shm -t tmpfs -o mode=1777 tmpfs
    mount_in "$sys" /dev/hugepages -t hugetlbfs nodev
    mount_in "$sys" /run -t tmpfs -o mode=755 tmpfs
    mount_in "$sys" /mbufx/src --bind "$top"
    if [ -n "${MBUFX_DPDK_GIT:-}" ]; then
        mount_in "$sys" /mbufx/dpdk.git --bind "$MBUFX_DPDK_GIT"
        mount -o remount,bind,ro "$sys/mbufx/dpdk.git"
    fi
}

in_sys() {
    chroot "$sys" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
        LANG=C.UTF-8 CI="${CI:-}" MBUFX_NO_SKIP="${MBUFX_NO_SKIP:-}" \
        /bin/sh -c "$1"
}

# make_system SUITE: a complete system at $root/SUITE
make_system() {
    s=$1
    d=$root/$s
    if [ ! -f "$d/.mbufx-system" ]; then
        echo "== $s: debootstrap (minbase) from $mirror"
        # never delete through a mount (a system left mounted by hand)
        if grep -q " $d[ /]\| $d.new[ /]" /proc/mounts; then
            echo "distro-test: $d has mounts below it: unmount them first" >&2
            return 1
        fi
        rm -rf "$d.new"
        mkdir -p "$root"
        debootstrap --variant=minbase --include=ca-certificates,git "$s" "$d.new" \
            "$mirror" >"$logs/$s-debootstrap.log" 2>&1 ||
            { echo "distro-test: debootstrap $s failed (see $logs/$s-debootstrap.log)" >&2
              rm -rf "$d.new"; return 1; }
        echo 'Acquire::Check-Valid-Until "false";' \
            >"$d.new/etc/apt/apt.conf.d/99mbufx-valid-until"
        echo "deb $mirror $s main" >"$d.new/etc/apt/sources.list"
        case "$s" in
        sid|unstable|experimental) ;;
        *) echo "deb ${mirror%/debian}/debian-security $s-security main" \
                >>"$d.new/etc/apt/sources.list" ;;
        esac
        cp /etc/resolv.conf "$d.new/etc/resolv.conf" 2>/dev/null || true
        date +%s >"$d.new/.mbufx-system"
        rm -rf "$d"
        mv "$d.new" "$d"
    fi
    cp /etc/resolv.conf "$d/etc/resolv.conf" 2>/dev/null || true
}

run_suite() {
    s=$1
    d=$root/$s
    t0=$(now)
    make_system "$s" || return 1
    mount_system "$d"
    age=$(( $(now) - $(cat "$d/.mbufx-system") ))
    if [ "$age" -gt 604800 ]; then
        echo "== $s: refreshing packages (system $((age / 86400)) days old)"
        in_sys "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get \
            -y -qq dist-upgrade >/dev/null" && date +%s >"$d/.mbufx-system"
    fi
    in_sys "/mbufx/src/devtools/setup.sh" >"$logs/$s-setup.log" 2>&1 ||
        { echo "distro-test: $s: setup failed (see $logs/$s-setup.log)" >&2; return 1; }
    ver=$(in_sys "pkg-config --modversion libdpdk")
    # driver headers: the release's source package when the archive serves
    # it (meson fetches it again, from its cache), else the git clone
    sdk=""
    if ! in_sys "/mbufx/src/devtools/dpdk-sdk.sh /mbufx/sdk-probe $ver" \
            >"$logs/$s-sdk.log" 2>&1; then
        if [ -n "${MBUFX_DPDK_GIT:-}" ]; then
            sdk="-Ddpdk_source=/mbufx/dpdk.git"
        else
            echo "distro-test: $s: the archive does not serve DPDK $ver's source" \
                "package ($(grep -m1 'failed' "$logs/$s-sdk.log" || true)); give a DPDK" \
                "git clone in MBUFX_DPDK_GIT for the AF_XDP PMD's driver headers" >&2
            return 1
        fi
    fi
    echo "== $s: DPDK $ver, $(in_sys 'gcc -dumpfullversion'), clang $(in_sys \
        'clang -dumpversion'); setup $(( $(now) - t0 )) s"
    rc=0
    if [ "$what" = test ]; then
        test_in "$s" "$sdk" || rc=1
    else
        bench_in "$s" "$sdk" || rc=1
    fi
    unmount_all
    sys=""
    echo "== $s: $(( $(now) - t0 )) s in all"
    return $rc
}

test_in() {
    s=$1
    out=$logs/$s
    rm -rf "$out"
    mkdir -p "$out/meson-logs" "$out/fuzz/meson-logs"
    t1=$(now)
    if ! in_sys "rm -rf /mbufx/build /mbufx/build-fuzz &&
        meson setup /mbufx/build /mbufx/src -Dwerror=true $2 &&
        ninja -C /mbufx/build &&
        CC=clang meson setup /mbufx/build-fuzz /mbufx/src -Dwerror=true $2 \
            -Dfuzz=true -Dtests=false -Db_lundef=false -Dbuildtype=debugoptimized &&
        ninja -C /mbufx/build-fuzz" >"$out/build.log" 2>&1; then
        echo "distro-test: $s: build failed (last lines of $out/build.log):" >&2
        tail -n 30 "$out/build.log" >&2
        return 1
    fi
    warn=$(grep -c 'warning:' "$out/build.log" || true)
    echo "== $s: both builds $(( $(now) - t1 )) s, $warn compiler warnings"
    t2=$(now)
    rc=0
    in_sys "meson test -C /mbufx/build --suite fast --suite dpdk --num-processes 2 \
        --print-errorlogs" >"$out/test.log" 2>&1 || rc=1
    in_sys "meson test -C /mbufx/build-fuzz --suite fuzz --num-processes 2 \
        --print-errorlogs" >"$out/fuzz.log" 2>&1 || rc=1
    cp "$sys/mbufx/build/meson-logs/testlog.json" "$out/meson-logs/" 2>/dev/null || rc=1
    cp "$sys/mbufx/build-fuzz/meson-logs/testlog.json" "$out/fuzz/meson-logs/" 2>/dev/null || rc=1
    echo "== $s: tests $(( $(now) - t2 )) s: $(MBUFX_NO_SKIP= "$top/devtools/test-summary.py" \
        "$out" "$out/fuzz" | tail -n 1)"
    if [ $rc -ne 0 ]; then
        grep -E '^ *[0-9]+/[0-9]+ .* (FAIL|ERROR|TIMEOUT) ' "$out/test.log" "$out/fuzz.log" >&2 || true
    fi
    return $rc
}

bench_in() {
    in_sys "rm -rf /mbufx/build && meson setup /mbufx/build /mbufx/src $2 >/dev/null &&
        ninja -C /mbufx/build >/dev/null && cd /mbufx/src &&
        MBUFX_BENCH_PARTS=\"${MBUFX_BENCH_PARTS:-perf apps}\" \
        MBUFX_BENCH_SIDE=\"${MBUFX_BENCH_SIDE:-0}\" MBUFX_BENCH_REPS=\"${MBUFX_BENCH_REPS:-3}\" \
        MBUFX_BENCH_OUT=/mbufx/bench-results devtools/bench.sh /mbufx/build" \
        2>&1 | tee "$logs/$1-bench.log"
    rm -rf "$logs/$1-bench-results"
    cp -r "$sys/mbufx/bench-results" "$logs/$1-bench-results" 2>/dev/null || true
}

rc=0
for s in $suites; do
    run_suite "$s" || rc=1
done
if [ "$what" = test ]; then
    set --
    for s in $suites; do set -- "$@" "$logs/$s" "$logs/$s/fuzz"; done
    echo "== all systems: $(( $(now) - t_all )) s"
    "$top/devtools/test-summary.py" "$@" || rc=1
fi
exit $rc
