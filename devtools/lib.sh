# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
#
# Shell helpers shared by devtools/ and test/ scripts. Source it:
#     . "$(dirname "$0")/../devtools/lib.sh"

# EAL memory arguments: nothing when 2 MiB hugepages are mounted and at least
# $1 MiB (default 256) are free, "--no-huge -m <size>" otherwise.
mbufx_mem_args() {
    need=${1:-256}
    free=$(awk '/HugePages_Free/ {f=$2} /Hugepagesize/ {s=$2}
        END {print int(f*s/1024)}' /proc/meminfo)
    if [ -z "${MBUFX_NO_HUGE:-}" ] && mountpoint -q /dev/hugepages 2>/dev/null &&
        [ "$free" -ge "$need" ]; then
        echo ""
    else
        echo "--no-huge -m $((need < 1024 ? 1024 : need))"
    fi
}

# Load the mbufx mempool plugin from build dir $1 into an unmodified DPDK
# program. Call it directly, NOT inside $(...) (a subshell loses the export):
#     mbufx_plugin_args build
#     dpdk-testpmd ... $MBUFX_PLUGIN_ARGS --mbuf-pool-ops-name=mbufx ...
# It exports LD_LIBRARY_PATH and sets MBUFX_PLUGIN_ARGS="-d librte_mempool_mbufx.so".
# EAL refuses a -d path below a world-writable directory (/tmp), so the
# plugin is loaded by bare file name through LD_LIBRARY_PATH.
mbufx_plugin_args() {
    _dir=$(cd "$1/drivers/mempool/mbufx" && pwd)
    case ":${LD_LIBRARY_PATH:-}:" in
    *":$_dir:"*) ;;
    *) LD_LIBRARY_PATH="$_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ;;
    esac
    export LD_LIBRARY_PATH
    MBUFX_PLUGIN_ARGS="-d librte_mempool_mbufx.so"
}
