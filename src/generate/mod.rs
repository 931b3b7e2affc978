//! Generating puzzles at a chosen level (spec §11). No I/O; every run is a function of its
//! [`Settings`] (the seed among them), so the same settings give the same puzzles.
//!
//! Work is cut into numbered *attempts*: attempt `i` draws its random numbers from its own
//! stream of the seed ([`Rng::stream`]), so what it finds does not depend on which thread runs
//! it or when. A caller runs attempts in any order and on any number of threads, then passes
//! their results, in attempt order, through [`Distinct`], which keeps one puzzle per canonical
//! form and none isomorphic to a seed: the output is then the same whatever the thread count.
//!
//! Two ways to find puzzles, chosen by the target ([`Target::vicinity`]):
//! - *random* (trivial to medium): a random solution grid (the exact solver, digits tried in
//!   random order), whose givens are removed in random order (by orbits of the symmetry asked)
//!   while the solution stays unique; the result is rated and kept when at the target.
//! - *vicinity search* (hard and above, where random puzzles almost never land): from a known
//!   hard puzzle, a walk of [`Settings::steps`] steps, each removing one or two givens (orbits)
//!   and adding one, then adding values of one of its solutions where two differ until it is
//!   unique again; a step whose rating is no farther from the target than the current puzzle's
//!   becomes the current puzzle ([`WALK`]; the start is rated first, so the first step is
//!   judged like the others), and every one at the target is kept.
//!
//! Every puzzle kept is rated by [`crate::classify::classify`] with the target's options (those
//! `hdp classify` uses by default), so its level is the one `classify` gives it.

mod rng;
pub mod run;

pub use rng::Rng;

use crate::canon::{givens_of, minlex_string};
use crate::classify::{classify, Classification, ClassifyOptions, Level};
use crate::givens::{given_cells, is_minimal, is_unique, without};
use crate::grid::{Candidates, Cell, Digit, Grid};
use crate::propagate::{propagate, Outcome, Profile};
use crate::solver::{solutions_within, solve_within, Solutions, SolveLimits};
use std::collections::HashSet;
use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;
use std::time::Instant;

/// A symmetry the pattern of givens keeps: every given's image is a given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pattern {
    /// No constraint.
    None,
    /// A half turn about the centre (E5).
    Central,
    /// The mirror in the main diagonal (A1–I9).
    Diagonal,
    /// The mirror in the anti-diagonal (I1–A9).
    Antidiagonal,
    /// The mirror in the middle row (row 5): top and bottom swap.
    Horizontal,
    /// The mirror in the middle column (column E): left and right swap.
    Vertical,
}

impl Pattern {
    /// Every pattern.
    pub const ALL: [Pattern; 6] = [
        Pattern::None,
        Pattern::Central,
        Pattern::Diagonal,
        Pattern::Antidiagonal,
        Pattern::Horizontal,
        Pattern::Vertical,
    ];

    /// The pattern's name.
    pub fn name(self) -> &'static str {
        match self {
            Pattern::None => "none",
            Pattern::Central => "central",
            Pattern::Diagonal => "diagonal",
            Pattern::Antidiagonal => "antidiagonal",
            Pattern::Horizontal => "horizontal",
            Pattern::Vertical => "vertical",
        }
    }

    /// The image of `cell` (each pattern is its own inverse).
    pub fn image(self, cell: Cell) -> Cell {
        let (r, c) = (cell.row(), cell.col());
        match self {
            Pattern::None => cell,
            Pattern::Central => Cell::from_row_col(8 - r, 8 - c),
            Pattern::Diagonal => Cell::from_row_col(c, r),
            Pattern::Antidiagonal => Cell::from_row_col(8 - c, 8 - r),
            Pattern::Horizontal => Cell::from_row_col(8 - r, c),
            Pattern::Vertical => Cell::from_row_col(r, 8 - c),
        }
    }

    /// The orbits of the cells (one or two cells each), in the order of their first cell.
    pub fn orbits(self) -> Vec<Vec<Cell>> {
        Cell::all()
            .filter(|&c| self.image(c) >= c)
            .map(|c| {
                let i = self.image(c);
                if i == c {
                    vec![c]
                } else {
                    vec![c, i]
                }
            })
            .collect()
    }

    /// Whether the givens (single-candidate cells) of `grid` are closed under the pattern.
    pub fn holds(self, grid: &Grid) -> bool {
        Cell::all().all(|c| (grid.get(c).len() == 1) == (grid.get(self.image(c)).len() == 1))
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Pattern {
    type Err = String;
    fn from_str(s: &str) -> Result<Pattern, String> {
        Pattern::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| format!("unknown symmetry {s:?}"))
    }
}

