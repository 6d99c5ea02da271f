//! Autosave recovery restores the last autosaved state, and no step loses work:
//!
//! - library level ([`Autosaver`] + the editor's commands): an edited document autosaved and
//!   recovered is identical (calibration, settings, session state and every solved world
//!   matrix); recovering keeps the file until the work is saved; a save or a clean exit
//!   removes it; an earlier session's autosave is neither overwritten nor removed before it is
//!   recovered or discarded;
//! - end to end under Xvfb: the editor drags a handle (`--script`), autosaves, is killed with
//!   SIGKILL; a scripted run leaves the autosave alone; `--recover` (the Recover button's
//!   path) and a save give a preset equal to the autosaved edit, and the autosave is gone.
//!
//! All tests share one state folder (`ANGLERPOSE_STATE_DIR`, set once before anything reads
//! it) and run one at a time.

mod support;

use anglerpose::editor::files::{self, Autosaver};
use anglerpose::editor::pick::handle_pixel;
use anglerpose::editor::script::{ScriptDrag, drag_commands};
use anglerpose::editor::{DragCommand, FileCommand, PlaybackCommand, PoseEdit, ViewCommand};
use anglerpose::editor::{EditorState, Handle, Snapshot};
use anglerpose::preset::{self, Preset};
use anglerpose::rig::Side;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};
use support::editor::editor_in;
use support::fs::fresh_scratch;
use support::xwin::{Editor, STARTUP, Xvfb, read_layout, wait_for};

const SECOND: Duration = Duration::from_secs(1);

/// The shared state folder; the lock keeps the tests from running at the same time.
fn state() -> (PathBuf, MutexGuard<'static, ()>) {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    static LOCK: Mutex<()> = Mutex::new(());
    let dir = DIR.get_or_init(|| {
        let dir = fresh_scratch("autosave-state");
        // SAFETY: set once, inside `get_or_init`, before any test reads the environment
        // (every test calls `state()` first; the others wait on the `OnceLock`).
        unsafe { std::env::set_var("ANGLERPOSE_STATE_DIR", &dir) };
        dir
    });
    let guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    files::clear_autosave();
    (dir.clone(), guard)
}

fn character() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/angler.glb")
}

/// A preset of the bundled angler at `dir/pose.json` (saving needs no dialog).
fn preset_in(dir: &Path) -> PathBuf {
    let (mut doc, _) = files::open(&character()).unwrap();
    let path = dir.join("pose.json");
    files::save(&mut doc, &path).unwrap();
    path
}

fn editor(path: &Path) -> EditorState {
    let (doc, _) = files::open(path).unwrap();
    editor_in(doc, [800, 600])
}

/// A few edits of different kinds: a target drag, a finger curl, the time, the elbow limit.
fn edit(ed: &mut EditorState) {
    let [x, y] = handle_pixel(
        &ed.doc().stage,
        &ed.render_camera(),
        Handle::Target(Side::Right),
    )
    .unwrap();
    ed.apply(DragCommand::BeginDrag {
        handle: Handle::Target(Side::Right),
        x,
        y,
    })
    .unwrap();
    ed.apply(DragCommand::DragTo {
        x: x - 30.0,
        y: y - 20.0,
    })
    .unwrap();
    ed.apply(DragCommand::EndDrag).unwrap();
    ed.apply(PoseEdit::SetFingerCurl {
        side: Side::Left,
        value: 0.35,
    })
    .unwrap();
    ed.apply(PlaybackCommand::SetTime { seconds: 2.25 })
        .unwrap();
    assert!(ed.doc().dirty);
}

/// Everything the document's pose is made of, and the pose itself.
fn document_state(ed: &EditorState) -> (Snapshot, Vec<glam::DAffine3>) {
    (
        ed.doc().snapshot(),
        ed.doc().stage.pose.world_matrices().to_vec(),
    )
}

fn autosave_path() -> PathBuf {
    files::autosave_path().expect("ANGLERPOSE_STATE_DIR is set")
}

