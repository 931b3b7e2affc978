//! The `hdp` command line: reads puzzles, runs the library, writes results (stdout) and
//! diagnostics (stderr), and picks the exit code. See `cli` for the commands.

mod cli;

fn main() {
    let cli = cli::parse();
    std::process::exit(cli::run(cli));
}
