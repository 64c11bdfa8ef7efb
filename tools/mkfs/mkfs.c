// SPDX-License-Identifier: GPL-2.0-only
/*
 * mkfs.pramfs: make a PRAMFS in an image file or a physical range, the
 * very filesystem the kernel's init= makes for the same options (same
 * geometry and pure code), and with -d fill it from a host directory.
 */
#include <getopt.h>
#include <stdlib.h>
#include <sys/random.h>
#include <unistd.h>
#include "mkfs.h"

__noreturn static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"Usage: mkfs.pramfs [-b BS] [-i BPI] [-N INODES] [-m MODE] [-u UID] [-g GID]\n"
		"                   [-L LABEL] [-U UUID] [-d DIR] [-q] TARGET [SIZE]\n"
		"       mkfs.pramfs [options] --phys ADDR --size SIZE\n"
		"Make a PRAMFS in TARGET, an image file (created, or grown to SIZE), or in\n"
		"the physical range ADDR, SIZE through /dev/mem.\n"
		"  -b BS       block size: 512, 1024, 2048 (default) or 4096\n"
		"  -i BPI      bytes per inode (default 2560: 5%% of the space)\n"
		"  -N INODES   number of inodes (wins over -i)\n"
		"  -m MODE     root directory permissions, octal (default 1777)\n"
		"  -u UID, -g GID  root directory owner (default: yours)\n"
		"  -L LABEL    volume label, up to 16 bytes\n"
		"  -U UUID     the UUID (default: random)\n"
		"  -d DIR      copy the tree under DIR into the new filesystem\n"
		"  -O ^journal without the undo journal, as revision 1 made them\n"
		"  -O ^direct  with -d, a block map for every file (not a file\n"
		"              of one block named by its inode)\n"
		"  -q          quiet\n");
	exit(status);
}

/* Read a UUID written as 32 hex digits, with or without dashes. */
static int parse_uuid(const char *s, u8 *uuid)
{
	int i = 0, hi = -1, v;

	for (; *s && i < 16; s++) {
		if (*s == '-')
			continue;
		if (!isxdigit((unsigned char)*s))
			return -1;
		v = isdigit((unsigned char)*s) ? *s - '0' : (tolower(*s) - 'a' + 10);
		if (hi < 0) {
			hi = v;
		} else {
			uuid[i++] = hi << 4 | v;
			hi = -1;
		}
	}
	return i == 16 && !*s && hi < 0 ? 0 : -1;
}

static void parse_number(const char *opt, const char *arg, u64 *val, bool size)
{
	if ((size ? pram_parse_size(arg, val) : pram_parse_u64(arg, val)))
		pram_die("bad value '%s' for %s", arg, opt);
}

/* -O [^]journal or [^]direct. */
static void parse_feature(const char *arg, struct mkfs_opts *o)
{
	bool off = arg[0] == '^';
	u32 bit = pram_feature_bit(arg + off);

	if (bit == PRAM_FEATURE_INCOMPAT_JOURNAL)
		o->nojournal = off;
	else if (bit == PRAM_FEATURE_INCOMPAT_DIRECT)
		o->nodirect = off;
	else
		pram_die("-O %s: the features are journal and direct", arg);
}

