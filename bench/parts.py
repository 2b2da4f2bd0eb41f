#!/usr/bin/env python3
"""The default run's samples by part, as BENCHMARKS.md's by-part tables give them.

    perf record -F 700 --call-graph dwarf,16384 -o run.data \
        haifu run ../shared/corpus/phoenix --out /tmp/out
    perf script -i run.data -F comm,ip,sym --inline > run.txt
    python3 bench/parts.py run.txt

Each sample goes to the first part, in the order of RULES, whose test holds for its thread
name and its whole stack (inlined frames included): the merger thread as a whole, then the
reports' threads, the floor's reading, gunzip and decoding, then the run's own parts. A part's
share is a share of every sample of the run, all threads.
"""
import collections
import sys

RULES = [
    ("merger: rows into columns, Parquet encoding, LZ4", lambda c, f: c.startswith("haifu-merge")),
    ("reports (SQL)", lambda c, f: c.startswith(("async-ex", "polars", "tokio"))
     or "report::all" in f or "report::render" in f or "report::slice" in f),
    ("floor: read (with the SQLite sniff)", lambda c, f: ("input::read_log" in f
     and "input::decompress" not in f) or "is_sqlite" in f),
    ("floor: gunzip", lambda c, f: "input::decompress" in f),
    ("floor: decode", lambda c, f: "mjlog::decode" in f or "quick_xml" in f
     or ("formats::decode" in f and "replay" not in f)),
    ("wall check: SHA-512", lambda c, f: "sha2::" in f),
    ("wall check: MT19937, shuffle, seed", lambda c, f: "wall::" in f or "game_walls" in f),
    ("run's end: phoenix-table scoring", lambda c, f: "evaluate_file" in f or "evaluate_from" in f),
    ("run's end: §8 validation", lambda c, f: "report::tsumo" in f),
    ("run's end: the rest", lambda c, f: "Merger::finish" in f),
    ("§8 tenpai test before every draw", lambda c, f: "TenpaiDrawObserver" in f),
    ("§3 draw-rate records and cells", lambda c, f: "draw_rate" in f),
    ("§4 scoring of the built-in estimators", lambda c, f: "score_builtins" in f
     or "danger::metrics" in f or "danger::estimator" in f),
    ("§2/§4 situations, §2 wait danger", lambda c, f: "danger_situation" in f
     or "wait_danger" in f or "danger::category" in f),
    ("§1 riichi response", lambda c, f: "riichi_response" in f),
    ("replay and its proof", lambda c, f: "replay::" in f or "hand::" in f),
    ("other observers", lambda c, f: "haifu::stats" in f),
]


def samples(path):
    """(thread name, [frame symbols, innermost first]) per sample of `perf script`."""
    cur = None
    for line in open(path, errors="replace"):
        if not line.strip():
            if cur:
                yield cur
            cur = None
        elif not line[0].isspace():
            cur = (line.strip(), [])
        elif cur is not None:
            parts = line.strip().split(None, 1)
            if len(parts) == 2:
                cur[1].append(parts[1])
    if cur:
        yield cur


def main():
    counts = collections.Counter()
    n = 0
    for comm, frames in samples(sys.argv[1]):
        n += 1
        stack = " | ".join(frames)
        part = next((name for name, test in RULES if test(comm, stack)),
                    "other (start-up, kernel)")
        counts[part] += 1
    print("| part | share |\n|---|---|")
    for part, k in counts.most_common():
        print(f"| {part} | {100 * k / n:.1f}% |")
    print(f"\n{n} samples")


if __name__ == "__main__":
    main()
