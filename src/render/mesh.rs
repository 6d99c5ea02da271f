//! CPU-side mesh data and its upload to GPU buffers.

use super::RenderError;
use super::skinned::{MeshLayouts, SkinVertex, StreamVertex, SurfaceVertex};
use crate::draw::MeshData;
use wgpu::util::DeviceExt;

/// Checks that `mesh` can be uploaded: attribute lengths, index range, finiteness and
/// texture size (the renderer's own rule: the mesh data itself is plain, `crate::draw`).
pub fn validate(mesh: &MeshData) -> Result<(), RenderError> {
    let bad = |problem: String| RenderError::InvalidMesh {
        mesh: mesh.name.clone(),
        problem,
    };
    let n = mesh.positions.len();
    let check = |what: &str, len: usize| {
        if len != 0 && len != n {
            Err(bad(format!(
                "{what} has {len} entries but positions has {n}"
            )))
        } else {
            Ok(())
        }
    };
    check("normals", mesh.normals.len())?;
    check("uvs", mesh.uvs.len())?;
    check("colors", mesh.colors.len())?;
    check("joints", mesh.joints.len())?;
    check("weights", mesh.weights.len())?;
    if mesh.joints.is_empty() != mesh.weights.is_empty() {
        return Err(bad(
            "joints and weights must both be present or both absent".into(),
        ));
    }
    if !mesh.indices.len().is_multiple_of(3) {
        return Err(bad(format!(
            "{} indices is not a multiple of 3 (triangle list)",
            mesh.indices.len()
        )));
    }
    if let Some((i, &v)) = mesh
        .indices
        .iter()
        .enumerate()
        .find(|(_, v)| **v as usize >= n)
    {
        return Err(bad(format!(
            "index {i} = {v} is out of range (vertex count {n})"
        )));
    }
    if let Some(i) = mesh
        .positions
        .iter()
        .position(|p| p.iter().any(|c| !c.is_finite()))
    {
        return Err(bad(format!("position {i} is not finite")));
    }
    if let Some(t) = &mesh.texture {
        let want = t.width as usize * t.height as usize * 4;
        if t.width == 0 || t.height == 0 || t.rgba8.len() != want {
            return Err(bad(format!(
                "texture {}x{} needs {want} bytes, has {}",
                t.width,
                t.height,
                t.rgba8.len()
            )));
        }
    }
    Ok(())
}

/// One vertex with every attribute defaulted and its weights renormalised: what
/// [`interleave`] makes of a [`MeshData`] before it is split into the GPU streams.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GpuVertex {
    pub position: [f32; 3],
    pub normal: [f32; 3],
    pub uv: [f32; 2],
    pub color: [f32; 4],
    pub joints: [u16; 4],
    pub weights: [f32; 4],
}

/// The GPU side of one uploaded mesh.
#[derive(Debug)]
pub(crate) struct GpuMesh {
    /// Stream 0 ([`SurfaceVertex`]).
    pub surface: wgpu::Buffer,
    /// Stream 1 in bind pose ([`StreamVertex`]): what rigid draws read.
    pub rest: wgpu::Buffer,
    /// Skinned meshes: the skinning pass's group 1 (their [`SkinVertex`]es).
    pub skin_vertices: Option<wgpu::BindGroup>,
    /// Number of vertices (0 for an empty mesh, whose buffers hold one dummy vertex).
    pub vertex_count: u32,
    pub indices: wgpu::Buffer,
    pub index_count: u32,
    pub material: wgpu::BindGroup,
    pub base_color: [f32; 4],
    pub double_sided: bool,
    /// Largest joint index referenced (palettes shorter than this are padded with identity).
    pub max_joint: u32,
    /// Centre of the bounding box of the positions (mesh / bind space); x-ray sorts by it.
    pub centre: [f32; 3],
    /// Joints some vertex weights (sorted, unique): a skinned mesh's centre follows them.
    pub used_joints: Vec<u16>,
}

impl GpuMesh {
    /// True for a mesh uploaded with joints and weights (it has skinning input).
    pub fn is_skinned(&self) -> bool {
        self.skin_vertices.is_some()
    }
}

