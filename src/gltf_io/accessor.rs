//! Bounds-checked accessor reading. The `gltf` crate's readers slice buffers without checking
//! that an accessor fits its view, so every accessor is read here instead, into `f64`
//! components (exact for every glTF component type), with sparse substitution applied.

use super::container::view_bytes;
use gltf::accessor::{DataType, Dimensions};

/// A decoded accessor: `count` elements of `components` values each, row-major.
pub struct Decoded {
    pub count: usize,
    pub components: usize,
    pub values: Vec<f64>,
}

impl Decoded {
    pub fn element(&self, i: usize) -> &[f64] {
        &self.values[i * self.components..(i + 1) * self.components]
    }
}

fn component_size(t: DataType) -> usize {
    match t {
        DataType::I8 | DataType::U8 => 1,
        DataType::I16 | DataType::U16 => 2,
        DataType::U32 | DataType::F32 => 4,
    }
}

fn read_component(bytes: &[u8], t: DataType, normalized: bool) -> f64 {
    match t {
        DataType::I8 => {
            let v = bytes[0] as i8 as f64;
            if normalized { (v / 127.0).max(-1.0) } else { v }
        }
        DataType::U8 => {
            let v = bytes[0] as f64;
            if normalized { v / 255.0 } else { v }
        }
        DataType::I16 => {
            let v = i16::from_le_bytes([bytes[0], bytes[1]]) as f64;
            if normalized {
                (v / 32767.0).max(-1.0)
            } else {
                v
            }
        }
        DataType::U16 => {
            let v = u16::from_le_bytes([bytes[0], bytes[1]]) as f64;
            if normalized { v / 65535.0 } else { v }
        }
        DataType::U32 => {
            let v = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as f64;
            if normalized { v / 4_294_967_295.0 } else { v }
        }
        DataType::F32 => f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as f64,
    }
}

/// Reads `count` elements of `components` components laid out with `stride`, starting at
/// `offset` inside `bytes`. Matrix columns of 1- and 2-byte components are 4-byte aligned.
#[allow(clippy::too_many_arguments)]
fn read_elements(
    bytes: &[u8],
    offset: usize,
    stride: Option<usize>,
    count: usize,
    dims: Dimensions,
    t: DataType,
    normalized: bool,
    out: &mut Vec<f64>,
) -> Result<(), String> {
    let cs = component_size(t);
    let (columns, rows) = match dims {
        Dimensions::Mat2 => (2, 2),
        Dimensions::Mat3 => (3, 3),
        Dimensions::Mat4 => (4, 4),
        other => (1, other.multiplicity()),
    };
    let column_stride = if columns > 1 {
        (rows * cs + 3) & !3
    } else {
        rows * cs
    };
    let element_size = columns * column_stride;
    let stride = stride.unwrap_or(element_size);
    if stride < element_size {
        return Err(format!(
            "byteStride {stride} is smaller than the element size {element_size}"
        ));
    }
    if count == 0 {
        return Ok(());
    }
    let needed = (count - 1)
        .checked_mul(stride)
        .and_then(|n| n.checked_add(element_size))
        .and_then(|n| n.checked_add(offset));
    match needed {
        Some(n) if n <= bytes.len() => {}
        _ => {
            return Err(format!(
                "{count} elements of {element_size} bytes (stride {stride}) from byte offset \
                 {offset} need more than the {} bytes of its buffer view (out of range)",
                bytes.len()
            ));
        }
    }
    out.reserve(count * columns * rows);
    for i in 0..count {
        let e = offset + i * stride;
        for c in 0..columns {
            for r in 0..rows {
                let at = e + c * column_stride + r * cs;
                out.push(read_component(&bytes[at..at + cs], t, normalized));
            }
        }
    }
    Ok(())
}

/// Decodes an accessor. Errors are plain descriptions; the caller adds file and accessor.
pub fn decode(accessor: &gltf::Accessor, buffers: &[Vec<u8>]) -> Result<Decoded, String> {
    let dims = accessor.dimensions();
    let components = dims.multiplicity();
    let count = accessor.count();
    let t = accessor.data_type();
    let normalized = accessor.normalized();
    let mut values = Vec::new();
    match accessor.view() {
        Some(view) => {
            let bytes = view_bytes(buffers, &view)?;
            read_elements(
                bytes,
                accessor.offset(),
                view.stride(),
                count,
                dims,
                t,
                normalized,
                &mut values,
            )?;
        }
        None => {
            let total = count
                .checked_mul(components)
                .filter(|&n| n <= 1 << 24)
                .ok_or_else(|| format!("count {count} is implausibly large"))?;
            values = vec![0.0; total];
        }
    }
    if let Some(sparse) = accessor.sparse() {
        let n = sparse.count();
        let idx_view = sparse.indices().view();
        let idx_bytes = view_bytes(buffers, &idx_view)?;
        let idx_type = match sparse.indices().index_type() {
            gltf::accessor::sparse::IndexType::U8 => DataType::U8,
            gltf::accessor::sparse::IndexType::U16 => DataType::U16,
            gltf::accessor::sparse::IndexType::U32 => DataType::U32,
        };
        let mut indices = Vec::new();
        read_elements(
            idx_bytes,
            sparse.indices().offset(),
            None,
            n,
            Dimensions::Scalar,
            idx_type,
            false,
            &mut indices,
        )
        .map_err(|e| format!("sparse indices: {e}"))?;
        let val_bytes = view_bytes(buffers, &sparse.values().view())?;
        let mut sparse_values = Vec::new();
        read_elements(
            val_bytes,
            sparse.values().offset(),
            None,
            n,
            dims,
            t,
            normalized,
            &mut sparse_values,
        )
        .map_err(|e| format!("sparse values: {e}"))?;
        for (k, &index) in indices.iter().enumerate() {
            let i = index as usize;
            if i >= count {
                return Err(format!(
                    "sparse index {i} is beyond the accessor's count {count}"
                ));
            }
            values[i * components..(i + 1) * components]
                .copy_from_slice(&sparse_values[k * components..(k + 1) * components]);
        }
    }
    Ok(Decoded {
        count,
        components,
        values,
    })
}
