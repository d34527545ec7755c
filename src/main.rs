//! The `outward` command: parses its arguments and hands each subcommand to its room in
//! `cli/`. Computes nothing itself.
//!
//! Exit codes: 0 every input complete; 1 some input partial or failed (the others still done);
//! 2 usage or setup error.

mod cli;

use clap::Parser;
use cli::args::{Cli, Command};
use std::process::ExitCode;

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Run(args) => cli::run::run(args),
        Command::Extract(args) => cli::extract::extract(args),
        Command::Eval(args) => cli::eval::eval(args),
        Command::Bench(args) => cli::bench::bench(args),
        Command::Train(args) => cli::train::train(args),
        Command::Sites(command) => cli::sites::sites(command),
        Command::Report(args) => cli::report::report(args),
    }
}
