#!/usr/bin/env python3
"""make bench: the decode floor against the full pipeline, measured in one run.

(a) `haifu ingest --decode-only CORPUS`: read, decompress, decode every file (the floor);
(b) `haifu run CORPUS --out TMP`: ingest, every observer, every frame, report and the
    parameter file.
Each is run REPS times, alternating, and the median wall time is used; then the floor once
and the full run REPS times with the corpus given 8 times over (8 symbolic links to it: the decode-only run decodes every copy;
the full run reports 7 of every 8 as duplicates, mostly without decoding them) to show that
peak memory does not grow with the input; and the full run REPS times on 8 distinct copies
(every file linked 8 times under 8 different log ids, so that every copy is a game of its own
and the run does 8 times the work, as a user with 8 times the logs would), to show what memory
does grow with the games ingested.
Games are counted from each run's own output (the decode-only summary line, the run's
manifest); the throughput ratio is the full run's games/s over the floor's. Figures are
printed as ratios measured in the same run, since these machines are noisy.
Peak RSS is each child's own maximum resident set size (wait4).

§10-§14: the full run again with `--with development` (in the same alternation), its throughput and
core-seconds against the default run's; §15 and §16 the same with `--with danger-moments` and
`--with hand-reading` (and `--with hand-reading-moments`); §23 and §17-§20 the same with
`--with choices` and `--with tables`, then `haifu agree --every-decision` with its four built-in
engines (the games read again from the default run's manifest).
§7 (`haifu agree`): the full run again with `--with decisions` (in the same alternation, to state
what the on-request frame costs), then `haifu agree --engine max-ukeire` over its frames, and
the example engine of examples/ through the JSON-lines protocol (BENCH_ENGINE=PATH, which
`make bench` sets): decisions/s of wall time, and per CPU-second of haifu's own process (the
engine's CPU apart), REPS times each, medians. §16 likewise: `haifu hand-reading` over the
first 500,000 moments of the --with hand-reading-moments run's frames with the example
hand-reading engine in its `--uniform` mode, which reads only each request's id, so that the
engine takes as little of the machine as it can (BENCH_READER=PATH, which `make bench` sets). #33: `haifu convert --to mjai` over the corpus,
games/s and its ratio to the floor; then `haifu run` over the same games as mjlog, mjai and
tenhou.net/6 (converted) and the corpus's majiang conversions against their mjlog, games/s of
each reader against the mjlog path's.

With BENCH_BASE=PATH (`make bench BASE=PATH`), the full run of that other haifu binary (the
one before a change) is timed too, in the same alternation as (a) and (b), and the two full
runs' throughputs are compared: the before/after figure an issue's budget is stated in.
"""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


# CPU seconds (user + system) of the children measured, by command (the joined argv): the
# core-seconds per 1,000 games beside the throughput ratio, which a loaded machine disturbs
# less than wall time.
CPU = {}


def measure(cmd, env=None):
    """Wall seconds and peak RSS (MiB) of one child process."""
    wall, rss, _ = measure_output(cmd, env)
    return wall, rss


def measure_output(cmd, env=None):
    """Wall seconds, peak RSS (MiB) and standard output of one child process."""
    wall, rss, stdout, _ = measure_all(cmd, env)
    return wall, rss, stdout


def cpu_per_1000(cmd, games):
    """Median core-seconds per 1,000 games of the runs of `cmd`."""
    return statistics.median(CPU[" ".join(cmd)]) / games * 1000


def agree_rate(cmd, phase="agree", things="decisions"):
    """(requests, requests/s wall, requests per CPU-second of haifu) of a `haifu agree` (or of
    `haifu hand-reading`: phase `hand-reading`, things `moments`)."""
    env = dict(os.environ, HAIFU_TIMINGS="1")
    _, _, _, stderr = measure_all(cmd, env)
    timing = re.compile(rf"{phase}: (\d+) {things}, (\d+)/s wall, haifu's own CPU ([\d.]+) s")
    match = timing.search(stderr)
    if not match:
        sys.exit(f"bench: no {phase} timing in:\n{stderr}")
    n, wall_rate, cpu = int(match.group(1)), float(match.group(2)), float(match.group(3))
    return n, wall_rate, n / cpu


