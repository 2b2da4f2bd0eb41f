#!/usr/bin/env bash
# Bounded fuzzing of haifu: runs each target for SECONDS, one after another.
#
#   fuzz/run.sh SECONDS [TARGET...]      (targets: decode replay formats mutate; default all four)
#
# Used by `make fuzz` and `make fuzz-smoke`. Works on the stable toolchain: libFuzzer via
# cargo-fuzz with `--sanitizer none` (no nightly flag needed; haifu has no unsafe code, and
# ASan would cost 4-5x throughput). Set FUZZ_SANITIZER=address to fuzz under ASan; that needs
# -Zsanitizer, which this script then allows on stable with RUSTC_BOOTSTRAP=1.
#
# Environment:
#   HAIFU_FUZZ_TARGET  cargo target dir   (default ~/.cache/haifu-fuzz-target)
#   HAIFU_FUZZ_CORPUS  growing corpora    (default ~/.cache/haifu-fuzz-corpus/<target>);
#                      fuzz/corpus/<target> (the committed seeds) is only read
#   FUZZ_NICE          nice level         (default 19: leave the CPU to other work)
#   FUZZ_SANITIZER     none | address     (default none)
#   FUZZ_KEEP_GOING    1: libFuzzer fork mode (-fork=1 -ignore_crashes=1 …): keep fuzzing
#                      after a crash and collect every crash under fuzz/artifacts/<target>/
#   FUZZ_ARGS          extra libFuzzer flags
# Before fuzzing, every file in fuzz/regressions/ is run once through the `replay` target
# (built with overflow checks, which the release-profile `cargo test` does not have).
# Logs and a summary go to $HAIFU_FUZZ_CORPUS/logs/<run>/ (logs/latest: the newest run).
# Exits non-zero when a target crashed
# (the input is under fuzz/artifacts/<target>/: see fuzz/README.md for what to do with it).
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_TARGET="${1:?usage: fuzz/run.sh SECONDS [TARGET...]}"
shift
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(decode replay formats mutate)

CARGO_FUZZ_VERSION=0.13.2
export CARGO_TARGET_DIR="${HAIFU_FUZZ_TARGET:-$HOME/.cache/haifu-fuzz-target}"
CORPUS_ROOT="${HAIFU_FUZZ_CORPUS:-$HOME/.cache/haifu-fuzz-corpus}"
NICE="${FUZZ_NICE:-19}"
SANITIZER="${FUZZ_SANITIZER:-none}"

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz: installing cargo-fuzz $CARGO_FUZZ_VERSION from crates.io" >&2
    cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked
fi
if [ "$SANITIZER" != none ]; then
    export RUSTC_BOOTSTRAP=1
    CARGO_TARGET_DIR="$CARGO_TARGET_DIR-$SANITIZER"
fi

# One log directory per run (concurrent runs share the corpora but not their logs);
# logs/latest points at the newest.
LOGS="$CORPUS_ROOT/logs/$(date +%Y%m%d-%H%M%S)-$$"
mkdir -p "$LOGS"
ln -sfn "$(basename "$LOGS")" "$CORPUS_ROOT/logs/latest"
# -O -a: optimised, with debug assertions and overflow checks (they turn silent wrap-around
# into findings).
BUILD_FLAGS=(--sanitizer "$SANITIZER" -O -a)
nice -n "$NICE" cargo fuzz build "${BUILD_FLAGS[@]}"

status=0
summary="$LOGS/summary.txt"
: >"$summary"
mapfile -t regressions < <(find fuzz/regressions -type f ! -name '*.md' | sort)
if [ ${#regressions[@]} -gt 0 ]; then
    echo "fuzz: replaying ${#regressions[@]} regression files" >&2
    if ! nice -n "$NICE" cargo fuzz run "${BUILD_FLAGS[@]}" replay "${regressions[@]}" \
        >"$LOGS/regressions.log" 2>&1; then
        grep -E 'Running:|panicked at' "$LOGS/regressions.log" | tail -4 >&2
        echo "fuzz: a regression file fails (log: $LOGS/regressions.log)" >&2
        echo "regressions: ${#regressions[@]} files, FAILED" >>"$summary"
        status=1
    else
        echo "regressions: ${#regressions[@]} files, ok" >>"$summary"
    fi
fi
for t in "${TARGETS[@]}"; do
    work="$CORPUS_ROOT/$t"
    mkdir -p "$work" "fuzz/artifacts/$t"
    log="$LOGS/$t.log"
    flags=(-max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048
        -malloc_limit_mb=512 -print_final_stats=1)
    case "$t" in
        decode | replay) flags+=(-dict=fuzz/mjlog.dict) ;;
        formats) flags+=(-dict=fuzz/formats.dict) ;;
    esac
    # shellcheck disable=SC2206
    [ "${FUZZ_KEEP_GOING:-0}" != 1 ] ||
        flags+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
    [ -z "${FUZZ_ARGS:-}" ] || flags+=($FUZZ_ARGS)
    echo "fuzz: $t for ${SECONDS_PER_TARGET}s (log: $log)" >&2
    start=$(date +%s)
    rc=0
    nice -n "$NICE" cargo fuzz run "${BUILD_FLAGS[@]}" "$t" "$work" "fuzz/corpus/$t" \
        -- "${flags[@]}" >"$log" 2>&1 || rc=$?
    secs=$(($(date +%s) - start))
    # libFuzzer's last status line (`#N DONE cov: C ft: F corp: K/…`) and final stats.
    last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    [ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9]*\).*/\1/p' <<<"$last")
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    corp=$(find "$work" -type f | wc -l)
    crashes=$(find "fuzz/artifacts/$t" -type f \( -name 'crash-*' -o -name 'timeout-*' \
        -o -name 'oom-*' -o -name 'leak-*' \) -newermt "@$start" | wc -l)
    if [ "$rc" -eq 0 ] && [ "$crashes" -eq 0 ]; then
        result=ok
    else
        result="FAILED (exit $rc)"
        status=1
        grep -E 'panicked at|ERROR: libFuzzer|SUMMARY|Test unit written to' "$log" >&2 || tail -30 "$log" >&2
    fi
    line="$t: ${secs}s, ${execs:-?} execs, cov ${cov:-?}, ft ${ft:-?}, corpus $corp files, $crashes crash files, $result"
    echo "fuzz: $line" >&2
    echo "$line" >>"$summary"
done
cat "$summary"
exit "$status"