/// What the generated puzzles must be, as classification rates them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The level `classify` gives (from the depth with the source's method).
    Level(Level),
    /// The reduction depth with classification's default decisions (the record's `depth`).
    Depth(u8),
    /// The trial-and-error depth of the literature (`classify --te`).
    TrialAndError(u8),
}

impl Target {
    /// The classification options that rate a puzzle for this target: `classify`'s defaults,
    /// or those of `classify --te`.
    pub fn classify_options(self) -> ClassifyOptions {
        match self {
            Target::TrialAndError(_) => ClassifyOptions::trial_and_error(),
            _ => ClassifyOptions::default(),
        }
    }

    /// How far a classification is from the target (0: at it); `None` without a rating.
    pub fn distance(self, c: &Classification) -> Option<u32> {
        let (have, want) = match self {
            Target::Level(l) => {
                let have = c.level.filter(|&h| h != Level::Unsolved)?;
                (have as u32, l as u32)
            }
            Target::Depth(d) => (u32::from(c.depth?), u32::from(d)),
            Target::TrialAndError(d) => (u32::from(c.depth?), u32::from(d)),
        };
        Some(have.abs_diff(want))
    }

    /// Whether a classification is at the target.
    pub fn accepts(self, c: &Classification) -> bool {
        c.solutions == Some(1) && self.distance(c) == Some(0)
    }

    /// Whether puzzles are searched near known hard ones (hard and above) rather than made at
    /// random.
    pub fn vicinity(self) -> bool {
        match self {
            Target::Level(l) => l >= Level::Hard,
            Target::Depth(d) | Target::TrialAndError(d) => d >= 2,
        }
    }
}

/// Whether every puzzle must be minimal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Minimality {
    /// Any number of givens (within [`Settings::givens`]).
    Any,
    /// No given can be removed without losing uniqueness.
    Minimal,
}

/// The settings of a run.
#[derive(Clone, Debug)]
pub struct Settings {
    /// What the puzzles must be.
    pub target: Target,
    /// The symmetry of the givens.
    pub pattern: Pattern,
    /// Minimal or not.
    pub minimality: Minimality,
    /// How many givens a puzzle may have.
    pub givens: RangeInclusive<usize>,
    /// The seed of the random numbers.
    pub seed: u64,
    /// The known puzzles a vicinity search starts from; no puzzle isomorphic to one is kept.
    pub seeds: Vec<Grid>,
    /// The steps of one vicinity walk.
    pub steps: usize,
}

/// The default number of steps of one vicinity walk.
pub const DEFAULT_STEPS: usize = 40;

impl Settings {
    /// Settings for `target` with no symmetry, any number of givens, seed 0 and no seeds.
    pub fn new(target: Target) -> Settings {
        Settings {
            target,
            pattern: Pattern::None,
            minimality: Minimality::Any,
            givens: 17..=81,
            seed: 0,
            seeds: Vec::new(),
            steps: DEFAULT_STEPS,
        }
    }
}

/// A puzzle found by an attempt, at the target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The puzzle (givens only).
    pub puzzle: Grid,
    /// Its classification with the target's options.
    pub classification: Classification,
    /// Its canonical form: 81 characters, `0` for an empty cell.
    pub canonical: String,
}

