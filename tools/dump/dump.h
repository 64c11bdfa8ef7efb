/* SPDX-License-Identifier: GPL-2.0-only */
/* pramfs-dump: finding an inode by path, and extracting files. */
#ifndef _PRAM_DUMP_H
#define _PRAM_DUMP_H

#include "libpramfs.h"

int pram_extract(struct pram_image *img, char **paths, int n, const char *dir);

#endif /* _PRAM_DUMP_H */
