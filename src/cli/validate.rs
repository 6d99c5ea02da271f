use anglerpose::preset::io::validate_file;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ValidateArgs {
    /// The preset file to check.
    pub file: PathBuf,
}

/// Prints every problem with its JSON path; fails when any is an error.
pub fn run(args: ValidateArgs) -> anyhow::Result<()> {
    let problems = validate_file(&args.file);
    for p in &problems {
        outln!("{}: {p}", args.file.display());
    }
    let errors = problems.iter().filter(|p| p.is_error()).count();
    if errors > 0 {
        anyhow::bail!("{}: {errors} error(s)", args.file.display());
    }
    outln!(
        "{}: ok ({} warning(s))",
        args.file.display(),
        problems.len()
    );
    Ok(())
}
