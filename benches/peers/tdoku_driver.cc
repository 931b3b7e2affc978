// Minimal driver for tdoku's solver (github.com/t-dillon/tdoku), used by benches/peers.sh.
// Written for hdp; links against tdoku's src/solver_dpll_triad_simd.cc and src/util.cc, which
// are not part of this repository.
//
//   tdoku_driver FILE [-n MAX_PUZZLES] [-r PASSES] [-p]
//
// Reads the first 81 characters of each line of FILE ('0' or '.' for empty cells), then solves
// every puzzle with a solution cap of 2 (a uniqueness check), the whole file in process, PASSES
// times (default 1). With -p, prints each puzzle's solution count (0, 1 or 2) on stdout, from the
// first pass. Prints a summary to stderr: puzzles, counts, and per-pass microseconds per puzzle,
// minimum and median over the passes, both of wall time and of the thread's CPU time (the latter
// is what to trust on a loaded machine).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <time.h>
#include <vector>

#include "tdoku.h"

static double thread_cpu_us() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void min_median(std::vector<double> v, double *min, double *median) {
    std::sort(v.begin(), v.end());
    *min = v.front();
    *median = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

int main(int argc, char **argv) {
    const char *path = nullptr;
    size_t max_puzzles = SIZE_MAX;
    int passes = 1;
    bool print = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc) {
            max_puzzles = strtoull(argv[++i], nullptr, 10);
        } else if (!strcmp(argv[i], "-r") && i + 1 < argc) {
            passes = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "-p")) {
            print = true;
        } else {
            path = argv[i];
        }
    }
    if (!path || passes < 1) {
        fprintf(stderr, "usage: %s FILE [-n MAX_PUZZLES] [-r PASSES] [-p]\n", argv[0]);
        return 2;
    }
    std::ifstream in(path);
    if (!in) {
        fprintf(stderr, "%s: cannot open\n", path);
        return 2;
    }
    // 82 bytes per puzzle: 81 cells and a NUL (tdoku checks byte 81 to tell a vanilla
    // puzzle from a 729-character pencil-mark one).
    std::vector<char> buf;
    size_t n = 0;
    std::string line;
    while (n < max_puzzles && std::getline(in, line)) {
        if (line.size() < 81) continue;
        bool ok = true;
        char p[82];
        for (int k = 0; k < 81; k++) {
            char c = line[k];
            if (c == '0') c = '.';
            if (c != '.' && (c < '1' || c > '9')) ok = false;
            p[k] = c;
        }
        if (!ok) continue;
        p[81] = '\0';
        buf.insert(buf.end(), p, p + 82);
        n++;
    }
    std::vector<unsigned char> counts(n);
    std::vector<double> us_per_puzzle, cpu_us_per_puzzle;
    size_t hist[3] = {0, 0, 0};
    unsigned long long guesses_total = 0;
    char solution[82];
    for (int pass = 0; pass < passes; pass++) {
        double c0 = thread_cpu_us();
        auto t0 = std::chrono::steady_clock::now();
        for (size_t i = 0; i < n; i++) {
            size_t guesses = 0;
            size_t c = TdokuSolverDpllTriadSimd(&buf[82 * i], 2, 0, solution, &guesses);
            counts[i] = (unsigned char)(c > 2 ? 2 : c);
            guesses_total += guesses;
        }
        auto t1 = std::chrono::steady_clock::now();
        double c1 = thread_cpu_us();
        double us = std::chrono::duration<double, std::micro>(t1 - t0).count();
        us_per_puzzle.push_back(n ? us / n : 0.0);
        cpu_us_per_puzzle.push_back(n ? (c1 - c0) / n : 0.0);
        if (pass == 0) {
            for (size_t i = 0; i < n; i++) hist[counts[i]]++;
            if (print) {
                std::string out;
                out.reserve(2 * n);
                for (size_t i = 0; i < n; i++) {
                    out += char('0' + counts[i]);
                    out += '\n';
                }
                fwrite(out.data(), 1, out.size(), stdout);
            }
        }
    }
    double wmin, wmed, cmin, cmed;
    min_median(us_per_puzzle, &wmin, &wmed);
    min_median(cpu_us_per_puzzle, &cmin, &cmed);
    fprintf(stderr,
            "puzzles %zu  unique %zu  none %zu  multiple %zu  passes %d  "
            "us_per_puzzle_min %.3f  us_per_puzzle_median %.3f  "
            "cpu_us_per_puzzle_min %.3f  cpu_us_per_puzzle_median %.3f  guesses_per_pass %.0f\n",
            n, hist[1], hist[0], hist[2], passes, wmin, wmed, cmin, cmed,
            (double)guesses_total / passes);
    return 0;
}
