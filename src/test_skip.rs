//! Skipped tests made visible (issue 38): a test that cannot run here (no GPU adapter, no
//! shared models, no node or bpy) announces it with [`announce`] (or [`crate::skip_notice!`]),
//! which writes past the test harness's output capture, so the line shows in the normal
//! `cargo test` output beside the test's `ok`, and appends it to the file named by
//! `ANGLERPOSE_SKIP_LOG` (set by `scripts/test.sh`, which ends with a summary of them).

use std::io::Write;
use std::path::Path;

/// Writes `message` to the process's real stderr (not the harness's capture) and, when
/// `ANGLERPOSE_SKIP_LOG` names a file, appends it there as one line. Errors writing either
/// are ignored: a skip notice must never fail a test.
pub fn announce(message: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{message}");
    if let Some(path) = std::env::var_os("ANGLERPOSE_SKIP_LOG") {
        append_line(Path::new(&path), message);
    }
}

/// Appends `message` to `log` as one line: its words, without the banner's asterisks.
fn append_line(log: &Path, message: &str) {
    let line: String = message
        .split_whitespace()
        .filter(|w| w.chars().any(|c| c != '*'))
        .collect::<Vec<_>>()
        .join(" ");
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
    {
        let _ = writeln!(f, "{line}");
    }
}

/// `format!`s its arguments and [`announce`]s them.
#[macro_export]
macro_rules! skip_notice {
    ($($arg:tt)*) => {
        $crate::test_skip::announce(&format!($($arg)*))
    };
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_notice_lands_in_the_log_as_one_line() {
        let log = std::env::temp_dir().join(format!("anglerpose-skips-{}.log", std::process::id()));
        let _ = std::fs::remove_file(&log);
        let message = format!("\n**********\nSKIP {}: {}\n**********\n", "t", "no adapter");
        super::append_line(&log, &message);
        super::append_line(&log, "SKIP: second");
        let read = std::fs::read_to_string(&log).unwrap();
        let _ = std::fs::remove_file(&log);
        assert_eq!(read, "SKIP t: no adapter\nSKIP: second\n");
    }
}
