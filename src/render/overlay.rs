//! Overlay geometry (CCD-helper spheres, lines, limit arcs, translucent triangles): CPU
//! tessellation into one vertex stream and the no-depth-test, alpha-blended pipeline.

use super::{Camera, OverlayArc, Overlays};
use glam::{Mat4, Vec3};

/// One overlay vertex (60 bytes); see `shaders/overlay.wgsl` for the meaning per kind.
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct OverlayVertex {
    pub a: [f32; 3],
    pub kind: u32,
    pub b: [f32; 3],
    pub width: f32,
    pub corner: [f32; 2],
    pub radius: f32,
    pub colour: [f32; 4],
}

impl OverlayVertex {
    pub const ATTRIBUTES: [wgpu::VertexAttribute; 7] = wgpu::vertex_attr_array![
        0 => Float32x3, 1 => Uint32, 2 => Float32x3, 3 => Float32, 4 => Float32x2,
        5 => Float32, 6 => Float32x4
    ];
}

const KIND_TRIANGLE: u32 = 0;
const KIND_SPHERE: u32 = 1;
const KIND_LINE: u32 = 2;
/// Arc tessellation: one segment per this many radians (≈ 4°).
const ARC_STEP_RAD: f32 = 0.07;

fn finite3(p: [f32; 3]) -> bool {
    p.iter().all(|c| c.is_finite())
}

fn finite4(p: [f32; 4]) -> bool {
    p.iter().all(|c| c.is_finite())
}

/// Reusable CPU buffers for overlay tessellation (no allocation once warmed up).
#[derive(Debug, Default)]
pub(crate) struct OverlayBuilder {
    pub vertices: Vec<OverlayVertex>,
    sphere_order: Vec<(f32, usize)>,
}

impl OverlayBuilder {
    /// Tessellates `overlays` in draw order: triangles and arc wedges, lines and arc lines,
    /// then spheres far-to-near. Primitives with non-finite data are skipped.
    pub fn build(&mut self, overlays: &Overlays, camera: &Camera) {
        self.vertices.clear();
        for t in &overlays.triangles {
            if t.points.iter().all(|p| finite3(*p)) && finite4(t.rgba) {
                self.triangle(t.points, t.rgba);
            }
        }
        for arc in &overlays.arcs {
            self.arc_fill(arc);
        }
        for line in &overlays.lines {
            if !finite4(line.rgba) || !line.width_px.is_finite() {
                continue;
            }
            for pair in line.points.windows(2) {
                self.segment(pair[0], pair[1], line.rgba, line.width_px);
            }
        }
        for arc in &overlays.arcs {
            self.arc_lines(arc);
        }
        let view = Mat4::from_cols_array_2d(&camera.view_from_world);
        self.sphere_order.clear();
        for (i, s) in overlays.spheres.iter().enumerate() {
            let ok = finite3(s.centre) && finite4(s.rgba) && s.radius.is_finite() && s.radius > 0.0;
            if ok {
                // View space looks down −Z: larger distance = more negative z.
                let depth = -view.transform_point3(Vec3::from(s.centre)).z;
                self.sphere_order.push((depth, i));
            }
        }
        self.sphere_order
            .sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
        for k in 0..self.sphere_order.len() {
            let s = &overlays.spheres[self.sphere_order[k].1];
            self.sphere(s.centre, s.radius, s.rgba);
        }
    }

    fn triangle(&mut self, points: [[f32; 3]; 3], rgba: [f32; 4]) {
        for p in points {
            self.vertices.push(OverlayVertex {
                a: p,
                kind: KIND_TRIANGLE,
                b: p,
                width: 0.0,
                corner: [0.0; 2],
                radius: 0.0,
                colour: rgba,
            });
        }
    }

    fn sphere(&mut self, centre: [f32; 3], radius: f32, rgba: [f32; 4]) {
        const CORNERS: [[f32; 2]; 6] = [
            [-1.0, -1.0],
            [1.0, -1.0],
            [1.0, 1.0],
            [-1.0, -1.0],
            [1.0, 1.0],
            [-1.0, 1.0],
        ];
        for corner in CORNERS {
            self.vertices.push(OverlayVertex {
                a: centre,
                kind: KIND_SPHERE,
                b: centre,
                width: 0.0,
                corner,
                radius,
                colour: rgba,
            });
        }
    }

    /// A screen-space quad of `width_px` around the segment p→q (two triangles).
    fn segment(&mut self, p: [f32; 3], q: [f32; 3], rgba: [f32; 4], width_px: f32) {
        if !finite3(p) || !finite3(q) {
            return;
        }
        let v = |a: [f32; 3], b: [f32; 3], side: f32, end: f32| OverlayVertex {
            a,
            kind: KIND_LINE,
            b,
            width: width_px,
            corner: [side, end],
            radius: 0.0,
            colour: rgba,
        };
        let (p_left, p_right) = (v(p, q, 1.0, 0.0), v(p, q, -1.0, 0.0));
        let (q_left, q_right) = (v(q, p, 1.0, 1.0), v(q, p, -1.0, 1.0));
        self.vertices
            .extend_from_slice(&[p_right, p_left, q_left, p_right, q_left, q_right]);
    }

