//! An FBX mesh as [`Primitive`]s: one per material part, triangulated by ufbx, each
//! distinct (position, normal, UV, colour) corner one vertex, up to four skin weights per vertex,
//! the base colour and its texture (embedded, or found beside the file).

use super::{Material, Primitive, RgbaImage};
use crate::draw::srgb_to_linear;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One node that holds a mesh, and its skin: the index in the character's skins, the
/// deformer and per cluster its joint in that skin (see `fbx.rs`).
pub(super) struct MeshInput<'a> {
    pub node_bone: usize,
    pub node: &'a ufbx::Node,
    /// The node's geometric transform (identity once ufbx has baked it into the vertices).
    pub node_from_geometry: glam::DMat4,
    pub mesh: &'a ufbx::Mesh,
    pub skin: Option<(usize, &'a ufbx::SkinDeformer, Vec<Option<u16>>)>,
}

/// The mesh's primitives, vertices in its node's space. Textures are decoded once each into
/// `images` (`image_of`: texture element → image, `None` when it could not be read).
pub(super) fn primitives(
    path: &Path,
    input: &MeshInput,
    images: &mut Vec<RgbaImage>,
    image_of: &mut HashMap<u32, Option<usize>>,
    warnings: &mut Vec<String>,
) -> Vec<Primitive> {
    let mesh = input.mesh;
    let node_from_geometry = input.node_from_geometry;
    let normal_matrix = glam::DMat3::from_mat4(node_from_geometry)
        .inverse()
        .transpose();
    let materials = if input.node.materials.is_empty() {
        &mesh.materials
    } else {
        &input.node.materials
    };
    // Faces per material: ufbx's parts, or every face when the mesh has no material.
    let parts: Vec<(Option<usize>, Vec<u32>)> = if mesh.material_parts.is_empty() {
        vec![(None, (0..mesh.faces.len() as u32).collect())]
    } else {
        mesh.material_parts
            .iter()
            .map(|p| {
                (
                    Some(p.index as usize),
                    p.face_indices.iter().copied().collect(),
                )
            })
            .collect()
    };
    // Each vertex's four strongest joints, once (its corners share them).
    let mut unweighted = 0usize;
    let skin_of_vertex: Option<Vec<([u16; 4], [f32; 4])>> =
        input.skin.as_ref().map(|(_, deformer, cluster_joint)| {
            (0..mesh.num_vertices)
                .map(|v| {
                    let (j, w) = vertex_weights(deformer, cluster_joint, v);
                    if w[0] == 0.0 {
                        unweighted += 1;
                        (j, [1.0, 0.0, 0.0, 0.0])
                    } else {
                        (j, w)
                    }
                })
                .collect()
        });
    let mut corners = vec![0u32; mesh.max_face_triangles.max(1) * 3];
    let mut out = Vec::new();
    for (material_index, faces) in parts {
        // Three corners a triangle: the index list's exact length.
        let corners_here: usize = faces
            .iter()
            .filter_map(|&f| mesh.faces.get(f as usize))
            .map(|f| 3 * (f.num_indices as usize).saturating_sub(2))
            .sum();
        // The corners already made vertices: per ufbx vertex a chain through `variants` of
        // (normal, UV, colour) index → our vertex (most vertices have one to four).
        let mut head = vec![u32::MAX; mesh.num_vertices];
        let mut variants: Vec<Variant> = Vec::new();
        let mut prim = Primitive {
            positions: Vec::new(),
            normals: Vec::new(),
            uvs: mesh.vertex_uv.exists.then(Vec::new),
            colors: mesh.vertex_color.exists.then(Vec::new),
            joints: input.skin.as_ref().map(|_| Vec::new()),
            weights: input.skin.as_ref().map(|_| Vec::new()),
            indices: Vec::with_capacity(corners_here),
            material: Material {
                name: None,
                base_color_factor: [1.0; 4],
                base_color_texture: None,
                double_sided: false,
            },
        };
        for &f in &faces {
            let Some(&face) = mesh.faces.get(f as usize) else {
                continue;
            };
            let triangles = ufbx::triangulate_face(&mut corners, mesh, face) as usize;
            for tri in corners[..triangles * 3].chunks_exact(3) {
                let tri = if mesh.reversed_winding {
                    [tri[0], tri[2], tri[1]]
                } else {
                    [tri[0], tri[1], tri[2]]
                };
                // ufbx checks its indices; a corner past the vertices would drop its triangle.
                if tri.iter().any(|&ix| {
                    mesh.vertex_indices
                        .get(ix as usize)
                        .is_none_or(|&v| v as usize >= head.len())
                }) {
                    continue;
                }
                for ix in tri {
                    let ix = ix as usize;
                    let v = mesh.vertex_indices[ix];
                    let n =
                        attrib_index(&mesh.vertex_normal.indices, mesh.vertex_normal.exists, ix);
                    let t = attrib_index(&mesh.vertex_uv.indices, mesh.vertex_uv.exists, ix);
                    let c = attrib_index(&mesh.vertex_color.indices, mesh.vertex_color.exists, ix);
                    let key = [n, t, c];
                    let first = &mut head[v as usize];
                    let mut at = *first;
                    while at != u32::MAX && variants[at as usize].key != key {
                        at = variants[at as usize].next;
                    }
                    let index = if at != u32::MAX {
                        variants[at as usize].vertex
                    } else {
                        let index = prim.positions.len() as u32;
                        variants.push(Variant {
                            key,
                            vertex: index,
                            next: *first,
                        });
                        *first = variants.len() as u32 - 1;
                        let p = mesh.vertex_position[ix];
                        let p =
                            node_from_geometry.transform_point3(glam::DVec3::new(p.x, p.y, p.z));
                        prim.positions.push(p.as_vec3().to_array());
                        let normal = if mesh.vertex_normal.exists {
                            let q = mesh.vertex_normal[ix];
                            (normal_matrix * glam::DVec3::new(q.x, q.y, q.z)).normalize_or_zero()
                        } else {
                            glam::DVec3::ZERO
                        };
                        prim.normals.push(normal.as_vec3().to_array());
                        if let Some(colors) = prim.colors.as_mut() {
                            let c = mesh.vertex_color[ix];
                            // FBX vertex colours are display (sRGB) colours; Blender writes them so by
                            // default.
                            let rgb = [c.x, c.y, c.z].map(|v| srgb_to_linear(v) as f32);
                            colors.push([rgb[0], rgb[1], rgb[2], c.w as f32]);
                        }
                        if let Some(uvs) = prim.uvs.as_mut() {
                            let uv = mesh.vertex_uv[ix];
                            // FBX puts UV (0, 0) at the image's bottom, glTF at its top.
                            uvs.push([uv.x as f32, (1.0 - uv.y) as f32]);
                        }
                        if let (Some(skin), Some(js), Some(ws)) =
                            (&skin_of_vertex, prim.joints.as_mut(), prim.weights.as_mut())
                        {
                            let (j, w) = skin[v as usize];
                            js.push(j);
                            ws.push(w);
                        }
                        index
                    };
                    prim.indices.push(index);
                }
            }
        }
        if prim.indices.is_empty() {
            continue;
        }
        if !mesh.vertex_normal.exists {
            prim.normals = super::compute_normals(&prim.positions, &prim.indices);
        }
        if let Some(material) = material_index.and_then(|m| materials.get(m)) {
            prim.material = read_material(path, material, images, image_of, warnings);
        }
        out.push(prim);
    }
    if unweighted > 0 {
        warnings.push(format!(
            "mesh {:?}: {unweighted} vertices carry no skin weight; they follow the skin's \
             first joint",
            mesh.element.name
        ));
    }
    out
}

