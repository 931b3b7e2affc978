#!/usr/bin/env bash
# hdp against two peers, side by side in one run, on one pinned core:
#
#   (a) T&E depth of te-depth/shc-examples-342.tsv   SHC (Java) vs `hdp classify --te -j1`
#   (b) T&E depth of te-depth/te3-mith-sample-1000    SHC (Java) vs `hdp classify --te -j1`
#   (c) uniqueness check (solutions capped at 2) of magictour-top1465, forum-hardest-1106 and the
#       first 20,000 lines of sudoku17: tdoku (benches/peers/tdoku_driver.cc, whole file in one
#       process) vs `hdp solve --count FILE`, as whole processes
#   (d) the same in process: 20 tdoku driver passes vs 20 passes of the solver benchmark binary in
#       its CPU-time mode (HDP_SOLVER_CPU, thread CPU time like the driver's), alternating, and
#       `cargo bench --bench solver` (divan, 20 samples, wall time; fastest and median), on the
#       sets that benchmark measures
#
# The peers are not part of this repository. Get them with:
#   git clone https://github.com/denis-berthier/Sudoku_Hierarchical_Classifier   # has SHC.jar
#   git clone https://github.com/t-dillon/tdoku                                  # needs src/, include/
# and run, from the repository root (the script runs cargo build --release and
# cargo bench --bench solver --no-run itself, then uses copies of the two binaries):
#   SHC_JAR=.../SHC.jar TDOKU_DIR=.../tdoku benches/peers.sh
# A side whose variable is unset or whose path is missing is skipped with a message.
#
# Environment: REPS (default 3) repetitions, the two sides alternating within each; CPU (default
# 1) the core everything is pinned to with taskset; SECTIONS (default "a b c d"); WORK (default a
# fresh /tmp directory) for inputs, outputs and the driver binary; CXX (default g++); JAVA
# (default java); CORPORA (default ../shared/corpora). Per process: wall time, CPU = user + sys
# (bash `times`, 1 ms), and /usr/bin/time -f '%e %U %S %M' (max RSS; %U + %S to 10 ms). Every
# figure in the tables is the median of the REPS repetitions. On a loaded machine trust CPU over
# wall. Needs GNU time, taskset, python3 (to read cargo's JSON), a C++17 compiler and java.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CORPORA=${CORPORA:-$ROOT/../shared/corpora}
REPS=${REPS:-3}
CPU=${CPU:-1}
SECTIONS=${SECTIONS:-"a b c d"}
CXX=${CXX:-g++}
JAVA=${JAVA:-java}
WORK=${WORK:-$(mktemp -d /tmp/hdp-peers.XXXXXX)}
mkdir -p "$WORK"

say() { echo "$*" >&2; }
want() { [[ " $SECTIONS " == *" $1 "* ]]; }

[[ -x /usr/bin/time ]] || { say "needs /usr/bin/time (GNU time)"; exit 2; }
command -v python3 >/dev/null || { say "needs python3 (to read cargo's JSON messages)"; exit 2; }
command -v taskset >/dev/null || { say "needs taskset (util-linux)"; exit 2; }

HAVE_SHC=0
if [[ -n ${SHC_JAR:-} && -f ${SHC_JAR:-} ]] && command -v "$JAVA" >/dev/null; then
    HAVE_SHC=1
else
    say "SHC: skipped (set SHC_JAR to SHC.jar and have java on PATH)"
fi
HAVE_TDOKU=0
DRIVER=$WORK/tdoku_driver
if [[ -n ${TDOKU_DIR:-} && -f ${TDOKU_DIR:-}/src/solver_dpll_triad_simd.cc ]]; then
    say "tdoku: building driver"
    "$CXX" -O3 -march=native -std=c++17 -I"$TDOKU_DIR/include" -I"$TDOKU_DIR/src" \
        -o "$DRIVER" "$ROOT/benches/peers/tdoku_driver.cc" \
        "$TDOKU_DIR/src/solver_dpll_triad_simd.cc" "$TDOKU_DIR/src/util.cc"
    HAVE_TDOKU=1
else
    say "tdoku: skipped (set TDOKU_DIR to a tdoku checkout with src/ and include/)"
fi

