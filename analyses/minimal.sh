#!/usr/bin/env bash
# Writes analyses/minimal.md: the full chain vs the minimal proof (issue 13) over four corpora,
# and the time minimisation takes relative to the analysis.
#   bash analyses/minimal.sh > analyses/minimal.md
# HDP_CORPORA=DIR the corpora folder (default: ../shared/corpora; missing files are left out).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --example minimal
bin=target/release/examples/minimal
corpora="${HDP_CORPORA:-../shared/corpora}"
# name, file, puzzles to take (empty: all)
collections=(
  "top95|$corpora/top95.txt|"
  "hardest|$corpora/hardest.txt|"
  "famous|$corpora/famous.tsv|"
  "forum-hardest-1106 (first 100)|$corpora/forum-hardest-1106.txt|100"
)
echo "# Minimal proofs"
echo
echo "Produced by \`bash analyses/minimal.sh > analyses/minimal.md\` (\`examples/minimal.rs\`), on"
echo "$(nproc 2>/dev/null || echo '?') cores ($(uname -m)), $(date -u +%Y-%m-%d); the machine was shared, so times are indicative."
echo "Each puzzle is analysed with the defaults of \`hdp chain\` (depth 3, both decision kinds,"
echo "synchronous schedule) and its summary compared with the minimal proof of \`hdp chain --minimal\`."
echo "Lines are the DIS and PRF lines; statements are those of their contexts; characters are the"
echo "printed chain (with its STA and CNT lines). \`a → b\` reads full → minimal; medians and totals"
echo "over the solved puzzles. The time ratio is the time to minimise over the time of the analysis"
echo "(the chain's reasons included), per puzzle. With both decision kinds most hard puzzles end"
echo "on one hypothesis that reaches the solution (a one-line proof), hence the medians of 1."
header() {
echo "| collection | puzzles | unsolved | lines (median) | lines (total) | statements (median) | statements (total) | characters (median) | characters (total) | time ratio (median) | time ratio (max) | analysis / minimise (total) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
}
for method in both pairs; do
  echo
  if [ "$method" = both ]; then
    echo "## Both decision kinds (the default)"
  else
    echo "## The source's method (\`--decisions pairs\`)"
  fi
  echo
  header
  for entry in "${collections[@]}"; do
    IFS='|' read -r name file take <<<"$entry"
    [ -f "$file" ] || continue
    "$bin" "$name" "$file" "${take:-all}" "$method"
  done
done
