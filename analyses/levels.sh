#!/usr/bin/env bash
# Writes the level table of analyses/levels.md to stdout:
#   bash analyses/levels.sh > analyses/levels.md           # every collection, in full
#   bash analyses/levels.sh 20                            # the first 20 puzzles of each (a check)
# HDP=path/to/hdp overrides the binary (default: target/release/hdp, built if missing);
# HDP_CORPORA=DIR the corpora folder (default: ../shared/corpora; missing files are left out).
set -euo pipefail
cd "$(dirname "$0")/.."
limit="${1:-}"
hdp="${HDP:-target/release/hdp}"
[ -x "$hdp" ] || cargo build --release --quiet
corpora="${HDP_CORPORA:-../shared/corpora}"
# name, file, lines to take (empty: all) — the 48,766-puzzle 1905 list is sampled (first 2,000).
collections=(
  "easy50|$corpora/easy50.txt|"
  "unbiased-1000|$corpora/unbiased-1000.txt|"
  "top95|$corpora/top95.txt|"
  "hardest|$corpora/hardest.txt|"
  "magictour-top1465|$corpora/magictour-top1465.txt|"
  "forum-hardest-1106|$corpora/forum-hardest-1106.txt|"
  "forum-hardest-1905-11plus (first 2000)|$corpora/forum-hardest-1905-11plus.txt|2000"
  "tarek-pearly6000|$corpora/tarek-pearly6000.txt|"
  "sudoku17|$corpora/sudoku17.txt|"
)
jobs=$(nproc 2>/dev/null || echo 1)
echo "# Levels of the corpora"
echo
echo "Produced by \`bash analyses/levels.sh > analyses/levels.md\` with \`hdp classify --summary-only\`"
echo "(defaults: the level from the depth with the source's method, \`--decisions pairs\`, under the"
echo "synchronous schedule; \`depth\` with both decision kinds beside it; --max-depth 4 and a budget"
echo "of 1,000,000 tests per run), on $(nproc 2>/dev/null || echo '?') cores ($(uname -m)), $(date -u +%Y-%m-%d)."
echo "Levels: trivial (singles), easy (full propagation), medium (pair reduction, depth 1),"
echo "hard (deep pair reduction, depth 2), deep (depth 3), extreme (depth 4 or more), unsolved (a"
echo "limit stopped the analysis). Times are for both runs (level and depth) on all cores."
echo
echo "| collection | puzzles | trivial | easy | medium | hard | deep | extreme | unsolved | wall time | CPU time/puzzle |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for entry in "${collections[@]}"; do
  IFS='|' read -r name file take <<<"$entry"
  [ -f "$file" ] || continue
  n="${limit:-$take}"
  if [ -n "$n" ]; then src=$(head -n "$n" "$file"); else src=$(cat "$file"); fi
  start=$(date +%s.%N)
  # Exit 1 only says that some puzzle was left unsolved or had a bad line: the table shows it.
  summary=$(printf '%s\n' "$src" | "$hdp" classify --summary-only --jobs "$jobs") || [ $? -eq 1 ]
  end=$(date +%s.%N)
  printf '%s\n' "$summary" | awk -v name="$name" -v t0="$start" -v t1="$end" -v jobs="$jobs" '
    $1 ~ /^(trivial|easy|medium|hard|deep|extreme|unsolved)$/ { c[$1] = $2 }
    $1 == "total" { total = $2 }
    END {
      wall = t1 - t0
      printf "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %.1f s | %.1f ms |\n", name, total,
        c["trivial"], c["easy"], c["medium"], c["hard"], c["deep"], c["extreme"], c["unsolved"], wall,
        (total > 0 ? 1000 * wall * jobs / total : 0)
    }'
done