# hdp: build the binary and the solver benchmark from the working tree, one after the other, and
# run copies of both, so that a rebuild by someone else during the run changes nothing.
say "hdp: cargo build --release; cargo bench --bench solver --no-run"
(cd "$ROOT" && cargo build --release) >"$WORK/hdp-build.log" 2>&1 ||
    { say "cargo build --release failed, see $WORK/hdp-build.log"; exit 2; }
BENCH_EXE=$(cd "$ROOT" && cargo bench --bench solver --no-run --message-format=json 2>>"$WORK/hdp-build.log" |
    python3 -c 'import json, sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "solver" and m.get("executable"):
        print(m["executable"])')
[[ -x $BENCH_EXE ]] || { say "cargo bench --no-run gave no solver executable, see $WORK/hdp-build.log"; exit 2; }
HDP=$WORK/hdp
BENCH=$WORK/hdp-bench-solver
cp "$ROOT/target/release/hdp" "$HDP"
cp "$BENCH_EXE" "$BENCH"
HDP_REV="$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
git -C "$ROOT" diff HEAD >"$WORK/hdp-uncommitted.diff" 2>/dev/null || true
DIRTY=$(git -C "$ROOT" status --porcelain -- src Cargo.toml Cargo.lock benches/solver.rs benches/common 2>/dev/null | wc -l)
((DIRTY == 0)) || HDP_REV="$HDP_REV + $DIRTY uncommitted file(s) in src/ etc."

# run NAME CMD...: runs CMD pinned, stdout to $WORK/NAME.out, stderr to $WORK/NAME.err, and
# appends "wall cpu rss_kb time_cpu" to $WORK/NAME.times. wall is from date; cpu is user + sys of
# the subshell's children (bash `times`, to the millisecond; /usr/bin/time itself adds about
# 1 ms); rss_kb and time_cpu are `/usr/bin/time -f '%e %U %S %M'`'s %M and %U + %S (printed to
# 10 ms only). A non-zero exit is recorded, not fatal (hdp exits 1 when a puzzle is not unique).
run() {
    local name=$1; shift
    local tf=$WORK/$name.t pf=$WORK/$name.p rc=0 t0 t1
    t0=$(date +%s.%N)
    (
        r=0
        /usr/bin/time -o "$tf" -f '%e %U %S %M' taskset -c "$CPU" "$@" \
            >"$WORK/$name.out" 2>"$WORK/$name.err" || r=$?
        times >"$pf"
        exit $r
    ) || rc=$?
    t1=$(date +%s.%N)
    [[ $rc -eq 0 ]] || say "  ($name exited $rc)"
    awk -v w="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')" -v t="$(tail -n 1 "$tf")" '
        function sec(x, p) { split(x, p, /[ms]/); return p[1] * 60 + p[2] }
        NR == 2 { split(t, f, " "); printf "%s %.3f %s %.2f\n", w, sec($1) + sec($2), f[4], f[2] + f[3] }' \
        "$pf" >>"$WORK/$name.times"
}
# median FILE COLUMN: the median of a column of numbers.
median() {
    awk -v c="$2" '{ print $c }' "$1" | sort -g |
        awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2];
              else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-";
                                          else printf "%.2f", a / b }'; }
f2() { awk -v x="$1" 'BEGIN { if (x == "-") print "-"; else printf "%.2f", x }'; }
mb() { awk -v k="$1" 'BEGIN { if (k == "-") print "-"; else printf "%.0f", k / 1024 }'; }

say "hdp $HDP_REV, work dir $WORK," \
    "core $CPU, $REPS repetitions, load: $(cut -d' ' -f1-3 /proc/loadavg)"

