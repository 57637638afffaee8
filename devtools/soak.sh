#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
#
# `make soak`: mbufx-l3fwd on vhost-user under faults for SOAK_MINUTES
# (default 10), fed by dpdk-testpmd; see test/apps/soak.py for the schedule
# and what is asserted. Not part of `make test` (which runs the one-cycle
# version, app_soak_compact).
#
#     devtools/soak.sh [BUILD_DIR]        SOAK_MINUTES=60 devtools/soak.sh
set -eu

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
minutes=${SOAK_MINUTES:-10}
case $minutes in
''|*[!0-9.]*) echo "SOAK_MINUTES=$minutes: want a number of minutes" >&2; exit 2 ;;
esac
exec python3 "$here/../test/apps/soak.py" "$build" --minutes "$minutes"
