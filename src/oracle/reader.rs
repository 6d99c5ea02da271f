//! Path-aware typed access to a parsed JSON document, and the JSON path at a syntax error.

use super::SceneError;
use glam::{DQuat, DVec3};
use serde_json::{Map, Value};

/// Reads typed values and reports errors as `source: path: problem`.
pub(super) struct Reader<'a> {
    pub source: &'a str,
}

/// Human name of a JSON value's type.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

pub(super) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// The largest magnitude a scene number may have (lengths are squared and multiplied in the
/// solvers; 1e12 keeps every product far inside `f64`).
pub const MAX_MAGNITUDE: f64 = 1e12;

impl Reader<'_> {
    pub fn err(&self, path: &str, message: impl Into<String>) -> SceneError {
        SceneError::Invalid {
            file: self.source.to_string(),
            path: if path.is_empty() {
                ROOT_PATH.into()
            } else {
                path.to_string()
            },
            message: message.into(),
        }
    }

    fn wrong(&self, path: &str, expected: &str, v: &Value) -> SceneError {
        self.err(path, format!("expected {expected}, found {}", kind(v)))
    }

    pub fn object<'v>(
        &self,
        v: &'v Value,
        path: &str,
    ) -> Result<&'v Map<String, Value>, SceneError> {
        v.as_object()
            .ok_or_else(|| self.wrong(path, "an object", v))
    }

    pub fn array<'v>(&self, v: &'v Value, path: &str) -> Result<&'v Vec<Value>, SceneError> {
        v.as_array().ok_or_else(|| self.wrong(path, "an array", v))
    }

    /// A present key (null counts as absent for optional keys, as in the oracle's `??`).
    pub fn optional<'v>(obj: &'v Map<String, Value>, key: &str) -> Option<&'v Value> {
        obj.get(key).filter(|v| !v.is_null())
    }

    pub fn required<'v>(
        &self,
        obj: &'v Map<String, Value>,
        key: &str,
        path: &str,
    ) -> Result<&'v Value, SceneError> {
        Self::optional(obj, key).ok_or_else(|| self.err(&join(path, key), "missing required key"))
    }

    pub fn number(&self, v: &Value, path: &str) -> Result<f64, SceneError> {
        let x = v.as_f64().ok_or_else(|| self.wrong(path, "a number", v))?;
        if !x.is_finite() {
            return Err(self.err(path, format!("{x} is not a finite number")));
        }
        if x.abs() > MAX_MAGNITUDE {
            return Err(self.err(
                path,
                format!(
                    "{x:e} is beyond ±{MAX_MAGNITUDE:e}: the solvers square lengths, which would \
                     overflow or lose every digit"
                ),
            ));
        }
        Ok(x)
    }

    /// An integer-valued number in `[min, max]`.
    pub fn integer(&self, v: &Value, path: &str, min: i64, max: i64) -> Result<i64, SceneError> {
        let x = self.number(v, path)?;
        if x.fract() != 0.0 {
            return Err(self.err(path, format!("{x} is not an integer")));
        }
        if x < min as f64 || x > max as f64 {
            return Err(self.err(path, format!("{x} is outside [{min}, {max}]")));
        }
        Ok(x as i64)
    }

    /// A bone index `< count`.
    pub fn index(&self, v: &Value, path: &str, count: usize) -> Result<usize, SceneError> {
        let x = self.number(v, path)?;
        if x.fract() != 0.0 || x < 0.0 {
            return Err(self.err(
                path,
                format!("{x} is not a bone index (a non-negative integer)"),
            ));
        }
        if x >= count as f64 {
            return Err(self.err(path, format!("{x} is out of range ({count} bones)")));
        }
        Ok(x as usize)
    }

    pub fn boolean(&self, v: &Value, path: &str) -> Result<bool, SceneError> {
        v.as_bool()
            .ok_or_else(|| self.wrong(path, "true or false", v))
    }

    pub fn string<'v>(&self, v: &'v Value, path: &str) -> Result<&'v str, SceneError> {
        v.as_str().ok_or_else(|| self.wrong(path, "a string", v))
    }

    fn numbers<const N: usize>(
        &self,
        v: &Value,
        path: &str,
        shape: &str,
    ) -> Result<[f64; N], SceneError> {
        let a = v.as_array().ok_or_else(|| self.wrong(path, shape, v))?;
        if a.len() != N {
            return Err(self.err(path, format!("expected {shape}, found {} numbers", a.len())));
        }
        let mut out = [0.0; N];
        for (i, x) in a.iter().enumerate() {
            out[i] = self.number(x, &format!("{path}[{i}]"))?;
        }
        Ok(out)
    }

    pub fn vec3(&self, v: &Value, path: &str) -> Result<DVec3, SceneError> {
        self.numbers::<3>(v, path, "[x, y, z]")
            .map(DVec3::from_array)
    }

    pub fn vec2(&self, v: &Value, path: &str) -> Result<[f64; 2], SceneError> {
        self.numbers::<2>(v, path, "[min, max]")
    }

    /// `[x, y, z, w]`, kept as given (like three) but required to be unit within 1e-3.
    pub fn quat(&self, v: &Value, path: &str) -> Result<DQuat, SceneError> {
        let [x, y, z, w] = self.numbers::<4>(v, path, "[x, y, z, w]")?;
        let q = DQuat::from_xyzw(x, y, z, w);
        let len = q.length();
        if (len - 1.0).abs() > 1e-3 {
            return Err(self.err(path, format!("not a unit quaternion (length {len})")));
        }
        Ok(q)
    }
}