# ---------------------------------------------------------------- (a), (b) T&E depth
te_section() {
    local tag=$1 src=$2 label=$3
    local in=$WORK/$tag.txt
    # The puzzle column (the first field); lines that are not an 81-character puzzle (a header)
    # are dropped. SHC reads one puzzle a line, its first 81 characters.
    awk -F'\t' 'length($1) == 81 && $1 ~ /^[0-9.]+$/ { print $1 }' "$src" >"$in"
    local n; n=$(wc -l <"$in")
    ((n > 0)) || { say "$label: no puzzles read from $src"; exit 2; }
    rm -f "$WORK/$tag-shc.times" "$WORK/$tag-hdp.times"
    for r in $(seq "$REPS"); do
        say "$label: repetition $r/$REPS"
        if ((HAVE_SHC)); then
            run "$tag-shc" "$JAVA" -jar "$SHC_JAR" TE-depth -auto-end true \
                -input "$in" -output "$WORK/$tag-shc.depths"
        fi
        run "$tag-hdp" "$HDP" classify --te -j1 "$in"
    done
    # hdp: TSV with a header; `depth` by name, ordered by `line`. SHC: a title line, then one
    # depth a line in input order.
    awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "depth") d = i; if ($i == "line") l = i }
                          next }
                { print $l "\t" ($d == "" ? "none" : $d) }' "$WORK/$tag-hdp.out" |
        sort -n | cut -f2 >"$WORK/$tag-hdp.depths"
    local agree="-" hist_h hist_s="-"
    hist_h=$(sort "$WORK/$tag-hdp.depths" | uniq -c | awk '{ printf "%s%s×%s", s, $2, $1; s = " " }')
    if ((HAVE_SHC)); then
        tail -n +2 "$WORK/$tag-shc.depths" | awk 'NF' >"$WORK/$tag-shc.clean"
        hist_s=$(sort "$WORK/$tag-shc.clean" | uniq -c | awk '{ printf "%s%s×%s", s, $2, $1; s = " " }')
        agree=$(paste "$WORK/$tag-shc.clean" "$WORK/$tag-hdp.depths" |
            awk -F'\t' '$1 == $2 { a++ } END { printf "%d/%d", a, NR }')
        paste "$WORK/$tag-shc.clean" "$WORK/$tag-hdp.depths" "$in" |
            awk -F'\t' '$1 != $2 { print NR "\tshc=" $1 "\thdp=" $2 "\t" $3 }' >"$WORK/$tag-disagree.tsv"
    fi
    local sw sc sr hw hc hr
    if ((HAVE_SHC)); then
        sw=$(median "$WORK/$tag-shc.times" 1); sc=$(median "$WORK/$tag-shc.times" 2)
        sr=$(median "$WORK/$tag-shc.times" 3)
    else sw=-; sc=-; sr=-; fi
    hw=$(median "$WORK/$tag-hdp.times" 1); hc=$(median "$WORK/$tag-hdp.times" 2)
    hr=$(median "$WORK/$tag-hdp.times" 3)
    TE_ROWS+=("| $label | $n | $(f2 "$sw") | $(f2 "$sc") | $(mb "$sr") | $(f2 "$hw") | $(f2 "$hc") | $(mb "$hr") | $(ratio "$sc" "$hc") | $(ratio "$sw" "$hw") | $agree |")
    TE_HIST+=("| $label | $hist_s | $hist_h |")
}

TE_ROWS=(); TE_HIST=()
want a && te_section te342 "$CORPORA/te-depth/shc-examples-342.tsv" "shc-examples-342"
want b && te_section te3k "$CORPORA/te-depth/te3-mith-sample-1000.txt" "te3-mith-sample-1000"

# ---------------------------------------------------------------- (c) whole-process solve
SOLVE_ROWS=()
solve_set() {
    local tag=$1 src=$2 lines=$3 label=$4
    local in=$WORK/$tag.txt
    head -n "$lines" "$src" >"$in"
    local n; n=$(wc -l <"$in")
    rm -f "$WORK/$tag-td.times" "$WORK/$tag-hs.times" "$WORK/$tag-td.pass"
    for r in $(seq "$REPS"); do
        say "$label: repetition $r/$REPS"
        if ((HAVE_TDOKU)); then
            run "$tag-td" "$DRIVER" "$in" -r 1 -p
            sed -n 's/.*cpu_us_per_puzzle_median \([0-9.]*\).*/\1/p' "$WORK/$tag-td.err" >>"$WORK/$tag-td.pass"
        fi
        run "$tag-hs" "$HDP" solve --count "$in"
    done
    local agree="-" hist
    hist=$(sort "$WORK/$tag-hs.out" | uniq -c | awk '{ printf "%s%s×%s", s, $2, $1; s = " " }')
    if ((HAVE_TDOKU)); then
        agree=$(paste "$WORK/$tag-td.out" "$WORK/$tag-hs.out" |
            awk -F'\t' '$1 == $2 { a++ } END { printf "%d/%d", a, NR }')
    fi
    local tc tr tt tp hc hr ht
    if ((HAVE_TDOKU)); then
        tc=$(median "$WORK/$tag-td.times" 2); tr=$(median "$WORK/$tag-td.times" 3)
        tt=$(median "$WORK/$tag-td.times" 4); tp=$(median "$WORK/$tag-td.pass" 1)
    else tc=-; tr=-; tt=-; tp=-; fi
    hc=$(median "$WORK/$tag-hs.times" 2); hr=$(median "$WORK/$tag-hs.times" 3)
    ht=$(median "$WORK/$tag-hs.times" 4)
    per() { awk -v c="$1" -v n="$n" 'BEGIN { if (c == "-") print "-"; else printf "%.1f", c * 1e6 / n }'; }
    SOLVE_ROWS+=("| $label | $n | $tp | $(per "$tc") | $tt | $(mb "$tr") | $(per "$hc") | $ht | $(mb "$hr") | $(ratio "$hc" "$tc") | $agree ($hist) |")
}
if want c; then
    solve_set top1465 "$CORPORA/magictour-top1465.txt" 1000000 "magictour-top1465"
    solve_set fh1106 "$CORPORA/forum-hardest-1106.txt" 1000000 "forum-hardest-1106"
    solve_set s17k20 "$CORPORA/sudoku17.txt" 20000 "sudoku17 first 20,000"
