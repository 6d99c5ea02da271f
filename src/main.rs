//! The `anglerpose` command line. Errors are reported once, here, through `anyhow`.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    init_logging();
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

/// Logs (the editor's surface, GPU, autosave and reload events) go to stderr through
/// `tracing`; `RUST_LOG` filters them (default `warn,anglerpose=info`). Command output and
/// command errors are not logs: they are printed as before.
fn init_logging() {
    use std::io::IsTerminal;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,anglerpose=info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_target(false)
        .try_init();
}
