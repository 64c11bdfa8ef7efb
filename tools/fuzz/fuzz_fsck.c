// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-fsck: a libFuzzer target over fsck.pramfs's check and repair, and
 * through them over the kernel's pure code (superblock and inode checks,
 * block-map walks, directory lists, the journal's undo). Each input is an
 * image, checked where fsck.pramfs checks one: in a file (a memfd),
 * mapped read-only for -n. Besides no crash, leak, hang or out-of-bounds
 * access (ASan, UBSan), what must hold:
 *
 * - fsck -n -f writes nothing (its mapping is read-only; a store faults);
 * - after fsck -y -f, a second fsck -n -f finds nothing (exit 0), unless
 *   there was nothing to check (no superblock: exit 8, the image as it
 *   was);
 * - an image that fsck -n -f finds clean, fsck -y -f leaves as it was,
 *   byte for byte.
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "fsck.h"

/* Images of more than this are cut: the checks scale, the bugs do not. */
#define FUZZ_MAX_IMAGE	(1 << 20)

/* fsck.pramfs's output is not the fuzzer's: run with -close_fd_mask=3. */
static int fuzz_fd = -1, fuzz_stderr = -1;

__noreturn static void fuzz_fail(const char *what)
{
	dprintf(fuzz_stderr, "fuzz-fsck: %s\n", what);
	abort();
}

static int fuzz_fsck(u8 *want, size_t len, enum fsck_mode mode)
{
	struct pram_target t = { };
	struct fsck f = { };
	char path[64];
	int ret;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fuzz_fd);
	t.path = path;
	if (pram_image_open(&f.img, &t, mode != FSCK_NO))
		fuzz_fail("cannot map the image");
	f.mode = mode;
	f.force = true;
	ret = fsck_run(&f);
	if (want)
		memcpy(want, f.img.base, len);
	pram_image_close(&f.img);
	return ret;
}

static void fuzz_load(const u8 *data, size_t len)
{
	if (ftruncate(fuzz_fd, 0) || ftruncate(fuzz_fd, len) ||
	    pwrite(fuzz_fd, data, len, 0) != (ssize_t)len)
		fuzz_fail("cannot load the image");
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	pram_prog = "fuzz-fsck";
	fuzz_fd = memfd_create("pramfs-image", 0);
	fuzz_stderr = dup(STDERR_FILENO);
	if (fuzz_fd < 0 || fuzz_stderr < 0)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t len)
{
	u8 *after;
	int first, ret;

	if (len < 2 * PRAM_SB_SIZE)
		return -1;
	if (len > FUZZ_MAX_IMAGE)
		len = FUZZ_MAX_IMAGE;
	after = malloc(len);
	if (!after)
		fuzz_fail("out of memory");
	fuzz_load(data, len);
	first = fuzz_fsck(after, len, FSCK_NO);
	if (memcmp(after, data, len))
		fuzz_fail("fsck -n changed the image");
	ret = fuzz_fsck(after, len, FSCK_YES);
	if (ret == FSCK_ERROR) {
		if (memcmp(after, data, len))
			fuzz_fail("nothing to check (exit 8), yet fsck -y changed the image");
	} else if (fuzz_fsck(NULL, len, FSCK_NO) != FSCK_OK) {
		fuzz_fail("after fsck -y, fsck -n still finds something");
	} else if (first == FSCK_OK && memcmp(after, data, len)) {
		fuzz_fail("fsck -y changed an image fsck -n found clean");
	}
	free(after);
	return 0;
}
