//! Watches the open character file for changes on disk (`notify`): written in place or
//! replaced by write-then-rename (the folder is watched, events filtered by file name). Events
//! wake the idle event loop and are debounced, so one save that touches the file several
//! times reloads once.

use notify::{RecommendedWatcher, RecursiveMode, Watcher};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// Quiet time after the last event before the file is read.
pub const DEBOUNCE: Duration = Duration::from_millis(250);

pub struct CharacterWatcher {
    watcher: Option<RecommendedWatcher>,
    rx: Option<Receiver<()>>,
    watched: Option<PathBuf>,
    due: Option<Instant>,
    wake: Arc<dyn Fn() + Send + Sync>,
}

impl CharacterWatcher {
    /// `wake` is called from the watcher's thread on every event for the file (it should
    /// wake the event loop).
    pub fn new(wake: impl Fn() + Send + Sync + 'static) -> Self {
        Self {
            watcher: None,
            rx: None,
            watched: None,
            due: None,
            wake: Arc::new(wake),
        }
    }

    /// Watches `file` (a no-op when it already is). An error leaves the editor without live
    /// reload; it is returned as text for the status bar.
    pub fn watch(&mut self, file: &Path) -> Result<(), String> {
        if self.watched.as_deref() == Some(file) {
            return Ok(());
        }
        self.watcher = None;
        self.rx = None;
        self.due = None;
        self.watched = Some(file.to_path_buf());
        let name = file
            .file_name()
            .map(|n| n.to_os_string())
            .ok_or_else(|| format!("{}: not a file", file.display()))?;
        let dir = match file.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let (tx, rx) = channel();
        let wake = Arc::clone(&self.wake);
        let mut watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
            let Ok(event) = res else { return };
            if event.kind.is_access() {
                return;
            }
            if event
                .paths
                .iter()
                .any(|p| p.file_name() == Some(name.as_os_str()))
            {
                let _ = tx.send(());
                wake();
            }
        })
        .map_err(|e| format!("watching {}: {e}", file.display()))?;
        watcher
            .watch(&dir, RecursiveMode::NonRecursive)
            .map_err(|e| format!("watching {}: {e}", dir.display()))?;
        self.watcher = Some(watcher);
        self.rx = Some(rx);
        Ok(())
    }

    /// Drains pending events; true once the file has been quiet for [`DEBOUNCE`] after a
    /// change (then the change is consumed).
    pub fn poll(&mut self, now: Instant) -> bool {
        if let Some(rx) = &self.rx {
            while rx.try_recv().is_ok() {
                self.due = Some(now + DEBOUNCE);
            }
        }
        match self.due {
            Some(t) if t <= now => {
                self.due = None;
                true
            }
            _ => false,
        }
    }

    /// When the next debounced reload is due, if one is pending.
    pub fn due(&self) -> Option<Instant> {
        self.due
    }
}
