//! The editor window under Xvfb for end-to-end tests: a private X server, the editor process
//! with its own state folder and log, xdotool, and the layout file the editor writes.
//!
//! Everything here skips loudly when Xvfb or xdotool is missing, unless
//! `ANGLERPOSE_REQUIRE_GPU=1`, when it panics instead.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Startup on a CPU rasteriser compiles shaders and builds the angler: be patient.
pub const STARTUP: Duration = Duration::from_secs(240);

pub fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Prints a loud SKIP line, or panics when `ANGLERPOSE_REQUIRE_GPU=1`.
pub fn skip(test: &str, reason: &str) {
    if std::env::var("ANGLERPOSE_REQUIRE_GPU").is_ok_and(|v| v == "1") {
        panic!("ANGLERPOSE_REQUIRE_GPU=1 but {reason}");
    }
    anglerpose::skip_notice!("\n**********\nSKIP {test}: {reason}\n**********\n");
}

/// Polls `ok` every 100 ms; panics naming `what` after `timeout`.
pub fn wait_for(what: &str, timeout: Duration, mut ok: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ok() {
        assert!(start.elapsed() < timeout, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Kills (SIGKILL on Unix) and reaps the child when dropped.
pub struct Kill(pub Child);

impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A private Xvfb server on a display number it picked itself (`-displayfd`), so parallel
/// tests never share one.
pub struct Xvfb {
    pub display: String,
    _server: Kill,
}

impl Xvfb {
    /// `None` (after [`skip`]) when Xvfb or xdotool is missing.
    pub fn start(test: &str) -> Option<Self> {
        if !(have("Xvfb") && have("xdotool")) {
            skip(
                test,
                "Xvfb or xdotool is not installed (apt-get install -y xvfb xdotool imagemagick)",
            );
            return None;
        }
        let mut server = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1280x800x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb starts");
        let stdout = server.stdout.take().expect("Xvfb's stdout");
        let server = Kill(server);
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("Xvfb prints its display number");
        let number: u32 = line
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("Xvfb -displayfd printed {line:?}"));
        Some(Self {
            display: format!(":{number}"),
            _server: server,
        })
    }

    pub fn xdotool(&self, args: &[&str]) -> String {
        let out = Command::new("xdotool")
            .args(args)
            .env("DISPLAY", &self.display)
            .output()
            .expect("xdotool runs");
        assert!(
            out.status.success(),
            "xdotool {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// The editor's window id (waits for it to be mapped).
    pub fn editor_window(&self) -> String {
        let found = self.xdotool(&["search", "--sync", "--name", "anglerpose"]);
        found.lines().next().expect("a window").to_string()
    }

    /// Inner size of `window` from `xdotool getwindowgeometry`.
    pub fn window_size(&self, window: &str) -> [u32; 2] {
        self.window_geometry(window).1
    }

    /// Position on the screen and inner size of `window` (`xdotool getwindowgeometry`).
    pub fn window_geometry(&self, window: &str) -> ([u32; 2], [u32; 2]) {
        let text = self.xdotool(&["getwindowgeometry", window]);
        let field = |name: &str| {
            text.lines()
                .find_map(|l| l.trim().strip_prefix(name))
                .unwrap_or_else(|| panic!("no {name:?} in {text:?}"))
                .to_string()
        };
        let pair = |s: &str, sep: char| -> [u32; 2] {
            let (a, b) = s.split_once(sep).unwrap_or_else(|| panic!("{s:?}"));
            [a.trim().parse().unwrap(), b.trim().parse().unwrap()]
        };
        let position = field("Position: ");
        let position = position.split(' ').next().unwrap_or_default();
        (pair(position, ','), pair(&field("Geometry: "), 'x'))
    }

    /// The whole X screen as an image (ImageMagick `import`); `None` when it is missing.
    pub fn capture_screen(&self, out: &Path) -> Option<image::RgbaImage> {
        if !have("import") {
            eprintln!("(no ImageMagick import: screen capture check left out)");
            return None;
        }
        let status = Command::new("import")
            .args(["-window", "root"])
            .arg(out)
            .env("DISPLAY", &self.display)
            .status()
            .expect("import runs");
        assert!(status.success(), "import -window root: {status}");
        Some(image::open(out).expect("screen capture").to_rgba8())
    }
}

/// An editor process with its stderr in a log file.
pub struct Editor {
    pub child: Kill,
    pub log: PathBuf,
}

impl Editor {
    /// Starts `anglerpose edit ARGS` on `x`'s display with `state` as its state folder.
    pub fn start(
        x: &Xvfb,
        dir: &Path,
        state: &Path,
        name: &str,
        args: &[&std::ffi::OsStr],
    ) -> Self {
        Self::start_with_env(x, dir, state, name, args, &[])
    }

    /// [`Editor::start`] with extra environment variables.
    pub fn start_with_env(
        x: &Xvfb,
        dir: &Path,
        state: &Path,
        name: &str,
        args: &[&std::ffi::OsStr],
        env: &[(&str, &str)],
    ) -> Self {
        std::fs::create_dir_all(dir.join("runtime")).unwrap();
        let log = dir.join(format!("{name}.log"));
        let stderr = std::fs::File::create(&log).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_anglerpose"))
            .arg("edit")
            .args(args)
            .env("DISPLAY", &x.display)
            .env("XDG_RUNTIME_DIR", dir.join("runtime"))
            .env("ANGLERPOSE_STATE_DIR", state)
            .env_remove("WAYLAND_DISPLAY")
            // The editor's logs go through tracing: the default filter unless a test sets one.
            .env_remove("RUST_LOG")
            .envs(env.iter().copied())
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()
            .expect("the editor starts");
        Self {
            child: Kill(child),
            log,
        }
    }

    /// Starts the editor on `file` in a 1000×640 window with `--layout-out`, waits until its
    /// layout is written and lets it draw for two more seconds. Returns the layout file too.
    pub fn start_laid_out(x: &Xvfb, dir: &Path, name: &str, file: &Path) -> (Self, PathBuf) {
        Self::start_laid_out_with(x, dir, name, file, "1000x640", &[])
    }

    /// [`Editor::start_laid_out`] in a `window`-sized window (`WxH`), with `extra` arguments.
    pub fn start_laid_out_with(
        x: &Xvfb,
        dir: &Path,
        name: &str,
        file: &Path,
        window: &str,
        extra: &[&std::ffi::OsStr],
    ) -> (Self, PathBuf) {
        let layout = dir.join("layout.json");
        let mut args = vec![
            file.as_os_str(),
            "--window".as_ref(),
            window.as_ref(),
            "--layout-out".as_ref(),
            layout.as_os_str(),
        ];
        args.extend_from_slice(extra);
        let editor = Self::start(x, dir, &dir.join("state"), name, &args);
        wait_for("the editor's layout", STARTUP, || {
            read_layout(&layout).is_some()
        });
        std::thread::sleep(Duration::from_secs(2));
        (editor, layout)
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Panics with the log when the editor is no longer running.
    pub fn assert_alive(&mut self, after: &str) {
        if let Some(status) = self.child.0.try_wait().unwrap() {
            panic!(
                "the editor exited ({status}) after {after}; its log:\n{}",
                self.log_text()
            );
        }
    }

    /// Waits for the editor to exit by itself.
    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.0.try_wait().unwrap() {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the editor did not exit; its log:\n{}",
                self.log_text()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// `{"origin": [x, y], "size": [w, h]}` as the editor's `--layout-out` writes it.
pub fn read_layout(path: &Path) -> Option<([u32; 2], [u32; 2])> {
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    let o = v["origin"].as_array()?;
    let s = v["size"].as_array()?;
    let n = |v: &serde_json::Value| v.as_u64().map(|n| n as u32);
    Some(([n(&o[0])?, n(&o[1])?], [n(&s[0])?, n(&s[1])?]))
}
