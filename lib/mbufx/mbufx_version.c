/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/* The library version, from meson's project() (MBUFX_VERSION_STR). */

#include "mbufx.h"

const char *
mbufx_version(void)
{
	return MBUFX_VERSION_STR;
}