/// A vertex made from a ufbx vertex's corners: their (normal, UV, colour) indices, the
/// vertex, and the next variant of the same ufbx vertex (`u32::MAX`: none).
struct Variant {
    key: [u32; 3],
    vertex: u32,
    next: u32,
}

/// Index into an attribute's values at corner `ix` (0 for a missing attribute).
fn attrib_index(indices: &ufbx::List<u32>, exists: bool, ix: usize) -> u32 {
    if exists {
        indices.get(ix).copied().unwrap_or(0)
    } else {
        0
    }
}

/// Vertex `v`'s four largest weights and their joints, summing to 1 (all 0 when it has none).
fn vertex_weights(
    deformer: &ufbx::SkinDeformer,
    cluster_joint: &[Option<u16>],
    v: usize,
) -> ([u16; 4], [f32; 4]) {
    // The four largest weights, kept in order as they come (ties: the lower joint first).
    let mut top = [(0u16, 0.0f64); 4];
    let mut kept = 0usize;
    if let Some(sv) = deformer.vertices.get(v) {
        let begin = sv.weight_begin as usize;
        let end = begin + sv.num_weights as usize;
        for w in deformer.weights.get(begin..end).unwrap_or(&[]) {
            let joint = cluster_joint
                .get(w.cluster_index as usize)
                .copied()
                .flatten();
            let (Some(j), true) = (joint, w.weight.is_finite() && w.weight > 0.0) else {
                continue;
            };
            let stronger = |k: usize| {
                let (tj, tw) = top[k];
                w.weight > tw || (w.weight == tw && j < tj)
            };
            let mut at = kept.min(4);
            while at > 0 && stronger(at - 1) {
                at -= 1;
            }
            if at < 4 {
                top.copy_within(at..3, at + 1);
                top[at] = (j, w.weight);
                kept = (kept + 1).min(4);
            }
        }
    }
    let sum: f64 = top[..kept].iter().map(|w| w.1).sum();
    let mut joints = [0u16; 4];
    let mut weights = [0.0f32; 4];
    if sum > 0.0 {
        for (k, &(j, w)) in top[..kept].iter().enumerate() {
            joints[k] = j;
            weights[k] = (w / sum) as f32;
        }
    }
    (joints, weights)
}

