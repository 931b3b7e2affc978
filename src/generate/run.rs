//! A whole generation run (`hdp generate`, `hdp.generate` in Python): worker threads take
//! attempt numbers in turn and run them ([`attempt`]); the caller's thread puts their results
//! back in attempt order, drops repeated canonical forms and isomorphs of the seeds
//! ([`Distinct`]), and hands each puzzle to a callback as soon as every attempt before it is
//! done. So the puzzles, and their order, depend only on the [`Settings`], never on the number
//! of threads; only how fast they come does.
//!
//! The run ends at [`Limits::count`] puzzles, at the deadline, after [`Limits::budget`] attempts,
//! when the stop flag is raised (a signal, a dropped Python iterator) or when the callback
//! breaks. No I/O: the clock is read only against the deadline given.

use super::{attempt, Attempt, Distinct, Found, Settings, Target};
use crate::classify::{Level, Record};
use crate::engine::{Analysis, Budget, Options, Proof, Recording};
use crate::grid::Grid;
use serde::Serialize;
use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The seeds of the vicinity search when the caller gives none, one puzzle a line (sources in
/// `data/README.md`).
pub const SHIPPED_SEEDS: &str = include_str!("../../data/generate-seeds.txt");

/// How often the collecting thread looks at the stop flag while no attempt ends.
const STOP_POLL: Duration = Duration::from_millis(100);

/// The limits of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// How many puzzles to find.
    pub count: u64,
    /// The most attempts (an attempt is one random puzzle or one vicinity walk).
    pub budget: Option<u64>,
    /// When the whole run ends.
    pub deadline: Option<Instant>,
    /// Worker threads (at least 1).
    pub jobs: usize,
}

/// How far a run has got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Attempts done, in order (those finished after a gap wait).
    pub attempts: u64,
    /// Candidate puzzles rated by those attempts.
    pub rated: u64,
    /// Puzzles handed to the callback.
    pub found: u64,
}

/// What the callback is told.
#[derive(Debug)]
pub enum Event<'a> {
    /// The next puzzle of the run, numbered from 1.
    Found {
        /// Its number in the run.
        number: u64,
        /// The puzzle.
        found: &'a Found,
    },
    /// One more attempt is done (in order).
    Progress(Progress),
}

/// Why a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// [`Limits::count`] puzzles were found.
    Count,
    /// The deadline passed first.
    Deadline,
    /// The attempt budget ran out first.
    Budget,
    /// The stop flag was raised.
    Stopped,
    /// The callback broke the run.
    Halted,
}

impl End {
    /// The words of a run that ended short of its count (`None` for [`End::Count`] and
    /// [`End::Halted`]).
    pub fn shortfall(self) -> Option<&'static str> {
        match self {
            End::Deadline => Some("the time limit passed"),
            End::Budget => Some("the attempt budget ran out"),
            End::Stopped => Some("interrupted"),
            End::Count | End::Halted => None,
        }
    }
}

/// Runs `settings` within `limits`, calling `on` with each puzzle found (in attempt order) and
/// each attempt done; `stop` ends the run early (the workers finish their current attempt on
/// their own and their results are dropped). Returns why the run ended and how far it got.
pub fn run<F>(
    settings: &Arc<Settings>,
    limits: &Limits,
    stop: &Arc<AtomicBool>,
    mut on: F,
) -> (End, Progress)
where
    F: FnMut(Event<'_>) -> ControlFlow<()>,
{
    let next = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let budget = limits.budget.unwrap_or(u64::MAX);
    let deadline = limits.deadline;
    let (tx, rx) = channel::<(u64, Attempt)>();
    for _ in 0..limits.jobs.max(1) {
        let (settings, next, done, stop, tx) = (
            settings.clone(),
            next.clone(),
            done.clone(),
            stop.clone(),
            tx.clone(),
        );
        let worker = move || loop {
            if done.load(Ordering::SeqCst) || stop.load(Ordering::SeqCst) {
                return;
            }
            let i = next.fetch_add(1, Ordering::SeqCst);
            if i >= budget || deadline.is_some_and(|d| Instant::now() >= d) {
                return;
            }
            if tx.send((i, attempt(&settings, i, deadline))).is_err() {
                return;
            }
        };
        // A thread that cannot start leaves the work to the others; with none, the run ends
        // at once below (the channel closes).
        let _ = std::thread::Builder::new().spawn(worker);
    }
    drop(tx);

    let mut distinct = Distinct::new(&settings.seeds);
    let mut pending: BTreeMap<u64, Attempt> = BTreeMap::new();
    let mut progress = Progress::default();
    let end = 'run: loop {
        if stop.load(Ordering::SeqCst) {
            break End::Stopped;
        }
        match rx.recv_timeout(STOP_POLL) {
            Ok((i, result)) => {
                pending.insert(i, result);
            }
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => {
                break if stop.load(Ordering::SeqCst) {
                    // The workers saw the stop first: an interruption, not a limit.
                    End::Stopped
                } else if deadline.is_some_and(|d| Instant::now() >= d) {
                    End::Deadline
                } else {
                    End::Budget
                };
            }
        }
        while let Some(result) = pending.remove(&progress.attempts) {
            progress.attempts += 1;
            progress.rated += result.rated;
            if on(Event::Progress(progress)).is_break() {
                break 'run End::Halted;
            }
            for found in result.found {
                if !distinct.admit(&found) {
                    continue;
                }
                progress.found += 1;
                let event = Event::Found {
                    number: progress.found,
                    found: &found,
                };
                if on(event).is_break() {
                    break 'run End::Halted;
                }
                if progress.found >= limits.count {
                    break 'run End::Count;
                }
            }
        }
    };
    done.store(true, Ordering::SeqCst);
    (end, progress)
}

