# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The mbufx authors
#
# The two commands for a newcomer: `make demo` and `make test`. Each installs
# what is missing (devtools/setup.sh), configures and builds, then runs.

BUILD ?= build
ASAN_BUILD ?= build-asan
MESON_OPTS ?=
MESON_TEST = meson test -C $(BUILD) --print-errorlogs --num-processes 2

.PHONY: all setup build asan-build test test-fast test-dpdk test-asan test-perf bench \
	demo install docs clean

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
CLEAN_LOGS = rm -f $(BUILD)/meson-logs/testlog.json $(ASAN_BUILD)/meson-logs/testlog.json
SUMMARY = $(CLEAN_LOGS); rc=0; $(1) || rc=$$?; devtools/test-summary.py $(2); exit $$rc

# CI runs this (.ci/run): the fast suite (driver, library, apps), DPDK's own
# autotests and dpdk-testpmd on our driver, then the unit tests (driver and
# library autotests) again in an ASan + UBSan build.
test: build asan-build
	@$(call SUMMARY,{ $(MESON_TEST) --suite fast --suite dpdk; r1=$$?; \
		$(ASAN_TEST) --suite unit; r2=$$?; [ $$r1 -eq 0 ] && [ $$r2 -eq 0 ]; }, \
		$(BUILD) $(ASAN_BUILD))

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

# Long tests and benchmarks: never pass/fail on timing.
test-perf: build
	$(MESON_TEST) --suite perf --timeout-multiplier 20

bench: build
	devtools/bench.sh $(BUILD)

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
	rm -rf $(BUILD) $(ASAN_BUILD)