def measure_all(cmd, env=None):
    """Wall seconds, peak RSS (MiB), standard output and error of one child process."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode(errors="replace")
        stderr = err.read().decode(errors="replace")
    CPU.setdefault(" ".join(cmd), []).append(usage.ru_utime + usage.ru_stime)
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 2):
        sys.exit(f"bench: {' '.join(cmd)} exited {code}:\n{stderr}")
    return wall, usage.ru_maxrss / 1024.0, stdout, stderr


def decoded_games(stdout):
    """Games decoded, from `haifu ingest --decode-only`'s summary line."""
    match = re.search(r"(\d+) games", stdout)
    if not match:
        sys.exit(f"bench: no game count in the decode-only output:\n{stdout}")
    return int(match.group(1))


def ingested_games(out_dir):
    """Games ingested, from the run's manifest."""
    with open(os.path.join(out_dir, "manifest.json")) as f:
        return json.load(f)["totals"]["games"]


LOG_ID = re.compile(r"(\d{10}gm-[0-9a-f]{4}-)(\d{4})(-[0-9a-f]{8})")


def distinct_copies(corpus, dest, copies):
    """Links every file of `corpus` `copies` times under `dest`, copy i in `copy<i>/`, with the
    4-digit field of its log id set to i + 1, so that each copy has log ids of its own (a name
    without a log id is told apart by its `copy<i>` directory)."""
    for i in range(copies):
        for root, _, names in os.walk(corpus):
            rel = os.path.relpath(root, corpus)
            target_dir = os.path.normpath(os.path.join(dest, f"copy{i}", rel))
            os.makedirs(target_dir, exist_ok=True)
            for name in names:
                new = LOG_ID.sub(lambda m: f"{m.group(1)}{i + 1:04d}{m.group(3)}", name, count=1)
                os.symlink(os.path.abspath(os.path.join(root, name)),
                           os.path.join(target_dir, new))


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
    base = os.environ.get("BENCH_BASE")
    out_base = os.path.join(tmp, "out-base")
    base_cmd = [base, "run", corpus, "--room", "any", "--out", out_base, "--quiet"] if base else None
    out_dec = os.path.join(tmp, "out-decisions")
    dec_cmd = full_cmd[:]
    dec_cmd[dec_cmd.index(out)] = out_dec
    dec_cmd.append("--with=decisions")
    out_peer = os.path.join(tmp, "out-peer")
    peer_cmd = full_cmd[:]
    peer_cmd[peer_cmd.index(out)] = out_peer
    peer_cmd.append("--with=development")
    out_moments = os.path.join(tmp, "out-moments")
    moments_cmd = full_cmd[:]
    moments_cmd[moments_cmd.index(out)] = out_moments
    moments_cmd.append("--with=danger-moments")
    out_reading = os.path.join(tmp, "out-reading")
    reading_cmd = full_cmd[:]
    reading_cmd[reading_cmd.index(out)] = out_reading
    reading_cmd.append("--with=hand-reading")
    out_views = os.path.join(tmp, "out-reading-moments")
    views_cmd = full_cmd[:]
    views_cmd[views_cmd.index(out)] = out_views
    views_cmd.append("--with=hand-reading-moments")
    out_walls = os.path.join(tmp, "out-walls")
    walls_cmd = full_cmd[:]
    walls_cmd[walls_cmd.index(out)] = out_walls
    walls_cmd.append("--with=walls")
    out_choices = os.path.join(tmp, "out-choices")
    choices_cmd = full_cmd[:]
    choices_cmd[choices_cmd.index(out)] = out_choices
    choices_cmd.append("--with=choices")
    out_tables = os.path.join(tmp, "out-tables")
    tables_cmd = full_cmd[:]
    tables_cmd[tables_cmd.index(out)] = out_tables
    tables_cmd.append("--with=tables")
    floor, full, full_base, full_dec, full_peer, full_moments = [], [], [], [], [], []
    full_reading, full_views, full_walls, full_choices, full_tables = [], [], [], [], []
    for i in range(reps):
        wall, rss, floor_out = measure_output(floor_cmd)
        floor.append((wall, rss))
        # The full runs (with a base binary, its too; with each --with group) take turns going
        # first.
        runs = [(full, full_cmd), (full_dec, dec_cmd), (full_peer, peer_cmd),
                (full_moments, moments_cmd), (full_reading, reading_cmd), (full_views, views_cmd),
                (full_walls, walls_cmd), (full_choices, choices_cmd), (full_tables, tables_cmd)]
        if base_cmd:
            runs.append((full_base, base_cmd))
        for k in range(len(runs)):
            got, cmd = runs[(i + k) % len(runs)]
            got.append(measure(cmd))
    t_floor = statistics.median(w for w, _ in floor)
    t_full = statistics.median(w for w, _ in full)
    rss_floor = max(r for _, r in floor)
    rss_full = max(r for _, r in full)

    eight = os.path.join(tmp, "x8")
    os.mkdir(eight)
    for i in range(8):
        os.symlink(os.path.abspath(corpus), os.path.join(eight, f"copy{i}"))
    out8 = os.path.join(tmp, "out8")
    t_floor8, rss_floor8, floor8_out = measure_output([haifu, "ingest", "--decode-only", eight])
    # Peak RSS varies from run to run with how the threads interleave (glibc keeps freed
    # memory per thread), so the full run at 8x is repeated like the one at 1x, and the
    # memory ratio is given both as medians and as the worst pairing.
    full8 = [measure([haifu, "run", eight, "--room", "any", "--out", out8, "--quiet"])
             for _ in range(reps)]
    t_full8 = statistics.median(w for w, _ in full8)
    rss_full8 = max(r for _, r in full8)
    distinct = os.path.join(tmp, "d8")
    distinct_copies(corpus, distinct, 8)
    outd = os.path.join(tmp, "outd")
    fulld = [measure([haifu, "run", distinct, "--room", "any", "--out", outd, "--quiet"])
             for _ in range(reps)]
    t_fulld = statistics.median(w for w, _ in fulld)
    rss_fulld = max(r for _, r in fulld)
    games_fulld = ingested_games(outd)
    games_floor = decoded_games(floor_out)
    games_full = ingested_games(out)
    games_floor8 = decoded_games(floor8_out)
    games_full8 = ingested_games(out8)

    print(f"corpus: {corpus} ({files} files), {reps} alternating runs each, median wall time")
    print(f"threads: RAYON_NUM_THREADS={os.environ.get('RAYON_NUM_THREADS', 'all cores')} "
          f"on {os.cpu_count()} cores")
    print()
    print("| run | wall (s) | games | games/s | files/s | peak RSS (MiB) |")
    print("|---|---|---|---|---|---|")
    rows = [
        ("(a) decode-only floor", t_floor, games_floor, files, rss_floor),
        ("(b) full `haifu run`", t_full, games_full, files, rss_full),
        ("(a) × 8 inputs", t_floor8, games_floor8, 8 * files, rss_floor8),
        ("(b) × 8 inputs", t_full8, games_full8, 8 * files, rss_full8),
        ("(b) × 8 distinct games", t_fulld, games_fulld, 8 * files, rss_fulld),
    ]
    for name, wall, games, n_files, rss in rows:
        print(f"| {name} | {wall:.2f} | {games} | {games / wall:.0f} | {n_files / wall:.0f} "
              f"| {rss:.0f} |")
    print()
    print("(b) × 8 ingests each game once (later copies are reported as duplicates), so its "
          "games/s is not a throughput figure.")
    print(f"full / floor throughput (games/s): {games_full / t_full / (games_floor / t_floor):.2f} "
          f"(target ≥ 0.50)")
    cpu_floor = cpu_per_1000(floor_cmd, games_floor)
    cpu_full = cpu_per_1000(full_cmd, games_full)
    print(f"core-seconds per 1,000 games (user + system, medians): floor {cpu_floor:.3f}, "
          f"full run {cpu_full:.3f}, beyond the floor {cpu_full - cpu_floor:.3f}; "
          f"floor / full: {cpu_floor / cpu_full:.2f}")
    med1 = statistics.median(r for _, r in full)
    med8 = statistics.median(r for _, r in full8)
    worst = rss_full8 / min(r for _, r in full)
    print(f"peak RSS of the full run over {reps} runs each, 1×: "
          f"{min(r for _, r in full):.0f}-{rss_full:.0f} MiB, 8×: "
          f"{min(r for _, r in full8):.0f}-{rss_full8:.0f} MiB")
    print(f"peak RSS, 8× input / 1× input: {med8 / med1:.2f} (medians), {worst:.2f} "
          f"(highest 8× over lowest 1×) (target ≤ 1.25), {rss_full8:.0f} MiB (target < 1024)")
    if base_cmd:
        t_base = statistics.median(w for w, _ in full_base)
        games_base = ingested_games(out_base)
        ratio = (games_full / t_full) / (games_base / t_base)
        print(f"base {base}: full run {t_base:.2f} s, {games_base / t_base:.0f} games/s, "
              f"{games_base / t_base / (games_floor / t_floor):.2f} of the floor, peak RSS "
              f"{max(r for _, r in full_base):.0f} MiB; this binary's full-run throughput over "
              f"the base's: {ratio:.3f} ({(ratio - 1) * 100:+.1f}%)")
        cpu_base = cpu_per_1000(base_cmd, games_base)
        print(f"base core-seconds per 1,000 games {cpu_base:.3f} (beyond the floor "
              f"{cpu_base - cpu_floor:.3f}); this binary's over the base's: "
              f"{cpu_full / cpu_base:.3f} ({(cpu_full / cpu_base - 1) * 100:+.1f}%)")
    t_dec = statistics.median(w for w, _ in full_dec)
    games_dec = ingested_games(out_dec)
    print(f"§7: full run with --with decisions {t_dec:.2f} s, {games_dec / t_dec:.0f} games/s, "
          f"{games_dec / t_dec / (games_floor / t_floor):.2f} of the floor; its throughput over "
          f"the default run's: {(games_dec / t_dec) / (games_full / t_full):.3f}; decisions "
          f"frame {os.path.getsize(os.path.join(out_dec, 'decisions.parquet')) / 2**20:.0f} MiB")
    def on_request(label, flag, runs, cmd, out_dir):
        """The line of a full run with an on-request flag, against the default run."""
        t = statistics.median(w for w, _ in runs)
        games = ingested_games(out_dir)
        cpu = cpu_per_1000(cmd, games)
        print(f"{label}: full run with {flag} {t:.2f} s, {games / t:.0f} games/s, "
              f"{games / t / (games_floor / t_floor):.2f} of the floor; its throughput over "
              f"the default run's: {(games / t) / (games_full / t_full):.3f}; core-seconds "
              f"per 1,000 games {cpu:.3f} ({(cpu / cpu_full - 1) * 100:+.1f}% over the "
              f"default run's)")

    on_request("walls", "--with walls", full_walls, walls_cmd, out_walls)
    on_request("§10-§14", "--with development", full_peer, peer_cmd, out_peer)
    on_request("§15", "--with danger-moments", full_moments, moments_cmd, out_moments)
    on_request("§16", "--with hand-reading", full_reading, reading_cmd, out_reading)
    on_request("§16", "--with hand-reading-moments", full_views, views_cmd, out_views)
    on_request("§23", "--with choices", full_choices, choices_cmd, out_choices)
    on_request("§17-§20", "--with tables", full_tables, tables_cmd, out_tables)
    every = [agree_rate([haifu, "agree", "--frames", out, "--every-decision"],
                        phase="agree --every-decision") for _ in range(reps)]
    print(f"§23: `haifu agree --every-decision` (the four built-ins): {every[0][0]} decisions, "
          f"{statistics.median(b[1] for b in every):.0f} decisions/s wall, "
          f"{statistics.median(b[2] for b in every):.0f} per CPU-second")
    builtin = [agree_rate([haifu, "agree", "--frames", out_dec, "--engine", "max-ukeire"])
               for _ in range(reps)]
    print(f"§7: `haifu agree --engine max-ukeire`: {builtin[0][0]} decisions, "
          f"{statistics.median(b[1] for b in builtin):.0f} decisions/s wall (target ≥ 200,000), "
          f"{statistics.median(b[2] for b in builtin):.0f} per CPU-second")
    engine = os.environ.get("BENCH_ENGINE")
    if engine:
        ext = [agree_rate([haifu, "agree", "--frames", out_dec, "--engine-cmd", engine])
               for _ in range(reps)]
        print(f"§7: example engine through the protocol: "
              f"{statistics.median(b[1] for b in ext):.0f} decisions/s wall (engine included), "
              f"haifu's side {statistics.median(b[2] for b in ext):.0f} decisions per CPU-second "
              f"(target ≥ 100,000)")
    reader = os.environ.get("BENCH_READER")
    if reader:
        ext = [agree_rate([haifu, "hand-reading", "--frames", out_views, "--engine-cmd",
                           f"{reader} --uniform",
                           "--limit", "500000"], "hand-reading", "moments")
               for _ in range(reps)]
        print(f"§16: example hand-reading engine through the protocol ({ext[0][0]} moments): "
              f"{statistics.median(b[1] for b in ext):.0f} moments/s wall (engine included), "
              f"haifu's side {statistics.median(b[2] for b in ext):.0f} moments per CPU-second "
              f"(target ≥ 100,000)")
    bot = os.environ.get("BENCH_BOT")
    if bot:
        # #49: the example bot (tsumogiri, passing every call) on all four seats of every game,
        # in the mjai.app style with one bot process per seat and worker (--reuse): what
        # haifu's side costs a review. Once: it is the longest run of the bench.
        out_review = os.path.join(tmp, "out-review")
        env = dict(os.environ, HAIFU_TIMINGS="1")
        wall, _, _, stderr = measure_all([haifu, "review", "--frames", out, "--out", out_review,
                                          "--mjai", f"{bot} --array", "--mjai-style", "array",
                                          "--reuse", "--quiet", "--format", "csv"], env)
        m = re.search(r"review: (\d+) decisions", stderr)
        decisions = int(m.group(1)) if m else 0
        print(f"#49: `haifu review` with the example bot, every seat of {games_full} games: "
              f"{wall:.1f} s wall (target < 120 s), {decisions} decisions, "
              f"{decisions / wall:.0f} decisions/s")
    out_conv = os.path.join(tmp, "out-convert")
    conv = []
    for _ in range(reps):
        shutil.rmtree(out_conv, ignore_errors=True)
        conv.append(measure([haifu, "convert", corpus, "--to", "mjai", "--out", out_conv,
                             "--quiet"]))
    t_conv = statistics.median(w for w, _ in conv)
    games_conv = ingested_games(out_conv)
    print(f"#33: `haifu convert --to mjai`: {games_conv} games in {t_conv:.2f} s, "
          f"{games_conv / t_conv:.0f} games/s ({games_conv / t_conv / (games_floor / t_floor):.2f} "
          f"of the floor)")
    # #33 readers: the same games read from each format by `haifu run` (default), games/s of
    # each against the mjlog's, in one alternation; majiang (no writer) on the corpus's 180
    # conversions against their Phoenix logs, ten copies of each. The mjlog path also checks
    # the wall (the other formats record no seed).
    os.remove(os.path.join(out_conv, "manifest.json"))
    out_conv6 = os.path.join(tmp, "out-convert6")
    measure([haifu, "convert", corpus, "--to", "tenhou6", "--out", out_conv6, "--quiet"])
    os.remove(os.path.join(out_conv6, "manifest.json"))
    majiang = os.path.join(os.path.dirname(os.path.abspath(corpus)), "formats", "majiang")
    inputs = [("mjlog", corpus), ("mjai", out_conv), ("tenhou6", out_conv6)]
    if os.path.isdir(majiang):
        # 180 games run in about 0.2 s, mostly start-up: ten copies of each, every copy its
        # own game (the log id's last eight hex digits with one changed, in the paipu's title
        # and in the mjlog's file name), 1,800 games each way.
        counterparts = os.path.join(tmp, "majiang-mjlog")
        copies = os.path.join(tmp, "majiang-copies")
        os.mkdir(counterparts)
        os.mkdir(copies)
        for name in sorted(os.listdir(majiang)):
            log_id = name.split(".")[0]
            src = next((os.path.join(os.path.abspath(corpus), f"{log_id}.{ext}")
                        for ext in ("mjlog", "xml")
                        if os.path.exists(os.path.join(os.path.abspath(corpus),
                                                       f"{log_id}.{ext}"))), None)
            if src is None:
                continue
            with open(os.path.join(majiang, name), encoding="utf-8") as f:
                text = f.read()
            for k in range(10):
                copy_id = f"{log_id[:-8]}{k}{log_id[-7:]}"
                os.symlink(src, os.path.join(counterparts, copy_id + os.path.splitext(src)[1]))
                with open(os.path.join(copies, copy_id + ".json"), "w", encoding="utf-8") as f:
                    f.write(text.replace(log_id, copy_id))
        inputs += [("mjlog (majiang's 180, 10 copies)", counterparts), ("majiang", copies)]
    times = {label: [] for label, _ in inputs}
    games_of = {}
    for i in range(reps):
        for k in range(len(inputs)):
            label, inp = inputs[(i + k) % len(inputs)]
            o = os.path.join(tmp, "out-read")
            shutil.rmtree(o, ignore_errors=True)
            times[label].append(measure([haifu, "run", inp, "--room", "any", "--out", o,
                                         "--quiet"])[0])
            games_of[label] = ingested_games(o)
    rate = {label: games_of[label] / statistics.median(times[label]) for label, _ in inputs}
    for label, _ in inputs:
        base_label = "mjlog (majiang's 180, 10 copies)" if label == "majiang" else "mjlog"
        print(f"#33 reader {label}: {games_of[label]} games, {rate[label]:.0f} games/s "
              f"({rate[label] / rate[base_label]:.2f} of the mjlog path on the same games)")
    medd = statistics.median(r for _, r in fulld)
    print(f"peak RSS, 8 distinct copies (8× the games) / 1× input: {medd / med1:.2f} (medians), "
          f"{min(r for _, r in fulld):.0f}-{rss_fulld:.0f} MiB; full run throughput at 8× the "
          f"games over 1×: {games_fulld / t_fulld / (games_full / t_full):.2f}")


if __name__ == "__main__":
    main()
