#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
#
# Make this machine ready to build and run mbufx: Debian packages, 2 MiB
# hugepages, hugetlbfs. Idempotent and quick when nothing is missing. Steps that
# need root are skipped with a note when not root; tests then fall back to
# --no-huge.
set -eu

PKGS="dpdk dpdk-dev libdpdk-dev meson ninja-build pkg-config python3-pyelftools
libnuma-dev libpcap-dev gcc make python3 python3-matplotlib iproute2
libbpf-dev clang llvm ethtool libclang-rt-14-dev libfuzzer-14-dev valgrind dpdk-doc
iputils-ping"
[ "${MBUFX_DOCS:-0}" = 1 ] && PKGS="$PKGS python3-sphinx doxygen"
HUGEPAGES=${MBUFX_HUGEPAGES:-512}

missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
        missing="$missing $p"
done

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo -n"

if [ -n "$missing" ]; then
    echo "setup: installing:$missing"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    # shellcheck disable=SC2086
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends $missing >/dev/null
fi

hp=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
if [ -w "$hp" ] || [ -n "$SUDO" ]; then
    cur=$(cat "$hp" 2>/dev/null || echo 0)
    if [ "$cur" -lt "$HUGEPAGES" ]; then
        echo "$HUGEPAGES" | $SUDO tee "$hp" >/dev/null 2>&1 ||
            echo "setup: could not reserve hugepages; runs fall back to --no-huge"
    fi
fi
if ! mountpoint -q /dev/hugepages 2>/dev/null; then
    $SUDO mkdir -p /dev/hugepages 2>/dev/null || true
    $SUDO mount -t hugetlbfs nodev /dev/hugepages 2>/dev/null ||
        echo "setup: could not mount hugetlbfs; runs fall back to --no-huge"
fi
free=$(awk '/HugePages_Free/ {print $2}' /proc/meminfo)
echo "setup: ok ($free free 2 MiB hugepages)"