/// How an error names the document itself rather than a value in it.
pub const ROOT_PATH: &str = "(root)";

/// The JSON path of the value serde_json was reading when `e` stopped it in `text`
/// ([`ROOT_PATH`] at the top level): the path of the value being read just before the byte
/// it stopped at (serde_json's line and column are 1-based). Every reader of JSON files
/// (scenes, presets) names a syntax error's place this way.
pub(crate) fn syntax_path(text: &str, e: &serde_json::Error) -> String {
    let path = path_at(text, offset_of(text, e.line(), e.column()));
    if path.is_empty() {
        ROOT_PATH.to_string()
    } else {
        path
    }
}

/// Builds a syntax error, naming the JSON path the parser had reached.
pub(super) fn syntax_error(source: &str, text: &str, e: &serde_json::Error) -> SceneError {
    let (line, column) = (e.line(), e.column());
    let path = syntax_path(text, e);
    let full = e.to_string();
    // serde_json appends " at line L column C"; we print those ourselves.
    let message = full
        .rsplit_once(" at line ")
        .map_or(full.as_str(), |(m, _)| m)
        .to_string();
    let message = if message.contains("number out of range") {
        "number out of range: it overflows to infinity (all numbers must be finite)".to_string()
    } else {
        message
    };
    SceneError::Syntax {
        file: source.to_string(),
        line,
        column,
        path,
        message,
    }
}

fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line.max(1) {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    (start + column.saturating_sub(1)).min(text.len())
}

enum Frame {
    Object {
        key: Option<String>,
        expecting_key: bool,
    },
    Array {
        index: usize,
    },
}

/// JSON path (`iks[0].links[2].index`) of the value being parsed at byte `offset`.
/// Tolerant of malformed input: it only tracks brackets, keys and commas.
pub(crate) fn path_at(text: &str, offset: usize) -> String {
    let bytes = text.as_bytes();
    let end = offset.min(bytes.len());
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < end {
        match bytes[i] {
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                let s = text.get(start..i.min(bytes.len())).unwrap_or("");
                if let Some(Frame::Object {
                    key,
                    expecting_key: true,
                }) = stack.last_mut()
                {
                    *key = Some(s.to_string());
                }
            }
            b'{' => stack.push(Frame::Object {
                key: None,
                expecting_key: true,
            }),
            b'[' => stack.push(Frame::Array { index: 0 }),
            b'}' | b']' => {
                stack.pop();
            }
            b':' => {
                if let Some(Frame::Object { expecting_key, .. }) = stack.last_mut() {
                    *expecting_key = false;
                }
            }
            b',' => match stack.last_mut() {
                Some(Frame::Object { key, expecting_key }) => {
                    *key = None;
                    *expecting_key = true;
                }
                Some(Frame::Array { index }) => *index += 1,
                None => {}
            },
            _ => {}
        }
        i += 1;
    }
    let mut path = String::new();
    for f in &stack {
        match f {
            Frame::Object { key: Some(k), .. } => path = join(&path, k),
            Frame::Object { key: None, .. } => break,
            Frame::Array { index } => path.push_str(&format!("[{index}]")),
        }
    }
    path
}
