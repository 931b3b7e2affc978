//! The engine settings as a person writes them (the CLI's flags, the Python package's keyword
//! arguments), checked once with one set of messages and turned into [`Options`] and
//! [`ClassifyOptions`]. Both front ends go through here, so a setting means the same and is
//! refused with the same words in each.

use crate::classify::ClassifyOptions;
use crate::decision::DecisionKinds;
use crate::engine::{Budget, Options, Proof, Schedule, Walk};
use crate::propagate::Profile;
use std::time::{Duration, Instant};

/// The deepest `max_depth` accepted: each level costs far more time than the one before.
pub const MAX_DEPTH_LIMIT: u8 = 6;

/// The engine settings as typed; `None` means "the command's default".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EngineSettings {
    /// How many hypotheses one test may nest (1..=[`MAX_DEPTH_LIMIT`]).
    pub max_depth: Option<u8>,
    /// Decision kinds.
    pub decisions: DecisionKinds,
    /// When the facts of a pass are applied.
    pub schedule: Schedule,
    /// Propagation rules.
    pub profile: Profile,
    /// What proves.
    pub proof: Proof,
    /// How hypotheses are walked.
    pub walk: Walk,
    /// The most branch tests per puzzle (at least 1).
    pub budget: Option<u64>,
    /// The most seconds per puzzle (finite, above 0).
    pub timeout: Option<f64>,
}

impl Default for EngineSettings {
    fn default() -> Self {
        EngineSettings {
            max_depth: None,
            decisions: DecisionKinds::BOTH,
            schedule: Schedule::Synchronous,
            profile: Profile::DEFAULT,
            proof: Proof::Solution,
            walk: Walk::BreadthFirst,
            budget: None,
            timeout: None,
        }
    }
}

/// Which analysis of a puzzle to run (`hdp chain --variant`, `hdp render tree --variant`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Variant {
    /// The pair reduction analysis: every first-level decision and both outcomes, nothing applied.
    Analysis,
    /// Pair reduction: closure at depth 1.
    Pr,
    /// Deep pair reduction: closure at depth 2.
    Dpr,
    /// Very deep pair reduction: closure at depth 3.
    Vdpr,
    /// The full analysis up to the depth limit.
    Full,
}

impl Variant {
    /// The depth limit of this variant: pair reduction 1, deep 2, very deep 3; `full` (and the
    /// one-level `analysis`) keep `configured`.
    pub fn max_depth(self, configured: u8) -> u8 {
        match self {
            Variant::Pr => 1,
            Variant::Dpr => 2,
            Variant::Vdpr => 3,
            Variant::Analysis | Variant::Full => configured,
        }
    }
}

/// Checks a depth limit: 1..=[`MAX_DEPTH_LIMIT`].
pub fn max_depth(n: i64) -> Result<u8, String> {
    match u8::try_from(n) {
        Ok(d) if (1..=MAX_DEPTH_LIMIT).contains(&d) => Ok(d),
        _ => Err(format!(
            "the depth limit must be between 1 and {MAX_DEPTH_LIMIT}, got {n}"
        )),
    }
}

/// Reads a branch-test budget: a whole number, at least 1.
pub fn budget(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "the budget must be a whole number of tests, at least 1, got {s}"
        )),
    }
}

/// Reads a timeout: a finite number of seconds above zero.
pub fn timeout(s: &str) -> Result<f64, String> {
    let t: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("expected a number of seconds, got {s:?}"))?;
    if t.is_finite() && t > 0.0 {
        Ok(t)
    } else {
        Err(format!(
            "the timeout must be a finite number of seconds above 0, got {s}"
        ))
    }
}

/// Reads a proof setting: `solution` or `contradiction`.
pub fn proof(s: &str) -> Result<Proof, String> {
    match s {
        "solution" => Ok(Proof::Solution),
        "contradiction" => Ok(Proof::Contradiction),
        _ => Err(format!(
            "unknown proof {s:?} (expected solution or contradiction)"
        )),
    }
}

/// Reads a schedule: `synchronous` or `sequential`.
pub fn schedule(s: &str) -> Result<Schedule, String> {
    match s {
        "synchronous" => Ok(Schedule::Synchronous),
        "sequential" => Ok(Schedule::Sequential),
        _ => Err(format!(
            "unknown schedule {s:?} (expected synchronous or sequential)"
        )),
    }
}

/// Reads a walk: `breadth-first` or `depth-first`.
pub fn walk(s: &str) -> Result<Walk, String> {
    match s {
        "breadth-first" => Ok(Walk::BreadthFirst),
        "depth-first" => Ok(Walk::DepthFirst),
        _ => Err(format!(
            "unknown walk {s:?} (expected breadth-first or depth-first)"
        )),
    }
}

