// SPDX-License-Identifier: GPL-2.0-only
/*
 * pramfs-dump: show what a PRAMFS image holds (its superblocks, as
 * dumpe2fs -h does; an inode; a directory's entries and their links; a
 * file's block map or direct block), and rescue files out of it
 * (--extract), also out of an image the kernel refuses.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include "dump.h"

__noreturn static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"Usage: pramfs-dump [-h] [-i INODE] [-d DIR] [-m FILE] TARGET\n"
		"       pramfs-dump --extract PATH... DIR TARGET\n"
		"       (or --phys ADDR --size SIZE in place of TARGET)\n"
		"  -h          the superblocks (the default)\n"
		"  -i INODE    an inode, by number\n"
		"  -d DIR      a directory's entries and their links (a path or a number)\n"
		"  -m FILE     a regular file's block map (a path or a number)\n"
		"  --extract PATH... DIR  copy PATHs (/ for everything) into the host\n"
		"              directory DIR, skipping what cannot be read\n");
	exit(status);
}

static void print_time(const char *what, __le64 t)
{
	struct timespec64 ts = pram_time_unpack(t);

	printf("%-22s %lld.%09ld\n", what, (long long)ts.tv_sec, ts.tv_nsec);
}

static void print_super(const struct pram_super_block *ps, const char *which,
			const char *why)
{
	const u8 *u = ps->s_uuid;
	u16 state = le16_to_cpu(ps->s_state);
	u32 in = le32_to_cpu(ps->s_feature_incompat);
	unsigned int i;

	printf("%s superblock: %s%s\n", which, why ? "NOT VALID: " : "valid",
	       why ?: "");
	printf("%-22s %#x\n", "magic", le32_to_cpu(ps->s_magic));
	printf("%-22s %u\n", "revision", le32_to_cpu(ps->s_revision));
	printf("%-22s %#x %#x %#x", "features (c/ro/in)",
	       le32_to_cpu(ps->s_feature_compat), le32_to_cpu(ps->s_feature_ro_compat),
	       in);
	for (i = 0; i < PRAM_NR_FEATURES; i++)
		if (in & pram_features[i].bit)
			printf(" %s", pram_features[i].name);
	putchar('\n');
	printf("%-22s %.16s\n", "volume name", ps->s_volume_name);
	printf("%-22s %02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x\n",
	       "UUID", u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8],
	       u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
	printf("%-22s %s%s%s\n", "state", state & PRAM_STATE_CLEAN ? "clean" : "not clean",
	       state & PRAM_STATE_ERRORS ? ", with errors" : "",
	       state & ~(PRAM_STATE_CLEAN | PRAM_STATE_ERRORS) ? ", unknown bits" : "");
	printf("%-22s %" PRIu64 "\n", "size", (uint64_t)le64_to_cpu(ps->s_size));
	printf("%-22s %u\n", "block size", le32_to_cpu(ps->s_blocksize));
	printf("%-22s %u (%u free, search from %u)\n", "inodes",
	       le32_to_cpu(ps->s_inodes_count), le32_to_cpu(ps->s_free_inodes_count),
	       le32_to_cpu(ps->s_free_inode_hint));
	printf("%-22s %u (%u free, search from %u)\n", "blocks",
	       le32_to_cpu(ps->s_blocks_count), le32_to_cpu(ps->s_free_blocks_count),
	       le32_to_cpu(ps->s_free_blocknr_hint));
	printf("%-22s %u, %u blocks\n", "bitmap at block",
	       le32_to_cpu(ps->s_bitmap_start), le32_to_cpu(ps->s_bitmap_blocks));
	printf("%-22s %u\n", "journal at block", le32_to_cpu(ps->s_journal));
	printf("%-22s %u\n", "mount count", le32_to_cpu(ps->s_mount_count));
	print_time("last mount", ps->s_mtime);
	print_time("last write", ps->s_wtime);
	printf("%-22s %#x\n", "checksum", le32_to_cpu(ps->s_csum));
}

static void dump_supers(struct pram_image *img, const char *why_p,
			const char *why_c)
{
	print_super(pram_img_primary(img), "Primary", why_p);
	putchar('\n');
	print_super((struct pram_super_block *)(img->base + PRAM_SB_COPY_OFFSET),
		    "Copy", why_c);
}

static const char *type_name(umode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return "regular";
	case S_IFDIR: return "directory";
	case S_IFLNK: return "symlink";
	case S_IFCHR: return "character device";
	case S_IFBLK: return "block device";
	case S_IFIFO: return "fifo";
	case S_IFSOCK: return "socket";
	case PRAM_S_IFLINK: return "link entry";
	case PRAM_S_IFNAME: return "name record";
	}
	return mode ? "unknown type" : "free";
}

/* A name record: part of entry n_owner's long name. */
static void dump_name_record(struct pram_image *img, u32 ino)
{
	const struct pram_name_rec *nr = (const void *)pram_img_inode(img, ino);
	const char *why = NULL;

	pram_name_rec_check(nr, ino, &img->geo, &why);
	printf("Inode %u: name record, %s%s\n", ino, why ? "refused: " : "valid",
	       why ?: "");
	printf("%-22s %u\n", "owner", le32_to_cpu(nr->n_owner));
	printf("%-22s \"%.*s\" (%u bytes)\n", "part",
	       (int)strnlen(nr->n_part, PRAM_NAME_PART), nr->n_part,
	       le16_to_cpu(nr->n_len));
	printf("%-22s %#x\n", "checksum", le32_to_cpu(nr->n_csum));
}

