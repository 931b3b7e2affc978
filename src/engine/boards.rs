//! `Prop`: how a branch test propagates, on value boards or in the recorded order.
//!
//! Soundness: every route reaches the same fixpoint of the same rules (propagation does not
//! depend on rule order; `bare.rs` keeps an 81-bit board per value beside the grid and is tested
//! against `propagate_changed` and the reference). Only what a recording reads can differ: rule
//! counts, reasons and the partial grid at a contradiction, so the value boards and the eager
//! order are used only when nothing records (see `Shortcuts::value_boards`).

use super::Options;
use crate::grid::{CellSet, Grid};
use crate::propagate::{
    propagate_bare, propagate_bare_from_end, propagate_bare_meet, propagate_changed,
    propagate_changed_eager, propagate_from, Outcome, Profile, SinglesBases,
};
use std::cell::RefCell;

/// How branch tests propagate: by `profile` in the recorded order, or, when nothing records (so
/// no rule count, contradiction reason or contradiction position is read), on value boards kept
/// in `bare` when the profile has both singles (the bare fixpoint), or else in the eager order.
#[derive(Clone, Copy)]
pub(super) struct Prop<'p> {
    profile: &'p Profile,
    bare: Option<&'p RefCell<SinglesBases>>,
    /// Nothing records: any order of the rules will do.
    eager: bool,
}

impl<'p> Prop<'p> {
    /// With the engine's options and boards; `fast`: the value boards (or the eager order)
    /// may be used ([`Shortcuts::value_boards`](super::Shortcuts::value_boards)).
    #[inline]
    pub(super) fn new(opts: &'p Options, bases: &'p RefCell<SinglesBases>, fast: bool) -> Self {
        Prop {
            profile: &opts.profile,
            bare: (fast && Profile::SINGLES.is_subset_of(&opts.profile)).then_some(bases),
            eager: fast,
        }
    }

    /// [`propagate_changed`] of `g`, restricted from the pass's `state` (an open fixpoint).
    #[inline]
    pub(super) fn changed(self, g: &mut Grid, changed: CellSet, state: &Grid) -> Outcome {
        match self.bare {
            Some(bases) => propagate_bare(g, state, &mut bases.borrow_mut(), self.profile),
            None if self.eager => propagate_changed_eager(g, changed, self.profile),
            None => propagate_changed(g, changed, self.profile),
        }
    }

    /// [`Prop::changed`] of `g`, which also lies inside `end`, an earlier open end of the same
    /// branch (the value boards then start from `end`: less work).
    #[inline]
    pub(super) fn changed_from_end(
        self,
        g: &mut Grid,
        changed: CellSet,
        end: &Grid,
        state: &Grid,
    ) -> Outcome {
        match self.bare {
            Some(bases) => {
                propagate_bare_from_end(g, end, state, &mut bases.borrow_mut(), self.profile)
            }
            None => self.changed(g, changed, state),
        }
    }

    /// [`Prop::changed`] of `g`, the intersection of the state with an earlier open end of the
    /// same branch, from which it differs in `changed`.
    #[inline]
    pub(super) fn meet(self, g: &mut Grid, changed: CellSet, state: &Grid) -> Outcome {
        match self.bare {
            Some(bases) => {
                propagate_bare_meet(g, changed, state, &mut bases.borrow_mut(), self.profile)
            }
            None => self.changed(g, changed, state),
        }
    }

    /// [`propagate_from`] of `g`, restricted from the pass's `state` (an open fixpoint).
    #[inline]
    pub(super) fn from(self, g: &mut Grid, cell: crate::grid::Cell, state: &Grid) -> Outcome {
        // `bare` is only kept when nothing records, so `eager` covers it.
        if self.eager {
            self.changed(g, [cell].into_iter().collect(), state)
        } else {
            propagate_from(g, cell, self.profile)
        }
    }
}