/// Smooth per-vertex normals from the triangles (area-weighted); +Y where undefined.
pub fn smooth_normals(positions: &[[f32; 3]], indices: &[u32]) -> Vec<[f32; 3]> {
    let mut acc = vec![glam::Vec3::ZERO; positions.len()];
    for t in indices.chunks_exact(3) {
        let [a, b, c] = [t[0] as usize, t[1] as usize, t[2] as usize];
        if a >= positions.len() || b >= positions.len() || c >= positions.len() {
            continue;
        }
        let pa = glam::Vec3::from(positions[a]);
        let n = (glam::Vec3::from(positions[b]) - pa).cross(glam::Vec3::from(positions[c]) - pa);
        for i in [a, b, c] {
            acc[i] += n;
        }
    }
    acc.into_iter()
        .map(|n| n.try_normalize().unwrap_or(glam::Vec3::Y).to_array())
        .collect()
}

/// Interleaves `mesh` into [`GpuVertex`]es (weights renormalised; missing attributes defaulted).
pub(crate) fn interleave(mesh: &MeshData) -> Vec<GpuVertex> {
    let computed;
    let normals: &[[f32; 3]] = if mesh.normals.is_empty() {
        computed = smooth_normals(&mesh.positions, &mesh.indices);
        &computed
    } else {
        &mesh.normals
    };
    (0..mesh.positions.len())
        .map(|i| {
            let mut weights = mesh.weights.get(i).copied().unwrap_or([0.0; 4]);
            let finite = weights.iter().all(|w| w.is_finite() && *w >= 0.0);
            let sum: f32 = weights.iter().sum();
            if finite && sum > 1e-8 {
                weights.iter_mut().for_each(|w| *w /= sum);
            } else {
                weights = [0.0; 4];
            }
            let n = glam::Vec3::from(normals[i]);
            GpuVertex {
                position: mesh.positions[i],
                normal: n.try_normalize().unwrap_or(glam::Vec3::Y).to_array(),
                uv: mesh.uvs.get(i).copied().unwrap_or([0.0; 2]),
                color: mesh.colors.get(i).copied().unwrap_or([1.0; 4]),
                joints: mesh.joints.get(i).copied().unwrap_or([0; 4]),
                weights,
            }
        })
        .collect()
}

/// Uploads `mesh` (validated first). `white` is the 1×1 texture used when the mesh has none.
pub(crate) fn upload(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    layouts: &MeshLayouts,
    sampler: &wgpu::Sampler,
    white: &wgpu::TextureView,
    mesh: &MeshData,
) -> Result<GpuMesh, RenderError> {
    validate(mesh)?;
    let mut vertices = interleave(mesh);
    let vertex_count = vertices.len() as u32;
    // wgpu rejects zero-sized buffers in some backends: keep at least one vertex/index.
    if vertices.is_empty() {
        vertices.push(ZERO_VERTEX);
    }
    let index_data: Vec<u32> = if mesh.indices.is_empty() {
        vec![0; 4]
    } else {
        mesh.indices.clone()
    };
    let buffer = |what: &str, contents: &[u8], usage| {
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(&format!("{} {what}", mesh.name)),
            contents,
            usage,
        })
    };
    let surface: Vec<SurfaceVertex> = vertices
        .iter()
        .map(|v| SurfaceVertex {
            uv: v.uv,
            color: v.color,
        })
        .collect();
    let surface = buffer(
        "surface",
        bytemuck::cast_slice(&surface),
        wgpu::BufferUsages::VERTEX,
    );
    let rest: Vec<StreamVertex> = vertices
        .iter()
        .map(|v| StreamVertex {
            position: homogeneous(v.position, 1.0),
            normal: homogeneous(v.normal, 0.0),
        })
        .collect();
    let rest = buffer(
        "rest",
        bytemuck::cast_slice(&rest),
        wgpu::BufferUsages::VERTEX,
    );
    let skin_vertices = mesh.is_skinned().then(|| {
        let input: Vec<SkinVertex> = vertices.iter().map(skin_vertex).collect();
        let input = buffer(
            "skin input",
            bytemuck::cast_slice(&input),
            wgpu::BufferUsages::STORAGE,
        );
        layouts.skin_vertices_group(device, &mesh.name, &input)
    });
    let index_buffer = buffer(
        "indices",
        bytemuck::cast_slice(&index_data),
        wgpu::BufferUsages::INDEX,
    );
    let own_view = mesh.texture.as_ref().map(|t| {
        srgb_texture_view(
            device,
            queue,
            &format!("{} base colour", mesh.name),
            [t.width, t.height],
            &t.rgba8,
        )
    });
    let view = own_view.as_ref().unwrap_or(white);
    let material = super::gpu::texture_sampler_group(
        device,
        &format!("{} material", mesh.name),
        &layouts.material,
        view,
        sampler,
    );
    let max_joint = max_joint(mesh);
    let centre = bounds_centre(&mesh.positions);
    let used_joints = used_joints(mesh);
    Ok(GpuMesh {
        surface,
        rest,
        skin_vertices,
        vertex_count,
        indices: index_buffer,
        index_count: mesh.indices.len() as u32,
        material,
        base_color: mesh.base_color,
        double_sided: mesh.double_sided,
        max_joint,
        centre,
        used_joints,
    })
}