/// What an attempt did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Attempt {
    /// The puzzles found at the target, in the order found.
    pub found: Vec<Found>,
    /// How many candidate puzzles were rated.
    pub rated: u64,
}

/// The canonical form of the givens of `grid`.
pub fn canonical_of(grid: &Grid) -> String {
    minlex_string(&givens_of(grid))
}

/// Keeps one puzzle per canonical form, and none isomorphic to a seed.
#[derive(Clone, Debug, Default)]
pub struct Distinct {
    seen: HashSet<String>,
}

impl Distinct {
    /// Nothing seen but the seeds.
    pub fn new(seeds: &[Grid]) -> Distinct {
        Distinct {
            seen: seeds.iter().map(canonical_of).collect(),
        }
    }

    /// Whether `found` is new (then remembered).
    pub fn admit(&mut self, found: &Found) -> bool {
        self.seen.insert(found.canonical.clone())
    }
}

/// Runs attempt `index` of a run with `settings`, within `deadline` (the run's end: searches
/// and ratings stop there).
pub fn attempt(settings: &Settings, index: u64, deadline: Option<Instant>) -> Attempt {
    let mut run = Run {
        settings,
        rng: Rng::stream(settings.seed, index),
        limits: SolveLimits {
            deadline,
            ..SolveLimits::default()
        },
        deadline,
        out: Attempt::default(),
    };
    if settings.target.vicinity() && !settings.seeds.is_empty() {
        run.vicinity();
    } else {
        run.random();
    }
    run.out
}

/// One attempt under way.
struct Run<'a> {
    settings: &'a Settings,
    rng: Rng,
    limits: SolveLimits,
    deadline: Option<Instant>,
    out: Attempt,
}

