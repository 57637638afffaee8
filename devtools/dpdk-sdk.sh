#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
#
# DPDK's driver headers for the installed DPDK, from DPDK's own source.
#
#     devtools/dpdk-sdk.sh OUTDIR DPDK_VERSION               (apt source package)
#     devtools/dpdk-sdk.sh OUTDIR DPDK_VERSION --tree DIR    (a DPDK source tree)
#     devtools/dpdk-sdk.sh OUTDIR DPDK_VERSION --git REPO    (a DPDK git repository)
#     devtools/dpdk-sdk.sh OUTDIR DPDK_VERSION --path PATH   (either, told apart)
#
# An out-of-tree ethdev PMD needs ethdev_driver.h, ethdev_vdev.h,
# bus_vdev_driver.h and dev_driver.h, which no distribution installs
# (enable_driver_sdk is off in Debian and Ubuntu). Their structures change
# between releases, so they must come from the release the PMD loads into.
#
# Without --tree or --git, the installed libdpdk-dev's version and the
# archive it came from are read from dpkg and apt; a private source list
# (deb-src lines for that archive only), private index and cache
# directories under OUTDIR are used with the system's trusted keys, so apt
# verifies the download against the signed index and the system's apt
# configuration is never touched. Only the four headers are unpacked from
# the upstream tarball, the Debian patches that touch them are applied, and
# everything else is deleted.
#
# --tree takes the headers from an unpacked DPDK source (its VERSION file
# names the release); --git from the tag vDPDK_VERSION of a DPDK git
# repository, or, when the repository lacks that tag, from the newest tag
# of the same LTS branch below it. A release other than DPDK_VERSION is
# accepted only on the same branch (YY.MM), with a warning: within an LTS
# branch these headers change in comments only, and the PMD's tests check
# the rest.
#
# OUTDIR/include then holds the headers and OUTDIR/version (also printed on
# stdout) where they came from: a second run with the same source does
# nothing. No root is needed.
# Exit 0 with the headers in place; otherwise a message on stderr that names
# the fix, exit 1.
set -eu

usage="usage: dpdk-sdk.sh OUTDIR DPDK_VERSION [--tree DIR | --git REPO | --path PATH]"
out=${1:?$usage}
want=${2:?$usage}
mode=${3:-apt}
from=${4:-}
case "$mode" in
apt) ;;
--path)
    [ -n "$from" ] || { echo "$usage" >&2; exit 1; }
    if [ -f "$from/VERSION" ] && [ -d "$from/lib/ethdev" ]; then
        mode=--tree
    else
        mode=--git
    fi ;;
--tree|--git) [ -n "$from" ] || { echo "$usage" >&2; exit 1; } ;;
*) echo "$usage" >&2; exit 1 ;;
esac
HEADERS="lib/ethdev/ethdev_driver.h lib/ethdev/ethdev_vdev.h
drivers/bus/vdev/bus_vdev_driver.h lib/eal/include/dev_driver.h"

fail() {
    echo "dpdk-sdk: $*" >&2
    echo "dpdk-sdk: fix: give DPDK $want's source tree or a git clone of DPDK" \
        "with -Ddpdk_source=PATH, or build without the AF_XDP PMD" \
        "(-Dxdp_pmd=disabled)" >&2
    exit 1
}

# Copy the headers from source tree $1 of release $2 into OUTDIR/include.
install_headers() {
    for h in $HEADERS; do
        [ -f "$1/$h" ] || fail "$1 has no $h (not a DPDK source tree?)"
    done
    case "$2" in
    "$want") ;;
    "${want%.*}".*|"${want%.*}")
        echo "dpdk-sdk: WARNING: driver headers of DPDK $2 for the" \
            "installed DPDK $want (same LTS branch)" >&2 ;;
    *) fail "$1 is DPDK $2, the installed DPDK is $want" ;;
    esac
    mkdir -p "$out/include"
    for h in $HEADERS; do
        cp "$1/$h" "$out/include/"
    done
}

# Success: where the headers came from, on stdout.
done_ok() {
    cat "$out/version"
    exit 0
}

stamp_ok() {
    [ -f "$out/version" ] && [ "$(cat "$out/version")" = "$1" ] &&
        [ -f "$out/include/ethdev_driver.h" ]
}

if [ "$mode" = --tree ]; then
    [ -f "$from/VERSION" ] || fail "$from has no VERSION file (not a DPDK source tree?)"
    rel=$(sed -n 1p "$from/VERSION" | tr -d ' ')
    stamp="tree $(cd "$from" && pwd) $rel"
    stamp_ok "$stamp" && done_ok
    rm -rf "$out"
    install_headers "$from" "$rel"
    echo "$stamp" > "$out/version"
    done_ok
fi

