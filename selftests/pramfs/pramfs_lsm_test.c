// SPDX-License-Identifier: GPL-2.0
/*
 * An LSM's label on PRAMFS: with Smack running (the test guest booted
 * with lsm=smack, by qemu/tests/lsm.sh), every new inode carries its
 * creator's label in security.SMACK64 from the start, written by
 * security_inode_init_security() in the transaction that makes it. The
 * labels are read after a remount, when Smack takes them from the
 * NVRAM, not from the inode it labelled in memory (an inode without the
 * attribute would show the filesystem's default label, "_").
 *
 * Not run by run_kselftest.sh: the kselftest boot has no LSM. Needs
 * root, pramfs registered, PRAM_PHYS and PRAM_SIZE, fsck.pramfs.
 */
#define _GNU_SOURCE
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>

#include "../kselftest_harness.h"
#include "pramfs_util.h"

#define SMACK_CURRENT	"/proc/self/attr/smack/current"
#define SMACK64		"security.SMACK64"
#define LABEL		"pramfs-test"

FIXTURE(lsm) {
	struct nvram nv;
	struct counts fresh;
};

/* The Smack label of this task, or "" when Smack is not running. */
static const char *task_label(void)
{
	static char buf[256];
	int fd = open(SMACK_CURRENT, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return buf;
}

FIXTURE_SETUP(lsm)
{
	const char *why = missing_prerequisite(&self->nv);

	if (why)
		SKIP(return, "%s", why);
	ASSERT_STRNE("", task_label()) {
		TH_LOG("Smack is not running: boot with lsm=smack (qemu/tests/lsm.sh)");
	}
	mkdir(MNT, 0755);
	ASSERT_EQ(0, do_mount(MNT, 0, "physaddr=%#llx,init=%llu,bs=1024",
			      self->nv.phys, self->nv.size));
	self->fresh = fs_counts(MNT);
}

FIXTURE_TEARDOWN_PARENT(lsm)
{
	umount2(MNT, MNT_DETACH);
}

/* security.SMACK64 of MNT/@path as stored, or "" with errno kept. */
static const char *label_of(const char *path)
{
	static char buf[256];
	ssize_t n = lgetxattr(at(path), SMACK64, buf, sizeof(buf) - 1);

	buf[n > 0 ? n : 0] = 0;
	return buf;
}

/* One of each file type, made by the calling task. */
static int make_each_type(const char *prefix)
{
	char name[4][64];

	snprintf(name[0], sizeof(name[0]), "%s-file", prefix);
	snprintf(name[1], sizeof(name[1]), "%s-dir", prefix);
	snprintf(name[2], sizeof(name[2]), "%s-link", prefix);
	snprintf(name[3], sizeof(name[3]), "%s-fifo", prefix);
	return put(name[0], "x") || mkdir(at(name[1]), 0755) ||
	       symlink("target", at(name[2])) || mknod(at(name[3]), S_IFIFO | 0644, 0);
}

/* In a child labelled LABEL: what it makes carries LABEL. */
static int make_labelled(void)
{
	int fd = open(SMACK_CURRENT, O_WRONLY);

	if (fd < 0 || write(fd, LABEL, strlen(LABEL)) != (ssize_t)strlen(LABEL))
		return 100;
	close(fd);
	return make_each_type("t") ? 101 : 0;
}

/* Each type made by make_each_type(@prefix) is labelled @label, stored. */
static void expect_labels(struct __test_metadata *_metadata,
			  const char *prefix, const char *label)
{
	static const char *const types[] = { "file", "dir", "link", "fifo" };
	char name[64];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		snprintf(name, sizeof(name), "%s-%s", prefix, types[i]);
		/* listxattr lists what PRAMFS holds; getxattr asks Smack. */
		EXPECT_TRUE(listed(name, SMACK64)) {
			TH_LOG("%s: no %s stored", name, SMACK64);
		}
		EXPECT_STREQ(label, label_of(name)) {
			TH_LOG("%s: %s", name, strerror(errno));
		}
	}
}

TEST_F(lsm, new_inodes_carry_their_creators_label)
{
	pid_t pid;
	int status;

	ASSERT_EQ(0, make_each_type("r"));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(make_labelled());
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, WEXITSTATUS(status));
	remount(_metadata, &self->nv);
	expect_labels(_metadata, "r", task_label());
	expect_labels(_metadata, "t", LABEL);
	expect_clean(_metadata, self);
}

/* A label set by hand (CAP_MAC_ADMIN) replaces the one from creation. */
TEST_F(lsm, a_label_set_later_replaces_it)
{
	ASSERT_EQ(0, put("f", "x"));
	ASSERT_EQ(0, lsetxattr(at("f"), SMACK64, LABEL, strlen(LABEL), 0));
	remount(_metadata, &self->nv);
	EXPECT_STREQ(LABEL, label_of("f"));
	expect_clean(_metadata, self);
}

TEST_HARNESS_MAIN
