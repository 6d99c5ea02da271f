//! The one error type of glTF import. Every variant names the file; most also name the
//! glTF object (by index and, where it has one, by name) and the JSON path of the problem.

use std::path::PathBuf;
use thiserror::Error;

/// Why a glTF file could not be imported. `Display` always starts with the file path.
#[derive(Debug, Error)]
pub enum LoadError {
    #[error("{path}: cannot read file: {error}", path = .path.display())]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// Not a glTF container at all, or a broken GLB header / chunk layout.
    #[error("{path}: not a valid glTF/GLB file: {problem}", path = .path.display())]
    Container { path: PathBuf, problem: String },
    /// An FBX file that ufbx cannot read, or that holds no character.
    #[error("{path}: FBX cannot be read: {problem}", path = .path.display())]
    Fbx { path: PathBuf, problem: String },
    #[error("{path}: glTF JSON cannot be parsed: {problem}", path = .path.display())]
    Json { path: PathBuf, problem: String },
    #[error("{path}: glTF validation failed: {problems}", path = .path.display())]
    Validation { path: PathBuf, problems: String },
    #[error(
        "{path}: required extension {extension} (extensionsRequired) is not supported",
        path = .path.display()
    )]
    UnsupportedExtension { path: PathBuf, extension: String },
    #[error("{path}: buffers[{buffer}]: {problem}", path = .path.display())]
    Buffer {
        path: PathBuf,
        buffer: usize,
        problem: String,
    },
    /// An accessor whose data lies outside its buffer view / buffer, or has an unusable layout.
    #[error("{path}: accessors[{accessor}] (used as {usage}): {problem}", path = .path.display())]
    Accessor {
        path: PathBuf,
        accessor: usize,
        usage: String,
        problem: String,
    },
    #[error("{path}: nodes[{node}] ({name:?}): {problem}", path = .path.display())]
    Node {
        path: PathBuf,
        node: usize,
        name: String,
        problem: String,
    },
    #[error(
        "{path}: node hierarchy has a cycle through nodes[{node}] ({name:?})",
        path = .path.display()
    )]
    NodeCycle {
        path: PathBuf,
        node: usize,
        name: String,
    },
    #[error("{path}: skins[{skin}] ({name:?}): {problem}", path = .path.display())]
    Skin {
        path: PathBuf,
        skin: usize,
        name: String,
        problem: String,
    },
    #[error(
        "{path}: meshes[{mesh}] ({name:?}).primitives[{primitive}]: {problem}",
        path = .path.display()
    )]
    Primitive {
        path: PathBuf,
        mesh: usize,
        name: String,
        primitive: usize,
        problem: String,
    },
    /// A defect in the import itself (a panic inside it, caught at the boundary): the file is
    /// named so it can be reported.
    #[error(
        "{path}: the glTF importer failed on this file ({problem}); please report it with the file",
        path = .path.display()
    )]
    Internal { path: PathBuf, problem: String },
}
