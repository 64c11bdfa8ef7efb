#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tools/fuzz/run.sh SECONDS SEED: fuzz-fsck (tools/fuzz/fuzz_fsck.c) with
# clang's libFuzzer, ASan and UBSan. First every image of the seed corpus
# (tools/fuzz/corpus: the seeds and the regression images of earlier
# findings) once, then SECONDS of fuzzing from SEED, growing a working
# corpus under build/fuzz/tools/corpus. A finding is kept in
# build/fuzz/tools/ (crash-*, leak-*, timeout-*) with its log, and fails.
set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-60} seed=${2:-1}
out=$REPO/build/fuzz/tools
bin=$REPO/build/tools-fuzz/fuzz-fsck
seeds=$REPO/tools/fuzz/corpus
mkdir -p "$out/corpus"
make -s -C "$REPO/tools" O="$REPO/build/tools-fuzz" CC=clang -j"$(nproc)" fuzz >/dev/null ||
	{ echo "fuzz-fsck: build failed"; exit 1; }
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
opts=(-max_len=131072 -timeout=10 -rss_limit_mb=2048 -close_fd_mask=3 "-artifact_prefix=$out/")
n=$(find "$seeds" -name '*.img' | wc -l)
if ! "$bin" "${opts[@]}" "$seeds"/*.img >"$out/regress.log" 2>&1; then
	echo "fuzz-fsck: a corpus image fails (log: build/fuzz/tools/regress.log)"
	grep -E '^fuzz-fsck:|SUMMARY|Running:' "$out/regress.log" | tail -n 5
	exit 1
fi
echo "fuzz-fsck: $n corpus images pass"
"$bin" "${opts[@]}" -seed="$seed" -max_total_time="$secs" -print_final_stats=1 \
	"$out/corpus" "$seeds" >"$out/fuzz.log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/fuzz.log")
if [ $rc -ne 0 ]; then
	echo "fuzz-fsck: a finding after ${runs:-?} images, seed $seed (log: build/fuzz/tools/fuzz.log)"
	grep -E '^fuzz-fsck:|SUMMARY|Test unit written' "$out/fuzz.log" | tail -n 5
	exit 1
fi
echo "fuzz-fsck: $runs images in $secs s from seed $seed, no finding"
