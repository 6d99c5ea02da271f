//! Throw-away software rasteriser for looking at the bundled assets without a GPU.
//!
//! `cargo run --example preview_assets -- [ASSETS_DIR] [OUT_DIR]` reads `angler.glb`, `rod.glb`,
//! `net.glb` and `stool.glb` (rest pose, no skinning needed since rest = bind pose) and writes
//! orthographic, depth-buffered, Lambert-shaded PNGs with the vertex colours: the angler from
//! the front, side and three-quarter view, a close-up of the left hand and the face, and each
//! prop, plus a scene with the angler on the stool holding nothing.

use glam::{Mat3, Mat4, Quat, Vec3};
use std::path::{Path, PathBuf};

struct Tri {
    p: [Vec3; 3],
    c: [Vec3; 3],
}

fn load(path: &Path) -> Result<Vec<Tri>, String> {
    let (doc, buffers, _) = gltf::import(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut tris = Vec::new();
    for node in doc.nodes() {
        let Some(mesh) = node.mesh() else { continue };
        for prim in mesh.primitives() {
            let r = prim.reader(|b| Some(&buffers[b.index()]));
            let pos: Vec<Vec3> = r
                .read_positions()
                .ok_or("no positions")?
                .map(Vec3::from)
                .collect();
            let col: Vec<Vec3> = match r.read_colors(0) {
                Some(c) => c.into_rgb_f32().map(Vec3::from).collect(),
                None => vec![Vec3::splat(0.7); pos.len()],
            };
            let idx: Vec<u32> = r.read_indices().ok_or("no indices")?.into_u32().collect();
            for t in idx.chunks_exact(3) {
                let i = [t[0], t[1], t[2]].map(|i| i as usize);
                tris.push(Tri {
                    p: i.map(|k| pos[k]),
                    c: i.map(|k| col[k]),
                });
            }
        }
    }
    Ok(tris)
}

/// Loads a skinned file in a pose: each `(joint name, degrees)` rotates that joint about its
/// local +X (the hinge axis) on top of the rest pose; vertices are skinned on the CPU.
fn load_posed(path: &Path, pose: &[(&str, f32)]) -> Result<Vec<Tri>, String> {
    let (doc, buffers, _) = gltf::import(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let n = doc.nodes().count();
    let mut parent = vec![None; n];
    for node in doc.nodes() {
        for c in node.children() {
            parent[c.index()] = Some(node.index());
        }
    }
    let local: Vec<Mat4> = doc
        .nodes()
        .map(|node| {
            let (t, r, s) = node.transform().decomposed();
            let mut r = Quat::from_array(r);
            let name = node.name().unwrap_or("");
            for (joint, deg) in pose {
                if *joint == name {
                    r *= Quat::from_rotation_x(deg.to_radians());
                }
            }
            Mat4::from_scale_rotation_translation(Vec3::from(s), r, Vec3::from(t))
        })
        .collect();
    let world_of = |mut i: usize| {
        let mut m = local[i];
        while let Some(p) = parent[i] {
            m = local[p] * m;
            i = p;
        }
        m
    };
    let mut tris = Vec::new();
    for node in doc.nodes() {
        let (Some(mesh), Some(skin)) = (node.mesh(), node.skin()) else {
            continue;
        };
        let ibm: Vec<Mat4> = skin
            .reader(|b| Some(&buffers[b.index()]))
            .read_inverse_bind_matrices()
            .ok_or("no inverse bind matrices")?
            .map(|m| Mat4::from_cols_array_2d(&m))
            .collect();
        let mats: Vec<Mat4> = skin
            .joints()
            .zip(&ibm)
            .map(|(j, b)| world_of(j.index()) * *b)
            .collect();
        for prim in mesh.primitives() {
            let r = prim.reader(|b| Some(&buffers[b.index()]));
            let js: Vec<[u16; 4]> = r.read_joints(0).ok_or("no joints")?.into_u16().collect();
            let ws: Vec<[f32; 4]> = r.read_weights(0).ok_or("no weights")?.into_f32().collect();
            let pos: Vec<Vec3> = r
                .read_positions()
                .ok_or("no positions")?
                .zip(js.iter().zip(&ws))
                .map(|(p, (j, w))| {
                    (0..4)
                        .map(|k| mats[j[k] as usize].transform_point3(Vec3::from(p)) * w[k])
                        .sum()
                })
                .collect();
            let col: Vec<Vec3> = match r.read_colors(0) {
                Some(c) => c.into_rgb_f32().map(Vec3::from).collect(),
                None => vec![Vec3::splat(0.7); pos.len()],
            };
            let idx: Vec<u32> = r.read_indices().ok_or("no indices")?.into_u32().collect();
            for t in idx.chunks_exact(3) {
                let i = [t[0], t[1], t[2]].map(|i| i as usize);
                tris.push(Tri {
                    p: i.map(|k| pos[k]),
                    c: i.map(|k| col[k]),
                });
            }
        }
    }
    Ok(tris)
}

fn to_srgb(x: f32) -> u8 {
    let x = x.clamp(0.0, 1.0);
    let s = if x <= 0.0031308 {
        x * 12.92
    } else {
        1.055 * x.powf(1.0 / 2.4) - 0.055
    };
    (s * 255.0).round() as u8
}

/// Renders `tris` looking along `dir` (camera up ≈ +Y) at `centre`, `span` metres tall.
fn render(tris: &[Tri], dir: Vec3, centre: Vec3, span: f32, size: u32, out: &Path) {
    let fwd = dir.normalize();
    let right = fwd.cross(Vec3::Y).normalize_or(Vec3::X);
    let up = right.cross(fwd);
    let view = Mat3::from_cols(right, up, -fwd).transpose();
    let (w, h) = (size, size);
    let scale = h as f32 / span;
    let light = (-fwd + up * 0.8 + right * 0.5).normalize();
    let mut depth = vec![f32::INFINITY; (w * h) as usize];
    let mut img = image::RgbImage::from_pixel(w, h, image::Rgb([205, 212, 220]));
    for t in tris {
        let s: [Vec3; 3] = t.p.map(|p| {
            let q = view * (p - centre);
            Vec3::new(
                w as f32 / 2.0 + q.x * scale,
                h as f32 / 2.0 - q.y * scale,
                -q.z,
            )
        });
        let n = (t.p[1] - t.p[0]).cross(t.p[2] - t.p[0]).normalize_or_zero();
        let shade = 0.3 + 0.7 * n.dot(light).abs().max(0.0);
        let area = (s[1].x - s[0].x) * (s[2].y - s[0].y) - (s[2].x - s[0].x) * (s[1].y - s[0].y);
        if area.abs() < 1e-12 {
            continue;
        }
        let minx = s
            .iter()
            .map(|v| v.x)
            .fold(f32::INFINITY, f32::min)
            .floor()
            .max(0.0) as u32;
        let maxx = s
            .iter()
            .map(|v| v.x)
            .fold(f32::NEG_INFINITY, f32::max)
            .ceil()
            .min(w as f32 - 1.0);
        let miny = s
            .iter()
            .map(|v| v.y)
            .fold(f32::INFINITY, f32::min)
            .floor()
            .max(0.0) as u32;
        let maxy = s
            .iter()
            .map(|v| v.y)
            .fold(f32::NEG_INFINITY, f32::max)
            .ceil()
            .min(h as f32 - 1.0);
        if maxx < 0.0 || maxy < 0.0 {
            continue;
        }
        for y in miny..=maxy as u32 {
            for x in minx..=maxx as u32 {
                let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
                let e = |a: Vec3, b: Vec3| (b.x - a.x) * (py - a.y) - (px - a.x) * (b.y - a.y);
                let b0 = e(s[1], s[2]) / area;
                let b1 = e(s[2], s[0]) / area;
                let b2 = 1.0 - b0 - b1;
                if b0 < 0.0 || b1 < 0.0 || b2 < 0.0 {
                    continue;
                }
                let z = b0 * s[0].z + b1 * s[1].z + b2 * s[2].z;
                let k = (y * w + x) as usize;
                if z < depth[k] {
                    depth[k] = z;
                    let c = (t.c[0] * b0 + t.c[1] * b1 + t.c[2] * b2) * shade;
                    img.put_pixel(x, y, image::Rgb([to_srgb(c.x), to_srgb(c.y), to_srgb(c.z)]));
                }
            }
        }
    }
    match img.save(out) {
        Ok(()) => println!("wrote {}", out.display()),
        Err(e) => eprintln!("cannot write {}: {e}", out.display()),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let assets = PathBuf::from(args.get(1).map(String::as_str).unwrap_or("assets"));
    let out = PathBuf::from(args.get(2).map(String::as_str).unwrap_or("target/preview"));
    if let Err(e) = std::fs::create_dir_all(&out) {
        eprintln!("cannot create {}: {e}", out.display());
        return;
    }
    let get = |name: &str| match load(&assets.join(name)) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            Vec::new()
        }
    };
    let angler = get("angler.glb");
    let body = Vec3::new(0.0, 0.7, 0.2);
    render(
        &angler,
        Vec3::new(0.0, 0.0, -1.0),
        body,
        1.6,
        800,
        &out.join("angler_front.png"),
    );
    render(
        &angler,
        Vec3::new(-1.0, 0.0, 0.0),
        body,
        1.6,
        800,
        &out.join("angler_side.png"),
    );
    render(
        &angler,
        Vec3::new(-0.7, -0.35, -1.0),
        body,
        1.6,
        800,
        &out.join("angler_34.png"),
    );
    render(
        &angler,
        Vec3::new(0.5, 0.2, 1.0),
        body,
        1.6,
        800,
        &out.join("angler_back.png"),
    );
    let hand = Vec3::new(0.27, 0.58, 0.5);
    render(
        &angler,
        Vec3::new(-1.0, -0.2, -0.3),
        hand,
        0.3,
        600,
        &out.join("hand_l_out.png"),
    );
    render(
        &angler,
        Vec3::new(1.0, 0.3, -0.4),
        hand,
        0.3,
        600,
        &out.join("hand_l_in.png"),
    );
    render(
        &angler,
        Vec3::new(0.0, -1.0, -0.2),
        hand,
        0.3,
        600,
        &out.join("hand_l_below.png"),
    );
    let face = Vec3::new(0.0, 1.23, 0.1);
    render(
        &angler,
        Vec3::new(-0.3, -0.1, -1.0),
        face,
        0.36,
        600,
        &out.join("face.png"),
    );
    let rod = get("rod.glb");
    render(
        &rod,
        Vec3::new(-1.0, 0.0, 0.0),
        Vec3::new(0.0, 1.2, 0.0),
        2.6,
        800,
        &out.join("rod.png"),
    );
    render(
        &rod,
        Vec3::new(-1.0, -0.3, 0.2),
        Vec3::new(0.0, 0.4, -0.04),
        0.3,
        600,
        &out.join("rod_reel.png"),
    );
    let net = get("net.glb");
    render(
        &net,
        Vec3::new(-1.0, -0.4, -0.6),
        Vec3::new(0.0, 1.0, -0.1),
        2.0,
        800,
        &out.join("net.png"),
    );
    let stool = get("stool.glb");
    render(
        &stool,
        Vec3::new(-0.8, -0.4, -1.0),
        Vec3::new(0.0, 0.25, 0.0),
        0.7,
        600,
        &out.join("stool.png"),
    );
    // A test pose for the skin weights: left elbow and fingers flexed, right knee bent, a bow.
    let mut pose: Vec<(String, f32)> = vec![
        ("forearm.L".into(), 60.0),
        ("shin.R".into(), 40.0),
        ("spine_02".into(), 20.0),
        ("neck".into(), -25.0),
        ("upperarm.R".into(), -30.0),
    ];
    for f in ["index", "middle", "ring", "pinky"] {
        for k in 1..=3 {
            pose.push((format!("{f}_0{k}.L"), 45.0));
        }
    }
    for k in 1..=3 {
        pose.push((format!("thumb_0{k}.L"), 25.0));
    }
    let pose: Vec<(&str, f32)> = pose.iter().map(|(n, d)| (n.as_str(), *d)).collect();
    match load_posed(&assets.join("angler.glb"), &pose) {
        Ok(posed) => {
            render(
                &posed,
                Vec3::new(-0.7, -0.35, -1.0),
                body,
                1.6,
                800,
                &out.join("posed_34.png"),
            );
            render(
                &posed,
                Vec3::new(-1.0, 0.0, -0.2),
                body,
                1.6,
                800,
                &out.join("posed_side.png"),
            );
            let hand = Vec3::new(0.27, 0.75, 0.4);
            render(
                &posed,
                Vec3::new(-1.0, -0.2, -0.3),
                hand,
                0.4,
                600,
                &out.join("posed_hand.png"),
            );
        }
        Err(e) => eprintln!("{e}"),
    }
    let mut scene = angler;
    scene.extend(stool);
    render(
        &scene,
        Vec3::new(-1.0, -0.2, -0.5),
        body,
        1.6,
        800,
        &out.join("scene.png"),
    );
}
