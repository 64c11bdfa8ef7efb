/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * PRAMFS on-media format.
 *
 * Everything here is stored little-endian with fixed-width fields, so an
 * image means the same on every architecture. This header holds the
 * format only, needs nothing but <linux/types.h>, and may be shared with
 * userspace tools. Documentation/filesystems/pramfs.rst explains it.
 *
 * The filesystem is a byte range of NVRAM viewed as blocks of
 * s_blocksize bytes; block b starts at byte b * s_blocksize. Block 0
 * holds the superblock (bytes 0-127) and its redundant copy (128-255);
 * the inode table follows at byte 256, then the block bitmap (whole
 * blocks), then the undo journal (PRAM_FEATURE_INCOMPAT_JOURNAL), then
 * the data blocks.
 *
 * Inode number n lives at byte n * 128, so 0 and 1 name the two
 * superblock copies and are never valid inodes; 2 is the root directory.
 * Block number 0 (the superblock's block) means "no block". A slot of
 * the inode table holds an inode, or (with the features below) a link
 * entry or a name record; i_mode's type bits tell which.
 */
#ifndef _PRAMFS_FS_H
#define _PRAMFS_FS_H

#include <linux/types.h>

#define PRAM_SUPER_MAGIC	0xEFFA	/* also statfs f_type */
#define PRAM_REVISION		1

#define PRAM_MIN_BLOCK_SIZE	512
#define PRAM_MAX_BLOCK_SIZE	4096
#define PRAM_DEF_BLOCK_SIZE	2048

#define PRAM_SB_SIZE		128
#define PRAM_INODE_SIZE		128
#define PRAM_INODE_BITS		7
#define PRAM_SB_COPY_OFFSET	PRAM_SB_SIZE	/* redundant superblock */
#define PRAM_ITABLE_OFFSET	(2 * PRAM_SB_SIZE)
#define PRAM_ROOT_INO		(PRAM_ITABLE_OFFSET >> PRAM_INODE_BITS)
#define PRAM_NAME_LEN		48	/* not NUL-terminated when full */
#define PRAM_NAME_MAX		255	/* with PRAM_FEATURE_INCOMPAT_LONGNAMES */
#define PRAM_LINK_MAX		65535	/* i_links_count is 16 bits */

/* Default inode table: 5% of the space, one inode per 20 inode sizes. */
#define PRAM_DEF_BYTES_PER_INODE (20 * PRAM_INODE_SIZE)

/*
 * Feature flags. A kernel that meets an unknown incompat bit refuses the
 * mount; an unknown ro_compat bit allows only a read-only mount; compat
 * bits may be ignored.
 *
 * INCOMPAT_JOURNAL: the undo journal below is at block s_journal, and
 * may hold an operation that a power cut left half done; a kernel that
 * cannot undo it must not mount the filesystem.
 *
 * INCOMPAT_LINKS: hard links. An inode other than a directory may have
 * up to PRAM_LINK_MAX names: the first is the inode's own entry (while
 * that name exists), each other one a link entry (PRAM_S_IFLINK), and
 * an inode whose own entry is gone lives on, in no list, while it has
 * links. A kernel without it would refuse those records.
 *
 * INCOMPAT_LONGNAMES: names of PRAM_NAME_LEN + 1 to PRAM_NAME_MAX bytes,
 * whose tail is in one or two name records (PRAM_S_IFNAME).
 *
 * INCOMPAT_XATTR: extended attributes, in a block of their own per inode
 * (i_xattr, struct pram_xattr_header). Incompat, not ro_compat: a kernel
 * without it refuses a record whose i_xattr is set, so it could not even
 * read such a file.
 *
 * INCOMPAT_DIRECT: a regular file of one block, file block 0, may name
 * it in i_type.reg.direct, with no row or column block. A kernel without
 * it would see the file as a hole and its block as free.
 *
 * INCOMPAT_SLOT: the journal may hold slot entries (PRAM_JOURNAL_SLOT
 * below), which restore a slot's checksum along with the bytes they
 * hold. Set with the journal by init= and mkfs.pramfs, never alone; a
 * kernel without it would stop its undo at the first one, half done.
 * Without it the kernel logs a record change from the record's first
 * byte, its checksum, on.
 *
 * The kernel sets LINKS, LONGNAMES, XATTR and DIRECT when they are first
 * used, in the operation that first needs them; mkfs.pramfs -d when the
 * tree it copies needs them (DIRECT for a file of one block that holds
 * data, unless -O ^direct). None is ever cleared.
 */
#define PRAM_FEATURE_INCOMPAT_JOURNAL	0x0001
#define PRAM_FEATURE_INCOMPAT_LINKS	0x0002
#define PRAM_FEATURE_INCOMPAT_LONGNAMES	0x0004
#define PRAM_FEATURE_INCOMPAT_XATTR	0x0008
#define PRAM_FEATURE_INCOMPAT_DIRECT	0x0010
#define PRAM_FEATURE_INCOMPAT_SLOT	0x0020

#define PRAM_FEATURE_COMPAT_SUPP	0
#define PRAM_FEATURE_RO_COMPAT_SUPP	0
#define PRAM_FEATURE_INCOMPAT_SUPP	(PRAM_FEATURE_INCOMPAT_JOURNAL | \
					 PRAM_FEATURE_INCOMPAT_LINKS | \
					 PRAM_FEATURE_INCOMPAT_LONGNAMES | \
					 PRAM_FEATURE_INCOMPAT_XATTR | \
					 PRAM_FEATURE_INCOMPAT_DIRECT | \
					 PRAM_FEATURE_INCOMPAT_SLOT)

