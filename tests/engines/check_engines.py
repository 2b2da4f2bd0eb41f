#!/usr/bin/env python3
"""Every bundled report of haifu run on DuckDB (and on Spark SQL) gives haifu's numbers.

    python tests/engines/check_engines.py HAIFU FRAMES_DIR [--engines duckdb,spark] [--players N]
        [--only REPORT,...]

For each report of `haifu stats --list` whose frames FRAMES_DIR has, and each SQL file of
queries/compare/ but the two that read tables only `haifu compare` makes (player_seats,
reviews; one that reads `report` is given its report's SQL as haifu compare gives it): haifu's own answer (`haifu stats NAME --format json`, or `haifu query FILE`), then
the SQL `haifu query --print` writes for the engine, run there, compared cell by cell: the
same columns, the same rows in the same order; integers, strings and booleans exactly, floats
within a relative 1e-9, NaN only with NaN, null only with null. The stable dan's interval
columns of `players`, which haifu computes after the SQL, are left out (docs/players.md).

One line per report; exit status 1 on any difference or error. Run by `make test` (DuckDB,
over the fixtures' frames) and `make spark-check` (Spark, over the Phoenix corpus's frames).
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SKIPPED = {"players.sql": "reads player_seats (haifu compare)", "review.sql": "reads reviews"}
# Columns haifu computes after the SQL: the stable dan's bootstrap interval, from the SQL's
# counts of games per final place (dan_1..dan_4), which it then drops.
AFTER_SQL = {"stable_dan_lo", "stable_dan_hi", "dan_1", "dan_2", "dan_3", "dan_4"}


def haifu(binary, args):
    out = subprocess.run([binary, *args], capture_output=True, text=True)
    return out.returncode, out.stdout, out.stderr


def statements(script):
    """The statements of a printed script (`;` ends a line only at a statement's end)."""
    body, out = [], []
    for line in script.splitlines():
        if line.lstrip().startswith("--"):
            continue
        body.append(line)
        if line.rstrip().endswith(";"):
            out.append("\n".join(body).rstrip().rstrip(";"))
            body = []
    return out


def run_duckdb(script):
    import duckdb

    con = duckdb.connect()
    stmts = statements(script)
    for s in stmts[:-1]:
        con.execute(s)
    cur = con.execute(stmts[-1])
    cols = [d[0] for d in cur.description]
    return cols, [list(r) for r in cur.fetchall()]


SPARK = None


def run_spark(script):
    global SPARK
    if SPARK is None:
        from pyspark.sql import SparkSession

        SPARK = (SparkSession.builder.master("local[2]").appName("haifu-check")
                 .config("spark.ui.enabled", "false")
                 .config("spark.ui.showConsoleProgress", "false").getOrCreate())
        SPARK.sparkContext.setLogLevel("ERROR")
    stmts = statements(script)
    for s in stmts[:-1]:
        SPARK.sql(s)
    df = SPARK.sql(stmts[-1])
    return df.columns, [list(r) for r in df.collect()]


def same(a, b):
    """haifu's JSON cell `a` (NaN and infinities come as null there) against the engine's `b`."""
    if a is None or b is None:
        return a is None and (b is None or (isinstance(b, float) and not math.isfinite(b)))
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and not isinstance(b, str):
        a, b = float(a), float(b)
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    return str(a) == str(b)


def compare(reference, got):
    """The first difference of `got` (columns, rows) from haifu's rows `reference`, or None."""
    cols, rows = got
    if len(reference) != len(rows):
        return f"{len(rows)} rows, haifu has {len(reference)}"
    for i, (want, have) in enumerate(zip(reference, rows)):
        if set(want) - AFTER_SQL != set(cols) - AFTER_SQL:
            return f"columns {sorted(cols)}, haifu has {sorted(want)}"
        for c, v in zip(cols, have):
            if c not in AFTER_SQL and not same(want[c], v):
                return f"row {i} column {c}: {v!r}, haifu has {want[c]!r}"
    return None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("haifu")
    p.add_argument("frames")
    p.add_argument("--engines", default="duckdb")
    p.add_argument("--players")
    p.add_argument("--only", help="the reports (labels, comma-separated) to check; all when absent")
    a = p.parse_args()
    engines = {"duckdb": run_duckdb, "spark": run_spark}
    chosen = [(e, engines[e]) for e in a.engines.split(",")]
    players = ["--players", a.players] if a.players else []
    _, listing, _ = haifu(a.haifu, ["stats", "--list"])
    names = [line.split()[0] for line in listing.splitlines()[2:] if line.strip()]
    jobs = [(n, ["stats", n], n) for n in names]
    compare_dir = os.path.join(ROOT, "queries", "compare")
    scratch = tempfile.mkdtemp(prefix="haifu-check-")
    for f in sorted(os.listdir(compare_dir)):
        path = os.path.join(compare_dir, f)
        text = open(path).read()
        if re.search(r"\bFROM report\b", text):
            # Moments from the report's own rows: haifu compare gives it the report's SQL as
            # the table `report` (compare::over_report); the same text here.
            report = open(os.path.join(ROOT, "queries", f)).read().rstrip().rstrip(";")
            path = os.path.join(scratch, f)
            with open(path, "w") as out:
                out.write(f"WITH report AS (\n{report}\n)\n{text}")
        jobs.append((f"compare/{f}", ["query", path], path))
    if a.only:
        wanted = a.only.split(",")
        unknown = [w for w in wanted if w not in [label for label, _, _ in jobs]]
        if unknown:
            sys.exit(f"no report {', '.join(unknown)} (haifu stats --list, or compare/FILE.sql)")
        jobs = [j for j in jobs if j[0] in wanted]
    bad, checked = 0, 0
    for label, run, printed in jobs:
        if os.path.basename(label) in SKIPPED and label.startswith("compare/"):
            print(f"{label:40} skipped: {SKIPPED[os.path.basename(label)]}")
            continue
        code, out, err = haifu(a.haifu, [*run, "--frames", a.frames, "--format", "json", *players])
        if code == 3 or "has no" in err and code != 0:
            print(f"{label:40} skipped: {err.strip().splitlines()[-1]}")
            continue
        if code != 0:
            print(f"{label:40} haifu failed: {err.strip()}")
            bad += 1
            continue
        reference = json.loads(out)
        code, script, err = haifu(a.haifu, ["query", "--print", printed, "--frames", a.frames,
                                            *players])
        line = f"{label:40}"
        for engine, execute in chosen:
            if code != 0:
                line += f" {engine}=ERR(print: {err.strip()})"
                bad += 1
                continue
            text = script
            if engine == "spark":
                _, text, _ = haifu(a.haifu, ["query", "--print", printed, "--frames",
                                             a.frames, "--dialect", "spark", *players])
            try:
                diff = compare(reference, execute(text))
            except Exception as e:  # an engine's refusal, reported as the difference
                diff = f"error: {str(e).splitlines()[0][:200]}"
            line += f" {engine}=" + ("ok" if diff is None else f"DIFF({diff})")
            bad += diff is not None
        checked += 1
        print(line)
    print(f"{checked} reports checked on {a.engines}; {bad} differences")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
