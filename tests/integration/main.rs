//! The integration tests: one binary (link time matters on 2 cores), one module per area. The
//! modules that run the `hdp` binary need the `cli` feature.

mod canon;
mod classify;
#[cfg(feature = "cli")]
mod cli;
mod common;
#[cfg(feature = "cli")]
mod defects_faults;
#[cfg(feature = "cli")]
mod defects_inputs;
mod derivation;
mod engine;
#[cfg(feature = "cli")]
mod faults;
#[cfg(feature = "cli")]
mod generate;
#[cfg(feature = "cli")]
mod hostile;
#[cfg(feature = "cli")]
mod inputs;
mod minimal;
mod properties;
#[cfg(feature = "cli")]
mod readme;
mod reference;
#[cfg(feature = "cli")]
mod render;
mod schedule;
mod solver;
mod trees;
