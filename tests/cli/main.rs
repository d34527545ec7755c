//! The integration tests of the `outward` binary and library, in one test binary (one link,
//! one place for the helpers): `cargo test --release --test cli [MODULE::]`. Every module
//! runs the binary and reads what it wrote through [`common`].
//!
//! - [`run`]: `outward run` end to end (by topic), [`extract`]: `outward extract`.
//! - [`arc`]: ARC (v1) inputs; [`metadata`]: page and record metadata, `--min-chars`,
//!   `--lang`; [`remote`]: URLs and S3 objects from local servers; [`site_memory`]:
//!   `--site-memory` and `outward sites`.
//! - [`train`], [`linenet`], [`stage`]: trained methods (`outward train`, `--model`, LODO).
//! - [`fixtures`]: the committed fixtures are what the test kit builds; [`without`]:
//!   `--without GUARD`, `reverse`'s rules switched off; [`favor`]: `--favor` and the
//!   extraction confidence.
//! - On the dev data of `../shared` (skipped when absent, failed where CI sets
//!   `OUTWARD_REQUIRE_DEV=1`): [`eval_bar`] (accuracy floors and misses), [`realworld`] (real
//!   pages read by a person), [`work_linear`] (the work bound on every dev page).
//! - [`soak`]: the nightly flow under SIGKILL, concurrent runs and a full disk, converging
//!   to one clean run's bytes (a short form here; `make soak` the full one).
//! - [`stress`]: hostile inputs, `#[ignore]`d: `make stress` runs them
//!   (`cargo test --release --test cli stress:: -- --ignored --nocapture`).

mod common;

mod arc;
mod eval_bar;
mod extract;
mod favor;
mod fixtures;
mod linenet;
mod metadata;
mod realworld;
mod remote;
mod report_page;
mod run;
mod site_memory;
mod soak;
mod stage;
mod stress;
mod train;
mod without;
mod work_linear;