#[test]
fn an_autosaved_edit_recovers_identically_and_a_save_or_clean_exit_clears_it() {
    let (dir, _lock) = state();
    let preset = preset_in(&dir);
    let mut ed = editor(&preset);
    let mut autosave = Autosaver::new(SECOND);
    assert_eq!(autosave.pending(), None, "a fresh state folder");
    let clean_due = autosave.next_due(ed.doc());
    assert_eq!(clean_due, None, "nothing to autosave while clean");
    edit(&mut ed);
    let due = autosave.next_due(ed.doc()).expect("an autosave is due");
    assert!(!autosave.tick(ed.doc(), due - SECOND / 2).unwrap(), "early");
    assert!(!autosave_path().exists());
    assert!(autosave.tick(ed.doc(), due).unwrap(), "written when due");
    assert!(autosave_path().exists());
    assert_eq!(autosave.next_due(ed.doc()), None, "nothing new to write");
    let edited = document_state(&ed);

    // The next session (after a crash): offered the autosave, recovers it like the button.
    let mut next = editor(&preset);
    let mut next_autosave = Autosaver::new(SECOND);
    let pending = next_autosave.pending().expect("recovery is offered");
    assert!(next_autosave.is_autosave(&pending));
    next.apply(FileCommand::Open {
        path: pending.clone(),
    })
    .unwrap();
    next_autosave.recovered(next.doc());
    assert_eq!(document_state(&next), edited, "recovered exactly");
    assert!(next.doc().dirty, "recovered work is unsaved work");
    assert_eq!(
        next.doc().path,
        None,
        "the autosave is not the document's file"
    );
    assert!(pending.exists(), "kept until the recovered work is saved");
    assert_eq!(next_autosave.next_due(next.doc()), None, "already on disk");

    // Saving it clears the autosave; the saved preset reopens to the same state.
    let out = dir.join("recovered.json");
    next.apply(FileCommand::Save {
        path: Some(out.clone()),
    })
    .unwrap();
    next_autosave.saved();
    assert!(!pending.exists(), "a save clears the autosave");
    assert_eq!(document_state(&editor(&out)), edited);

    // A clean exit clears this session's autosave too.
    edit(&mut next);
    let due = next_autosave.next_due(next.doc()).unwrap();
    assert!(next_autosave.tick(next.doc(), due).unwrap());
    assert!(pending.exists());
    next_autosave.clean_exit();
    assert!(!pending.exists(), "a clean exit clears the autosave");
}

#[test]
fn an_earlier_sessions_autosave_is_kept_until_recovered_or_discarded() {
    let (dir, _lock) = state();
    let preset = preset_in(&dir);
    let mut crashed = editor(&preset);
    let mut crashed_autosave = Autosaver::new(Duration::ZERO);
    edit(&mut crashed);
    assert!(
        crashed_autosave
            .tick(crashed.doc(), Instant::now())
            .unwrap()
    );
    let path = autosave_path();
    let bytes = std::fs::read(&path).unwrap();

    // A session that neither recovers nor discards: edits, saves and exits cleanly.
    let mut other = editor(&preset);
    let mut autosave = Autosaver::new(Duration::ZERO);
    assert_eq!(autosave.pending().as_deref(), Some(path.as_path()));
    other
        .apply(PoseEdit::SetThumbCurl {
            side: Side::Right,
            value: 0.5,
        })
        .unwrap();
    assert_eq!(autosave.next_due(other.doc()), None, "not overwritten");
    assert!(!autosave.tick(other.doc(), Instant::now() + SECOND).unwrap());
    other
        .apply(FileCommand::Save {
            path: Some(dir.join("other.json")),
        })
        .unwrap();
    autosave.saved();
    autosave.clean_exit();
    assert_eq!(
        std::fs::read(&path).unwrap(),
        bytes,
        "left exactly as it was"
    );

    // Discarded (the dialog removes the file): the session's own changes autosave again.
    std::fs::remove_file(&path).unwrap();
    assert_eq!(autosave.pending(), None);
    other
        .apply(PoseEdit::SetThumbCurl {
            side: Side::Right,
            value: 0.25,
        })
        .unwrap();
    assert!(autosave.tick(other.doc(), Instant::now()).unwrap());
    assert!(path.exists());
    autosave.clean_exit();
}

/// Calibration, settings and session state of two presets are identical, and so are the
/// poses they solve to.
fn assert_same_work(a: &Path, b: &Path) {
    let (pa, pb) = (load(a), load(b));
    assert_eq!(
        pa.inputs.calibration,
        pb.inputs.calibration,
        "{} vs {}",
        a.display(),
        b.display()
    );
    assert_eq!(pa.inputs.settings, pb.inputs.settings);
    assert_eq!(pa.inputs.state, pb.inputs.state);
    assert_eq!(pa.character.sha256, pb.character.sha256);
    assert_eq!(document_state(&editor(a)), document_state(&editor(b)));
}

