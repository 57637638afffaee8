#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
#
# Make this machine ready to build and run mbufx: Debian packages, 2 MiB
# hugepages, hugetlbfs. Idempotent and quick when nothing is missing. Steps that
# need root are skipped with a note when not root; tests then fall back to
# --no-huge.
#
# The same package names serve Debian 12, 13 and sid (and Ubuntu): only the
# clang runtime and libFuzzer carry clang's major version in their names,
# read from the release's own clang package.
#
# Hugepages: 2048 x 2 MiB = 4 GiB by default (MBUFX_HUGEPAGES), enough for
# the largest test (the vhost-user soak, about 1.2 GB) while another runs
# beside it (make test runs two at a time).
set -eu

PKGS="dpdk dpdk-dev libdpdk-dev meson ninja-build pkg-config python3-pyelftools
libnuma-dev libpcap-dev gcc make python3 python3-matplotlib iproute2
libbpf-dev clang llvm ethtool valgrind dpdk-doc iputils-ping"
[ "${MBUFX_DOCS:-0}" = 1 ] && PKGS="$PKGS python3-sphinx doxygen"
HUGEPAGES=${MBUFX_HUGEPAGES:-2048}

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo -n"
APT="$SUDO env DEBIAN_FRONTEND=noninteractive apt-get"
updated=0

# clang's major version on this release: 14 on Debian 12, 19 on 13, ...
clang_major() {
    v=$(dpkg-query -W -f='${Version}' clang 2>/dev/null) ||
        v=$(apt-cache policy clang 2>/dev/null | awk '/Candidate:/ {print $2}')
    echo "$v" | sed -n 's/^[0-9]*://; s/^\([0-9][0-9]*\)[.~-].*/\1/p'
}
cm=$(clang_major)
if [ -z "$cm" ] || [ "$cm" = "(none)" ]; then
    $APT update -qq
    updated=1
    cm=$(clang_major)
fi
[ -n "$cm" ] || { echo "setup: no clang package on this system's archives" >&2; exit 1; }
PKGS="$PKGS libclang-rt-$cm-dev libfuzzer-$cm-dev"

missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
        missing="$missing $p"
done

if [ -n "$missing" ]; then
    echo "setup: installing:$missing"
    [ "$updated" = 1 ] || $APT update -qq
    # shellcheck disable=SC2086
    $APT install -y -qq --no-install-recommends $missing >/dev/null
fi

hp=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
if [ -w "$hp" ] || [ -n "$SUDO" ]; then
    cur=$(cat "$hp" 2>/dev/null || echo 0)
    if [ "$cur" -lt "$HUGEPAGES" ]; then
        echo "$HUGEPAGES" | $SUDO tee "$hp" >/dev/null 2>&1 ||
            echo "setup: could not reserve hugepages; runs fall back to --no-huge"
        got=$(cat "$hp" 2>/dev/null || echo 0)
        [ "$got" -ge "$HUGEPAGES" ] ||
            echo "setup: only $got of $HUGEPAGES hugepages could be reserved" \
                "(memory fragmented?): tests that need more are skipped"
    fi
fi
if ! mountpoint -q /dev/hugepages 2>/dev/null; then
    $SUDO mkdir -p /dev/hugepages 2>/dev/null || true
    $SUDO mount -t hugetlbfs nodev /dev/hugepages 2>/dev/null ||
        echo "setup: could not mount hugetlbfs; runs fall back to --no-huge"
fi
free=$(awk '/HugePages_Free/ {print $2}' /proc/meminfo)
echo "setup: ok ($free free 2 MiB hugepages)"
