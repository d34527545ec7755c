#!/usr/bin/env bash
# Runs fuzz targets one at a time for SECONDS each: `fuzz/run.sh SECONDS [TARGET...]` (all
# targets when none is named). Corpora grow in fuzz/corpus/<target> (git-ignored), seeded from
# fuzz/gen-seeds/<target> (make_seeds.py, which adds fuzz/seeds/<target>: past findings kept as
# regression inputs); a crash or failed property is saved under
# fuzz/artifacts/<target>/ and makes this script fail. Needs cargo-fuzz on PATH and the
# nightly toolchain (the Makefile's `fuzz` target sees to both).
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:?usage: run.sh SECONDS [TARGET...]}
shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(clean tokenize partial_parse extract render eval_tokenize site_store
           decode_charset decode_body warc_plain warc_gzip gzip_members warc_zstd arc_reader
           unseen_markup skim)
fi
toolchain=${FUZZ_TOOLCHAIN:-nightly}
cargo +"$toolchain" fuzz build -a
failed=()
for t in "${targets[@]}"; do
  case $t in
    warc_*|arc_*|gzip_*) dict=dict/warc.dict; max_len=65536 ;;
    decode_*) dict=dict/http.dict; max_len=65536 ;;
    clean|tokenize|partial_parse|extract|skim) dict=dict/html.dict; max_len=32768 ;;
    unseen_markup) dict=; max_len=4096 ;;
    *) dict=; max_len=16384 ;;
  esac
  mkdir -p "corpus/$t" "artifacts/$t"
  args=(-max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -max_len="$max_len"
        -print_final_stats=1)
  [ -n "$dict" ] && args+=(-dict="$dict")
  # A fixed seed (FUZZ_SEED; `make fuzz-smoke` sets one) makes a short run repeat the same
  # mutations, so a finding in CI can be replayed; long runs leave it unset to explore.
  [ -n "${FUZZ_SEED:-}" ] && args+=(-seed="$FUZZ_SEED")
  echo "== $t: ${seconds}s" >&2
  if ! cargo +"$toolchain" fuzz run -a "$t" "corpus/$t" "gen-seeds/$t" -- "${args[@]}"; then
    failed+=("$t")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in: ${failed[*]} (inputs under fuzz/artifacts/)" >&2
  exit 1
fi