fn load(path: &Path) -> Preset {
    preset::io::load_preset(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn end_to_end_a_killed_editor_is_recovered_with_recover_and_saved() {
    let (_, _lock) = state();
    let Some(x) = Xvfb::start("editor autosave recovery end to end") else {
        return;
    };
    let dir = fresh_scratch("recovery-e2e");
    let state = dir.join("state");
    let autosave = state.join("autosave.json");
    let preset = preset_in(&dir);
    let layout = dir.join("layout.json");
    let drag = ScriptDrag {
        handle: Handle::Target(Side::Right),
        by: [-40.0, -30.0],
    };
    let script = dir.join("drag.json");
    std::fs::write(
        &script,
        r#"[{"frame": 10, "drag": {"handle": {"target": "right"}, "by": [-40, -30]}}]"#,
    )
    .unwrap();
    let window = ["--window", "1000x700"].map(OsStr::new);

    // 1. Edit, wait for the autosave, kill -9.
    let mut first = Editor::start(
        &x,
        &dir,
        &state,
        "first",
        &[
            preset.as_os_str(),
            window[0],
            window[1],
            OsStr::new("--script"),
            script.as_os_str(),
            OsStr::new("--layout-out"),
            layout.as_os_str(),
            OsStr::new("--autosave-seconds"),
            OsStr::new("1"),
        ],
    );
    wait_for("the autosave", STARTUP, || {
        first.assert_alive("the drag");
        autosave.exists()
    });
    first.child.0.kill().unwrap();
    first.child.0.wait().unwrap();
    assert!(autosave.exists(), "the autosave outlives the killed editor");
    let autosaved = std::fs::read(&autosave).unwrap();

    // The autosave holds exactly the scripted drag (replayed here on the same layout).
    let (_, size) = read_layout(&layout).expect("the editor's layout");
    let (doc, _) = files::open(&preset).unwrap();
    let mut replay = EditorState::new(doc);
    replay
        .apply(ViewCommand::SetViewport {
            width: size[0],
            height: size[1],
        })
        .unwrap();
    for cmd in drag_commands(&replay, &drag).expect("the target is on screen") {
        replay.apply(cmd).unwrap();
    }
    assert_ne!(
        load(&autosave).inputs.calibration,
        load(&preset).inputs.calibration,
        "edited"
    );
    assert_eq!(
        document_state(&editor(&autosave)),
        document_state(&replay),
        "the autosave is the dragged state"
    );

    // 2. A scripted run that does not recover leaves the autosave exactly as it was.
    let mut timed = Editor::start(
        &x,
        &dir,
        &state,
        "timed",
        &[preset.as_os_str(), window[0], window[1]]
            .into_iter()
            .chain(["--exit-after-frames", "3"].map(OsStr::new))
            .collect::<Vec<_>>(),
    );
    let status = timed.wait_exit(STARTUP);
    assert!(status.success(), "{status}: {}", timed.log_text());
    assert_eq!(std::fs::read(&autosave).unwrap(), autosaved, "untouched");

    // 3. Recover (the Recover button's path), save, quit.
    let out = dir.join("recovered.json");
    let recover_script = dir.join("save.json");
    std::fs::write(
        &recover_script,
        serde_json::json!([
            {"frame": 5, "command": {"cmd": "save", "path": out}},
            {"frame": 6, "quit": true}
        ])
        .to_string(),
    )
    .unwrap();
    let mut second = Editor::start(
        &x,
        &dir,
        &state,
        "second",
        &[
            preset.as_os_str(),
            window[0],
            window[1],
            OsStr::new("--recover"),
            OsStr::new("--script"),
            recover_script.as_os_str(),
        ],
    );
    let status = second.wait_exit(STARTUP);
    assert!(status.success(), "{status}: {}", second.log_text());
    assert!(out.exists(), "saved; log:\n{}", second.log_text());
    assert!(!autosave.exists(), "the save cleared the autosave");
    // Put the autosaved bytes back where they were (its character path is relative to the
    // state folder) to compare.
    std::fs::write(&autosave, &autosaved).unwrap();
    assert_same_work(&out, &autosave);
    std::fs::remove_file(&autosave).unwrap();

    // 4. `--recover` with nothing to recover is an error that says so.
    let mut nothing = Editor::start(
        &x,
        &dir,
        &state,
        "nothing",
        &[preset.as_os_str(), OsStr::new("--recover")],
    );
    let status = nothing.wait_exit(STARTUP);
    assert!(!status.success(), "--recover without an autosave must fail");
    assert!(
        nothing.log_text().contains("no autosave to recover"),
        "{}",
        nothing.log_text()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
