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

int main(int argc, char **argv)
{
	struct pram_target t = { };
	struct fsck f = { };
	int ret, err;

	pram_prog = "fsck.pramfs";
	parse(argc, argv, &f, &t);
	if (f.mode != FSCK_NO && pram_target_mounted(&t))
		pram_die("%s is mounted: not repairing it", t.path ?: "the range");
	err = pram_image_open(&f.img, &t, f.mode != FSCK_NO);
	if (err)
		pram_die("%s: %s", t.path ?: "/dev/mem", strerror(-err));
	ret = fsck_run(&f);
	pram_image_close(&f.img);
	return ret;
}