impl Run<'_> {
    fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// A random solution grid: cells in random order, each given a random digit that leaves a
    /// solution, until the solution is unique.
    fn random_solution(&mut self) -> Option<Grid> {
        let mut g = Grid::empty();
        let mut cells: Vec<Cell> = Cell::all().collect();
        self.rng.shuffle(&mut cells);
        for c in cells {
            if g.get(c).len() == 1 {
                continue;
            }
            let mut digits: Vec<Digit> = g.get(c).iter().collect();
            self.rng.shuffle(&mut digits);
            let mut placed = false;
            for d in digits {
                let mut h = g;
                h.set(c, Candidates::single(d));
                match solve_within(&h, self.limits).ok()? {
                    Solutions::None => continue,
                    Solutions::Unique(s) => return Some(s),
                    Solutions::Multiple(_) => {
                        g = h;
                        placed = true;
                        break;
                    }
                }
            }
            if !placed {
                return None;
            }
        }
        None
    }

    /// Removes the orbits of givens of `puzzle` in random order while it stays unique, keeps
    /// at least the fewest givens allowed and `keep` holds.
    fn reduce(&mut self, puzzle: Grid, keep: &dyn Fn(&Grid) -> bool) -> Grid {
        let mut g = puzzle;
        let mut orbits: Vec<Vec<Cell>> = self
            .settings
            .pattern
            .orbits()
            .into_iter()
            .filter(|o| o.iter().all(|&c| g.get(c).len() == 1))
            .collect();
        self.rng.shuffle(&mut orbits);
        let mut count = given_cells(&g).len();
        let floor = *self.settings.givens.start();
        for o in orbits {
            if count < floor + o.len() {
                continue;
            }
            let h = without(&g, &o);
            if is_unique(&h, self.limits).unwrap_or(false) && keep(&h) {
                g = h;
                count -= o.len();
            }
        }
        g
    }

    /// The classification of `puzzle` with the target's options, within the run's deadline
    /// (counted as one puzzle rated).
    fn rating(&mut self, puzzle: &Grid) -> Classification {
        let mut options = self.settings.target.classify_options();
        options.engine.budget.deadline = self.deadline;
        self.out.rated += 1;
        classify(puzzle, &options)
    }

    /// Rates `puzzle` and keeps it when it is at the target and has the shape asked (givens,
    /// minimality). Returns its classification.
    fn rate(&mut self, puzzle: &Grid) -> Option<Classification> {
        let n = given_cells(puzzle).len();
        if !self.settings.givens.contains(&n) {
            return None;
        }
        if self.settings.minimality == Minimality::Minimal
            && !is_minimal(puzzle, self.limits).unwrap_or(false)
        {
            return None;
        }
        let c = self.rating(puzzle);
        if self.settings.target.accepts(&c) && self.settings.pattern.holds(puzzle) {
            self.out.found.push(Found {
                puzzle: *puzzle,
                classification: c.clone(),
                canonical: canonical_of(puzzle),
            });
        }
        Some(c)
    }

    /// A random puzzle: a random solution reduced at random (for trivial and easy targets
    /// without `--minimal`, only while singles or propagation still solve it).
    fn random(&mut self) {
        let Some(solution) = self.random_solution() else {
            return;
        };
        let any = self.settings.minimality == Minimality::Any;
        let keep: Box<dyn Fn(&Grid) -> bool> = match self.settings.target {
            Target::Level(Level::Trivial) if any => {
                Box::new(|g: &Grid| solves(g, &Profile::SINGLES))
            }
            Target::Level(Level::Easy) | Target::Depth(0) if any => {
                Box::new(|g: &Grid| solves(g, &Profile::DEFAULT))
            }
            _ => Box::new(|_: &Grid| true),
        };
        let puzzle = self.reduce(solution, &*keep);
        self.rate(&puzzle);
    }

    /// A vicinity walk from a random seed.
    fn vicinity(&mut self) {
        let seeds = &self.settings.seeds;
        let seed = seeds[self.rng.below(seeds.len())];
        let Ok(Solutions::Unique(solution)) = solve_within(&seed, self.limits) else {
            return;
        };
        let pattern = self.settings.pattern;
        let mut current = seed;
        if pattern != Pattern::None {
            // Close the givens under the symmetry, then thin them out again.
            for c in given_cells(&seed) {
                let i = pattern.image(c);
                current.set(i, solution.get(i));
            }
            current = self.reduce(current, &|_| true);
        }
        // The start is rated (never kept: it is the seed or close to it) so that the first
        // step is judged against it like every other.
        let start = self.rating(&current);
        let mut distance = self.settings.target.distance(&start);
        for _ in 0..self.settings.steps {
            if self.past_deadline() {
                return;
            }
            let Some(mut next) = self.neighbour(&current) else {
                continue;
            };
            if self.settings.minimality == Minimality::Minimal {
                next = self.reduce(next, &|_| true);
            }
            let Some(c) = self.rate(&next) else {
                continue;
            };
            let d = self.settings.target.distance(&c);
            if WALK.moves(distance, d, &mut self.rng) {
                current = next;
                distance = d;
            }
        }
    }

    /// A neighbour of `puzzle`: one or two orbits of givens removed, one empty orbit given
    /// random values that clash with no given, then values of a solution added where two
    /// solutions differ until it is unique (at most eight times). `None` when that fails.
    fn neighbour(&mut self, puzzle: &Grid) -> Option<Grid> {
        let orbits = self.settings.pattern.orbits();
        let (full, empty): (Vec<&Vec<Cell>>, Vec<&Vec<Cell>>) = orbits
            .iter()
            .filter(|o| {
                o.iter().all(|&c| puzzle.get(c).len() == 1)
                    || o.iter().all(|&c| puzzle.get(c).len() > 1)
            })
            .partition(|o| puzzle.get(o[0]).len() == 1);
        if full.is_empty() || empty.is_empty() {
            return None;
        }
        let mut g = *puzzle;
        let add = empty[self.rng.below(empty.len())];
        for _ in 0..1 + self.rng.below(2) {
            let o = full[self.rng.below(full.len())];
            g = without(&g, o);
        }
        for &c in add {
            let free: Vec<Digit> = Digit::all()
                .filter(|&d| c.peers().iter().all(|&p| g.get(p) != Candidates::single(d)))
                .collect();
            if free.is_empty() {
                return None;
            }
            g.set(c, Candidates::single(free[self.rng.below(free.len())]));
        }
        for _ in 0..8 {
            let sols = solutions_within(&g, 2, self.limits).ok()?;
            match sols.as_slice() {
                [] => return None,
                [_] => return Some(g),
                [a, b, ..] => {
                    let differ: Vec<Cell> = Cell::all().filter(|&c| a.get(c) != b.get(c)).collect();
                    let c = differ[self.rng.below(differ.len())];
                    for &x in &[c, self.settings.pattern.image(c)] {
                        g.set(x, a.get(x));
                    }
                }
            }
        }
        None
    }
}

