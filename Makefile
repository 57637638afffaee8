# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
#
# The two commands for a newcomer: `make demo` and `make test`. Each installs
# what is missing (devtools/setup.sh), configures and builds, then runs.

BUILD ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
MESON_OPTS ?=
MESON_TEST = meson test -C $(BUILD) --print-errorlogs --num-processes 2

.PHONY: all setup build asan-build fuzz-build test test-fast test-dpdk test-asan test-perf \
	test-fuzz test-distros fuzz bench bench-distros soak demo install docs clean

all: build

setup:
	@devtools/setup.sh

build: setup
	@[ -f $(BUILD)/build.ninja ] || meson setup $(BUILD) $(MESON_OPTS)
	@ninja -C $(BUILD)

# Every test target ends with a plain "N passed, N failed, N skipped" line read
# from meson's testlog.json (removed first: a stale one must not be
# summarised); the exit status is non-zero when any test failed.
ASAN_TEST = meson test -C $(ASAN_BUILD) --print-errorlogs --num-processes 2
FUZZ_TEST = meson test -C $(FUZZ_BUILD) --print-errorlogs --num-processes 2
CLEAN_LOGS = rm -f $(BUILD)/meson-logs/testlog.json $(ASAN_BUILD)/meson-logs/testlog.json \
	$(FUZZ_BUILD)/meson-logs/testlog.json
SUMMARY = $(CLEAN_LOGS); rc=0; $(1) || rc=$$?; devtools/test-summary.py $(2) || rc=1; exit $$rc

# CI runs this (.ci/run), as doc/guides/testing/running.rst tells: the fast
# and dpdk suites in $(BUILD) (driver, library, apps, AF_XDP; DPDK's own
# autotests and dpdk-testpmd on our driver), then the unit suite (the
# driver's, the library's and the AF_XDP cores' autotests) again in the
# ASan + UBSan build, then the fuzz suite (each harness replays its seeds and
# regression inputs, then fuzzes a few seconds) in the clang fuzzing build.
# All three run; any failure fails the target. test-distros is separate.
test: build asan-build fuzz-build
	@$(call SUMMARY,{ $(MESON_TEST) --suite fast --suite dpdk; r1=$$?; \
		$(ASAN_TEST) --suite unit; r2=$$?; $(FUZZ_TEST) --suite fuzz; r3=$$?; \
		[ $$r1 -eq 0 ] && [ $$r2 -eq 0 ] && [ $$r3 -eq 0 ]; }, \
		$(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD))

# The other DPDK releases users run: DPDK 24.11 (Debian 13 trixie) and 25.11
# (Debian sid), each in a minimal Debian system of its own, built with
# debootstrap and kept in /var/cache/mbufx/chroot: every part built with
# -Dwerror=true, the fast and dpdk suites and the fuzz smoke tests inside.
# DISTROS="trixie" picks some. Needs root. MBUFX_DPDK_GIT=<DPDK git clone>
# serves the AF_XDP PMD's driver headers where the archive does not serve
# DPDK's source package (devtools/distro-test.sh).
DISTROS ?= trixie sid
test-distros:
	@devtools/distro-test.sh $(BUILD) test $(DISTROS)

test-fast: build
	@$(call SUMMARY,$(MESON_TEST) --suite fast,$(BUILD))

test-dpdk: build
	@$(call SUMMARY,$(MESON_TEST) --suite dpdk,$(BUILD))

asan-build: setup
	@[ -f $(ASAN_BUILD)/build.ninja ] || \
		meson setup $(ASAN_BUILD) -Dsanitize=true -Dbuildtype=debugoptimized >/dev/null
	@ninja -C $(ASAN_BUILD)

test-asan: asan-build
	@$(call SUMMARY,$(ASAN_TEST) --suite fast,$(ASAN_BUILD))

# The libFuzzer harnesses of test/fuzz, built by clang in their own tree
# (the normal build needs no clang): every source instrumented for coverage,
# ASan and UBSan.
fuzz-build: setup
	@[ -f $(FUZZ_BUILD)/build.ninja ] || CC=clang meson setup $(FUZZ_BUILD) \
		-Dfuzz=true -Dtests=false -Db_lundef=false -Dbuildtype=debugoptimized >/dev/null
	@ninja -C $(FUZZ_BUILD)

test-fuzz: fuzz-build
	@$(call SUMMARY,$(FUZZ_TEST) --suite fuzz,$(FUZZ_BUILD))

# Every harness for FUZZ_SECONDS (default 60); FUZZ_RUNS=N runs N inputs
# each instead. The corpus grows in $(FUZZ_BUILD)/fuzz-corpus, crash inputs
# land in $(FUZZ_BUILD)/fuzz-artifacts. FUZZ_HARNESSES="a b" picks some.
fuzz: fuzz-build
	devtools/fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_HARNESSES)

# Long tests and benchmarks: never pass/fail on timing.
test-perf: build
	$(MESON_TEST) --suite perf --timeout-multiplier 20

bench: build
	devtools/bench.sh $(BUILD)

# The driver and net_ring forwarding rows of make bench inside the same
# Debian 13 and sid systems as test-distros.
bench-distros:
	devtools/distro-test.sh $(BUILD) bench $(DISTROS)

# Soak under faults (SOAK_MINUTES, default 10, on each of SOAK_PORTS,
# default "vhost xdp"): not part of `make test`, which runs the one-cycle
# versions (app_soak_compact, xdp_soak_compact).
soak: build
	devtools/soak.sh $(BUILD)

demo: build
	devtools/demo.sh $(BUILD)

install: build
	meson install -C $(BUILD)

docs: setup
	@MBUFX_DOCS=1 devtools/setup.sh
	@[ -f $(BUILD)/build.ninja ] || meson setup $(BUILD) $(MESON_OPTS)
	meson configure $(BUILD) -Ddocs=true
	ninja -C $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
