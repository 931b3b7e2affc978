//! `Shortcuts`: which caches and shortcuts the search may take (the policy), chosen by the caller
//! through [`Options::shortcuts`](super::Options::shortcuts), apart from what is recorded.
//!
//! Every shortcut changes how fast a result is found, never the status, depth, facts or effort
//! figures, with two documented exceptions checked by `tests/integration/shortcuts.rs`: under
//! `reuse` the partial grid printed with a `CTR` can be another one (it is illustrative), and
//! under trial and error `known_open` answers a hypothesis known to be open with one test instead
//! of the tests its closure would make. Each file's `//!` doc holds the shortcut's soundness
//! argument.
//!
//! A recorded run cannot show what a shortcut skipped (a remembered hypothesis writes no lines;
//! a contradiction's position must be where propagation stopped), so it keeps only
//! [`Shortcuts::RECORDED`] of what the caller asked for ([`Shortcuts::for_recording`]).

use super::Recording;

/// Which caches and shortcuts a search may use; each one can be switched on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shortcuts {
    /// A depth-1 test starts from the same branch's last end in this closure or the enclosing
    /// one (`reuse.rs`).
    pub reuse: bool,
    /// A hypothesis' own test starts from its branch's last end in the closure too (`reuse.rs`).
    pub reuse_hypotheses: bool,
    /// Branches covered by an earlier open end of the pass are open without propagating
    /// (`known_open.rs`).
    pub known_open: bool,
    /// The hypotheses of a pass share their depth-1 results (`pair_table.rs`).
    pub pair_table: bool,
    /// The pair table hands out contradictions too, not only open ends.
    pub pair_table_contradictions: bool,
    /// A hypothesis from a position worked out before takes the kept result (`memo.rs`).
    pub memo: bool,
    /// Open ends found under the passes at `j >= 2` answer branches inside them (`end_pool.rs`).
    pub end_pool: bool,
    /// The depth-1 results of another analysis of the puzzle are taken (`shared.rs`).
    pub shared: bool,
    /// Propagation on value boards, or in the eager rule order (`boards.rs`).
    pub value_boards: bool,
}

impl Shortcuts {
    /// Every shortcut (the default: classification's runs).
    pub const ALL: Shortcuts = Shortcuts {
        reuse: true,
        reuse_hypotheses: true,
        known_open: true,
        pair_table: true,
        pair_table_contradictions: true,
        memo: true,
        end_pool: true,
        shared: true,
        value_boards: true,
    };

    /// None: the search as the method reads.
    pub const NONE: Shortcuts = Shortcuts {
        reuse: false,
        reuse_hypotheses: false,
        known_open: false,
        pair_table: false,
        pair_table_contradictions: false,
        memo: false,
        end_pool: false,
        shared: false,
        value_boards: false,
    };

    /// Those a recorded run can show faithfully.
    pub const RECORDED: Shortcuts = Shortcuts {
        reuse: true,
        known_open: true,
        pair_table: true,
        ..Shortcuts::NONE
    };

    /// The shortcuts of both `self` and `other`.
    pub const fn and(self, other: Shortcuts) -> Shortcuts {
        Shortcuts {
            reuse: self.reuse && other.reuse,
            reuse_hypotheses: self.reuse_hypotheses && other.reuse_hypotheses,
            known_open: self.known_open && other.known_open,
            pair_table: self.pair_table && other.pair_table,
            pair_table_contradictions: self.pair_table_contradictions
                && other.pair_table_contradictions,
            memo: self.memo && other.memo,
            end_pool: self.end_pool && other.end_pool,
            shared: self.shared && other.shared,
            value_boards: self.value_boards && other.value_boards,
        }
    }

    /// What a run with `recording` uses of these: all of them when nothing is recorded, else
    /// only those in [`Shortcuts::RECORDED`].
    pub const fn for_recording(self, recording: Recording) -> Shortcuts {
        match recording {
            Recording::Off => self,
            Recording::Chain | Recording::ChainAndTree => self.and(Shortcuts::RECORDED),
        }
    }

    /// Each shortcut by name, with whether it is on (for test reports and matrices).
    pub fn named(self) -> [(&'static str, bool); 9] {
        [
            ("reuse", self.reuse),
            ("reuse_hypotheses", self.reuse_hypotheses),
            ("known_open", self.known_open),
            ("pair_table", self.pair_table),
            ("pair_table_contradictions", self.pair_table_contradictions),
            ("memo", self.memo),
            ("end_pool", self.end_pool),
            ("shared", self.shared),
            ("value_boards", self.value_boards),
        ]
    }

    /// Only the shortcut called `name` on (`None` for an unknown name).
    pub fn only(name: &str) -> Option<Shortcuts> {
        Shortcuts::NONE.with(name, true)
    }

    /// Every shortcut but the one called `name` (`None` for an unknown name).
    pub fn all_but(name: &str) -> Option<Shortcuts> {
        Shortcuts::ALL.with(name, false)
    }

    /// These shortcuts with the one called `name` set to `on`.
    fn with(mut self, name: &str, on: bool) -> Option<Shortcuts> {
        let field = match name {
            "reuse" => &mut self.reuse,
            "reuse_hypotheses" => &mut self.reuse_hypotheses,
            "known_open" => &mut self.known_open,
            "pair_table" => &mut self.pair_table,
            "pair_table_contradictions" => &mut self.pair_table_contradictions,
            "memo" => &mut self.memo,
            "end_pool" => &mut self.end_pool,
            "shared" => &mut self.shared,
            "value_boards" => &mut self.value_boards,
            _ => return None,
        };
        *field = on;
        Some(self)
    }
}

impl Default for Shortcuts {
    fn default() -> Self {
        Shortcuts::ALL
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names round-trip, and `only`/`all_but` change exactly the named switch.
    #[test]
    fn each_switch_has_one_name() {
        for (name, _) in Shortcuts::ALL.named() {
            let only = Shortcuts::only(name).unwrap();
            let on: Vec<_> = only.named().iter().filter(|n| n.1).map(|n| n.0).collect();
            assert_eq!(on, [name]);
            let but = Shortcuts::all_but(name).unwrap();
            let off: Vec<_> = but.named().iter().filter(|n| !n.1).map(|n| n.0).collect();
            assert_eq!(off, [name]);
        }
        assert!(Shortcuts::only("nothing").is_none());
        assert_eq!(
            Shortcuts::ALL.for_recording(Recording::Chain),
            Shortcuts::RECORDED
        );
        assert_eq!(Shortcuts::ALL.for_recording(Recording::Off), Shortcuts::ALL);
    }
}
