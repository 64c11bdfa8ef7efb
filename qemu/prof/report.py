#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""qemu/prof/report.py TB_FILE OPS SYSTEM_MAP MODULE_KALLSYMS [TOP]

tbprof's counts per translation block, summed per function (the kernel's
System.map and pramfs.ko's lines of /proc/kallsyms), per operation: the
instructions each function executed, its share, and how often it was
entered (the executions of the block at its first byte). The totals also
give the blocks executed and the function entries: under TCG each entry
costs a block lookup or two (its call and its return), and the time of
an operation follows them more closely than its instructions."""
import bisect
import collections
import sys


def symbols(paths):
    syms = []
    for path in paths:
        with open(path) as f:
            for line in f:
                p = line.split()
                if len(p) >= 3 and p[1] in "tTwW":
                    syms.append((int(p[0], 16), p[2]))
    syms.sort()
    return syms


def main():
    tb, ops, system_map, kallsyms = sys.argv[1:5]
    top = int(sys.argv[5]) if len(sys.argv) > 5 else 40
    ops = float(ops)
    syms = symbols([system_map, kallsyms])
    starts = [a for a, _ in syms]
    insns = collections.Counter()
    calls = collections.Counter()
    blocks = 0
    with open(tb) as f:
        for line in f:
            addr, count, n = line.split()
            blocks += int(count)
            addr = int(addr, 16)
            i = bisect.bisect_right(starts, addr) - 1
            name = syms[i][1] if i >= 0 else "?"
            insns[name] += int(n)
            if i >= 0 and starts[i] == addr:
                calls[name] += int(count)
    total = sum(insns.values())
    print(f"{total / ops:.0f} instructions per operation ({total / 1e6:.1f} M in all)")
    print(f"{blocks / ops:.0f} blocks executed and "
          f"{sum(calls.values()) / ops:.0f} function entries per operation")
    print(f"{'share':>6} {'insns/op':>9} {'calls/op':>8}  function")
    for name, n in insns.most_common(top):
        print(f"{100 * n / total:5.1f}% {n / ops:9.0f} {calls[name] / ops:8.2f}  {name}")


if __name__ == "__main__":
    main()
