//! The pair reduction analysis (spec §6): one pass at `j = 1` over a position, recording both
//! branches of every decision and applying nothing — the first level of the decision tree.

use super::Options;
use crate::decision::{generate, Decision, Origin};
use crate::grid::{Cell, Grid};
use crate::propagate::{propagate, propagate_from, Outcome};
use crate::statement::Statement;
use crate::tree::{EdgeKind, NodeKind, NodeOutcome, Tree, TreeNode};
use serde::Serialize;
use std::fmt;

/// The outcome of one branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BranchOutcome {
    /// The branch statement.
    pub statement: Statement,
    /// CTR, SOL or OPEN.
    pub outcome: NodeOutcome,
    /// Two-valued cells after the branch (for OPEN).
    pub pairs: u8,
}

impl fmt::Display for BranchOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.outcome {
            NodeOutcome::Open => write!(f, "{} => {} PAIRS", self.statement, self.pairs),
            o => write!(f, "{} => {o}", self.statement),
        }
    }
}

/// One decision and both its branches' outcomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DecisionResult {
    /// The decision.
    pub decision: Decision,
    /// Branch 1 and branch 2.
    pub branches: [BranchOutcome; 2],
}

/// The first-level analysis of a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PairAnalysis {
    /// The analysed (propagated) position, 81 characters.
    pub position: String,
    /// The two-valued cells, by block then row-major inside the block.
    pub pairs: Vec<Statement>,
    /// Every decision in canonical order, with both outcomes.
    pub decisions: Vec<DecisionResult>,
}

impl PairAnalysis {
    /// Analyses `grid` (propagated first with the profile of `options`).
    pub fn run(grid: &Grid, options: &Options) -> PairAnalysis {
        let mut g = *grid;
        propagate(&mut g, &options.profile);
        let mut pairs = Vec::new();
        for b in 0..9 {
            for &c in crate::grid::Unit::block(b).cells() {
                if g.get(c).len() == 2 {
                    pairs.push(Statement::new(c, g.get(c)));
                }
            }
        }
        let mut list = Vec::new();
        generate(&g, options.decisions, &mut list);
        let decisions = list
            .iter()
            .map(|d| {
                let test = |b: Statement| {
                    let mut h = g;
                    b.apply(&mut h);
                    let (outcome, pairs) = match propagate_from(&mut h, b.cell, &options.profile) {
                        Outcome::Solved => (NodeOutcome::Sol, 0),
                        Outcome::Contradiction(_) => (NodeOutcome::Ctr, 0),
                        Outcome::Open => (NodeOutcome::Open, h.pair_count() as u8),
                    };
                    BranchOutcome {
                        statement: b,
                        outcome,
                        pairs,
                    }
                };
                DecisionResult {
                    decision: *d,
                    branches: [test(d.branch(0)), test(d.branch(1))],
                }
            })
            .collect();
        PairAnalysis {
            position: g.to_line(),
            pairs,
            decisions,
        }
    }
}

fn source(d: &Decision) -> String {
    match d.origin {
        Origin::CellPair { pair, unit } => format!("PAIR {pair} {unit}"),
        Origin::ConstraintPair { digit, unit, other } => {
            format!("VALUE {digit} {unit} {}/{other}", d.cell)
        }
        Origin::Candidate => format!("CELL {}", d.cell),
    }
}

impl fmt::Display for PairAnalysis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "PAIR REDUCTION ANALYSIS {}", self.position)?;
        for r in &self.decisions {
            writeln!(
                f,
                "{:<26} {:<28} | {}",
                source(&r.decision),
                r.branches[0].to_string(),
                r.branches[1]
            )?;
        }
        let listed: Vec<String> = self.pairs.iter().map(|s| s.to_string()).collect();
        writeln!(f, "PAIRS ({}): {}", self.pairs.len(), listed.join(" + "))?;
        let constraint: Vec<&DecisionResult> = self
            .decisions
            .iter()
            .filter(|r| matches!(r.decision.origin, Origin::ConstraintPair { .. }))
            .collect();
        writeln!(f, "CONSTRAINT PAIRS ({})", constraint.len())?;
        for r in constraint {
            if let Origin::ConstraintPair { digit, unit, other } = r.decision.origin {
                let side = |b: &BranchOutcome, c: Cell| match b.outcome {
                    NodeOutcome::Open => format!("{c}: {} pairs", b.pairs),
                    o => format!("{c}: {o}"),
                };
                writeln!(
                    f,
                    "  {digit} in {unit}: {} | {}",
                    side(&r.branches[0], r.decision.cell),
                    side(&r.branches[1], other)
                )?;
            }
        }
        let open = self
            .decisions
            .iter()
            .all(|r| r.branches.iter().all(|b| b.outcome == NodeOutcome::Open));
        if open {
            writeln!(f, "UNSOLVED")?;
        }
        Ok(())
    }
}

/// The first-level decision tree of a pair reduction analysis: the position, each decision, and
/// both branches with their outcomes.
pub fn pair_analysis_tree(pa: &PairAnalysis) -> Tree {
    let pairs = pa.pairs.len().min(u8::MAX as usize) as u8;
    let mut tree = Tree::new(pairs, usize::MAX);
    for r in &pa.decisions {
        let d = tree.add(
            tree.root,
            TreeNode {
                kind: NodeKind::Decision,
                statement: Some(r.decision.branch(0)),
                decision: Some(r.decision),
                depth: 1,
                level: 0,
                outcome: None,
                pairs: 0,
                reason: None,
            },
            EdgeKind::Inside,
        );
        let Some(d) = d else { break };
        for (b, edge) in r.branches.iter().zip([EdgeKind::First, EdgeKind::Second]) {
            tree.add(
                d,
                TreeNode {
                    kind: NodeKind::Branch,
                    statement: Some(b.statement),
                    decision: None,
                    depth: 1,
                    level: 0,
                    outcome: Some(b.outcome),
                    pairs: b.pairs,
                    reason: None,
                },
                edge,
            );
        }
    }
    tree
}