/* An entry's name: whole when valid, else what its record holds. */
static void print_name(struct pram_image *img, u32 ino)
{
	const struct pram_inode *pi = pram_img_inode(img, ino);
	char name[PRAM_NAME_MAX + 1];
	unsigned int i;
	u32 len;

	if (!pram_img_name(img, ino, name, &len))
		printf("\"%s\"", name);
	else if (pram_is_long_name(pi))
		printf("\"%.*s...\" (bad long name)", PRAM_NAME_HEAD, pi->i_long.l_head);
	else
		printf("\"%.*s\"", (int)pram_name_len(pi), pi->i_name);
	for (i = 0; pram_is_long_name(pi) && i < PRAM_NAME_RECS; i++)
		if (pram_name_rec_at(pi, i))
			printf("%s%u", i ? "," : " (name records ", pram_name_rec_at(pi, i));
	if (pram_is_long_name(pi))
		putchar(')');
}

static const char *const xattr_prefix[PRAM_XATTR_INDEX_MAX + 1] = {
	[PRAM_XATTR_INDEX_USER]		= "user.",
	[PRAM_XATTR_INDEX_ACL_ACCESS]	= "system.posix_acl_access",
	[PRAM_XATTR_INDEX_ACL_DEFAULT]	= "system.posix_acl_default",
	[PRAM_XATTR_INDEX_TRUSTED]	= "trusted.",
	[PRAM_XATTR_INDEX_SECURITY]	= "security.",
};

/* The attributes of @ino, a value as text when it is printable. */
static void dump_xattrs(struct pram_image *img, u32 ino, u32 block)
{
	const struct pram_xattr_entry *e = NULL;
	const char *why;
	const u8 *blk, *v;
	u32 len, i;
	bool text;

	if (!pram_block_valid(&img->geo, block))
		return;
	blk = pram_img_block(img, block);
	if (pram_xblock_check(blk, img->geo.blocksize, ino, &why)) {
		printf("%-22s refused: %s\n", "attributes", why);
		return;
	}
	while ((e = pram_xblock_next(blk, e))) {
		v = pram_xattr_value(e);
		len = le16_to_cpu(e->e_value_len);
		for (text = true, i = 0; i < len; i++)
			text &= v[i] >= 0x20 && v[i] < 0x7f;
		printf("%-22s %s%.*s (%u bytes)", "attribute",
		       xattr_prefix[e->e_index], e->e_name_len, e->e_name, len);
		if (text)
			printf(" \"%.*s\"", (int)len, (const char *)v);
		putchar('\n');
	}
}

/*
 * Where a regular file's or a symlink's blocks are: its row block and its
 * direct block (INCOMPAT_DIRECT), one of them 0; a symlink's target
 * block, and a direct block only when one is set, which refuses it.
 */
