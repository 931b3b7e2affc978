#!/bin/sh
# Searches for `extreme` puzzles (reduction depth 4 or more) near the shipped seeds with
# `hdp generate`, then writes analyses/extreme.md: the puzzles found, their levels, canonical
# forms and minimal proofs, and how many attempts and ratings the search made.
#
#   analyses/extreme.sh [SECONDS] [JOBS] [SEED]     (defaults: 3600 seconds, 2 jobs, seed 1)
#
# Run from the repository root after `cargo build --release`. The search stops at the time
# limit; whatever it found is kept (exit 1 from hdp means fewer than --count were found, which
# is expected here). An interrupt (SIGINT to hdp, or Ctrl-C) ends the search early: hdp keeps
# the puzzles it printed and this script still writes the page, saying so. The page records
# the CPU time the search got (the machine may be shared, so it can be far below the wall
# time times the jobs).
set -eu
seconds=${1:-3600}
jobs=${2:-2}
seed=${3:-1}
hdp=${HDP:-target/release/hdp}
out=analyses/extreme.md
tmp=$(mktemp)
log=$(mktemp)
clock=$(mktemp)
trap 'rm -f "$tmp" "$log" "$clock"' EXIT

interrupted=
# A trap with a command (not an ignored signal) leaves hdp its own SIGINT handling and lets
# this shell go on to write the page once hdp has stopped.
trap 'interrupted=yes' INT TERM
start=$(date -u +%Y-%m-%dT%H:%MZ)
t0=$(date +%s)
status=0
"$hdp" generate --level extreme --count 1000 --timeout "$seconds" --jobs "$jobs" \
    --seed "$seed" --proof --format jsonl >"$tmp" 2>"$log" || status=$?
wall=$(($(date +%s) - t0))
# The children's user and system seconds, from the shell's own `times` (not in a subshell,
# whose children are not hdp; second line: "XmY.YYYs XmY.YYYs"), summed.
times >"$clock"
cpu=$(sed -n 2p "$clock" | awk '{
    s = 0
    for (i = 1; i <= 2; i++) { split($i, a, "m"); sub("s", "", a[2]); s += a[1] * 60 + a[2] }
    printf "%.0f", s }')
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
    echo "The search ran $wall s of wall time on $jobs jobs and got $cpu s of CPU time (user and"
    echo "system), that is $(awk -v c="$cpu" -v w="$wall" -v j="$jobs" 'BEGIN {
        if (w * j > 0) printf "%.0f", 100 * c / (w * j); else printf "0" }')% of its $jobs cores; hdp exited $status."
    if [ -n "$interrupted" ] || [ "$status" -eq 130 ]; then
        echo "It was interrupted before its time limit, so hdp reported no attempt count; the"
        echo "puzzles it had printed are all below."
    fi
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
