//! Reading the container: GLB chunks or plain JSON, required extensions, validation, buffers
//! and images. Nothing here trusts lengths or indices from the file without checking them.

use super::{LoadError, RgbaImage};
use gltf::json::validation::Validate;
use std::path::{Path, PathBuf};

/// Required extensions we can honour: quantized attributes are read by the generic accessor
/// reader; the others only affect shading details the importer does not model.
pub const SUPPORTED_REQUIRED_EXTENSIONS: &[&str] = &[
    "KHR_mesh_quantization",
    "KHR_materials_unlit",
    "KHR_texture_transform",
    "KHR_materials_emissive_strength",
];

/// A parsed, validated document with its binary chunk (GLB only).
pub struct Container {
    pub document: gltf::Document,
    pub blob: Option<Vec<u8>>,
    /// A VRM humanoid declaration, or what is wrong with the one the file has.
    pub vrm: Result<Option<super::vrm::VrmHumanoid>, String>,
}

const GLB_MAGIC: &[u8; 4] = b"glTF";
const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;

fn read_u32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Splits a GLB into its JSON and optional BIN chunk, checking every length.
/// (`gltf::Glb::from_slice` underflows on a header length below 12, so it is not used.)
fn split_glb(path: &Path, bytes: &[u8]) -> Result<(Vec<u8>, Option<Vec<u8>>), LoadError> {
    let bad = |problem: String| LoadError::Container {
        path: path.to_path_buf(),
        problem,
    };
    if bytes.len() < 12 {
        return Err(bad(format!(
            "GLB header truncated: file has {} bytes, a header needs 12",
            bytes.len()
        )));
    }
    let version = read_u32(bytes, 4).unwrap_or(0);
    if version != 2 {
        return Err(bad(format!(
            "GLB version {version}, only version 2 is supported"
        )));
    }
    let declared = read_u32(bytes, 8).unwrap_or(0) as usize;
    if declared < 20 {
        return Err(bad(format!(
            "GLB header declares a total length of {declared} bytes, less than the 20 a header \
             and one chunk need"
        )));
    }
    if declared > bytes.len() {
        return Err(bad(format!(
            "GLB truncated: header declares {declared} bytes but the file has {}",
            bytes.len()
        )));
    }
    let body = &bytes[..declared];
    let mut at = 12usize;
    let mut json = None;
    let mut bin = None;
    let mut chunk_no = 0;
    while at < body.len() {
        let (Some(len), Some(kind)) = (read_u32(body, at), read_u32(body, at + 4)) else {
            return Err(bad(format!(
                "GLB chunk {chunk_no} header truncated at byte {at}"
            )));
        };
        let start = at + 8;
        let end = start
            .checked_add(len as usize)
            .filter(|&e| e <= body.len())
            .ok_or_else(|| {
                bad(format!(
                    "GLB chunk {chunk_no} declares {len} bytes but only {} remain (truncated file)",
                    body.len().saturating_sub(start)
                ))
            })?;
        let data = body[start..end].to_vec();
        match (chunk_no, kind) {
            (0, CHUNK_JSON) => json = Some(data),
            (0, _) => {
                return Err(bad(format!(
                    "first GLB chunk has type {kind:#010x}, expected JSON"
                )));
            }
            (1, CHUNK_BIN) => bin = Some(data),
            _ => {} // unknown chunks are ignored, as the spec requires
        }
        chunk_no += 1;
        at = (end + 3) & !3;
    }
    let json = json.ok_or_else(|| bad("GLB has no JSON chunk".to_string()))?;
    Ok((json, bin))
}

