# SPDX-License-Identifier: GPL-2.0
# PRAMFS: build, run and test. README.md says what each target does.
# Everything large (kernel tree, build outputs, ccache) lives in
# $(PRAMFS_CACHE), default ~/.cache/pramfs; build/ holds the rest.

SHELL := /bin/bash

.PHONY: all deps tree kunit guest module selftests tools tools-static initramfs lint run check crash fuzz bench bench-quick ab profile clean

all: initramfs

deps:
	@ci/deps

tree: deps
	@ci/tree

kunit: tree
	@ci/kunit

guest: tree
	@qemu/build-kernel

module: guest
	@qemu/build-module

selftests: tree
	@qemu/build-selftests

# mkfs.pramfs, fsck.pramfs and pramfs-dump into build/tools; static ones
# for the test guest into build/tools-static.
tools:
	@$(MAKE) -s -C tools O=$(CURDIR)/build/tools

tools-static:
	@$(MAKE) -s -C tools O=$(CURDIR)/build/tools-static STATIC=1

initramfs: module selftests tools-static
	@qemu/mkinitramfs

lint: module
	@ci/lint

# Boot with build/nvram.img, mount PRAMFS at /mnt/pram (formatting it only
# when no valid filesystem is there), and give a shell.
run: initramfs
	@PRAMFS_APPEND="PRAM_AUTOMOUNT=1" qemu/run

# The test command: KUnit, the kselftests in the guest, host-side tests.
check: deps
	@ci/check

# Random power cuts: COUNT SIGKILLs of QEMU under a metadata workload
# (default 200), each followed by recovery, a check of every logged
# operation and fsck.pramfs; SEED picks the moments. make check runs 3.
COUNT ?= 200
SEED ?= 1
crash: initramfs
	@bash qemu/tests/powercut.sh $(COUNT) $(SEED)

# Hostile images: FUZZ_SECS of fuzz-fsck (libFuzzer) over fsck.pramfs and
# the pure code, then FUZZ_N mutated images through the kernel and
# fsck.pramfs in the test guest; FUZZ_SEED makes both reproducible. make
# check runs a minute and 300 images.
FUZZ_N ?= 10000
FUZZ_SEED ?= 1
FUZZ_SECS ?= 600
fuzz: initramfs
	@bash tools/fuzz/run.sh $(FUZZ_SECS) $(FUZZ_SEED)
	@bash qemu/tests/fuzz.sh $(FUZZ_N) $(FUZZ_SEED)

# The benchmark (not a test): PRAMFS with protection on and off, ext4-DAX,
# ext2 on brd and tmpfs side by side in one lean guest boot, median of 5;
# build/bench/ and docs/bench.md, docs/bench-ratios.png. bench-quick is the
# same with small sizes and one run, into build/bench-quick/ (make check
# runs it so the harness cannot rot).
bench: tree
	@qemu/bench/run

# An instruction profile of one workload in the bench guest (qemu/prof/run):
# WORKLOAD is create, unlink, meta, meta4k, replace, randwrite, randread,
# write, read, remove, remove-random or mount, N operations (a default for each); build/prof/WORKLOAD.txt.
# PROF_FS=ext4-dax profiles ext4 with DAX instead, PROF_FS=tmpfs tmpfs,
# PROF_FS=pramfs-nojournal PRAMFS made without the journal; PROF_OPTS
# adds mount options (,noprotect).
WORKLOAD ?= create
N ?=
profile: tree
	@qemu/prof/run $(WORKLOAD) $(N)

bench-quick: tree
	@qemu/bench/run --quick

# A same-boot A/B (qemu/bench/ab): the module of the revision REV and the
# working tree's, ROUNDS rounds in one guest, of the small-file loop,
# 4 KiB random writes and the mount (AB_OLD_OPTS=,noprotect or
# AB_OLD_MKFS="-O ^journal" against REV=HEAD: on / off, journal / none).
ROUNDS ?= 8
ab: tree
	@qemu/bench/ab $(REV) $(ROUNDS)

clean:
	rm -rf build
