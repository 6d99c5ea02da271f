//! Crash-safe preset files (issue 8, item 4): a process saving a large preset over and over is
//! killed with SIGKILL at random moments, at least 100 times; the file on disk must always be
//! exactly the old or the new version, never partial, and a save that completes leaves no
//! temporary file behind.
//!
//! The saving process is this test binary re-run with `ANGLERPOSE_CRASH_SAFE_CHILD` set (see
//! `helper_save_loop_child_process`), so no extra binary has to be built.

#![cfg(unix)]

use anglerpose::preset::{NamedPose, Preset, io};
use anglerpose::stage::{Stage, bundled_assets_dir};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHILD_ENV: &str = "ANGLERPOSE_CRASH_SAFE_CHILD";
const SAVES_ENV: &str = "ANGLERPOSE_CRASH_SAFE_SAVES";
const KILLS: usize = 120;

/// Not a test of its own: the body of the child process. Without `ANGLERPOSE_CRASH_SAFE_CHILD`
/// it returns at once. With it, it saves b.json's and a.json's presets alternately over
/// target.json in that folder, printing `saved N` after each save, `ANGLERPOSE_CRASH_SAFE_SAVES`
/// times (default: until killed).
#[test]
fn helper_save_loop_child_process() {
    let Some(dir) = std::env::var_os(CHILD_ENV).map(PathBuf::from) else {
        return;
    };
    let saves: usize = std::env::var(SAVES_ENV)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(usize::MAX);
    let a = io::load_preset(dir.join("a.json")).expect("a.json");
    let b = io::load_preset(dir.join("b.json")).expect("b.json");
    let target = dir.join("target.json");
    for i in 0..saves {
        let preset = if i % 2 == 0 { &b } else { &a };
        io::save_preset_atomic(&target, preset).expect("save");
        println!("saved {i}");
    }
}

/// Two different large presets (~2 MB: many named poses) saved as a.json and b.json.
fn write_versions(dir: &Path) -> (Vec<u8>, Vec<u8>) {
    let stage = Stage::bundled().expect("bundled stage");
    let character = io::character_ref(
        &dir.join("a.json"),
        &bundled_assets_dir().join("angler.glb"),
    )
    .unwrap();
    let base = Preset::from_stage(&stage, character);
    let version = |poses: usize, t: f64| {
        let mut p = base.clone();
        for i in 0..poses {
            let mut state = p.inputs.state;
            state.t = t;
            p.poses.insert(
                format!("pose_{i:05}"),
                NamedPose {
                    state,
                    calibration: None,
                },
            );
        }
        p
    };
    let (a, b) = (version(6000, 0.25), version(7000, 0.75));
    io::save_preset_atomic(dir.join("a.json"), &a).unwrap();
    io::save_preset_atomic(dir.join("b.json"), &b).unwrap();
    let a_bytes = std::fs::read(dir.join("a.json")).unwrap();
    let b_bytes = std::fs::read(dir.join("b.json")).unwrap();
    assert!(
        a_bytes.len() > 1 << 20,
        "a.json is only {} bytes",
        a_bytes.len()
    );
    assert_ne!(a_bytes, b_bytes);
    // The child saves what it loads: the round trip must give the same bytes.
    assert_eq!(
        io::load_preset(dir.join("a.json"))
            .unwrap()
            .to_json()
            .as_bytes(),
        a_bytes
    );
    (a_bytes, b_bytes)
}

fn spawn_child(dir: &Path, saves: Option<usize>) -> Child {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args([
        "helper_save_loop_child_process",
        "--exact",
        "--nocapture",
        "--test-threads=1",
    ])
    .env(CHILD_ENV, dir)
    .stdout(Stdio::piped())
    .stderr(Stdio::null());
    if let Some(n) = saves {
        cmd.env(SAVES_ENV, n.to_string());
    }
    cmd.spawn().expect("spawn the child")
}

fn temp_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !matches!(n.as_str(), "a.json" | "b.json" | "target.json"))
        .collect()
}

/// xorshift64*: reproducible delays from a printed seed.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
    }
}

#[test]
fn killing_the_saver_at_random_points_never_leaves_a_partial_preset() {
    let dir = std::env::temp_dir().join(format!("anglerpose-crash-safe-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (a, b) = write_versions(&dir);
    std::fs::copy(dir.join("a.json"), dir.join("target.json")).unwrap();

    let seed = std::env::var("ANGLERPOSE_CRASH_SAFE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
            now.map_or(1, |d| d.as_nanos() as u64)
        });
    println!("seed {seed} (set ANGLERPOSE_CRASH_SAFE_SEED to reproduce)");
    let mut rng = Rng(seed | 1);
    let (mut saw_a, mut saw_b, mut stale) = (0, 0, 0usize);
    let start = Instant::now();
    for kill in 0..KILLS {
        let mut child = spawn_child(&dir, None);
        // Wait for the first completed save, so the kill lands inside the save loop.
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let started = lines.any(|l| l.is_ok_and(|l| l.starts_with("saved ")));
        assert!(started, "kill {kill}: the child never saved");
        std::thread::sleep(Duration::from_micros(rng.below(60_000)));
        child.kill().expect("SIGKILL");
        child.wait().unwrap();
        let on_disk = std::fs::read(dir.join("target.json")).unwrap();
        if on_disk == a {
            saw_a += 1;
        } else if on_disk == b {
            saw_b += 1;
        } else {
            panic!(
                "kill {kill}: target.json is neither version ({} bytes; a {}, b {})",
                on_disk.len(),
                a.len(),
                b.len()
            );
        }
        // A killed save may leave its temporary file (nothing can remove it after SIGKILL);
        // it must never be mistaken for the preset. Clear it for the next round.
        for name in temp_files(&dir) {
            assert!(
                name.starts_with(".target.json.tmp-"),
                "unexpected file {name}"
            );
            std::fs::remove_file(dir.join(&name)).unwrap();
            stale += 1;
        }
    }
    println!(
        "{KILLS} kills in {:?}: old/new on disk {saw_a}/{saw_b}, {stale} temp files left by kills",
        start.elapsed()
    );
    // Both versions were seen, so the kills really interrupted a stream of saves.
    assert!(saw_a > 0 && saw_b > 0, "a {saw_a}, b {saw_b}");
    let loaded = io::load_preset(dir.join("target.json")).expect("the survivor loads");
    assert!(loaded.poses.len() == 6000 || loaded.poses.len() == 7000);

    // Saves that complete leave no temporary file.
    let mut child = spawn_child(&dir, Some(7));
    assert!(child.wait().unwrap().success());
    assert_eq!(temp_files(&dir), Vec::<String>::new());
    assert_eq!(
        std::fs::read(dir.join("target.json")).unwrap(),
        b,
        "7 saves end on b"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