/// Parses bytes (GLB or JSON glTF) into a validated document.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Container, LoadError> {
    let (json_bytes, blob) = if bytes.starts_with(GLB_MAGIC) {
        split_glb(path, bytes)?
    } else {
        let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
        if bytes.is_empty() {
            return Err(LoadError::Container {
                path: path.to_path_buf(),
                problem: "the file is empty".to_string(),
            });
        }
        if first != Some(&b'{') {
            let magic: Vec<u8> = bytes.iter().take(4).copied().collect();
            return Err(LoadError::Container {
                path: path.to_path_buf(),
                problem: format!(
                    "neither GLB (magic \"glTF\") nor JSON glTF: starts with bytes {magic:02x?}"
                ),
            });
        }
        (bytes.to_vec(), None)
    };
    let root: gltf::json::Root =
        gltf::json::deserialize::from_slice(&json_bytes).map_err(|e| LoadError::Json {
            path: path.to_path_buf(),
            problem: e.to_string(),
        })?;
    for ext in &root.extensions_required {
        if !SUPPORTED_REQUIRED_EXTENSIONS.contains(&ext.as_str()) {
            return Err(LoadError::UnsupportedExtension {
                path: path.to_path_buf(),
                extension: ext.clone(),
            });
        }
    }
    let mut problems = position_index_problems(&root);
    if problems.is_empty() {
        // gltf-json's validator indexes a few arrays directly; the check above covers the known
        // case, and a panic in any other is still turned into an error.
        let validated = std::panic::catch_unwind(|| {
            let mut found = Vec::new();
            root.validate(&root, gltf::json::Path::new, &mut |p, e| {
                let p = p();
                if !p.as_str().starts_with("extensionsRequired") && !zeros_accessor(&p, &e) {
                    found.push(format!("{}: {e}", p.as_str()));
                }
            });
            found
        });
        problems =
            validated.unwrap_or_else(|_| vec!["the glTF validator failed on this file".into()]);
    }
    if !problems.is_empty() {
        let more = problems.len().saturating_sub(8);
        problems.truncate(8);
        let mut text = problems.join("; ");
        if more > 0 {
            text.push_str(&format!("; and {more} more"));
        }
        return Err(LoadError::Validation {
            path: path.to_path_buf(),
            problems: text,
        });
    }
    let vrm = super::vrm::read(&json_bytes, root.nodes.len());
    Ok(Container {
        document: gltf::Document::from_json_without_validation(root),
        blob,
        vrm,
    })
}

/// gltf-json 1.4.1 calls an accessor without `bufferView` "Missing data", but the spec says it
/// is all zeros (sparse values may replace some): legal, and read as such.
fn zeros_accessor(p: &gltf::json::Path, e: &gltf::json::validation::Error) -> bool {
    let p = p.as_str();
    matches!(e, gltf::json::validation::Error::Missing)
        && p.starts_with("accessors[")
        && p.ends_with("].bufferView")
}

/// What gltf-json's validator lets through but the `gltf` crate then unwraps or indexes:
/// POSITION accessor indices out of range (the validator itself indexes with them), and an
/// image with neither `uri` nor `bufferView`, or a `bufferView` without `mimeType`
/// (`gltf::Image::source` unwraps both).
fn position_index_problems(root: &gltf::json::Root) -> Vec<String> {
    let mut out = Vec::new();
    for (i, image) in root.images.iter().enumerate() {
        match (&image.uri, &image.buffer_view, &image.mime_type) {
            (None, None, _) => out.push(format!(
                "images[{i}]: has neither a uri nor a bufferView (one is required)"
            )),
            (_, Some(_), None) => {
                out.push(format!("images[{i}]: a bufferView image needs a mimeType"))
            }
            _ => {}
        }
    }
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, prim) in mesh.primitives.iter().enumerate() {
            let key = gltf::json::validation::Checked::Valid(gltf::Semantic::Positions);
            if let Some(idx) = prim.attributes.get(&key)
                && idx.value() >= root.accessors.len()
            {
                out.push(format!(
                    "meshes[{m}].primitives[{p}].attributes.POSITION: accessor {} does not exist \
                     ({} accessors)",
                    idx.value(),
                    root.accessors.len()
                ));
            }
        }
    }
    out
}

fn base_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Reads a buffer or image URI (data URI, `file:` or a path relative to `base`) with the
/// `gltf` crate's resolver, after checking what that resolver unwraps: a relative URI whose
/// percent-escapes decode to invalid UTF-8 (`"%FF.bin"`) panics inside `gltf` 1.4.1 (found
/// by the `gltf_import` fuzz target), so it is an error here instead.
fn read_uri(base: &Path, uri: &str) -> Result<Vec<u8>, String> {
    if !uri.contains(':') && std::str::from_utf8(&percent_decode(uri)).is_err() {
        return Err(format!(
            "the uri {uri:?} does not percent-decode to UTF-8 text"
        ));
    }
    gltf::buffer::Data::from_source_and_blob(gltf::buffer::Source::Uri(uri), Some(base), &mut None)
        .map(|d| d.0)
        .map_err(|e| e.to_string())
}

