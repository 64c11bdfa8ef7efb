// SPDX-License-Identifier: GPL-2.0-only
/*
 * fsck.pramfs: check a PRAMFS image or physical range and repair it, with
 * e2fsck's options and exit codes: -n checks only, -p repairs what is
 * safe without asking, -y repairs everything; -f checks a filesystem that
 * says it is clean. It refuses to repair a range that is mounted.
 */
#include <getopt.h>
#include <stdlib.h>
#include <unistd.h>
#include "fsck.h"

__noreturn static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"Usage: fsck.pramfs [-n|-p|-a|-y] [-f] [-v] TARGET\n"
		"       fsck.pramfs [options] --phys ADDR --size SIZE\n"
		"  -n      check only: open read-only, answer no\n"
		"  -p, -a  repair what is safe without asking; stop at anything else\n"
		"  -y      repair everything, answering yes\n"
		"  -f      check even a filesystem that is clean\n"
		"  -v      say more\n"
		"Exit: 0 clean, 1 errors corrected, 4 errors left, 8 operational error,\n"
		"16 usage.\n");
	exit(status);
}

static void parse(int argc, char **argv, struct fsck *f, struct pram_target *t)
{
	static const struct option longs[] = {
		{ "phys", required_argument, NULL, 'P' },
		{ "size", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	int c, modes = 0;

	f->mode = FSCK_ASK;
	while ((c = getopt_long(argc, argv, "npayfvh", longs, NULL)) != -1) {
		switch (c) {
		case 'n':
			f->mode = FSCK_NO;
			modes++;
			break;
		case 'p':
		case 'a':
			f->mode = FSCK_PREEN;
			modes++;
			break;
		case 'y':
			f->mode = FSCK_YES;
			modes++;
			break;
		case 'f':
			f->force = true;
			break;
		case 'v':
			f->verbose = true;
			break;
		case 'P':
		case 'S':
			if (pram_target_option(t, c == 'P' ? "phys" : "size", optarg) < 0)
				usage(FSCK_USAGE);
			break;
		case 'h':
			usage(0);
		default:
			usage(FSCK_USAGE);
		}
	}
	if (modes > 1) {
		pram_warnx("give one of -n, -p and -y");
		usage(FSCK_USAGE);
	}
	if (!t->size && optind + 1 == argc)
		t->path = argv[optind++];
	if (optind != argc || (!t->path && !t->size))
		usage(FSCK_USAGE);
	if (f->mode == FSCK_ASK && !isatty(STDIN_FILENO))
		pram_die("need a terminal to ask (use -n, -p or -y)");
}

static void *zalloc(size_t n)
{
	void *p = calloc(1, n ?: 1);

	if (!p)
		pram_die("out of memory");
	return p;
}

static void pass(struct fsck *f, const char *what, void (*fn)(struct fsck *f))
{
	if (f->mode != FSCK_PREEN)
		printf("%s\n", what);
	fn(f);
}

/* -v: what the filesystem holds, by type (as e2fsck -v). */
static void statistics(struct fsck *f)
{
	static const struct { umode_t type; const char *name; } types[] = {
		{ S_IFREG, "regular files" }, { S_IFDIR, "directories" },
		{ S_IFLNK, "symbolic links" }, { S_IFCHR, "character devices" },
		{ S_IFBLK, "block devices" }, { S_IFIFO, "fifos" },
		{ S_IFSOCK, "sockets" },
	};
	u32 n[ARRAY_SIZE(types)] = { }, ino, i, end = PRAM_ROOT_INO + f->g->inodes_count;
	umode_t mode;

	for (ino = PRAM_ROOT_INO; ino < end; ino++) {
		mode = le16_to_cpu(pram_img_inode(&f->img, ino)->i_mode) & S_IFMT;
		for (i = 0; i < ARRAY_SIZE(types); i++)
			n[i] += mode == types[i].type;
	}
	for (i = 0; i < ARRAY_SIZE(types); i++)
		fsck_note(f, "%10u %s", n[i], types[i].name);
}

static void summary(struct fsck *f, double t0)
{
	const struct pram_super_block *ps = f->img.sb;
	const struct pram_geometry *g = f->g;

	if (f->changed && f->img.writable)
		printf("\n%s: ***** FILE SYSTEM WAS MODIFIED *****\n", f->img.name);
	statistics(f);
	printf("%s: %u/%u files (%u directories), %u/%u blocks, %.3f s\n",
	       f->img.name, g->inodes_count - le32_to_cpu(ps->s_free_inodes_count),
	       g->inodes_count, f->dirs,
	       g->blocks_count - g->data_start - le32_to_cpu(ps->s_free_blocks_count),
	       g->blocks_count - g->data_start, pram_seconds() - t0);
}

int main(int argc, char **argv)
{
	struct pram_target t = { };
	struct fsck f = { };
	double t0 = pram_seconds();
	u16 state;
	int err;

	pram_prog = "fsck.pramfs";
	parse(argc, argv, &f, &t);
	if (f.mode != FSCK_NO && pram_target_mounted(&t))
		pram_die("%s is mounted: not repairing it", t.path ?: "the range");
	err = pram_image_open(&f.img, &t, f.mode != FSCK_NO);
	if (err)
		pram_die("%s: %s", t.path ?: "/dev/mem", strerror(-err));
	if (f.mode != FSCK_PREEN)
		printf("fsck.pramfs %s: %s\n", PRAM_TOOLS_VERSION, f.img.name);
	fsck_pass0(&f);
	fsck_journal(&f);
	state = le16_to_cpu(f.img.sb->s_state);
	if ((state & PRAM_STATE_CLEAN) && !(state & PRAM_STATE_ERRORS) &&
	    !f.force && !f.left) {
		printf("%s: clean\n", f.img.name);
		summary(&f, t0);
		pram_image_close(&f.img);
		return f.fixed ? FSCK_FIXED : FSCK_OK;
	}
	f.ino_state = zalloc(f.g->inodes_count);
	f.claimed = zalloc(DIV_ROUND_UP((u64)f.g->blocks_count, 8));
	f.dup = zalloc(DIV_ROUND_UP((u64)f.g->blocks_count, 8));
	pram_build_start(&f.b, &f.img);
	pass(&f, "Pass 1: inodes and blocks", fsck_pass1);
	pass(&f, "Pass 1B: blocks held twice", fsck_pass1b);
	pass(&f, "Pass 2: directory lists", fsck_pass2);
	pass(&f, "Pass 3: reachability", fsck_pass3);
	pass(&f, "Pass 4: link counts", fsck_pass4);
	pass(&f, "Pass 5: bitmap, counts and state", fsck_pass5);
	summary(&f, t0);
	pram_image_close(&f.img);
	free(f.ino_state);
	free(f.claimed);
	free(f.dup);
	return f.left ? FSCK_LEFT : f.fixed ? FSCK_FIXED : FSCK_OK;
}
