// SPDX-License-Identifier: GPL-2.0-only
/*
 * Small helpers for the PRAMFS tools: messages, numbers and sizes read as
 * the kernel reads its mount options, the target options, time, a
 * feature by its name.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <time.h>
#include "libpramfs.h"

const char *pram_prog = "pramfs";

/* "prog: [what: ]message" on stderr: every tool's messages. */
void pram_vwarn(const char *what, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", pram_prog);
	if (what)
		fprintf(stderr, "%s: ", what);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void pram_warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pram_vwarn(NULL, fmt, ap);
	va_end(ap);
}

/* Report and exit with 8, e2fsprogs' "operational error". */
void pram_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pram_vwarn(NULL, fmt, ap);
	va_end(ap);
	exit(8);
}

/* A number, decimal or 0x hexadecimal: 0, or -EINVAL. */
int pram_parse_u64(const char *s, u64 *val)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*val = strtoull(s, &end, 0);
	return errno || *end ? -EINVAL : 0;
}

/* A size with an optional K, M or G suffix, as the kernel's memparse(). */
int pram_parse_size(const char *s, u64 *val)
{
	static const char suffixes[] = "KMGTPE";
	const char *p;
	char *end;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*val = strtoull(s, &end, 0);
	if (errno)
		return -EINVAL;
	p = *end ? strchr(suffixes, toupper((unsigned char)*end)) : NULL;
	if (p && *end) {
		*val <<= 10 * (p - suffixes + 1);
		end++;
	}
	return *end || !*val ? -EINVAL : 0;
}

/* The bit of the feature called @name, or 0. */
u32 pram_feature_bit(const char *name)
{
	unsigned int i;

	for (i = 0; i < PRAM_NR_FEATURES; i++)
		if (!strcmp(pram_features[i].name, name))
			return pram_features[i].bit;
	return 0;
}

/* --phys ADDR and --size SIZE: 1 if @opt was one of them, 0 if not, -1. */
int pram_target_option(struct pram_target *t, const char *opt, const char *arg)
{
	if (!strcmp(opt, "phys"))
		return pram_parse_u64(arg, &t->phys) ? -1 : 1;
	if (!strcmp(opt, "size"))
		return pram_parse_size(arg, &t->size) ? -1 : 1;
	return 0;
}

__le64 pram_time_now(void)
{
	struct timespec ts;
	struct timespec64 t;

	clock_gettime(CLOCK_REALTIME, &ts);
	t.tv_sec = ts.tv_sec;
	t.tv_nsec = ts.tv_nsec;
	return pram_time_pack(t);
}

double pram_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}
