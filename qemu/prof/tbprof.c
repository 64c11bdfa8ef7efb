// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin that counts the guest kernel's instructions per
 * translation block: a profile of what the guest CPU executes, exact and
 * without sampling (perf's cpu-clock under TCG gets a few hundred samples
 * a run). Each block's count is added inline at its start, so the guest
 * runs at most a few times slower.
 *
 * Arguments: reset=ADDR, a kernel address whose block zeroes the counts
 * when it runs (the guest script calls sync(2) there: ksys_sync);
 * stop=ADDR, the same to write them out, once (sethostname(2)); out=FILE,
 * "address executions instructions" per block, written at the stop only
 * if a reset came first: no file means the workload did not run through.
 *
 * QEMU 7.2's plugin API, version 1 (Debian 12's qemu-system-x86):
 * qemu_plugin_api.h declares what it uses, as no package ships
 * qemu-plugin.h.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "qemu_plugin_api.h"

#define EXPORT	__attribute__((visibility("default")))
#define KERNEL_START	0xffff800000000000ull

EXPORT int qemu_plugin_version = 1;

/* One translation of a block; a block translated again gets another. */
struct block {
	uint64_t vaddr;
	uint64_t insns;
	uint64_t count;		/* added to inline, racily across vCPUs */
	struct block *next;
};

static struct block *blocks;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t reset_addr, stop_addr;
static const char *out_path = "tbprof.out";
static bool armed, stopped;

static void reset(unsigned int vcpu, void *unused)
{
	struct block *b;

	pthread_mutex_lock(&lock);
	for (b = blocks; !stopped && b; b = b->next)
		b->count = 0;
	armed = true;
	pthread_mutex_unlock(&lock);
}

static void stop(unsigned int vcpu, void *unused)
{
	struct block *b;
	FILE *f;

	pthread_mutex_lock(&lock);
	if (armed && !stopped) {
		stopped = true;
		f = fopen(out_path, "w");
		for (b = blocks; f && b; b = b->next)
			if (b->count)
				fprintf(f, "%llx %llu %llu\n",
					(unsigned long long)b->vaddr,
					(unsigned long long)b->count,
					(unsigned long long)(b->count * b->insns));
		if (f)
			fclose(f);
	}
	pthread_mutex_unlock(&lock);
}

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
	struct block *b;

	if (vaddr < KERNEL_START)
		return;
	if (vaddr == reset_addr)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, reset,
						     QEMU_PLUGIN_CB_NO_REGS, NULL);
	if (vaddr == stop_addr)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, stop,
						     QEMU_PLUGIN_CB_NO_REGS, NULL);
	b = calloc(1, sizeof(*b));
	if (!b)
		return;
	b->vaddr = vaddr;
	b->insns = qemu_plugin_tb_n_insns(tb);
	pthread_mutex_lock(&lock);
	b->next = blocks;
	blocks = b;
	pthread_mutex_unlock(&lock);
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->count, 1);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			       int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "reset=", 6))
			reset_addr = strtoull(argv[i] + 6, NULL, 16);
		else if (!strncmp(argv[i], "stop=", 5))
			stop_addr = strtoull(argv[i] + 5, NULL, 16);
		else if (!strncmp(argv[i], "out=", 4))
			out_path = argv[i] + 4;
		else
			return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
	return 0;
}
