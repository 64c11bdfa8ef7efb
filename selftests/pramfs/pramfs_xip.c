// SPDX-License-Identifier: GPL-2.0
/*
 * A static program for the PRAMFS execute-in-place test: it reads every
 * byte of a 4 MiB table in its read-only data, so that each page of the
 * table is mapped from wherever the program is stored, and prints
 * "xip ok" and exits 0 if the sum is right.
 */
#include <stdio.h>

#define TABLE_SIZE	(4 << 20)
#define TABLE_BYTE	0x5a

static const unsigned char table[TABLE_SIZE] = {
	[0 ... TABLE_SIZE - 1] = TABLE_BYTE
};

int main(void)
{
	const unsigned char *p = table;
	unsigned long sum = 0, i;

	/* Hide where p points, so the sum is not folded at build time. */
	__asm__("" : "+r" (p));
	for (i = 0; i < TABLE_SIZE; i++)
		sum += p[i];
	if (sum != (unsigned long)TABLE_SIZE * TABLE_BYTE) {
		printf("xip bad sum %lu\n", sum);
		return 1;
	}
	printf("xip ok\n");
	return 0;
}
