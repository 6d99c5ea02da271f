//! Mesh primitives: attributes, skin weights (renormalised), computed normals, materials.

use super::accessor::{Decoded, decode};
use super::{LoadError, Material, Primitive};
use gltf::Semantic;
use gltf::mesh::Mode;
use std::path::Path;

/// Weights whose sum differs from 1 by more than this are counted in a warning.
const WEIGHT_SUM_TOLERANCE: f32 = 2e-3;

/// What a primitive needs to know about its surroundings.
pub struct PrimitiveContext<'a> {
    pub path: &'a Path,
    pub buffers: &'a [Vec<u8>],
    /// Joint count of the node's skin, if the node is skinned.
    pub skin_joints: Option<usize>,
    pub image_count: usize,
}

fn read(
    ctx: &PrimitiveContext,
    accessor: &gltf::Accessor,
    usage: &str,
    components: &[usize],
) -> Result<Decoded, LoadError> {
    let err = |problem: String| LoadError::Accessor {
        path: ctx.path.to_path_buf(),
        accessor: accessor.index(),
        usage: usage.to_string(),
        problem,
    };
    let d = decode(accessor, ctx.buffers).map_err(err)?;
    if !components.contains(&d.components) {
        return Err(err(format!(
            "has {} components per element, expected {components:?}",
            d.components
        )));
    }
    if d.values.iter().any(|v| !v.is_finite()) {
        return Err(err("contains NaN or infinity".to_string()));
    }
    Ok(d)
}

/// Reads one primitive; `Ok(None)` (with a warning) for primitives that are not triangles.
pub fn read_primitive(
    ctx: &PrimitiveContext,
    mesh: &gltf::Mesh,
    prim: &gltf::Primitive,
    warnings: &mut Vec<String>,
) -> Result<Option<Primitive>, LoadError> {
    let mesh_name = mesh.name().unwrap_or("").to_string();
    let label = format!(
        "meshes[{}] ({mesh_name:?}).primitives[{}]",
        mesh.index(),
        prim.index()
    );
    let fail = |problem: String| LoadError::Primitive {
        path: ctx.path.to_path_buf(),
        mesh: mesh.index(),
        name: mesh_name.clone(),
        primitive: prim.index(),
        problem,
    };
    let mode = prim.mode();
    if !matches!(
        mode,
        Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan
    ) {
        warnings.push(format!(
            "{label}: mode {mode:?} is not drawn as a surface; skipped"
        ));
        return Ok(None);
    }
    let Some(pos_acc) = prim.get(&Semantic::Positions) else {
        warnings.push(format!("{label}: has no POSITION attribute; skipped"));
        return Ok(None);
    };
    let pos = read(ctx, &pos_acc, &format!("{label}.attributes.POSITION"), &[3])?;
    let n = pos.count;
    let positions: Vec<[f32; 3]> = pos
        .values
        .chunks_exact(3)
        .map(|c| [c[0] as f32, c[1] as f32, c[2] as f32])
        .collect();
    let attr = |sem: Semantic, name: &str, comps: &[usize]| -> Result<Option<Decoded>, LoadError> {
        match prim.get(&sem) {
            None => Ok(None),
            Some(acc) => {
                let d = read(ctx, &acc, &format!("{label}.attributes.{name}"), comps)?;
                if d.count != n {
                    return Err(fail(format!(
                        "attribute {name} has {} elements but POSITION has {n}",
                        d.count
                    )));
                }
                Ok(Some(d))
            }
        }
    };

    let indices = read_indices(ctx, prim, mode, n, &label, &fail, warnings)?;

    let normals = match attr(Semantic::Normals, "NORMAL", &[3])? {
        Some(d) => d
            .values
            .chunks_exact(3)
            .map(|c| [c[0] as f32, c[1] as f32, c[2] as f32])
            .collect(),
        None => compute_normals(&positions, &indices),
    };
    let uvs = attr(Semantic::TexCoords(0), "TEXCOORD_0", &[2])?.map(|d| {
        d.values
            .chunks_exact(2)
            .map(|c| [c[0] as f32, c[1] as f32])
            .collect()
    });
    let colors = attr(Semantic::Colors(0), "COLOR_0", &[3, 4])?.map(|d| {
        d.values
            .chunks_exact(d.components)
            .map(|c| {
                let a = if d.components == 4 { c[3] as f32 } else { 1.0 };
                [c[0] as f32, c[1] as f32, c[2] as f32, a]
            })
            .collect()
    });

    let (joints, weights) = read_skin_attributes(ctx, prim, n, &label, &attr, &fail, warnings)?;

    Ok(Some(Primitive {
        positions,
        normals,
        uvs,
        colors,
        joints,
        weights,
        indices,
        material: read_material(ctx, prim),
    }))
}

