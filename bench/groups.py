"""What each `--with` group costs, on four-player and on three-player games (issue #59).

    python3 bench/groups.py HAIFU PHOENIX_DIR SANMA_DIR

For each corpus, the default `haifu run` and the run with each group take turns, BENCH_REPS
times (default 3); each line gives the median core-seconds (user + system of the process) and
the group's cost as a share of that corpus's default run. The three-player corpus is given as
many times over as makes it the size of the four-player one (distinct log ids,
bench.distinct_copies: 23 × 278 = 6,394 games against 6,448), so that both runs last as long
and a report's fixed cost weighs alike in both shares. The last column is the difference of the two shares in points: issue #59 asks that each
group's three-player share be within 10 points of its four-player one. BENCH_GROUPS (names,
comma-separated) measures only those groups.
"""

import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

GROUPS = [
    "decisions",
    "choices",
    "walls",
    "development",
    "danger-moments",
    "hand-reading",
    "hand-reading-moments",
    "tables",
]


if os.environ.get("BENCH_GROUPS"):
    GROUPS = [g for g in os.environ["BENCH_GROUPS"].split(",") if g]


def costs(haifu, inputs, reps, tmp):
    """Median core-seconds of the default run and of each group's, over `reps` alternations."""
    runs = {g: [] for g in [None] + GROUPS}
    for _ in range(reps):
        for g in runs:
            out = os.path.join(tmp, "out")
            cmd = [haifu, "run", *inputs, "--out", out, "--quiet"]
            if g:
                cmd.append(f"--with={g}")
            bench.CPU.pop(" ".join(cmd), None)
            bench.measure(cmd)
            runs[g].append(bench.CPU[" ".join(cmd)][-1])
    return {g: statistics.median(v) for g, v in runs.items()}


def main():
    haifu, phoenix, sanma = sys.argv[1:4]
    reps = int(os.environ.get("BENCH_REPS", "3"))
    files = lambda d: sum(len(names) for _, _, names in os.walk(d))  # noqa: E731
    times = max(1, round(files(phoenix) / max(1, files(sanma))))
    with tempfile.TemporaryDirectory() as tmp:
        copies = os.path.join(tmp, "sanma")
        bench.distinct_copies(sanma, copies, times)
        four = costs(haifu, [phoenix], reps, tmp)
        three = costs(haifu, [copies], reps, tmp)
    print(f"core-seconds, median of {reps} (four players: {phoenix}; three players: {sanma} × {times})")
    print(f"{'group':22} {'4p core-s':>10} {'4p share':>9} {'3p core-s':>10} {'3p share':>9} {'points':>7}")
    print(f"{'default run':22} {four[None]:10.2f} {'':9} {three[None]:10.2f}")
    worst = 0.0
    for g in GROUPS:
        s4 = four[g] / four[None] - 1
        s3 = three[g] / three[None] - 1
        worst = max(worst, abs(s3 - s4) * 100)
        print(f"{'--with ' + g:22} {four[g]:10.2f} {s4:+9.1%} {three[g]:10.2f} {s3:+9.1%} {100 * (s3 - s4):+7.1f}")
    print(f"largest difference: {worst:.1f} points")


if __name__ == "__main__":
    main()