static void print_blocks(const struct pram_inode *pi, umode_t mode)
{
	u32 direct = le32_to_cpu(pi->i_type.reg.direct);

	printf("%-22s %u\n", S_ISREG(mode) ? "row block" : "target block",
	       le32_to_cpu(pi->i_type.reg.row_block));
	if (S_ISREG(mode) || direct)
		printf("%-22s %u\n", "direct block", direct);
}

static void dump_inode(struct pram_image *img, u32 ino)
{
	const struct pram_inode *pi = pram_img_inode(img, ino);
	umode_t mode = le16_to_cpu(pi->i_mode);
	const char *why = NULL;

	if (pram_mode_is_name(mode))
		return dump_name_record(img, ino);
	pram_inode_check(pi, ino, &img->geo, &why);
	printf("Inode %u: %s, %s%s\n", ino, type_name(mode),
	       why ? "refused: " : "valid", why ?: "");
	if (pram_mode_is_link(mode))
		printf("%-22s %u\n", "names inode", le32_to_cpu(pi->i_type.link.ino));
	printf("%-22s %o\n", "mode", mode);
	printf("%-22s %u\n", "links", le16_to_cpu(pi->i_links_count));
	printf("%-22s %u:%u\n", "owner", le32_to_cpu(pi->i_uid), le32_to_cpu(pi->i_gid));
	printf("%-22s %" PRIu64 "\n", "size", (uint64_t)le64_to_cpu(pi->i_size));
	printf("%-22s %u\n", "blocks", le32_to_cpu(pi->i_blocks));
	printf("%-22s %#x\n", "flags", le32_to_cpu(pi->i_flags));
	printf("%-22s %u\n", "xattr block", le32_to_cpu(pi->i_xattr));
	if (pi->i_xattr)
		dump_xattrs(img, ino, le32_to_cpu(pi->i_xattr));
	print_time("atime", pi->i_atime);
	print_time("mtime", pi->i_mtime);
	print_time("ctime", pi->i_ctime);
	if (S_ISDIR(mode))
		printf("%-22s head %u, tail %u\n", "entries",
		       le32_to_cpu(pi->i_type.dir.head), le32_to_cpu(pi->i_type.dir.tail));
	else if (S_ISREG(mode) || S_ISLNK(mode))
		print_blocks(pi, mode);
	else if (S_ISCHR(mode) || S_ISBLK(mode))
		printf("%-22s %#x\n", "rdev", le32_to_cpu(pi->i_type.dev.rdev));
	printf("%-22s parent %u, prev %u, next %u\n", "entry",
	       le32_to_cpu(pi->i_parent), le32_to_cpu(pi->i_prev),
	       le32_to_cpu(pi->i_next));
	printf("%-22s ", "name");
	print_name(img, ino);
	printf("\n%-22s %#x\n", "checksum", le32_to_cpu(pi->i_csum));
}

struct dir_print {
	struct pram_image	*img;
};

static int print_entry(void *arg, u32 ino, const struct pram_inode *pi)
{
	struct dir_print *d = arg;
	const char *why = NULL;

	pram_inode_check(pi, ino, &d->img->geo, &why);
	printf("%8u  %-9s prev %-8u next %-8u ", ino,
	       type_name(le16_to_cpu(pi->i_mode)), le32_to_cpu(pi->i_prev),
	       le32_to_cpu(pi->i_next));
	print_name(d->img, ino);
	if (pram_link_target(pi))
		printf(" -> inode %u", pram_link_target(pi));
	printf("%s%s\n", why ? "  refused: " : "", why ?: "");
	return 0;
}

static void dump_dir(struct pram_image *img, u32 dir)
{
	struct dir_print d = { .img = img };
	struct pram_dir_scan scan;
	const struct pram_inode *pi = pram_img_inode(img, dir);

	if (!S_ISDIR(le16_to_cpu(pi->i_mode)))
		pram_die("inode %u is not a directory", dir);
	printf("Directory %u: head %u, tail %u\n", dir,
	       le32_to_cpu(pi->i_type.dir.head), le32_to_cpu(pi->i_type.dir.tail));
	pram_dir_scan(&img->geo, img->base, dir, print_entry, &d, &scan);
	printf("%u entries; the forward chain reaches %u%s; %s", scan.members,
	       scan.last, scan.broken ? ", then breaks" : "",
	       scan.consistent ? "back links and tail agree\n" :
	       "back links or tail disagree\n");
	if (scan.recovered)
		printf("%u entries found from the tail, past the break\n",
		       scan.recovered);
}