/// The primitive's triangle-list indices: its index accessor (range-checked) or `0..n`,
/// strips and fans triangulated, a trailing partial triangle dropped (with a warning).
fn read_indices(
    ctx: &PrimitiveContext,
    prim: &gltf::Primitive,
    mode: Mode,
    n: usize,
    label: &str,
    fail: &dyn Fn(String) -> LoadError,
    warnings: &mut Vec<String>,
) -> Result<Vec<u32>, LoadError> {
    // Indices, then triangle lists from strips/fans.
    let raw_indices: Vec<u32> = match prim.indices() {
        Some(acc) => {
            let d = read(ctx, &acc, &format!("{label}.indices"), &[1])?;
            let mut out = Vec::with_capacity(d.count);
            for (k, &v) in d.values.iter().enumerate() {
                if v < 0.0 || v as usize >= n {
                    return Err(fail(format!(
                        "index {k} is {v}, but there are only {n} vertices"
                    )));
                }
                out.push(v as u32);
            }
            out
        }
        None => (0..n as u32).collect(),
    };
    let mut indices = triangulate(mode, &raw_indices);
    if !indices.len().is_multiple_of(3) {
        warnings.push(format!(
            "{label}: {} indices is not a multiple of 3; the last partial triangle is dropped",
            indices.len()
        ));
        indices.truncate(indices.len() / 3 * 3);
    }
    Ok(indices)
}

/// The primitive's material; a base-colour texture naming no image is dropped.
fn read_material(ctx: &PrimitiveContext, prim: &gltf::Primitive) -> Material {
    let material = prim.material();
    let pbr = material.pbr_metallic_roughness();
    let base_color_texture = pbr
        .base_color_texture()
        .map(|info| info.texture().source().index())
        .filter(|&i| i < ctx.image_count);
    Material {
        name: material.name().map(str::to_string),
        base_color_factor: pbr.base_color_factor(),
        base_color_texture,
        double_sided: material.double_sided(),
    }
}

type AttrFn<'f> = dyn Fn(Semantic, &str, &[usize]) -> Result<Option<Decoded>, LoadError> + 'f;
type JointsWeights = (Option<Vec<[u16; 4]>>, Option<Vec<[f32; 4]>>);

