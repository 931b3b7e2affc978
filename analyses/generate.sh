#!/usr/bin/env bash
# Regenerates the published analyses: bash analyses/generate.sh
#   analyses/famous/  a report per named puzzle of ../shared/corpora/famous.tsv, and an index
#   analyses/top95/   the top95 collection: an index by level and a report per puzzle
#   analyses/levels.md  the level table of every corpus (slow: see analyses/levels.sh)
# Reports are deterministic (no times), so a re-run changes nothing unless the engine did.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
hdp=target/release/hdp
rm -rf analyses/famous analyses/top95
"$hdp" report --index ../shared/corpora/famous.tsv --title "Famous puzzles" --max-total-steps 100000 -o analyses/famous || true
"$hdp" report --index ../shared/corpora/top95.txt --title "top95" --max-steps 8 -o analyses/top95 || true
if [ "${1:-}" != "--no-levels" ]; then
  bash analyses/levels.sh > analyses/levels.md
fi