fi

# ---------------------------------------------------------------- (d) in-process solve
# benches/solver.rs: divan, 20 samples of one uniqueness pass over the whole set (the puzzles
# parsed once, outside the timing), and its HDP_SOLVER_CPU mode: 20 such passes timed by thread
# CPU time. The tdoku driver does the same with 20 passes.
INPROC_ROWS=()
to_us() { # "47.3 ms" -> microseconds
    awk -v v="$1" -v u="$2" 'BEGIN { f = 1; if (u == "ns") f = 0.001; else if (u == "ms") f = 1000;
                                     else if (u == "s") f = 1e6; printf "%.1f", v * f }'
}
if want d; then
    BENCHES=("solve_magictour_top1465 magictour-top1465.txt 1465"
             "solve_forum_hardest_1106 forum-hardest-1106.txt 375"
             "solve_top95 top95.txt 95"
             "solve_sudoku17_first_2000 sudoku17.txt 2000")
    for b in "${BENCHES[@]}"; do
        read -r name file lines <<<"$b"
        head -n "$lines" "$CORPORA/$file" >"$WORK/$name.txt"
        rm -f "$WORK/$name-td.pass" "$WORK/$name-hb.us" "$WORK/$name-hc.pass"
    done
    for r in $(seq "$REPS"); do
        say "in process: repetition $r/$REPS"
        for b in "${BENCHES[@]}"; do
            read -r name file lines <<<"$b"
            if ((HAVE_TDOKU)); then
                taskset -c "$CPU" "$DRIVER" "$WORK/$name.txt" -r 20 2>"$WORK/$name-td.err" >/dev/null
                sed -n 's/.*us_per_puzzle_min \([0-9.]*\)  us_per_puzzle_median \([0-9.]*\)  cpu_us_per_puzzle_min \([0-9.]*\)  cpu_us_per_puzzle_median \([0-9.]*\).*/\1 \2 \3 \4/p' \
                    "$WORK/$name-td.err" >>"$WORK/$name-td.pass"
            fi
            # The same passes by thread CPU time, from the benchmark binary.
            HDP_SOLVER_CPU="$WORK/$name.txt:20" taskset -c "$CPU" "$BENCH" 2>"$WORK/$name-hc.err" >/dev/null
            sed -n 's/.*cpu_us_per_puzzle_min \([0-9.]*\)  cpu_us_per_puzzle_median \([0-9.]*\).*/\1 \2/p' \
                "$WORK/$name-hc.err" >>"$WORK/$name-hc.pass"
        done
        # What `cargo bench --bench solver` runs (the copy built at the start).
        (cd "$ROOT" && taskset -c "$CPU" "$BENCH" --bench) >"$WORK/bench-$r.out" 2>"$WORK/bench-$r.err"
        for b in "${BENCHES[@]}"; do
            read -r name file lines <<<"$b"
            # divan row: name  fastest │ slowest │ median │ mean │ samples │ iters
            row=$(grep -E "[─ ]$name[[:space:]]" "$WORK/bench-$r.out" | head -n 1)
            fast=$(echo "$row" | awk -F'│' '{ print $1 }' | awk '{ print $(NF - 1), $NF }')
            med=$(echo "$row" | awk -F'│' '{ print $3 }')
            f_us=$(to_us $fast); m_us=$(to_us $med)
            awk -v f="$f_us" -v m="$m_us" -v n="$lines" 'BEGIN { printf "%.3f %.3f\n", f / n, m / n }' >>"$WORK/$name-hb.us"
        done
    done
    for b in "${BENCHES[@]}"; do
        read -r name file lines <<<"$b"
        twmin=-; twmed=-; tcmin=-; tcmed=-
        if ((HAVE_TDOKU)); then
            twmin=$(median "$WORK/$name-td.pass" 1); twmed=$(median "$WORK/$name-td.pass" 2)
            tcmin=$(median "$WORK/$name-td.pass" 3); tcmed=$(median "$WORK/$name-td.pass" 4)
        fi
        hcmin=$(median "$WORK/$name-hc.pass" 1); hcmed=$(median "$WORK/$name-hc.pass" 2)
        hf=$(median "$WORK/$name-hb.us" 1); hm=$(median "$WORK/$name-hb.us" 2)
        INPROC_ROWS+=("| $file (first $lines) | $lines | $tcmin | $tcmed | $hcmin | $hcmed | $(ratio "$hcmin" "$tcmin") | $(ratio "$hcmed" "$tcmed") | $twmin | $twmed | $hf | $hm | $(ratio "$hf" "$twmin") | $(ratio "$hm" "$twmed") |")
    done
