#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
#
# `make install` works for another DPDK application.
#
#     install.sh BUILD [MESON]
#
# Behaviour protected: `meson install` (staged with --destdir into the build
# tree) puts libmbufx, its headers, libmbufx.pc and the mempool driver in its
# own plugin directory <libdir>/mbufx/pmds; a program outside the tree
# (install_app.c) builds with nothing but
#     cc install_app.c $(pkg-config --cflags --libs libmbufx)
# against that install, links the installed libmbufx, loads the installed
# driver with -d and runs a pool on the "mbufx" ops. libmbufx.pc must be
# relocatable (prefix=${pcfiledir}/...: meson option pkgconfig.relocatable),
# otherwise a staged or moved install points at the wrong prefix.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"

[ $# -ge 1 ] || usage "BUILD [MESON]"
MESON=${2:-meson}
CC=${CC:-cc}
dpdk_env "$1" install
dest="$build/test/dpdk/install-root.$$"
# the staged tree goes with the other scratch files
trap 'dpdk_cleanup; rm -rf "$dest"' EXIT

"$MESON" install -C "$build" --no-rebuild --quiet --destdir "$dest" \
    >"$WORK/install.log" 2>&1 || fail "meson install" "$WORK/install.log"

pc=$(find "$dest" -name libmbufx.pc)
if [ -z "$pc" ] || [ "$(echo "$pc" | wc -l)" -ne 1 ]; then
    fail "libmbufx.pc not installed once: $pc"
fi
pcdir=$(dirname "$pc")
libdir=$(dirname "$pcdir")
pmds=$libdir/mbufx/pmds
for f in "$libdir/libmbufx.so" "$pmds/librte_mempool_mbufx.so"; do
    [ -e "$f" ] || fail "not installed: ${f#"$dest"}"
done
ls "$libdir"/libmbufx.so.* >/dev/null 2>&1 || fail "no versioned libmbufx.so.N"
# shellcheck disable=SC2016 # a literal ${pcfiledir}
grep -q '^prefix=\${pcfiledir}' "$pc" ||
    fail "libmbufx.pc is not relocatable ($(grep '^prefix=' "$pc")): configure \
with -Dpkgconfig.relocatable=true (the default of a fresh build directory)"
incdir=$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=includedir libmbufx)
[ -f "$incdir/mbufx/mbufx.h" ] || fail "mbufx.h not installed in $incdir/mbufx"
echo "installed: $(cd "$dest" && find . -type f | sort | tr '\n' ' ')"

# Build the outside program with pkg-config only.
flags=$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs libmbufx) ||
    fail "pkg-config --cflags --libs libmbufx"
# shellcheck disable=SC2086
"$CC" -Wall -Wextra -Werror -o "$WORK/install_app" "$here/install_app.c" $flags \
    >"$WORK/cc.log" 2>&1 || fail "cc install_app.c \$(pkg-config ...)" "$WORK/cc.log"

# Run it with the installed library and driver only (no build tree path).
# EAL refuses -d below a world-writable directory (/tmp): when the tree is
# there, load the plugin by bare name through LD_LIBRARY_PATH instead.
ww=""
d=$pmds
while [ "$d" != / ]; do
    [ -n "$(find "$d" -maxdepth 0 -perm -0002 2>/dev/null)" ] && ww=$d
    d=$(dirname "$d")
done
if [ -z "$ww" ]; then
    ldpath=$libdir
    plugin="-d $pmds"
    want="open shared lib $pmds/librte_mempool_mbufx.so"
else
    echo "note: $ww is world-writable: plugin loaded by name"
    ldpath=$libdir:$pmds
    plugin="-d librte_mempool_mbufx.so"
    want="open shared lib librte_mempool_mbufx.so"
fi
env LD_LIBRARY_PATH="$ldpath" ldd "$WORK/install_app" >"$WORK/ldd.log" 2>&1
grep -q "libmbufx.so.* => $libdir/libmbufx.so" "$WORK/ldd.log" ||
    fail "install_app does not link the installed libmbufx" "$WORK/ldd.log"

# shellcheck disable=SC2086
env LD_LIBRARY_PATH="$ldpath" "$WORK/install_app" -l 0 --no-pci $MEM \
    --file-prefix="$PREFIX" --log-level=lib.eal:debug $plugin \
    >"$WORK/app.log" 2>&1 </dev/null &
pid=$!
dpdk_track $pid
rc=0
wait $pid || rc=$?
[ $rc -eq 0 ] || fail "install_app exit $rc" "$WORK/app.log"
grep -q "$want" "$WORK/app.log" || fail "installed plugin not loaded" "$WORK/app.log"
grep -E "^(libmbufx|pool)" "$WORK/app.log"
echo "PASS: installed libmbufx + driver ($plugin) used by an outside program"