/*
 * The type bits of i_mode (S_IFMT, 0xF000) for the slots that are not
 * inodes: values no file type has. Their permission bits are zero.
 */
#define PRAM_S_IFLINK		0xE000	/* a link entry: a name of i_type.link.ino */
#define PRAM_S_IFNAME		0xD000	/* a name record: struct pram_name_rec */

/*
 * s_state. CLEAN is set by a clean unmount (or a remount read-only) and
 * cleared by a read-write mount: while it is set, the free counts in the
 * superblock are exact. ERRORS records that corruption was found; the
 * kernel never clears it, fsck.pramfs does. Unknown bits are kept.
 */
#define PRAM_STATE_CLEAN	0x0001
#define PRAM_STATE_ERRORS	0x0002

/*
 * i_flags. TRUNCATE: a truncate to i_size is under way; the blocks past
 * it are still to go (set and cleared with the journal only, which a
 * kernel that knows the flag recovers). LONGNAME: the entry's name is
 * longer than PRAM_NAME_LEN, and i_name holds a struct pram_long_name.
 * Any other bit is corruption.
 */
#define PRAM_INODE_TRUNCATE	0x0001
#define PRAM_INODE_LONGNAME	0x0002
#define PRAM_INODE_FLAGS_KNOWN	(PRAM_INODE_TRUNCATE | PRAM_INODE_LONGNAME)

/*
 * Timestamps: one __le64 each, seconds since the epoch (signed, 34 bits:
 * years 1698 to 2242) in bits 63-30 and nanoseconds in bits 29-0.
 */
#define PRAM_TIME_NSEC_BITS	30
#define PRAM_TIME_MAX		((1LL << 33) - 1)
#define PRAM_TIME_MIN		(-(1LL << 33))

/*
 * The superblock, 128 bytes, at byte 0 and again at byte 128. s_csum is
 * crc32c (seed ~0) over bytes 4-127.
 */
struct pram_super_block {
	__le32	s_csum;			/*   0 crc32c of bytes 4..127 */
	__le32	s_magic;		/*   4 PRAM_SUPER_MAGIC */
	__le32	s_revision;		/*   8 PRAM_REVISION */
	__le32	s_feature_compat;	/*  12 */
	__le32	s_feature_ro_compat;	/*  16 */
	__le32	s_feature_incompat;	/*  20 */
	__le64	s_size;			/*  24 filesystem size in bytes */
	__le32	s_blocksize;		/*  32 512, 1024, 2048 or 4096 */
	__le32	s_inodes_count;		/*  36 inodes in the table */
	__le32	s_free_inodes_count;	/*  40 */
	__le32	s_free_inode_hint;	/*  44 inode number to search from */
	__le32	s_blocks_count;		/*  48 s_size / s_blocksize */
	__le32	s_free_blocks_count;	/*  52 */
	__le32	s_free_blocknr_hint;	/*  56 block number to search from */
	__le32	s_bitmap_start;		/*  60 first block of the bitmap */
	__le32	s_bitmap_blocks;	/*  64 blocks in the bitmap */
	__le32	s_mount_count;		/*  68 mounts since init= */
	__le64	s_mtime;		/*  72 last mount time */
	__le64	s_wtime;		/*  80 last superblock write */
	__le16	s_state;		/*  88 PRAM_STATE_* */
	__le16	s_reserved;		/*  90 zero */
	__le32	s_journal;		/*  92 journal's first block, or 0 */
	__u8	s_uuid[16];		/*  96 set at init= */
	char	s_volume_name[16];	/* 112 */
};					/* 128 bytes */