    fn arc_fill(&mut self, arc: &OverlayArc) {
        let Some(frame) = ArcFrame::new(arc) else {
            return;
        };
        if !finite4(arc.fill_rgba) {
            return;
        }
        let n = frame.segments;
        for k in 0..n {
            let a = frame.point(arc.sweep_rad * k as f32 / n as f32, arc.radius);
            let b = frame.point(arc.sweep_rad * (k + 1) as f32 / n as f32, arc.radius);
            self.triangle([arc.centre, a, b], arc.fill_rgba);
        }
    }

    fn arc_lines(&mut self, arc: &OverlayArc) {
        let Some(frame) = ArcFrame::new(arc) else {
            return;
        };
        let line = if arc.on_limit {
            arc.limit_rgba
        } else {
            arc.line_rgba
        };
        if !finite4(line) {
            return;
        }
        let n = frame.segments;
        let start = frame.point(0.0, arc.radius);
        let end = frame.point(arc.sweep_rad, arc.radius);
        self.segment(arc.centre, start, line, 1.5);
        self.segment(arc.centre, end, line, 1.5);
        let mut prev = start;
        for k in 1..=n {
            let p = frame.point(arc.sweep_rad * k as f32 / n as f32, arc.radius);
            self.segment(prev, p, line, 2.0);
            prev = p;
        }
        if arc.current_angle.is_finite() {
            let tip = frame.point(arc.current_angle, arc.radius * 1.2);
            self.segment(arc.centre, tip, line, 3.0);
        }
    }
}

/// An orthonormal frame in the arc's plane: `u` at angle 0, `w = axis × u` at +90°.
struct ArcFrame {
    centre: Vec3,
    u: Vec3,
    w: Vec3,
    segments: u32,
}

impl ArcFrame {
    /// `None` for non-finite data, zero/negative radius, a zero axis or a start direction
    /// parallel to the axis.
    fn new(arc: &OverlayArc) -> Option<Self> {
        let ok = finite3(arc.centre)
            && finite3(arc.axis)
            && finite3(arc.start_dir)
            && arc.sweep_rad.is_finite()
            && arc.radius.is_finite()
            && arc.radius > 0.0;
        if !ok {
            return None;
        }
        let axis = Vec3::from(arc.axis).try_normalize()?;
        let s = Vec3::from(arc.start_dir);
        let u = (s - axis * s.dot(axis)).try_normalize()?;
        let sweep = arc.sweep_rad.abs().min(std::f32::consts::TAU);
        let segments = ((sweep / ARC_STEP_RAD).ceil() as u32).clamp(1, 180);
        Some(Self {
            centre: Vec3::from(arc.centre),
            u,
            w: axis.cross(u),
            segments,
        })
    }

    fn point(&self, angle: f32, radius: f32) -> [f32; 3] {
        (self.centre + (self.u * angle.cos() + self.w * angle.sin()) * radius).to_array()
    }
}

/// The overlay pipeline: alpha blending, no depth test or write, same MSAA as the pass.
pub(crate) fn pipeline(
    device: &wgpu::Device,
    frame_layout: &wgpu::BindGroupLayout,
    format: wgpu::TextureFormat,
    sample_count: u32,
) -> wgpu::RenderPipeline {
    let module = super::gpu::shader_module(
        device,
        "overlay.wgsl",
        &[include_str!("../../shaders/overlay.wgsl")],
    );
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("overlay layout"),
        bind_group_layouts: &[Some(frame_layout)],
        immediate_size: 0,
    });
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("overlay pipeline"),
        layout: Some(&layout),
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs_main"),
            compilation_options: Default::default(),
            buffers: &[super::gpu::per_vertex::<OverlayVertex>(
                &OverlayVertex::ATTRIBUTES,
            )],
        },
        primitive: wgpu::PrimitiveState {
            cull_mode: None,
            ..Default::default()
        },
        depth_stencil: Some(super::gpu::depth_state(
            false,
            wgpu::CompareFunction::Always,
        )),
        multisample: wgpu::MultisampleState {
            count: sample_count,
            ..Default::default()
        },
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("fs_main"),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants: &super::gpu::output_constants(format),
                ..Default::default()
            },
            targets: &[Some(wgpu::ColorTargetState {
                format,
                blend: Some(wgpu::BlendState::ALPHA_BLENDING),
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    })
}
