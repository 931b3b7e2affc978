//! Proof size (spec §10): how much a person checks to follow the minimal contradiction proof.

use super::{derive_lines, End, Limits};
use crate::chain::ChainLine;
use crate::engine::{Analysis, Options, Proof, Recording};
use crate::grid::Grid;
use crate::minimal::minimal;
use serde::Serialize;

/// The size of a minimal contradiction proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ProofSize {
    /// The moves of all its lines' derivations.
    pub moves: usize,
    /// Its `DIS` and `PRF` lines.
    pub lines: usize,
}

/// The size of the minimal proof of `puzzle` that only contradictions prove, with the decisions,
/// profile, depth limit and budget of `options`; `None` when there is no such proof within them
/// or a line has no derivation (none found, or the budget's deadline cut it: a partial count is
/// never given as the size).
///
/// Complexity: one analysis, its minimisation, and a derivation per line.
pub fn proof_size(puzzle: &Grid, options: &Options) -> Option<ProofSize> {
    let options = Options {
        proof: Proof::Contradiction,
        recording: Recording::Chain,
        ..*options
    };
    let analysis = Analysis::run(puzzle, &options);
    let m = minimal(&analysis).ok()?;
    let lines: Vec<ChainLine> = m.proof_lines().cloned().collect();
    let all = derive_lines(
        &analysis.puzzle,
        &lines,
        &options.profile,
        &Limits::until(options.budget.deadline),
    );
    let mut moves = 0;
    for d in &all {
        let d = d.as_ref()?;
        match d.end {
            End::Contradiction(_) => moves += d.moves.len(),
            End::Cut(_) => return None,
            End::Refuted { .. } | End::Solution { .. } => {}
        }
    }
    Some(ProofSize {
        moves,
        lines: lines.len(),
    })
}