/*
 * A long name (PRAM_INODE_LONGNAME) in an entry's i_name: its first
 * PRAM_NAME_HEAD bytes, and the name records that hold the rest, in
 * order. The first record is full when there is a second; the second is
 * 0 when there is none.
 */
#define PRAM_NAME_HEAD		40
#define PRAM_NAME_PART		116	/* name bytes in one record */
#define PRAM_NAME_RECS		2

struct pram_long_name {
	__le32	l_rec[PRAM_NAME_RECS];	/*   0 name records, in order */
	char	l_head[PRAM_NAME_HEAD];	/*   8 the name's first bytes */
};					/*  48 bytes */

/*
 * The inode, 128 bytes. It also holds the directory entry that names it:
 * the entry links (i_next, i_prev) chain the entries of one directory in
 * a doubly linked list whose ends are in the directory's i_type.dir.
 * i_csum is crc32c over bytes 4-127, seeded with the inode number (so an
 * inode copied to another slot fails the check). A free inode has
 * i_mode 0.
 *
 * A link entry (i_mode PRAM_S_IFLINK) has the same layout: an entry in a
 * directory's list (i_next, i_prev, i_parent, i_name, i_flags'
 * LONGNAME) that names inode i_type.link.ino, never a directory nor
 * another link entry. Its other fields are zero.
 */
struct pram_inode {
	__le32	i_csum;			/*   0 crc32c of bytes 4..127 */
	__le16	i_mode;			/*   4 type and permissions */
	__le16	i_links_count;		/*   6 */
	__le32	i_uid;			/*   8 */
	__le32	i_gid;			/*  12 */
	__le64	i_size;			/*  16 bytes */
	__le32	i_blocks;		/*  24 blocks held, map blocks too */
	__le32	i_flags;		/*  28 PRAM_INODE_* */
	__le64	i_atime;		/*  32 */
	__le64	i_mtime;		/*  40 */
	__le64	i_ctime;		/*  48 */
	__le32	i_xattr;		/*  56 attribute block, or 0 */
	union {				/*  60 */
		struct {
			/* row block -> column blocks -> data blocks */
			__le32	row_block;
			/* or file block 0 alone, row_block 0 (DIRECT) */
			__le32	direct;
		} reg;			/* regular file, symlink */
		struct {
			__le32	head;	/* first entry's inode */
			__le32	tail;	/* last entry's inode */
		} dir;
		struct {
			__le32	rdev;	/* new_encode_dev() */
			__le32	reserved;
		} dev;
		struct {
			__le32	ino;	/* the inode it names */
			__le32	reserved;
		} link;			/* a link entry */
	} i_type;
	__le32	i_next;			/*  68 next entry in the directory */
	__le32	i_prev;			/*  72 previous entry */
	__le32	i_parent;		/*  76 inode of the directory */
	union {				/*  80 */
		char	i_name[PRAM_NAME_LEN];	/* NUL-padded */
		struct pram_long_name i_long;	/* PRAM_INODE_LONGNAME */
	};
};					/* 128 bytes */

/*
 * A name record, in a slot of the inode table: bytes of the name of
 * entry n_owner, after its head (and after the first record's, for the
 * second). n_csum is crc32c over bytes 4-127 seeded with the slot's
 * number, as an inode's.
 */
struct pram_name_rec {
	__le32	n_csum;			/*   0 crc32c of bytes 4..127 */
	__le16	n_mode;			/*   4 PRAM_S_IFNAME */
	__le16	n_len;			/*   6 1..PRAM_NAME_PART */
	__le32	n_owner;		/*   8 the entry it belongs to */
	char	n_part[PRAM_NAME_PART];	/*  12 NUL-padded */
};					/* 128 bytes */

/*
 * The undo journal: PRAM_JOURNAL_SIZE bytes from block s_journal, in
 * lines of 64 bytes (one cache line each). Line 0 is the head. An
 * operation that changes several byte ranges is a transaction: before
 * each range changes, its old contents go to the next lines, one entry
 * per 44 bytes, and are made durable; then the range changes in place;
 * the transaction commits when j_gen moves on (one aligned 4-byte
 * store). Entries are valid only while their e_gen is j_gen: the entries
 * of a committed transaction are stale at once, without being cleared.
 *
 * Recovery after a power cut undoes the valid entries from line 1 on,
 * the last first, then moves j_gen on: the operation that was cut is
 * wholly undone. An entry whose checksum fails was being written when
 * the power went, so nothing it covers had changed yet, and the valid
 * entries end there.
 *
 * A slot entry (INCOMPAT_SLOT: PRAM_JOURNAL_SLOT set in e_len) is for a
 * change of a few bytes of one slot of the inode table (an inode, link
 * entry or name record) past its checksum: e_old holds the range's old
 * bytes, e_len & PRAM_JOURNAL_LEN of them, then the slot's old checksum
 * (4 bytes), and the undo restores both. A link or time change is one
 * line, where the range from the checksum on would be two.
 *
 * When j_gen comes round to 0, 2^32 transactions on, every line is
 * cleared once the commit (or the recovery's undo) that brought it there
 * is durable, or by the next read-write mount or remount if a power cut
 * stopped that: a line of the last round could carry the open
 * transaction's generation, and pass as its entry.
 */
