// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * crc32c for the tools, as the kernel's __crc32c_le(): the Castagnoli
 * polynomial, reflected, the caller's seed, no final inversion. A table
 * of 256 entries, made on first use.
 */
#include "pram_compat.h"

static u32 crc32c_table[256];

static void crc32c_init(void)
{
	u32 i, k, c;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0x82f63b78 : c >> 1;
		crc32c_table[i] = c;
	}
}

u32 __crc32c_le(u32 crc, const unsigned char *p, size_t len)
{
	if (!crc32c_table[1])
		crc32c_init();
	while (len--)
		crc = crc32c_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}