/// Reads decision kinds (`pairs`, or any of `cell`, `constraint`, `candidate`, comma-separated).
pub fn decisions(s: &str) -> Result<DecisionKinds, String> {
    s.parse::<DecisionKinds>().map_err(|e| e.to_string())
}

/// Reads a propagation profile (`default`, `singles`, or rules like `default,-naked-quad`).
pub fn profile(s: &str) -> Result<Profile, String> {
    s.parse::<Profile>().map_err(|e| e.to_string())
}

/// A deadline `seconds` from `now` (none without a timeout).
pub fn deadline_after(now: Instant, seconds: Option<f64>) -> Option<Instant> {
    seconds
        .filter(|t| t.is_finite() && *t >= 0.0)
        .map(|t| now + Duration::from_secs_f64(t.min(1e9)))
}

impl EngineSettings {
    /// The library options, `default_depth` unless a depth limit was typed, with `deadline` and
    /// the typed budget (classification's default budget without one).
    pub fn options(&self, default_depth: u8, deadline: Option<Instant>) -> Options {
        Options {
            max_depth: self.max_depth.unwrap_or(default_depth),
            decisions: self.decisions,
            profile: self.profile,
            proof: self.proof,
            walk: self.walk,
            schedule: self.schedule,
            budget: Budget {
                // Every analysis has a budget: a costly option set cannot run unbounded.
                max_tests: Some(self.budget.unwrap_or(crate::classify::DEFAULT_BUDGET)),
                deadline,
            },
            ..Options::default()
        }
    }

    /// The classification settings: those of trial and error (`te`) or of classification (its
    /// depth limit and budget), with what was typed on top; the deadline is set per puzzle by the
    /// caller. With `te`, only the depth limit, schedule and budget are taken from `self` (the
    /// front ends refuse the others).
    pub fn classify_options(&self, te: bool) -> ClassifyOptions {
        let base = if te {
            ClassifyOptions::trial_and_error()
        } else {
            ClassifyOptions::default()
        };
        let typed = self.options(base.engine.max_depth, None);
        let mut engine = if te {
            base.engine
        } else {
            Options {
                recording: base.engine.recording,
                ..typed
            }
        };
        engine.max_depth = typed.max_depth;
        engine.schedule = typed.schedule;
        engine.budget = Budget {
            max_tests: typed.budget.max_tests.or(base.engine.budget.max_tests),
            deadline: None,
        };
        ClassifyOptions { engine, ..base }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_checked_with_their_bounds_named() {
        assert_eq!(max_depth(1), Ok(1));
        assert_eq!(max_depth(6), Ok(6));
        assert!(max_depth(0).unwrap_err().contains("between 1 and 6"));
        assert!(max_depth(300).is_err());
        assert_eq!(budget("12"), Ok(12));
        assert!(budget("0").unwrap_err().contains("at least 1"));
        assert!(budget("-3").is_err());
        assert_eq!(timeout("0.5"), Ok(0.5));
        for bad in ["0", "-1", "inf", "NaN", "x"] {
            assert!(timeout(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn names_read_back_what_the_records_write() {
        for s in [Schedule::Synchronous, Schedule::Sequential] {
            assert_eq!(schedule(s.name()), Ok(s));
        }
        assert_eq!(proof("contradiction"), Ok(Proof::Contradiction));
        assert_eq!(walk("depth-first"), Ok(Walk::DepthFirst));
        assert!(walk("sideways").is_err());
        assert_eq!(decisions("pairs"), Ok(DecisionKinds::PAIRS));
        assert!(profile("default,-no-such-rule").is_err());
    }

    #[test]
    fn classification_keeps_its_own_defaults_unless_typed() {
        let c = EngineSettings::default().classify_options(false);
        assert_eq!(c, ClassifyOptions::default());
        let te = EngineSettings::default().classify_options(true);
        let mut expected = ClassifyOptions::trial_and_error();
        // Every analysis has a budget, trial and error's too.
        expected.engine.budget.max_tests = Some(crate::classify::DEFAULT_BUDGET);
        assert_eq!(te, expected);
        let typed = EngineSettings {
            max_depth: Some(2),
            budget: Some(10),
            ..EngineSettings::default()
        }
        .classify_options(true);
        assert_eq!(typed.engine.max_depth, 2);
        assert_eq!(typed.engine.budget.max_tests, Some(10));
        assert_eq!(typed.engine.decisions, DecisionKinds::CANDIDATE);
    }
}
