//! The integration tests: one binary (link time matters on 2 cores), one module per area.

mod classify;
mod cli;
mod common;
mod engine;
mod faults;
mod hostile;
mod inputs;
mod minimal;
mod properties;
mod reference;
mod render;
mod schedule;
mod solver;