#define PRAM_JOURNAL_SIZE	16384
#define PRAM_JOURNAL_LINE	64
#define PRAM_JOURNAL_LINES	(PRAM_JOURNAL_SIZE / PRAM_JOURNAL_LINE)
#define PRAM_JOURNAL_MAGIC	0x4A524D50	/* "PMRJ" */
#define PRAM_JOURNAL_DATA	44		/* old bytes in one entry */
#define PRAM_JOURNAL_SLOT	0x8000		/* e_len: a slot entry */
#define PRAM_JOURNAL_LEN	0x7fff		/* e_len: the range's bytes */
#define PRAM_JOURNAL_SLOT_DATA	(PRAM_JOURNAL_DATA - 4)	/* a slot entry's */

struct pram_journal_head {
	__le32	j_magic;		/*   0 PRAM_JOURNAL_MAGIC */
	__le32	j_gen;			/*   4 the open transaction */
	__le32	j_lines;		/*   8 PRAM_JOURNAL_LINES */
	__u8	j_reserved[52];		/*  12 zero */
};					/* 64 bytes */

struct pram_journal_entry {
	__le32	e_csum;			/*   0 crc32c of bytes 4..63 */
	__le32	e_gen;			/*   4 j_gen when it was written */
	__le64	e_offset;		/*   8 byte offset of the range */
	__le16	e_len;			/*  16 1..PRAM_JOURNAL_DATA, flags */
	__le16	e_line;			/*  18 its own line number */
	__u8	e_old[PRAM_JOURNAL_DATA]; /* 20 the range's old contents */
};					/* 64 bytes */

/*
 * An inode's extended attributes (INCOMPAT_XATTR): one data block, named
 * by its i_xattr and by nothing else, never changed in place: a change
 * writes a new block, switches i_xattr in a transaction and frees the
 * old one. The header, then x_count entries packed from byte 16, each a
 * struct pram_xattr_entry, its name (no NUL) and its value, padded with
 * zeros to 4 bytes; sorted by (e_index, e_name_len, name), no two alike.
 * Bytes x_used to the block's end are zero. x_csum is crc32c (seed ~0,
 * as the inodes') of bytes 8..x_used - 1, which begin with x_owner: a
 * block found under another inode fails the owner check.
 *
 * POSIX ACLs are entries of index ACL_ACCESS and ACL_DEFAULT, with an
 * empty name, in the VFS's xattr format (struct posix_acl_xattr_header,
 * little-endian, ids as seen from the initial user namespace).
 */
#define PRAM_XATTR_MAGIC	0x58524D50	/* "PMRX" */
#define PRAM_XATTR_ALIGN	4
#define PRAM_XATTR_NAME_MAX	255	/* without the namespace's prefix */

#define PRAM_XATTR_INDEX_USER		1
#define PRAM_XATTR_INDEX_ACL_ACCESS	2
#define PRAM_XATTR_INDEX_ACL_DEFAULT	3
#define PRAM_XATTR_INDEX_TRUSTED	4
#define PRAM_XATTR_INDEX_SECURITY	6
#define PRAM_XATTR_INDEX_MAX		6

struct pram_xattr_header {
	__le32	x_magic;		/*   0 PRAM_XATTR_MAGIC */
	__le32	x_csum;			/*   4 crc32c of bytes 8..x_used-1 */
	__le32	x_owner;		/*   8 the inode whose block it is */
	__le16	x_count;		/*  12 entries, at least 1 */
	__le16	x_used;			/*  14 bytes in use, header included */
};					/* 16 bytes */

struct pram_xattr_entry {
	__u8	e_index;		/*   0 PRAM_XATTR_INDEX_* */
	__u8	e_name_len;		/*   1 0..255: 0 only for the ACLs */
	__le16	e_value_len;		/*   2 */
	char	e_name[];		/*   4 the name, then the value */
};

#endif /* _PRAMFS_FS_H */
