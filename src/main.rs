//! The `hdp` command line.
fn main() {
    println!("hdp");
}