/// JOINTS_0/WEIGHTS_0 (plus JOINTS_1/WEIGHTS_1, folded into the four strongest influences).
fn read_skin_attributes(
    ctx: &PrimitiveContext,
    prim: &gltf::Primitive,
    n: usize,
    label: &str,
    attr: &AttrFn,
    fail: &dyn Fn(String) -> LoadError,
    warnings: &mut Vec<String>,
) -> Result<JointsWeights, LoadError> {
    let j0 = attr(Semantic::Joints(0), "JOINTS_0", &[4])?;
    let w0 = attr(Semantic::Weights(0), "WEIGHTS_0", &[4])?;
    let (j0, w0) = match (j0, w0) {
        (Some(j), Some(w)) => (j, w),
        (None, None) => return Ok((None, None)),
        _ => return Err(fail("has only one of JOINTS_0 and WEIGHTS_0".to_string())),
    };
    let extra = match (
        attr(Semantic::Joints(1), "JOINTS_1", &[4])?,
        attr(Semantic::Weights(1), "WEIGHTS_1", &[4])?,
    ) {
        (Some(j), Some(w)) => {
            warnings.push(format!(
                "{label}: JOINTS_1/WEIGHTS_1 folded into the four strongest influences"
            ));
            Some((j, w))
        }
        _ => None,
    };
    let _ = prim;
    let mut joints = Vec::with_capacity(n);
    let mut weights = Vec::with_capacity(n);
    let mut renormalised = 0usize;
    let mut zero = 0usize;
    let mut first_zero = None;
    for v in 0..n {
        let mut infl: Vec<(f64, f64)> = j0
            .element(v)
            .iter()
            .zip(w0.element(v))
            .map(|(&j, &w)| (j, w))
            .collect();
        if let Some((j1, w1)) = &extra {
            infl.extend(
                j1.element(v)
                    .iter()
                    .zip(w1.element(v))
                    .map(|(&j, &w)| (j, w)),
            );
            infl.sort_by(|a, b| b.1.total_cmp(&a.1));
            infl.truncate(4);
        }
        let mut js = [0u16; 4];
        let mut ws = [0f32; 4];
        for (k, &(j, w)) in infl.iter().enumerate() {
            if let Some(count) = ctx.skin_joints
                && (j < 0.0 || j as usize >= count)
            {
                return Err(fail(format!(
                    "vertex {v} uses joint index {j}, but the skin has only {count} joints"
                )));
            }
            if j > u16::MAX as f64 {
                return Err(fail(format!("vertex {v} uses joint index {j} (too large)")));
            }
            js[k] = j as u16;
            ws[k] = (w as f32).max(0.0);
        }
        let sum: f32 = ws.iter().sum();
        if sum <= 0.0 {
            zero += 1;
            first_zero.get_or_insert(v);
        } else {
            if (sum - 1.0).abs() > WEIGHT_SUM_TOLERANCE {
                renormalised += 1;
            }
            ws.iter_mut().for_each(|w| *w /= sum);
        }
        joints.push(js);
        weights.push(ws);
    }
    if zero > 0 && ctx.skin_joints.is_some() {
        return Err(fail(format!(
            "{zero} of {n} vertices have all-zero skin weights (first: vertex {})",
            first_zero.unwrap_or(0)
        )));
    }
    if renormalised > 0 {
        warnings.push(format!(
            "{label}: {renormalised} of {n} vertices had skin weights not summing to 1; renormalised"
        ));
    }
    Ok((Some(joints), Some(weights)))
}

/// Triangle-list indices from a triangle list, strip or fan.
fn triangulate(mode: Mode, idx: &[u32]) -> Vec<u32> {
    match mode {
        Mode::TriangleStrip => {
            let mut out = Vec::new();
            for i in 2..idx.len() {
                if i % 2 == 0 {
                    out.extend_from_slice(&[idx[i - 2], idx[i - 1], idx[i]]);
                } else {
                    out.extend_from_slice(&[idx[i - 1], idx[i - 2], idx[i]]);
                }
            }
            out
        }
        Mode::TriangleFan => {
            let mut out = Vec::new();
            for i in 2..idx.len() {
                out.extend_from_slice(&[idx[0], idx[i - 1], idx[i]]);
            }
            out
        }
        _ => idx.to_vec(),
    }
}

/// Area-weighted vertex normals (the un-normalised face cross product is twice the area).
/// Vertices on no non-degenerate triangle get +Y.
pub fn compute_normals(positions: &[[f32; 3]], indices: &[u32]) -> Vec<[f32; 3]> {
    use glam::DVec3;
    let mut acc = vec![DVec3::ZERO; positions.len()];
    let p = |i: u32| DVec3::from_array(positions[i as usize].map(f64::from));
    for t in indices.chunks_exact(3) {
        let face = (p(t[1]) - p(t[0])).cross(p(t[2]) - p(t[0]));
        for &i in t {
            acc[i as usize] += face;
        }
    }
    acc.iter()
        .map(|n| {
            let n = n.try_normalize().unwrap_or(DVec3::Y);
            [n.x as f32, n.y as f32, n.z as f32]
        })
        .collect()
}
