/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#include "mbufx.h"

const char *
mbufx_version(void)
{
	return "0.1.0";
}