if [ "$mode" = --git ]; then
    command -v git >/dev/null 2>&1 || fail "--git needs git"
    git -C "$from" rev-parse --git-dir >/dev/null 2>&1 || fail "$from is not a git repository"
    branch=${want%.*}
    case "$want" in *.*.*) ;; *) branch=$want ;; esac
    # exact tag, else the newest vYY.MM[.N] of the branch not above want
    tag=$(git -C "$from" tag -l "v$branch" "v$branch.*" | grep -E '^v[0-9.]+$' |
        sed 's/^v//' | sort -t. -k1,1n -k2,2n -k3,3n | awk -v w="$want" '
        function key(v, a) { split(v, a, "."); return a[1]*1e6 + a[2]*1e3 + a[3] }
        key($0) <= key(w) { t = $0 } END { if (t != "") print "v" t }')
    [ -n "$tag" ] || fail "$from has no tag of the DPDK $branch branch up to $want"
    stamp="git $tag"
    stamp_ok "$stamp" && done_ok
    rm -rf "$out"
    mkdir -p "$out/src"
    # shellcheck disable=SC2086
    git -C "$from" archive "$tag" -- VERSION $HEADERS | tar -x -C "$out/src" ||
        fail "cannot read $HEADERS at $tag in $from"
    install_headers "$out/src" "${tag#v}"
    rm -rf "$out/src"
    echo "$stamp" > "$out/version"
    done_ok
fi

command -v dpkg-query >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 ||
    fail "no dpkg/apt here to fetch DPDK $want's source package"
deb=$(dpkg-query -W -f='${Version}' libdpdk-dev 2>/dev/null) ||
    fail "libdpdk-dev is not installed as a package (DPDK $want built from source?)"
# 22.11.11-0+deb12u1 -> 22.11.11: the package must be the DPDK meson found
upstream=$(echo "$deb" | sed 's/^[0-9]*://; s/-[^-]*$//; s/~.*//')
[ "$upstream" = "$want" ] ||
    fail "meson found DPDK $want but the libdpdk-dev package is $deb"

stamp_ok "apt $deb" && done_ok

# The archives apt would take that exact version from: the lines under
# the installed ("***") entry of the version table.
origins=$(apt-cache policy libdpdk-dev 2>/dev/null | awk '
    /^ \*\*\* / { inst = 1; next }
    /^     [^ ]/ { inst = 0 }
    inst && $2 ~ /^[a-z]+:\/\// && $3 ~ /\// { print $2, $3 }' | sort -u)
[ -n "$origins" ] ||
    fail "apt does not know where libdpdk-dev $deb came from (run apt-get update)"

rm -rf "$out"
mkdir -p "$out/apt/lists/partial" "$out/apt/cache/archives/partial" "$out/src"
echo "$origins" | while read -r uri sc; do
    echo "deb-src $uri ${sc%%/*} ${sc#*/}"
done > "$out/apt/sources.list"

APT="apt-get -q -o Dir::Etc::SourceList=$out/apt/sources.list
-o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists=$out/apt/lists
-o Dir::Cache=$out/apt/cache -o Dir::State::status=/var/lib/dpkg/status
-o Debug::NoLocking=1 -o APT::Sandbox::User=root
-o Acquire::Check-Valid-Until=false"
echo "dpdk-sdk: fetching the source package dpdk $deb ($(echo "$origins" |
    tr '\n' ' '| sed 's/ *$//'))" >&2
# shellcheck disable=SC2086
$APT update >"$out/apt/update.log" 2>&1 ||
    fail "apt-get update of the deb-src index failed (see $out/apt/update.log)"
# shellcheck disable=SC2086
(cd "$out/src" && $APT source --download-only "dpdk=$deb") \
    >"$out/apt/source.log" 2>&1 ||
    fail "apt-get source dpdk=$deb failed: $(grep -m1 '^E:' "$out/apt/source.log")"

orig=$(ls "$out"/src/dpdk_*.orig.tar.* 2>/dev/null | head -n 1)
[ -n "$orig" ] || fail "no upstream tarball in the source package"
mkdir -p "$out/src/tree"
pats=""
for h in $HEADERS; do pats="$pats */$h"; done
# shellcheck disable=SC2086
tar -xf "$orig" -C "$out/src/tree" --strip-components=1 --wildcards $pats ||
    fail "$orig lacks one of: $HEADERS"

# Debian's patches that touch these headers, in series order
dtar=$(ls "$out"/src/dpdk_*.debian.tar.* 2>/dev/null | head -n 1)
if [ -n "$dtar" ]; then
    mkdir -p "$out/src/debian"
    tar -xf "$dtar" -C "$out/src/debian"
    series="$out/src/debian/debian/patches/series"
    if [ -f "$series" ]; then
        sed 's/#.*//; /^[[:space:]]*$/d' "$series" | while read -r p _; do
            pf="$out/src/debian/debian/patches/$p"
            for h in $HEADERS; do
                if grep -q "^+++ [^/]*/$h" "$pf" 2>/dev/null; then
                    command -v filterdiff >/dev/null 2>&1 ||
                        fail "Debian patch $p changes $h: install patchutils"
                    (cd "$out/src/tree" && filterdiff -i "*/$h" "$pf" |
                        patch -s -p1) ||
                        fail "Debian patch $p does not apply to $h"
                fi
            done
        done
    fi
fi

install_headers "$out/src/tree" "$upstream"
rm -rf "$out/src" "$out/apt"
echo "apt $deb" > "$out/version"
echo "dpdk-sdk: $(echo "$HEADERS" | wc -w) driver headers of DPDK $deb in $out/include" >&2
done_ok