/// The material's base colour (PBR base colour where the file has one, else the classic
/// diffuse colour, times its factor) and its texture.
fn read_material(
    path: &Path,
    material: &ufbx::Material,
    images: &mut Vec<RgbaImage>,
    image_of: &mut HashMap<u32, Option<usize>>,
    warnings: &mut Vec<String>,
) -> Material {
    let (color, factor) = if material.pbr.base_color.has_value {
        (&material.pbr.base_color, &material.pbr.base_factor)
    } else {
        (&material.fbx.diffuse_color, &material.fbx.diffuse_factor)
    };
    let f = if factor.has_value {
        factor.value_vec4.x
    } else {
        1.0
    };
    let c = color.value_vec4;
    let rgb = if color.has_value {
        [c.x * f, c.y * f, c.z * f]
    } else {
        [f, f, f]
    };
    let texture = color
        .texture
        .as_ref()
        .or(material.fbx.diffuse_color.texture.as_ref());
    let base_color_texture = texture.and_then(|t| {
        *image_of
            .entry(t.element.element_id)
            .or_insert_with(|| match texture_image(path, t) {
                Ok(image) => {
                    images.push(image);
                    Some(images.len() - 1)
                }
                Err(problem) => {
                    warnings.push(format!(
                        "material {:?}: texture {:?} not used ({problem})",
                        material.element.name, t.filename
                    ));
                    None
                }
            })
    });
    Material {
        name: Some(material.element.name.to_string()),
        base_color_factor: [rgb[0] as f32, rgb[1] as f32, rgb[2] as f32, 1.0],
        base_color_texture,
        double_sided: false,
    }
}

/// The texture's image: its embedded content, else the file it names — as written, beside
/// the FBX by its relative path, or beside the FBX by its file name alone.
fn texture_image(path: &Path, texture: &ufbx::Texture) -> Result<RgbaImage, String> {
    let bytes = if !texture.content.is_empty() {
        texture.content.to_vec()
    } else {
        let dir = path.parent().unwrap_or(Path::new("."));
        let mut candidates: Vec<PathBuf> = Vec::new();
        for name in [
            &texture.absolute_filename,
            &texture.relative_filename,
            &texture.filename,
        ] {
            if !name.is_empty() {
                let p = PathBuf::from(name.as_ref() as &str);
                candidates.push(if p.is_absolute() {
                    p.clone()
                } else {
                    dir.join(&p)
                });
                // A name written on Windows keeps its backslashes on other systems.
                if let Some(file) = name.rsplit(['/', '\\']).next() {
                    candidates.push(dir.join(file));
                }
            }
        }
        candidates
            .iter()
            .find_map(|p| std::fs::read(p).ok())
            .ok_or_else(|| "neither embedded nor found beside the file".to_string())?
    };
    let decoded = image::load_from_memory(&bytes).map_err(|e| format!("cannot decode: {e}"))?;
    let rgba = decoded.to_rgba8();
    Ok(RgbaImage {
        width: rgba.width(),
        height: rgba.height(),
        rgba: rgba.into_raw(),
    })
}