/// How a vicinity walk decides whether a rated neighbour becomes its current puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Acceptance {
    /// A neighbour one step farther from the target than the current puzzle is taken once in
    /// this many times at random (to leave a plateau); 0: never.
    pub worse_one_in: u32,
}

impl Acceptance {
    /// Whether the walk moves from a puzzle at distance `current` from the target to a
    /// neighbour at distance `next` (`None`: not rated). A rated neighbour is taken when it is
    /// no farther than the current puzzle (always when that one has no rating), and one step
    /// farther only by the random chance above; never when it has no rating.
    pub fn moves(self, current: Option<u32>, next: Option<u32>, rng: &mut Rng) -> bool {
        let Some(next) = next else {
            return false;
        };
        match current {
            None => true,
            Some(current) if next <= current => true,
            Some(current) => {
                next == current + 1
                    && self.worse_one_in > 0
                    && rng.below(self.worse_one_in as usize) == 0
            }
        }
    }
}

/// The acceptance of every vicinity walk: strict. Measured on `--level deep` and `--depth 3`
/// (three 60-second runs each, one job): taking a neighbour one step farther once in eight
/// times found as many puzzles per CPU second as never doing so (deep 1.50 against 1.61,
/// depth 3 0.28 against 0.27), so the walk does not.
pub const WALK: Acceptance = Acceptance { worse_one_in: 0 };

/// Whether propagation with `profile` solves `grid`.
fn solves(grid: &Grid, profile: &Profile) -> bool {
    let mut g = *grid;
    propagate(&mut g, profile) == Outcome::Solved
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_walk_moves_only_to_rated_neighbours_no_farther_from_the_target() {
        let strict = Acceptance { worse_one_in: 0 };
        let mut rng = Rng::new(5);
        for _ in 0..100 {
            // An unrated neighbour: never.
            assert!(!strict.moves(Some(2), None, &mut rng));
            assert!(!strict.moves(None, None, &mut rng));
            // An unrated start: any rated neighbour.
            assert!(strict.moves(None, Some(7), &mut rng));
            // Closer or as close: always; farther: never.
            assert!(strict.moves(Some(2), Some(1), &mut rng));
            assert!(strict.moves(Some(2), Some(2), &mut rng));
            assert!(strict.moves(Some(0), Some(0), &mut rng));
            assert!(!strict.moves(Some(2), Some(3), &mut rng));
            assert!(!strict.moves(Some(0), Some(1), &mut rng));
        }
        // With an escape chance, one step farther about once in four; two steps never.
        let loose = Acceptance { worse_one_in: 4 };
        let worse = (0..4000)
            .filter(|_| loose.moves(Some(1), Some(2), &mut rng))
            .count();
        assert!((800..1200).contains(&worse), "{worse}");
        assert!((0..1000).all(|_| !loose.moves(Some(1), Some(3), &mut rng)));
        assert!((0..1000).all(|_| loose.moves(Some(1), Some(1), &mut rng)));
    }
}