/// Largest joint index any vertex names (0 for a rigid mesh).
fn max_joint(mesh: &MeshData) -> u32 {
    mesh.joints
        .iter()
        .flat_map(|j| j.iter())
        .copied()
        .max()
        .unwrap_or(0) as u32
}

/// Centre of the bounding box of `positions` (the origin when there are none).
fn bounds_centre(positions: &[[f32; 3]]) -> [f32; 3] {
    let (lo, hi) = positions.iter().fold(
        (glam::Vec3::splat(f32::MAX), glam::Vec3::splat(f32::MIN)),
        |(lo, hi), p| (lo.min((*p).into()), hi.max((*p).into())),
    );
    if positions.is_empty() {
        [0.0; 3]
    } else {
        ((lo + hi) * 0.5).to_array()
    }
}

/// Joints that some vertex gives a positive weight, sorted and unique.
fn used_joints(mesh: &MeshData) -> Vec<u16> {
    let mut used_joints: Vec<u16> = mesh
        .joints
        .iter()
        .zip(&mesh.weights)
        .flat_map(|(j, w)| (0..4).filter(|&k| w[k] > 0.0).map(|k| j[k]))
        .collect();
    used_joints.sort_unstable();
    used_joints.dedup();
    used_joints
}

/// `[x, y, z, w]`.
fn homogeneous(v: [f32; 3], w: f32) -> [f32; 4] {
    [v[0], v[1], v[2], w]
}

/// The skinning pass's input for `v`.
pub(crate) fn skin_vertex(v: &GpuVertex) -> SkinVertex {
    SkinVertex {
        position: homogeneous(v.position, 1.0),
        normal: homogeneous(v.normal, 0.0),
        joints: v.joints.map(u32::from),
        weights: v.weights,
    }
}

const ZERO_VERTEX: GpuVertex = GpuVertex {
    position: [0.0; 3],
    normal: [0.0, 1.0, 0.0],
    uv: [0.0; 2],
    color: [1.0; 4],
    joints: [0; 4],
    weights: [0.0; 4],
};

/// A sampled 2D sRGB texture of `size` with `rgba8` pixels (row-major, tightly packed), as a
/// view. Used for base-colour images and the 1×1 white stand-in.
pub(crate) fn srgb_texture_view(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    label: &str,
    size: [u32; 2],
    rgba8: &[u8],
) -> wgpu::TextureView {
    use wgpu::util::DeviceExt;
    device
        .create_texture_with_data(
            queue,
            &wgpu::TextureDescriptor {
                label: Some(label),
                size: wgpu::Extent3d {
                    width: size[0],
                    height: size[1],
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: wgpu::TextureFormat::Rgba8UnormSrgb,
                usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
                view_formats: &[],
            },
            wgpu::util::TextureDataOrder::LayerMajor,
            rgba8,
        )
        .create_view(&wgpu::TextureViewDescriptor::default())
}
