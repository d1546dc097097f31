#!/usr/bin/env bash
# Runs fuzz targets with cargo-fuzz (libFuzzer, nightly, AddressSanitizer), each for SECONDS from its
# seed corpus (written by seed_corpora.py into corpus/, which also keeps what the runs find), and
# prints one line per target: seconds, executions, coverage (edges), corpus size and crashes. Fails
# as soon as a target crashes, times out (one input taking more than 20 s) or runs out of memory;
# the input is then in artifacts/TARGET/.
# Usage: fuzz/run.sh SECONDS [TARGET...]   (needs cargo +nightly and cargo-fuzz on PATH)
# FUZZ_SEED=N fixes libFuzzer's random seed, so two runs from the same corpus try the same inputs
# in the same order (as far as each gets in SECONDS); unset, every run picks its own.
# FUZZ_PROFILE=dev builds without optimizations (about half the build time, fewer executions per
# second: what the test command's short run uses); the default is cargo-fuzz's optimized build.
# FUZZ_CORPUS=DIR keeps the corpora in DIR (seeded there) instead of fuzz/corpus.
# FUZZ_LOGS=DIR writes each target's libFuzzer output to DIR/TARGET.log instead of fuzz/logs (so a
# short run beside a long one leaves the long run's logs alone).
# Do not pause a run (SIGSTOP) to free the CPU for something else: libFuzzer times units by the wall
# clock, so the unit running across the pause is reported as a slow unit or a timeout (and the
# run stops), though it takes milliseconds when run again.
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:?usage: fuzz/run.sh SECONDS [TARGET...]}
shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cargo +nightly fuzz list)
fi
seed_arg=()
if [ -n "${FUZZ_SEED:-}" ]; then
  seed_arg=(-seed="$FUZZ_SEED")
fi
profile_arg=()
case "${FUZZ_PROFILE:-release}" in
  release) ;;
  dev) profile_arg=(--dev) ;;
  *) echo "error: FUZZ_PROFILE must be release or dev, not ${FUZZ_PROFILE}" >&2; exit 2 ;;
esac
corpus=${FUZZ_CORPUS:-corpus}
python3 seed_corpora.py "$corpus"
cargo +nightly fuzz build "${profile_arg[@]}"
logs=${FUZZ_LOGS:-logs}
mkdir -p "$logs"
printf '%-16s %8s %12s %8s %8s %8s\n' target seconds execs cov corpus crashes
for t in "${targets[@]}"; do
  log="$logs/$t.log"
  status=0
  cargo +nightly fuzz run "${profile_arg[@]}" "$t" "$corpus/$t" -- -max_total_time="$secs" -timeout=20 \
    -rss_limit_mb=4096 -print_final_stats=1 "${seed_arg[@]}" > "$log" 2>&1 || status=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  line=$(grep -E '^#[0-9]+' "$log" | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$line")
  corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<< "$line")
  # libFuzzer also writes slow-unit-* files (a unit slower than -report_slow_units, 10 s, by the
  # wall clock: a starved process writes them too); they are reported apart, not as crashes.
  crashes=$(find "artifacts/$t" -type f ! -name 'slow-unit-*' 2> /dev/null | wc -l)
  slow=$(find "artifacts/$t" -type f -name 'slow-unit-*' 2> /dev/null | wc -l)
  printf '%-16s %8s %12s %8s %8s %8s\n' "$t" "$secs" "${execs:-?}" "${cov:-?}" "${corp:-?}" "$crashes"
  if [ "$slow" != 0 ]; then
    echo "  ($slow slow-unit file(s) in fuzz/artifacts/$t/: rerun each with the target binary to time it)"
  fi
  if [ "$status" != 0 ]; then
    tail -60 "$log" >&2
    echo "error: fuzz target $t failed (exit $status); see $log (under fuzz/ if relative) and fuzz/artifacts/$t/" >&2
    exit 1
  fi
done
