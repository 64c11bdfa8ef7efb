// SPDX-License-Identifier: GPL-2.0
/*
 * crc32c of PRAMFS's checksummed sizes on the host's own CPU: the
 * kernel's software method (slice-by-8, lib/crc32.c's __crc32c_le() in
 * 6.12) against the SSE4.2 crc32 instruction (crc32c-intel's inner loop,
 * which the crypto API's crc32c() would use), for the 60 bytes of a
 * journal line, the 124 of a record and its 4-byte seed, with the table
 * always in the L1 cache. Not a test: docs/performance.md quotes it.
 * Build: gcc -O2 -msse4.2 -o crc32c-bench crc32c-bench.c
 */
#include <nmmintrin.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static uint32_t t[8][256];

static void init(void)
{
	uint32_t i, k, c;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0x82f63b78 : c >> 1;
		t[0][i] = c;
	}
	for (i = 0; i < 256; i++)
		for (k = 1; k < 8; k++)
			t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xff];
}

/* Slice-by-8, as lib/crc32.c's crc32_body() (little-endian). */
static uint32_t crc_sw(uint32_t crc, const uint8_t *p, size_t len)
{
	uint32_t q;
	uint64_t v;

	while (len && ((uintptr_t)p & 3)) {
		crc = t[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
		len--;
	}
	while (len >= 8) {
		memcpy(&v, p, 8);
		q = crc ^ (uint32_t)v;
		crc = t[7][q & 0xff] ^ t[6][(q >> 8) & 0xff] ^
		      t[5][(q >> 16) & 0xff] ^ t[4][q >> 24];
		q = v >> 32;
		crc ^= t[3][q & 0xff] ^ t[2][(q >> 8) & 0xff] ^
		       t[1][(q >> 16) & 0xff] ^ t[0][q >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = t[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

/* The crc32 instruction, 8 bytes at a time. */
static uint32_t crc_hw(uint32_t crc, const uint8_t *p, size_t len)
{
	uint64_t c = crc, v;

	while (len >= 8) {
		memcpy(&v, p, 8);
		c = _mm_crc32_u64(c, v);
		p += 8;
		len -= 8;
	}
	crc = c;
	while (len--)
		crc = _mm_crc32_u8(crc, *p++);
	return crc;
}

static double ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/*
 * Nanoseconds a call: each seeded with the last one's result (chained,
 * as a record's seed and body are), or with the loop's count (calls
 * that overlap in the CPU, an upper bound of the speed).
 */
static double per_call(bool hw, bool chained, const uint8_t *buf,
		       size_t len, uint32_t *sink)
{
	const long n = 20000000;
	uint32_t crc = ~0u;
	double t0 = ns();
	long i;

	for (i = 0; i < n; i++) {
		uint32_t seed = chained ? crc : (uint32_t)i;
		uint32_t c = hw ? crc_hw(seed, buf, len) : crc_sw(seed, buf, len);

		crc = chained ? c : crc + c;
	}
	*sink += crc;
	return (ns() - t0) / n;
}

int main(void)
{
	static const size_t sizes[] = { 4, 60, 124 };
	static uint64_t words[16];	/* 128 bytes, aligned */
	uint8_t *buf = (uint8_t *)words;
	uint32_t sink = 0;
	size_t s;
	int i;

	init();
	for (i = 0; i < (int)sizeof(words); i++)
		buf[i] = i * 7 + 3;
	for (s = 0; s < ARRAY_SIZE(sizes); s++) {
		if (crc_sw(~0u, buf, sizes[s]) != crc_hw(~0u, buf, sizes[s])) {
			fprintf(stderr, "crc32c-bench: mismatch at %zu bytes\n",
				sizes[s]);
			return 1;
		}
		printf("%3zu bytes: slice-by-8 %.1f ns chained, %.1f overlapped; crc32 instruction %.1f, %.1f\n",
		       sizes[s], per_call(false, true, buf, sizes[s], &sink),
		       per_call(false, false, buf, sizes[s], &sink),
		       per_call(true, true, buf, sizes[s], &sink),
		       per_call(true, false, buf, sizes[s], &sink));
	}
	/* The sum of every crc, so that no loop is left out. */
	printf("(%#x)\n", sink);
	return 0;
}
