//! The `anglerpose` command line. Errors are reported once, here, through `anyhow`.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        // `anglerpose solve --timeline 5000 | head -c 10`: the reader has what it wanted.
        Err(err) if err.downcast_ref::<cli::ClosedPipe>().is_some() => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {}", report(&err));
            ExitCode::FAILURE
        }
    }
}

/// The error and its causes, each cause once: library errors often already say their source
/// (`"{path}: {source}"`), and `{:#}` would repeat it.
fn report(err: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in err.chain() {
        let c = cause.to_string();
        if !text.contains(&c) {
            if !text.is_empty() {
                text.push_str(": ");
            }
            text.push_str(&c);
        }
    }
    text
}
