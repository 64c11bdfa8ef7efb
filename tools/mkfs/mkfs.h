/* SPDX-License-Identifier: GPL-2.0-only */
/* mkfs.pramfs: its options, and filling a new filesystem from a tree. */
#ifndef _PRAM_MKFS_H
#define _PRAM_MKFS_H

#include <ctype.h>
#include "libpramfs.h"

struct mkfs_opts {
	struct pram_target	target;
	u32			blocksize;	/* 0: the default */
	u64			bpi, ninodes;	/* 0: the default */
	u32			mode, uid, gid;	/* the root directory */
	bool			mode_given, uid_given, gid_given;
	char			label[16];
	u8			uuid[16];
	bool			uuid_given;
	const char		*tree;		/* -d */
	bool			quiet;
	bool			nojournal;	/* -O ^journal */
	bool			nodirect;	/* -O ^direct */
};

int pram_populate(struct pram_builder *b, const struct mkfs_opts *o);

#endif /* _PRAM_MKFS_H */