/// The minimal proof by contradiction of `puzzle` (the one a solver can check: every line
/// refutes a hypothesis, none assumes a value that reaches the solution) as lines of the
/// notation, with classification's depth limit and budget, within `deadline`; why there is
/// none otherwise.
pub fn proof_lines(puzzle: &Grid, deadline: Option<Instant>) -> Result<Vec<String>, String> {
    let options = Options {
        recording: Recording::Chain,
        proof: Proof::Contradiction,
        max_depth: crate::classify::DEFAULT_MAX_DEPTH,
        budget: Budget {
            max_tests: Some(crate::classify::DEFAULT_BUDGET),
            deadline,
        },
        ..Options::default()
    };
    let analysis = Analysis::run(puzzle, &options);
    let m = crate::minimal::minimal(&analysis).map_err(|e| e.to_string())?;
    Ok(m.proof_lines().map(|l| l.to_string()).collect())
}

/// A generated puzzle's JSON record: `classify`'s, then the canonical form and the proof.
#[derive(Clone, Debug, Serialize)]
pub struct GeneratedRecord {
    /// The classification record (`line` is the puzzle's number in the run).
    #[serde(flatten)]
    pub record: Record,
    /// The canonical (minlex) form.
    pub canonical: String,
    /// The minimal proof's lines, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<Vec<String>>,
}

impl GeneratedRecord {
    /// The record of puzzle `number` of a run for `target`, with its `proof` when one was asked
    /// for (a proof that failed is the record's `error`).
    pub fn new(
        number: u64,
        found: &Found,
        target: Target,
        proof: Option<Result<Vec<String>, String>>,
    ) -> GeneratedRecord {
        let mut record = Record::classified(
            usize::try_from(number).unwrap_or(usize::MAX),
            &found.puzzle,
            &found.classification,
            &target.classify_options(),
        );
        let proof = match proof {
            Some(Ok(lines)) => Some(lines),
            Some(Err(e)) => {
                record.error = Some(format!("no proof: {e}"));
                None
            }
            None => None,
        };
        GeneratedRecord {
            record,
            canonical: found.canonical.clone(),
            proof,
        }
    }
}

/// A generated puzzle as `hdp generate` prints it: the puzzle, then `# level depth canonical`
/// (the depth the target is about), then the proof's lines as comments when there is one.
pub fn found_text(
    found: &Found,
    target: Target,
    proof: Option<&Result<Vec<String>, String>>,
) -> String {
    let c = &found.classification;
    let level = c.level.map_or("-", Level::name);
    let depth = match target {
        Target::Level(_) => c.depth_pairs,
        _ => c.depth,
    };
    let depth = depth.map_or("-".to_string(), |d| d.to_string());
    let mut out = format!(
        "{} # {level} {depth} {}\n",
        found.puzzle.to_line(),
        found.canonical
    );
    match proof {
        Some(Ok(lines)) => {
            for l in lines {
                out.push_str(&format!("#   {l}\n"));
            }
        }
        Some(Err(e)) => out.push_str(&format!("#   no proof: {e}\n")),
        None => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(settings: Settings, jobs: usize, count: u64) -> Vec<String> {
        let settings = Arc::new(settings);
        let limits = Limits {
            count,
            budget: Some(200),
            deadline: None,
            jobs,
        };
        let mut out = Vec::new();
        let (end, progress) = run(&settings, &limits, &Arc::new(AtomicBool::new(false)), |e| {
            if let Event::Found { found, .. } = e {
                out.push(found.puzzle.to_line());
            }
            ControlFlow::Continue(())
        });
        assert_eq!(end, End::Count);
        assert_eq!(progress.found, count);
        out
    }

    /// The same settings give the same puzzles in the same order whatever the thread count.
    #[test]
    fn the_thread_count_does_not_change_the_puzzles() {
        let settings = || Settings {
            seed: 5,
            ..Settings::new(Target::Level(Level::Easy))
        };
        let one = found(settings(), 1, 3);
        assert_eq!(one, found(settings(), 3, 3));
        assert_eq!(one.len(), 3);
    }

    /// A raised stop flag ends the run before any puzzle, and a breaking callback at once.
    #[test]
    fn the_stop_flag_and_the_callback_end_the_run() {
        let settings = Arc::new(Settings::new(Target::Level(Level::Easy)));
        let limits = Limits {
            count: 5,
            budget: None,
            deadline: None,
            jobs: 2,
        };
        let stop = Arc::new(AtomicBool::new(true));
        let (end, progress) = run(&settings, &limits, &stop, |_| ControlFlow::Continue(()));
        assert_eq!((end, progress.found), (End::Stopped, 0));
        let go = Arc::new(AtomicBool::new(false));
        let (end, progress) = run(&settings, &limits, &go, |e| match e {
            Event::Found { .. } => ControlFlow::Break(()),
            Event::Progress(_) => ControlFlow::Continue(()),
        });
        assert_eq!((end, progress.found), (End::Halted, 1));
    }
}
