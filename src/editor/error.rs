//! [`EditorError`]: why a command was refused (the document stays as it was).

use super::files::FileError;
use crate::fishing::SessionError;
use thiserror::Error;

/// Why a command was refused; its text is what the status bar shows.
#[derive(Debug, Error)]
pub enum EditorError {
    #[error("the pose cannot be solved with this edit: {0}")]
    Session(#[from] SessionError),
    #[error(transparent)]
    File(#[from] FileError),
    #[error("{0}")]
    Invalid(String),
}
