#!/bin/sh
# Searches for `extreme` puzzles (reduction depth 4 or more) near the shipped seeds with
# `hdp generate`, then writes analyses/extreme.md: the puzzles found, their levels, canonical
# forms and minimal proofs, and how many attempts and ratings the search made.
#
#   analyses/extreme.sh [SECONDS] [JOBS] [SEED]     (defaults: 3600 seconds, 2 jobs, seed 1)
#
# Run from the repository root after `cargo build --release`. The search stops at the time
# limit; whatever it found is kept (exit 1 from hdp means fewer than --count were found, which
# is expected here).
set -eu
seconds=${1:-3600}
jobs=${2:-2}
seed=${3:-1}
hdp=${HDP:-target/release/hdp}
out=analyses/extreme.md
tmp=$(mktemp)
log=$(mktemp)
trap 'rm -f "$tmp" "$log"' EXIT

start=$(date -u +%Y-%m-%dT%H:%MZ)
"$hdp" generate --level extreme --count 1000 --timeout "$seconds" --jobs "$jobs" \
    --seed "$seed" --proof --format jsonl >"$tmp" 2>"$log" || true
found=$(grep -c '^{' "$tmp" || true)
{
    echo "# Extreme puzzles from a vicinity search"
    echo
    echo "\`analyses/extreme.sh $seconds $jobs $seed\`, started $start on $(nproc) cores, $("$hdp" -V)."
    echo "\`hdp generate --level extreme --timeout $seconds --jobs $jobs --seed $seed --proof\`"
    echo "walks from the seeds in \`data/generate-seeds.txt\` (two of them extreme, from the"
    echo "6,000 pearly puzzles); each puzzle below was rated \`extreme\` (depth 4 or more with"
    echo "the source's method) by the same code as \`hdp classify\`, and none is an isomorph of"
    echo "another or of a seed."
    echo
    echo "What the search reported (attempts made and puzzles rated):"
    echo
    echo '```'
    cat "$log"
    echo '```'
    echo
    echo "Puzzles found: $found."
    echo
    if [ "$found" -gt 0 ]; then
        echo "| # | puzzle | level | depth (pairs) | depth | tests | canonical form |"
        echo "| ---: | --- | --- | ---: | ---: | ---: | --- |"
        jq -r '"| \(.line) | `\(.puzzle)` | \(.level) | \(.depth_pairs) | \(.depth) | \(.tests) | `\(.canonical)` |"' "$tmp"
        echo
        echo "## Minimal proofs"
        jq -r '"\n### \(.line): `\(.puzzle)`\n\n```\n\((.proof // ["(no proof: " + (.error // "") + ")"]) | join("\n"))\n```"' "$tmp"
    fi
} >"$out"
echo "wrote $out: $found puzzles" >&2