/* The options, checked as the kernel checks its mount options. */
static void parse(int argc, char **argv, struct mkfs_opts *o)
{
	static const struct option longs[] = {
		{ "phys", required_argument, NULL, 'P' },
		{ "size", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	u64 v;
	int c;

	o->mode = PRAM_DEF_ROOT_MODE;
	o->uid = getuid();
	o->gid = getgid();
	while ((c = getopt_long(argc, argv, "b:i:N:m:u:g:L:U:d:O:qh", longs, NULL)) != -1) {
		switch (c) {
		case 'b':
			parse_number("-b", optarg, &v, true);
			if (v < PRAM_MIN_BLOCK_SIZE || v > PRAM_MAX_BLOCK_SIZE ||
			    !is_power_of_2(v))
				pram_die("bs=%s: must be 512, 1024, 2048 or 4096", optarg);
			o->blocksize = v;
			break;
		case 'i':
			parse_number("-i", optarg, &o->bpi, true);
			if (o->bpi < PRAM_INODE_SIZE)
				pram_die("bpi=%s: at least %u bytes per inode", optarg,
					 PRAM_INODE_SIZE);
			break;
		case 'N':
			parse_number("-N", optarg, &o->ninodes, false);
			if (!o->ninodes || o->ninodes > U32_MAX)
				pram_die("N=%s: must be 1 to %u", optarg, U32_MAX);
			break;
		case 'm':
			v = strtoul(optarg, NULL, 8);
			if (!*optarg || strspn(optarg, "01234567") != strlen(optarg) ||
			    v & ~07777)
				pram_die("mode=%s: not a permission mode", optarg);
			o->mode = v;
			o->mode_given = true;
			break;
		case 'u':
		case 'g':
			parse_number(c == 'u' ? "-u" : "-g", optarg, &v, false);
			if (v > U32_MAX - 1)
				pram_die("bad value '%s' for -%c", optarg, c);
			*(c == 'u' ? &o->uid : &o->gid) = v;
			*(c == 'u' ? &o->uid_given : &o->gid_given) = true;
			break;
		case 'L':
			if (strlen(optarg) > sizeof(o->label))
				pram_die("-L %s: at most %zu bytes", optarg, sizeof(o->label));
			memcpy(o->label, optarg, strlen(optarg));
			break;
		case 'U':
			if (parse_uuid(optarg, o->uuid))
				pram_die("-U %s: not a UUID", optarg);
			o->uuid_given = true;
			break;
		case 'd':
			o->tree = optarg;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'O':
			parse_feature(optarg, o);
			break;
		case 'P':
		case 'S':
			if (pram_target_option(&o->target, c == 'P' ? "phys" : "size",
					       optarg) < 0)
				pram_die("bad value '%s' for --%s", optarg,
					 c == 'P' ? "phys" : "size");
			break;
		case 'h':
			usage(0);
		default:
			usage(16);
		}
	}
	if (optind < argc)
		o->target.path = argv[optind++];
	if (optind < argc) {
		parse_number("SIZE", argv[optind++], &o->target.size, true);
		o->target.create = true;
	}
	if (optind < argc || (!o->target.path && !o->target.size))
		usage(16);
	if (o->target.path && o->target.phys)
		pram_die("give TARGET or --phys, not both");
}

/*
 * Everything but the superblock pair, which stays zero until the end: the
 * inode table (the root in it), the bitmap, the journal. As the kernel's
 * pram_format_media().
 */
static void format(struct pram_image *img, struct mkfs_opts *o,
		   struct pram_super_block *sb)
{
	const struct pram_geometry *g = &img->geo;

	memset(img->base, 0, pram_block_offset(g, g->bitmap_start));
	pram_bitmap_format(pram_img_bitmap(img), g);
	if (g->journal_blocks)
		pram_journal_format(img->base + pram_journal_offset(g));
	pram_root_format(pram_img_inode(img, PRAM_ROOT_INO), o->mode, o->uid,
			 o->gid, pram_time_now());
	memset(sb, 0, sizeof(*sb));
	pram_super_format(sb, g);
	if (!o->uuid_given && getrandom(o->uuid, sizeof(o->uuid), 0) != sizeof(o->uuid))
		pram_die("cannot get random bytes for the UUID");
	memcpy(sb->s_uuid, o->uuid, sizeof(sb->s_uuid));
	memcpy(sb->s_volume_name, o->label, sizeof(sb->s_volume_name));
	sb->s_csum = cpu_to_le32(pram_super_csum(sb));
	img->sb = sb;
}

static void say_made(const struct pram_image *img, const struct mkfs_opts *o)
{
	const struct pram_geometry *g = &img->geo;
	const u8 *u = o->uuid;

	printf("%s: %llu bytes: block size %u, %u inodes, %u data blocks\n",
	       img->name, (unsigned long long)g->size, g->blocksize,
	       g->inodes_count, g->blocks_count - g->data_start);
	printf("UUID %02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
	       u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9],
	       u[10], u[11], u[12], u[13], u[14], u[15]);
	if (o->label[0])
		printf(", label %.16s", o->label);
	putchar('\n');
}

int main(int argc, char **argv)
{
	struct pram_super_block sb;
	struct pram_builder b;
	struct mkfs_opts o = { };
	struct pram_image img;
	const char *why;
	u64 size;
	int err;

	pram_prog = "mkfs.pramfs";
	parse(argc, argv, &o);
	if (pram_target_mounted(&o.target))
		pram_die("%s is mounted", o.target.path ?: "the range");
	err = pram_image_open(&img, &o.target, true);
	if (err)
		pram_die("%s: %s", o.target.path ?: "/dev/mem", strerror(-err));
	size = img.size;
	if (pram_geometry_compute(&img.geo, size, o.blocksize, o.bpi, o.ninodes,
				  !o.nojournal, &why))
		pram_die("init=%llu: %s", (unsigned long long)size, why);
	format(&img, &o, &sb);
	pram_build_start(&b, &img);
	if (o.tree && pram_populate(&b, &o))
		exit(1);
	pram_build_finish(&b);
	pram_image_close(&img);
	if (!o.quiet)
		say_made(&img, &o);
	return 0;
}
