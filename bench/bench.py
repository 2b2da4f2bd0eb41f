#!/usr/bin/env python3
"""make bench: the decode floor against the full pipeline, measured in one run.

(a) `haifu ingest --decode-only CORPUS`: read, decompress, decode every file (the floor);
(b) `haifu run CORPUS --out TMP`: ingest, every observer, every frame, report and the
    parameter file.
Each is run REPS times, alternating, and the median wall time is used; then both once with
the corpus given 8 times over (8 symbolic links to it: the decode-only run decodes every copy;
the full run reports 7 of every 8 as duplicates, mostly without decoding them) to show that
peak memory does not grow with the input.
Figures are printed as ratios measured in the same run, since these machines are noisy.
Peak RSS is each child's own maximum resident set size (wait4).
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time


def measure(cmd, env=None):
    """Wall seconds and peak RSS (MiB) of one child process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 2):
        sys.exit(f"bench: {' '.join(cmd)} exited {code}:\n{err}")
    return wall, usage.ru_maxrss / 1024.0


def main():
    haifu = sys.argv[1]
    corpus = sys.argv[2]
    reps = int(os.environ.get("BENCH_REPS", "5"))
    if not os.path.isdir(corpus):
        sys.exit(f"bench: {corpus} is absent; give CORPUS=DIR")
    files = sum(len(f) for _, _, f in os.walk(corpus))
    tmp = tempfile.mkdtemp(prefix="haifu-bench-")
    out = os.path.join(tmp, "out")
    floor_cmd = [haifu, "ingest", "--decode-only", corpus]
    full_cmd = [haifu, "run", corpus, "--room", "any", "--out", out, "--quiet"]
    floor, full = [], []
    for _ in range(reps):
        floor.append(measure(floor_cmd))
        full.append(measure(full_cmd))
    t_floor = statistics.median(w for w, _ in floor)
    t_full = statistics.median(w for w, _ in full)
    rss_floor = max(r for _, r in floor)
    rss_full = max(r for _, r in full)

    eight = os.path.join(tmp, "x8")
    os.mkdir(eight)
    for i in range(8):
        os.symlink(os.path.abspath(corpus), os.path.join(eight, f"copy{i}"))
    out8 = os.path.join(tmp, "out8")
    t_floor8, rss_floor8 = measure([haifu, "ingest", "--decode-only", eight])
    t_full8, rss_full8 = measure([haifu, "run", eight, "--room", "any", "--out", out8, "--quiet"])

    print(f"corpus: {corpus} ({files} files), {reps} alternating runs each, median wall time")
    print(f"threads: RAYON_NUM_THREADS={os.environ.get('RAYON_NUM_THREADS', 'all cores')} "
          f"on {os.cpu_count()} cores")
    print()
    print("| run | wall (s) | files/s | peak RSS (MiB) |")
    print("|---|---|---|---|")
    print(f"| (a) decode-only floor | {t_floor:.2f} | {files / t_floor:.0f} | {rss_floor:.0f} |")
    print(f"| (b) full `haifu run` | {t_full:.2f} | {files / t_full:.0f} | {rss_full:.0f} |")
    print(f"| (a) × 8 inputs | {t_floor8:.2f} | {8 * files / t_floor8:.0f} | {rss_floor8:.0f} |")
    print(f"| (b) × 8 inputs | {t_full8:.2f} | {8 * files / t_full8:.0f} | {rss_full8:.0f} |")
    print()
    print(f"full / floor throughput: {t_floor / t_full:.2f} (target ≥ 0.50)")
    print(f"peak RSS of the full run, 8× input / 1× input: {rss_full8 / rss_full:.2f} "
          f"(target ≤ 1.25), {rss_full8:.0f} MiB (target < 1024)")


if __name__ == "__main__":
    main()
