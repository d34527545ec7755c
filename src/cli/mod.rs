//! The `outward` command's rooms: its flags (`args`), one file per subcommand (`run`,
//! `extract`, `eval`, `train`, `sites`, `bench`, `report`), what it prints of a run
//! (`summary`) and while it works (`progress`). Thin: every computation is the library's
//! (`outward_pipeline`, re-exported as `outward`); these files parse, call and print.

pub mod args;
pub mod bench;
pub mod eval;
pub mod extract;
pub mod progress;
pub mod report;
pub mod run;
pub mod sites;
pub mod summary;
pub mod train;