static void dump_map(struct pram_image *img, u32 ino)
{
	const struct pram_inode *pi = pram_img_inode(img, ino);
	u32 bits = img->geo.blocksize_bits, row = le32_to_cpu(pi->i_type.reg.row_block);
	u32 direct = le32_to_cpu(pi->i_type.reg.direct);
	u64 f, n = pram_blocks_for_size(bits, le64_to_cpu(pi->i_size));
	u64 all = (u64)pram_map_entries(bits) * pram_map_entries(bits);
	long b, start = 0, last = 0;
	u64 from = 0;

	if (!S_ISREG(le16_to_cpu(pi->i_mode)))
		pram_die("inode %u is not a regular file", ino);
	printf("Inode %u: %s block %u, %" PRIu64 " blocks in its size\n", ino,
	       direct ? "direct" : "row", direct ?: row, (uint64_t)n);
	/*
	 * Runs of file blocks onto consecutive data blocks, holes left out;
	 * as the kernel reads them, through the direct block when it is set.
	 */
	for (f = 0; f <= all; f++) {
		b = f < all ? pram_file_lookup(&img->geo, img->base, pi, f) : 0;
		if (start && (b != last + 1 || b <= 0)) {
			printf("  file blocks %" PRIu64 "-%" PRIu64 ": blocks %ld-%ld\n",
			       (uint64_t)from, (uint64_t)f - 1, start, last);
			start = 0;
		}
		if (b < 0)
			printf("  file block %" PRIu64 ": bad entry\n", (uint64_t)f);
		if (b > 0 && !start) {
			start = b;
			from = f;
		}
		if (b > 0)
			last = b;
	}
}

int main(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "phys", required_argument, NULL, 'P' },
		{ "size", required_argument, NULL, 'S' },
		{ "extract", no_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'H' },
		{}
	};
	const char *inode = NULL, *dir = NULL, *map = NULL, *why_p, *why_c;
	struct pram_target t = { };
	struct pram_image img;
	bool extract = false;
	int c, err;

	pram_prog = "pramfs-dump";
	while ((c = getopt_long(argc, argv, "hi:d:m:", longs, NULL)) != -1) {
		switch (c) {
		case 'h':
			break;
		case 'i':
			inode = optarg;
			break;
		case 'd':
			dir = optarg;
			break;
		case 'm':
			map = optarg;
			break;
		case 'x':
			extract = true;
			break;
		case 'P':
		case 'S':
			if (pram_target_option(&t, c == 'P' ? "phys" : "size", optarg) < 0)
				pram_die("bad value '%s'", optarg);
			break;
		case 'H':
			usage(0);
		default:
			usage(16);
		}
	}
	if (!t.size) {
		if (optind >= argc)
			usage(16);
		t.path = argv[--argc];
	}
	if (argc - optind < (extract ? 2 : 0) || (!extract && optind != argc))
		usage(16);
	err = pram_image_open(&img, &t, false);
	if (err)
		pram_die("%s: %s", t.path ?: "/dev/mem", strerror(-err));
	err = pram_image_load(&img, &why_p, &why_c);
	if (err && pram_image_salvage(&img) && (inode || dir || map || extract))
		pram_die("%s: no usable superblock (primary: %s; copy: %s)",
			 img.name, why_p, why_c);
	if (err && (inode || dir || map || extract))
		pram_warnx("%s: no valid superblock; using the %s's geometry",
			   img.name, img.sb == pram_img_primary(&img) ? "primary" : "copy");
	if (extract)
		return pram_extract(&img, argv + optind, argc - optind - 1,
				    argv[argc - 1]);
	if (inode)
		dump_inode(&img, pram_img_resolve(&img, inode));
	else if (dir)
		dump_dir(&img, pram_img_resolve(&img, dir));
	else if (map)
		dump_map(&img, pram_img_resolve(&img, map));
	else
		dump_supers(&img, why_p, why_c);
	pram_image_close(&img);
	/* -h: whether there is a filesystem, for scripts. */
	return !inode && !dir && !map && err ? 1 : 0;
}