/// `%XX` escapes (two hex digits) replaced by their byte; anything else kept as is — the
/// decoding `gltf` applies to relative URIs.
fn percent_decode(uri: &str) -> Vec<u8> {
    let bytes = uri.as_bytes();
    let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let (Some(hi), Some(lo)) = (
                bytes.get(i + 1).copied().and_then(hex),
                bytes.get(i + 2).copied().and_then(hex),
            )
        {
            out.push(hi << 4 | lo);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

/// Loads every buffer: the GLB BIN chunk, data URIs and external files next to `path`.
pub fn load_buffers(
    path: &Path,
    document: &gltf::Document,
    blob: &mut Option<Vec<u8>>,
) -> Result<Vec<Vec<u8>>, LoadError> {
    let base = base_dir(path);
    let mut out = Vec::new();
    for buffer in document.buffers() {
        let err = |problem: String| LoadError::Buffer {
            path: path.to_path_buf(),
            buffer: buffer.index(),
            problem,
        };
        let data = match buffer.source() {
            gltf::buffer::Source::Bin => blob.take().ok_or_else(|| {
                err("has no uri and the file has no GLB binary chunk".to_string())
            })?,
            gltf::buffer::Source::Uri(uri) => {
                let shown = if uri.starts_with("data:") {
                    "data URI".to_string()
                } else {
                    format!("{:?}", base.join(uri).display().to_string())
                };
                read_uri(&base, uri).map_err(|e| err(format!("cannot load {shown}: {e}")))?
            }
        };
        if data.len() < buffer.length() {
            return Err(err(format!(
                "byteLength is {} but only {} bytes are available",
                buffer.length(),
                data.len()
            )));
        }
        out.push(data);
    }
    Ok(out)
}

/// Bytes of a buffer view, bounds-checked.
pub fn view_bytes<'b>(
    buffers: &'b [Vec<u8>],
    view: &gltf::buffer::View,
) -> Result<&'b [u8], String> {
    let data = buffers
        .get(view.buffer().index())
        .ok_or_else(|| format!("bufferViews[{}] names a missing buffer", view.index()))?;
    let end = view
        .offset()
        .checked_add(view.length())
        .filter(|&e| e <= data.len())
        .ok_or_else(|| {
            format!(
                "bufferViews[{}] (offset {}, length {}) runs past the end of buffers[{}] ({} bytes)",
                view.index(),
                view.offset(),
                view.length(),
                view.buffer().index(),
                data.len()
            )
        })?;
    Ok(&data[view.offset()..end])
}

/// Decodes every image to RGBA8. An image that cannot be loaded or decoded becomes a 1×1
/// white placeholder and a warning: a missing texture should not stop posing.
pub fn load_images(
    path: &Path,
    document: &gltf::Document,
    buffers: &[Vec<u8>],
    warnings: &mut Vec<String>,
) -> Vec<RgbaImage> {
    let base = base_dir(path);
    let mut out = Vec::new();
    for image in document.images() {
        let bytes: Result<Vec<u8>, String> = match image.source() {
            gltf::image::Source::View { view, .. } => {
                view_bytes(buffers, &view).map(<[u8]>::to_vec)
            }
            gltf::image::Source::Uri { uri, .. } => {
                read_uri(&base, uri).map_err(|e| format!("cannot load {uri:?}: {e}"))
            }
        };
        let decoded = bytes.and_then(|b| {
            image::load_from_memory(&b)
                .map(|img| img.to_rgba8())
                .map_err(|e| format!("cannot decode: {e}"))
        });
        match decoded {
            Ok(img) => out.push(RgbaImage {
                width: img.width(),
                height: img.height(),
                rgba: img.into_raw(),
            }),
            Err(problem) => {
                warnings.push(format!(
                    "images[{}]: {problem}; using a white placeholder",
                    image.index()
                ));
                out.push(RgbaImage {
                    width: 1,
                    height: 1,
                    rgba: vec![255; 4],
                });
            }
        }
    }
    out
}
