/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Shared by the libFuzzer harnesses of test/fuzz: EAL set-up once per
 * process, silencing the code under test (stdout, stderr and the DPDK log
 * go to /dev/null unless FUZZ_VERBOSE=1; sanitizer and libFuzzer reports
 * write to file descriptor 2 directly and always show), and a cursor that
 * turns the fuzz input into numbers, choices and strings. A cursor past
 * the end reads zeros, so every input, however short, is a valid program.
 *
 * A harness that finds the code under test misbehaving without a sanitizer
 * noticing (a wrong byte, a leaked mbuf) calls FUZZ_CHECK(), which prints
 * the reason and aborts: libFuzzer saves the input as a crash.
 */

#ifndef MBUFX_FUZZ_COMMON_H
#define MBUFX_FUZZ_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* libFuzzer entry points, defined by each harness. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/** fuzz_eal_init() flags. */
#define FUZZ_EAL_TELEMETRY 0x1	/**< keep the telemetry socket */

/**
 * Initialise the EAL once for this process: one lcore, no PCI, no
 * hugepages, no shared configuration file, log level
 * "error". Exits the process when the EAL cannot start.
 * @param name
 *   harness name, used in the file prefix
 * @param flags
 *   FUZZ_EAL_* flags
 */
void fuzz_eal_init(const char *name, unsigned int flags);

/**
 * Send the C streams stdout and stderr and the DPDK log to /dev/null
 * (on = true) or back. No-op when FUZZ_VERBOSE=1.
 */
void fuzz_quiet(bool on);

/** Print a failed check with the location and abort (a libFuzzer crash). */
#define FUZZ_CHECK(cond, fmt, ...) do {					\
	if (!(cond)) {							\
		fuzz_quiet(false);					\
		fprintf(stderr, "FUZZ CHECK FAILED %s:%d: %s: " fmt "\n",	\
			__FILE__, __LINE__, #cond, ##__VA_ARGS__);	\
		abort();						\
	}								\
} while (0)

/** The unread part of a fuzz input. */
struct fuzz_in {
	const uint8_t *p;
	size_t n;
};

static inline uint8_t
fuzz_u8(struct fuzz_in *in)
{
	if (in->n == 0)
		return 0;
	in->n--;
	return *in->p++;
}

static inline uint16_t
fuzz_u16(struct fuzz_in *in)
{
	return (uint16_t)(fuzz_u8(in) | fuzz_u8(in) << 8);
}

static inline uint32_t
fuzz_u32(struct fuzz_in *in)
{
	return (uint32_t)fuzz_u16(in) | (uint32_t)fuzz_u16(in) << 16;
}

/** A number in [0, n) (0 when n is 0), from as few bytes as n needs. */
static inline uint32_t
fuzz_below(struct fuzz_in *in, uint32_t n)
{
	if (n <= 1)
		return 0;
	if (n <= 256)
		return fuzz_u8(in) % n;
	if (n <= 65536)
		return fuzz_u16(in) % n;
	return fuzz_u32(in) % n;
}

/**
 * The next string of the input: the bytes up to a NUL or the end, at most
 * cap - 1 of them, NUL-terminated in buf. @return its length.
 */
size_t fuzz_str(struct fuzz_in *in, char *buf, size_t cap);

/**
 * Copy len bytes of the input to buf, zero-filling past its end.
 * @return the number of bytes that came from the input.
 */
size_t fuzz_bytes(struct fuzz_in *in, void *buf, size_t len);

#endif /* MBUFX_FUZZ_COMMON_H */