fi

# ---------------------------------------------------------------- report
echo
echo "hdp $HDP_REV (binaries built at the start, copied to $WORK); core $CPU (taskset)," \
    "$REPS repetitions alternating the sides, medians; $(nproc) cores, load after the run:" \
    "$(cut -d' ' -f1-3 /proc/loadavg)"
if ((${#TE_ROWS[@]})); then
    echo
    echo "### T&E depth: SHC (\`TE-depth\`) vs \`hdp classify --te -j1\`"
    echo
    echo "| set | puzzles | SHC wall s | SHC CPU s | SHC RSS MB | hdp wall s | hdp CPU s | hdp RSS MB | CPU SHC/hdp | wall SHC/hdp | same depth |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    printf '%s\n' "${TE_ROWS[@]}"
    echo
    echo "| set | SHC depths | hdp depths |"
    echo "|---|---|---|"
    printf '%s\n' "${TE_HIST[@]}"
fi
if ((${#SOLVE_ROWS[@]})); then
    echo
    echo "### Uniqueness check, whole process: tdoku driver vs \`hdp solve --count FILE\`"
    echo
    echo 'Process CPU µs/puzzle = whole-process user + sys (bash `times`, 1 ms resolution) / puzzles: start-up,'
    echo 'reading and printing included. `time` s = /usr/bin/time %U + %S (10 ms resolution). tdoku in-process'
    echo "= the driver's thread CPU time for the solving loop alone."
    echo
    echo '| set | puzzles | tdoku in-process CPU µs/puzzle | tdoku process CPU µs/puzzle | tdoku `time` s | tdoku RSS MB | hdp process CPU µs/puzzle | hdp `time` s | hdp RSS MB | process CPU hdp/tdoku | same count (hdp counts) |'
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    printf '%s\n' "${SOLVE_ROWS[@]}"
fi
if ((${#INPROC_ROWS[@]})); then
    echo
    echo "### Uniqueness check, in process: tdoku driver vs the solver benchmark (20 passes each)"
    echo
    echo "µs/puzzle. CPU: thread CPU time of 20 passes, the tdoku driver and the benchmark binary's"
    echo "HDP_SOLVER_CPU mode, alternating; min and median pass. Wall: the driver's wall time and"
    echo "\`cargo bench --bench solver\` (divan, 20 samples, wall time only), fastest/min and median; wall"
    echo "times are inflated by machine load, so trust the CPU columns."
    echo
    echo "| set | puzzles | tdoku CPU min | tdoku CPU median | hdp CPU min | hdp CPU median | CPU min hdp/tdoku | CPU median hdp/tdoku | tdoku wall min | tdoku wall median | hdp divan fastest | hdp divan median | fastest hdp/tdoku | median hdp/tdoku |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    printf '%s\n' "${INPROC_ROWS[@]}"
fi
echo
echo "Raw outputs, times and disagreements (*-disagree.tsv): $WORK"
