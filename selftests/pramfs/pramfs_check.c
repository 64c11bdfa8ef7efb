// SPDX-License-Identifier: GPL-2.0
/*
 * pramfs_check: verify the checksums of an unmounted PRAMFS through
 * /dev/mem (a tool for the host-side tests, not a kselftest): both
 * superblocks, the copy equal to the primary, and every in-use inode.
 * Prints what it found; exits 1 if any checksum is wrong.
 *
 * Needs root, /dev/mem, and PRAM_PHYS and PRAM_SIZE in the environment.
 */
#include "pramfs_image.h"

int main(void)
{
	uint32_t count, ino, used = 0, bad = 0, mode;
	struct nvram nv;
	const uint8_t *p;
	int copy, err = 0;

	if (nvram_from_env(&nv)) {
		fprintf(stderr, "pramfs_check: PRAM_PHYS and PRAM_SIZE are not set\n");
		return 2;
	}
	p = nvram_map(&nv);
	if (!p) {
		perror("pramfs_check: /dev/mem");
		return 2;
	}
	for (copy = 0; copy < 2; copy++) {
		const uint8_t *sb = p + copy * SB_SIZE;
		int ok = le32_at(sb + SB_MAGIC) == 0xEFFA &&
			 le32_at(sb) == sb_csum(sb);

		printf("superblock %s: %s\n", copy ? "copy" : "primary",
		       ok ? "ok" : "BAD");
		err |= !ok;
	}
	if (memcmp(p, p + SB_SIZE, SB_SIZE)) {
		printf("superblock copy differs from the primary\n");
		err = 1;
	}
	count = le32_at(p + SB_INODES);
	if ((ROOT_INO + (uint64_t)count) * INODE_SIZE > nv.size) {
		printf("inode count %u out of range\n", count);
		return 1;
	}
	for (ino = ROOT_INO; ino < ROOT_INO + count; ino++) {
		const uint8_t *pi = p + (uint64_t)ino * INODE_SIZE;

		mode = pi[4] | pi[5] << 8;
		if (!mode)
			continue;
		used++;
		if (le32_at(pi) != inode_csum(pi, ino)) {
			printf("inode %u: BAD checksum\n", ino);
			bad++;
		}
	}
	printf("inodes: %u in use, %u with a bad checksum; free %u (superblock says %u)\n",
	       used, bad, count - used, le32_at(p + SB_FREE_INODES));
	return err || bad ? 1 : 0;
}
