#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the bench guest's R lines into the benchmark's outputs.

report.py RAW OUTDIR: reads the guest's output RAW and the run's
parameters from the BENCH_* environment (as qemu/bench/run set them for
the guest), checks that every figure was produced for every filesystem,
and writes OUTDIR/results.csv, OUTDIR/results.md and OUTDIR/ratios.dat
(for gnuplot). Exits 1 naming each missing figure or guest error.
"""
import csv
import os
import statistics
import sys

PRAMFS = "pramfs"
OTHERS = ["ext4-dax", "ext2-brd", "tmpfs"]
NOPROTECT = "pramfs-noprotect"
NOJOURNAL = "pramfs-nojournal"
LOWER_IS_BETTER = {"us", "us/entry", "ms"}

# bonnie++ reports "+++++" for a phase shorter than its 0.5 s clock:
# the tool ran and produced its figure, which says "faster than timed".
TOO_FAST = "+++++"


def expected(env):
    """(filesystem, workload, figure, unit) of every figure the run makes."""
    figs = [("memcpy", "memcpy", f, "MB/s") for f in ("copy-1m", "copy-4k-random")]
    for fs in env["BENCH_FS"].split():
        for name in ("seq-write-1m", "seq-read-1m", "rand-write-4k", "rand-read-4k"):
            for jobs in (1, 2):
                figs.append((fs, "fio", f"{name}-{jobs}job", "MB/s"))
        for f in ("putc", "block-write", "rewrite", "getc", "block-read"):
            figs.append((fs, "bonnie", f, "KiB/s"))
        for f in ("seq-create", "seq-delete", "random-create", "random-delete"):
            figs.append((fs, "bonnie", f, "files/s"))
        for size in (0, 4096):
            for op in ("create", "stat", "rename", "unlink"):
                figs.append((fs, "meta", f"{op}-{size}b", "files/s"))
        figs.append((fs, "meta", "replace-0b", "files/s"))
        figs.append((fs, "fs_mark", "create-4096b", "files/s"))
        big = [env["BENCH_BIGDIR"]] if fs in env["BENCH_BIGDIR_FS"].split() else []
        for n in env["BENCH_ENTRIES"].split() + big:
            for op in ("create", "lookup", "readdir"):
                figs.append((fs, "entries", f"{op}-{n}", "us/entry"))
        n = env["BENCH_ENTRIES"].split()[-1]
        for op in ("create", "lookup", "readdir"):
            for length in (48, 200):
                figs.append((fs, "entries", f"{op}-{length}b-{n}", "us/entry"))
        figs.append((fs, "mmap", "seq-read", "MB/s"))
        figs.append((fs, "exec", f"start-{env['BENCH_EXEC_N']}x", "ms"))
        for mb in env["BENCH_MOUNT_MB"].split():
            figs.append((fs, "mount", f"mount-{mb}m", "us"))
    return figs


def parse(raw):
    values, notes, errors = {}, [], []
    with open(raw, errors="replace") as f:
        for line in f:
            w = line.split()
            if len(w) == 6 and w[0] == "R":
                values.setdefault(tuple(w[1:5]), []).append(w[5])
            elif w[:1] == ["I"]:
                notes.append(" ".join(w[1:]))
            elif w[:1] == ["E"]:
                errors.append(" ".join(w[1:]))
    return values, notes, errors


def is_figure(sample, key):
    try:
        return float(sample) >= 0
    except ValueError:
        return key[1] == "bonnie" and sample == TOO_FAST


def summarise(samples):
    """(median, min, max) of numeric samples, or None when any is not."""
    try:
        v = [float(s) for s in samples]
    except ValueError:
        return None
    if not v:
        return None
    return statistics.median(v), min(v), max(v)


def fmt(x):
    return f"{x:.3g}" if abs(x) < 100 else f"{x:.0f}"


def cell(stats, samples):
    if stats is None:
        return "/".join(samples)
    med, lo, hi = stats
    return f"{fmt(med)} ({fmt(lo)}-{fmt(hi)})" if len(samples) > 1 else fmt(med)


# The figures the goals speak of: (label, workload, figure, memcpy figure,
# goal text).
def key_figures(env):
    n = env["BENCH_ENTRIES"].split()[-1]
    small = env["BENCH_ENTRIES"].split()[0]
    big = env["BENCH_BIGDIR"]
    mb = env["BENCH_MOUNT_MB"].split()[-1]
    x = env["BENCH_EXEC_N"]
    return [
        ("seq write 1 MiB", "fio", "seq-write-1m-1job", "copy-1m", ">= 0.85 memcpy"),
        ("seq read 1 MiB", "fio", "seq-read-1m-1job", "copy-1m", ">= 1.0 ext4-DAX, >= 0.95 memcpy"),
        ("random write 4 KiB", "fio", "rand-write-4k-1job", "copy-4k-random", ">= 3.0 ext4-DAX"),
        ("random read 4 KiB", "fio", "rand-read-4k-1job", "copy-4k-random", ">= 1.0 ext4-DAX"),
        ("seq write 1 MiB, 2 jobs", "fio", "seq-write-1m-2job", None, ""),
        ("create 0 B files", "meta", "create-0b", None, ">= 2.5 ext4-DAX, >= 0.8 tmpfs"),
        ("unlink 0 B files", "meta", "unlink-0b", None, ">= 2.5 ext4-DAX, >= 0.8 tmpfs"),
        ("rename 0 B files", "meta", "rename-0b", None, ">= 2.0 ext4-DAX"),
        ("rename over a file", "meta", "replace-0b", None, ">= 2.0 ext4-DAX"),
        ("create 4 KiB files", "meta", "create-4096b", None, ">= 2.5 ext4-DAX, >= 0.8 tmpfs"),
        ("unlink 4 KiB files", "meta", "unlink-4096b", None, ">= 2.5 ext4-DAX, >= 0.8 tmpfs"),
        ("fs_mark create 4 KiB", "fs_mark", "create-4096b", None, ""),
        (f"create, {n} entries", "entries", f"create-{n}", None, ""),
        (f"cold lookup, {n} entries", "entries", f"lookup-{n}", None, ""),
        (f"create, {big} entries", "entries", f"create-{big}", None,
         f"per entry as at {small}"),
        (f"cold lookup, {big} entries", "entries", f"lookup-{big}", None,
         f"per entry as at {small}"),
        (f"create, {n} entries, 200-byte names", "entries", f"create-200b-{n}", None,
         "per entry as 48-byte names"),
        (f"cold lookup, {n} entries, 200-byte names", "entries", f"lookup-200b-{n}", None,
         "per entry as 48-byte names"),
        (f"readdir, {n} entries, 200-byte names", "entries", f"readdir-200b-{n}", None,
         "per entry as 48-byte names"),
        (f"readdir, {small} entries", "entries", f"readdir-{small}", None, ""),
        (f"readdir, {big} entries", "entries", f"readdir-{big}", None,
         f"per entry as at {small}"),
        ("mmap seq read", "mmap", "seq-read", None, ""),
        (f"start a static program {x}x", "exec", f"start-{x}x", None, ""),
        (f"mount, {mb} MiB", "mount", f"mount-{mb}m", None, ""),
    ]


def ratio(stats, a, b, unit):
    """How many times faster a is than b (>1: a is faster)."""
    if a not in stats or b not in stats or not stats[a] or not stats[b]:
        return None
    x, y = stats[a][0], stats[b][0]
    if x <= 0 or y <= 0:
        return None
    return y / x if unit in LOWER_IS_BETTER else x / y


def main():
    raw, outdir = sys.argv[1], sys.argv[2]
    env = {k: v for k, v in os.environ.items() if k.startswith("BENCH_")}
    values, notes, errors = parse(raw)
    want = expected(env)
    problems = [f"guest error: {e}" for e in errors]
    incomplete = 0
    for key in want:
        samples = values.get(key, [])
        bad = [s for s in samples if not is_figure(s, key)]
        if len(samples) != int(env["BENCH_REPS"]) or bad:
            incomplete += 1
            problems.append(f"figure {'/'.join(key)}: {len(samples)} of "
                            f"{env['BENCH_REPS']} runs, not figures: {bad}")
    if "done" not in notes:
        problems.append("the guest did not finish the benchmark")

    stats = {k: summarise(values.get(k, [])) for k in want}
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["filesystem", "workload", "figure", "unit", "median", "min", "max", "runs"])
        for k in want:
            s = stats[k]
            runs = values.get(k, [])
            if s:
                w.writerow([*k, f"{s[0]:.6g}", f"{s[1]:.6g}", f"{s[2]:.6g}", len(runs)])
            else:
                w.writerow([*k, "/".join(runs) or "missing", "", "", len(runs)])

    def sk(fs, wl, fig):
        return next((k for k in want if k[:3] == (fs, wl, fig)), None)

    rows, dat = [], []
    for label, wl, fig, mfig, goal in key_figures(env):
        p = sk(PRAMFS, wl, fig)
        if not p or not stats.get(p):
            continue
        unit = p[3]
        r = {o: ratio(stats, p, sk(o, wl, fig), unit) for o in OTHERS}
        r["memcpy"] = ratio(stats, p, sk("memcpy", "memcpy", mfig), unit) if mfig else None
        r["onoff"] = ratio(stats, p, sk(NOPROTECT, wl, fig), unit)
        r["journal"] = ratio(stats, p, sk(NOJOURNAL, wl, fig), unit)
        rows.append((label, f"{fmt(stats[p][0])} {unit}", r, goal))
        dat.append((label, r))

    def rc(x):
        return "" if x is None else f"{x:.2f}"

    md = ["| figure | PRAMFS | / ext4-DAX | / ext2-brd | / tmpfs | / memcpy | on / off "
          "| journal / none | goal |",
          "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for label, val, r, goal in rows:
        md.append(f"| {label} | {val} | {rc(r['ext4-dax'])} | {rc(r['ext2-brd'])} | "
                  f"{rc(r['tmpfs'])} | {rc(r['memcpy'])} | {rc(r['onoff'])} | "
                  f"{rc(r['journal'])} | {goal} |")
    md.append("")
    md.append("Ratios are PRAMFS's speed over the other's (for times, the other's "
              "time over PRAMFS's): above 1.00 PRAMFS is faster. \"on / off\" is "
              "write protection on over `noprotect`; \"journal / none\" is the "
              "filesystem with the undo journal over the same code on an image "
              "without it (`mkfs.pramfs -O ^journal`). Issue 18's goals for "
              "every figure: on / off >= 0.9, and journal / none >= 0.9 for the "
              "metadata figures.")
    def per_entry(a, b):
        """PRAMFS's cost per entry in figures @a over @b, for each operation."""
        return ", ".join(
            f"{op} " + rc(ratio(stats, sk(PRAMFS, "entries", f"{op}-{a}"),
                                sk(PRAMFS, "entries", f"{op}-{b}"), "us/entry"))
            for op in ("create", "lookup", "readdir"))

    small, big = env["BENCH_ENTRIES"].split()[0], env["BENCH_BIGDIR"]
    n = env["BENCH_ENTRIES"].split()[-1]
    md.append("")
    md.append(f"PRAMFS per entry at {big} entries over {small} (1.00: flat; above, "
              "cheaper at the larger size): " + per_entry(big, small) + ".")
    md.append("")
    md.append(f"PRAMFS with 200-byte names over 48-byte names, {n} entries (1.00: "
              "the same cost per entry): " + per_entry(f"200b-{n}", f"48b-{n}") + ".")
    md.append("")
    fss = ["memcpy"] + env["BENCH_FS"].split()
    full = ["| workload | figure | unit | " + " | ".join(fss) + " |",
            "|---|---|---|" + "---:|" * len(fss)]
    seen = []
    for k in want:
        if k[1:] not in seen and k[0] != "memcpy":
            seen.append(k[1:])
    for wl, fig, unit in [("memcpy", f, "MB/s") for f in ("copy-1m", "copy-4k-random")] + seen:
        cells = []
        for fs in fss:
            key = (fs, wl, fig, unit)
            cells.append(cell(stats[key], values.get(key, [])) if key in stats else "")
        full.append(f"| {wl} | {fig} | {unit} | " + " | ".join(cells) + " |")
    with open(os.path.join(outdir, "results.md"), "w") as f:
        f.write("\n".join(md) + "\n")
        f.write(f"All figures, median of {env['BENCH_REPS']} (min-max); "
                "\"+++++\" is bonnie++'s mark for a phase too fast for its "
                "0.5 s clock.\n\n")
        f.write("\n".join(full) + "\n")
        direct = sorted({n.replace(" fio ", ": fio ") for n in notes if " fio direct=" in n})
        f.write("\nfio ran with `--direct=1` where the filesystem takes O_DIRECT: "
                + ", ".join(direct) + ".\n")
    with open(os.path.join(outdir, "ratios.dat"), "w") as f:
        f.write('label "/ ext4-DAX" "/ tmpfs" "/ memcpy" "on / off"\n')
        for label, r in dat:
            vals = [r["ext4-dax"], r["tmpfs"], r["memcpy"], r["onoff"]]
            f.write(f'"{label}" ' + " ".join("NaN" if v is None else f"{v:.3f}" for v in vals) + "\n")
    for p in problems:
        print(f"bench: {p}", file=sys.stderr)
    print(f"bench: {len(want)} figures expected, {len(want) - incomplete} complete")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
