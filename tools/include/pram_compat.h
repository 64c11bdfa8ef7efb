/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The kernel types and helpers that PRAMFS's pure code (fs/pramfs/
 * layout.c, alloc.c, blockmap.c, dirlist.c) uses, for userspace: the
 * tools compile those very files, as xfsprogs compiles libxfs through
 * libxfs_priv.h. The <linux/...> headers beside this one only include
 * it. Little-endian fields are converted with <endian.h>, so the tools
 * work on a big-endian host too.
 */
#ifndef _PRAM_COMPAT_H
#define _PRAM_COMPAT_H

#include <asm/types.h>
#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>

/* As the kernel's (and the uapi <linux/types.h>'s) own. */
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s64 s64;
typedef __u16 __le16;
typedef __u32 __le32;
typedef __u64 __le64;
typedef unsigned long pgoff_t;
typedef unsigned short umode_t;

#define le16_to_cpu(x)	le16toh(x)
#define le32_to_cpu(x)	le32toh(x)
#define le64_to_cpu(x)	le64toh(x)
#define cpu_to_le16(x)	htole16(x)
#define cpu_to_le32(x)	htole32(x)
#define cpu_to_le64(x)	htole64(x)

static inline void le16_add_cpu(__le16 *v, u16 n)
{
	*v = cpu_to_le16(le16_to_cpu(*v) + n);
}

static inline void le32_add_cpu(__le32 *v, u32 n)
{
	*v = cpu_to_le32(le32_to_cpu(*v) + n);
}

static inline void le64_add_cpu(__le64 *v, u64 n)
{
	*v = cpu_to_le64(le64_to_cpu(*v) + n);
}

#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)
#define BITS_PER_BYTE	8
#define BITS_PER_LONG	(8 * sizeof(long))
#define BIT(n)		(1UL << (n))
#define BIT_ULL(n)	(1ULL << (n))
#define NSEC_PER_SEC	1000000000L
#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)

#define EXPORT_SYMBOL_IF_KUNIT(sym)
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#define smp_rmb()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#define __noreturn	__attribute__((noreturn))

#define min(a, b)		((a) < (b) ? (a) : (b))
#define max(a, b)		((a) > (b) ? (a) : (b))
#define min_t(t, a, b)		((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b)		((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define clamp_t(t, v, lo, hi)	min_t(t, max_t(t, v, lo), hi)
#define round_up(x, y)		((((x) - 1) | ((__typeof__(x))(y) - 1)) + 1)
#define round_down(x, y)	((x) & ~((__typeof__(x))(y) - 1))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

struct timespec64 {
	s64	tv_sec;
	long	tv_nsec;
};

/* The first byte of [@p, @p + @n) that is not @c, or NULL. */
static inline void *memchr_inv(const void *p, int c, size_t n)
{
	const unsigned char *b = p;

	for (; n; n--, b++)
		if (*b != (unsigned char)c)
			return (void *)b;
	return NULL;
}

static inline bool is_power_of_2(unsigned long n)
{
	return n && !(n & (n - 1));
}

static inline unsigned int ilog2(u64 n)
{
	return 63 - __builtin_clzll(n);
}

static inline u64 div64_u64(u64 a, u64 b)
{
	return a / b;
}

static inline unsigned int hweight64(u64 w)
{
	return __builtin_popcountll(w);
}

static inline u64 get_unaligned_le64(const void *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return le64_to_cpu(v);
}

/* The bitmap's little-endian bit order: bit b is bit b % 8 of byte b / 8. */
static inline int test_bit_le(u64 nr, const void *addr)
{
	return ((const u8 *)addr)[nr / 8] >> (nr % 8) & 1;
}

static inline void __set_bit_le(u64 nr, void *addr)
{
	((u8 *)addr)[nr / 8] |= 1 << (nr % 8);
}

static inline void __clear_bit_le(u64 nr, void *addr)
{
	((u8 *)addr)[nr / 8] &= ~(1 << (nr % 8));
}

static inline int __test_and_clear_bit_le(u64 nr, void *addr)
{
	int old = test_bit_le(nr, addr);

	__clear_bit_le(nr, addr);
	return old;
}

/* The first clear bit in [@offset, @size), or @size. */
static inline unsigned long find_next_zero_bit_le(const void *addr,
						  unsigned long size,
						  unsigned long offset)
{
	const u8 *p = addr;

	for (; offset < size; offset++) {
		if (!(offset % 8) && p[offset / 8] == 0xff && offset + 8 <= size) {
			offset += 7;
			continue;
		}
		if (!test_bit_le(offset, addr))
			return offset;
	}
	return size;
}

/* crc32c (Castagnoli), reflected, no final inversion: __crc32c_le(). */
u32 __crc32c_le(u32 crc, const unsigned char *p, size_t len);

#endif /* _PRAM_COMPAT_H */
