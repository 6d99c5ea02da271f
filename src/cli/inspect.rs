//! `anglerpose inspect FILE [--json] [--as rod]`: what the importer sees in a glTF file, or
//! the rod or net frame found in it
//! (`inspect_prop`).

use anglerpose::gltf_io::{self, Character};
use anglerpose::rig::{
    ArmMap, ArmPart, BodyMap, BodyRole, CharacterFrame, Finger, HumanoidMap, MapMethod, Pose, Role,
    Side,
};
use clap::Args;
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct InspectArgs {
    /// A .glb, .gltf, .vrm or .fbx file.
    pub file: PathBuf,
    /// Print machine-readable JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Read the file as a rod model: print the canonical rod frame found in its geometry.
    #[arg(long = "as", value_enum)]
    pub as_kind: Option<InspectAs>,
    /// With `--as rod` / `--as net`: the real length in metres when the file is not in metres
    /// (default 2.4 for a rod, 1.7 for a net).
    #[arg(long, visible_alias = "rod-length")]
    pub length: Option<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum InspectAs {
    /// A rod model (blank axis, butt, units, reel seat, rear grip, reel).
    Rod,
    /// A landing-net model (handle axis, handle end, units, hoop, grip).
    Net,
}

pub fn run(args: InspectArgs) -> anyhow::Result<()> {
    let character = gltf_io::load(&args.file)?;
    let query = super::inspect_prop::PropQuery {
        file: &args.file,
        json: args.json,
        length: args.length,
    };
    match args.as_kind {
        Some(InspectAs::Rod) => return super::inspect_prop::rod(&query, &character),
        Some(InspectAs::Net) => return super::inspect_prop::net(&query, &character),
        None => {}
    }
    let map = character.detect_humanoid();
    if args.json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&to_json(&character, &map))?
        );
    } else {
        outln!("{}", to_text(&character, &map).trim_end_matches('\n'));
    }
    Ok(())
}

fn bone_name(c: &Character, b: usize) -> &str {
    &c.skeleton.bone(b).name
}

fn arm_json(c: &Character, a: &ArmMap) -> Value {
    let fingers: serde_json::Map<String, Value> = Finger::ALL
        .iter()
        .map(|&f| {
            let names: Vec<&str> = a.finger(f).iter().map(|&b| bone_name(c, b)).collect();
            (f.name().to_string(), json!(names))
        })
        .collect();
    json!({
        "clavicle": a.clavicle.map(|b| bone_name(c, b)),
        "upper_arm": bone_name(c, a.upper_arm),
        "forearm": bone_name(c, a.forearm),
        "hand": bone_name(c, a.hand),
        "fingers": fingers,
        "upper_arm_length": a.upper_arm_length,
        "forearm_length": a.forearm_length,
        "palm_length": a.palm_length,
        "finger_lengths": a.finger_lengths.iter().zip(Finger::ALL)
            .map(|(l, f)| (f.name().to_string(), json!(l)))
            .collect::<serde_json::Map<_, _>>(),
        "elbow_axis_in_world": a.elbow_axis_in_world.to_array(),
        "elbow_axis_in_upper_arm": a.elbow_axis_in_upper_arm.to_array(),
    })
}

fn body_json(c: &Character, b: &BodyMap) -> Value {
    let leg = |side: Side| {
        let l = b.leg(side);
        json!({
            "thigh": bone_name(c, l.thigh),
            "shin": bone_name(c, l.shin),
            "foot": bone_name(c, l.foot),
            "toe": l.toe.map(|t| bone_name(c, t)),
            "thigh_length": l.thigh_length,
            "shin_length": l.shin_length,
        })
    };
    json!({
        "method": b.method,
        "hips": bone_name(c, b.hips),
        "spine": b.spine.iter().map(|&s| bone_name(c, s)).collect::<Vec<_>>(),
        "neck": b.neck.map(|n| bone_name(c, n)),
        "head": bone_name(c, b.head),
        "eyes": b.eyes.iter().map(|&e| bone_name(c, e)).collect::<Vec<_>>(),
        "left_leg": leg(Side::Left),
        "right_leg": leg(Side::Right),
    })
}

fn frame_json(rest: &Pose, map: &HumanoidMap) -> Value {
    match CharacterFrame::from_map(rest, map) {
        Ok(f) => json!({
            "up_in_file": f.up_in_file.to_array(),
            "forward_in_file": f.forward_in_file.to_array(),
            "unit_scale": f.unit_scale,
            "snapped_to_axes": f.snapped,
            "actor_from_file": f.actor_from_file,
        }),
        Err(e) => json!({ "error": e.to_string() }),
    }
}

fn to_json(c: &Character, map: &HumanoidMap) -> Value {
    let rest = Pose::rest(&c.skeleton);
    json!({
        "file": c.source.display().to_string(),
        "nodes": c.skeleton.len(),
        "skins": c.skins.iter().map(|s| json!({"name": s.name, "joints": s.joints.len()})).collect::<Vec<_>>(),
        "meshes": c.meshes.iter().map(|m| json!({
            "name": m.name,
            "node": bone_name(c, m.node),
            "skin": m.skin,
            "primitives": m.primitives.iter().map(|p| json!({
                "vertices": p.positions.len(),
                "triangles": p.triangle_count(),
                "uvs": p.uvs.is_some(),
                "colors": p.colors.is_some(),
                "skinned": p.joints.is_some(),
                "base_color_texture": p.material.base_color_texture,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "vertices": c.vertex_count(),
        "triangles": c.triangle_count(),
        "images": c.images.iter().map(|i| [i.width, i.height]).collect::<Vec<_>>(),
        "humanoid": {
            "method": map.method,
            "declared_by": map.declared_by,
            "sources": sources(map),
            "confidence": map.confidence,
            "left": map.left.as_ref().map(|a| arm_json(c, a)),
            "right": map.right.as_ref().map(|a| arm_json(c, a)),
            "missing": map.missing.iter().map(Role::to_string).collect::<Vec<_>>(),
            "notes": map.notes,
            "forward": map.forward.to_array(),
            "body": map.body.as_ref().map(|b| body_json(c, b)),
            "body_missing": map.body_missing.iter().map(BodyRole::to_string).collect::<Vec<_>>(),
            "frame": frame_json(&rest, map),
        },
        "warnings": c.warnings,
    })
}

/// Where each mapped role came from: `declared` (the file's VRM humanoid), else how the
/// rest was found (`names`, `topology`, `override`; `detected` beside a declaration, the
/// spine's bones between declared ones `hierarchy`).
fn sources(map: &HumanoidMap) -> serde_json::Map<String, Value> {
    let declared = |role: &str| map.declared.iter().any(|d| d == role);
    let method = |m: MapMethod| match m {
        MapMethod::Names => "names",
        MapMethod::Topology => "topology",
        MapMethod::Override => "override",
        MapMethod::Declared => "detected",
        MapMethod::NotFound => "none",
    };
    let mut out = serde_json::Map::new();
    for (role, _) in map.roles() {
        let role = role.to_string();
        let from = if declared(&role) {
            "declared"
        } else {
            method(map.method)
        };
        out.insert(role, json!(from));
    }
    if let Some(b) = &map.body {
        let roles = b.roles().into_iter().map(|(r, _)| r.to_string());
        let eyes = (1..=b.eyes.len()).map(|k| format!("eye.{k}"));
        for role in roles.chain(eyes) {
            let from = if declared(&role) {
                "declared"
            } else if b.method == MapMethod::Declared {
                "hierarchy"
            } else {
                method(b.method)
            };
            out.insert(role, json!(from));
        }
    }
    out
}

fn to_text(c: &Character, map: &HumanoidMap) -> String {
    let mut s = String::new();
    let w = &mut s;
    let _ = writeln!(w, "{}", c.source.display());
    let _ = writeln!(w, "  nodes (bones): {}", c.skeleton.len());
    let _ = writeln!(w, "  skins: {}", c.skins.len());
    for (i, skin) in c.skins.iter().enumerate() {
        let _ = writeln!(w, "    [{i}] {:?}: {} joints", skin.name, skin.joints.len());
    }
    let _ = writeln!(
        w,
        "  meshes: {} ({} vertices, {} triangles)",
        c.meshes.len(),
        c.vertex_count(),
        c.triangle_count()
    );
    for m in &c.meshes {
        let skin = m.skin.map_or("rigid".to_string(), |s| format!("skin {s}"));
        let _ = writeln!(
            w,
            "    {:?} on node {:?}, {skin}",
            m.name,
            bone_name(c, m.node)
        );
        for (k, p) in m.primitives.iter().enumerate() {
            let mut extras = Vec::new();
            if p.uvs.is_some() {
                extras.push("uv".to_string());
            }
            if p.colors.is_some() {
                extras.push("colour".to_string());
            }
            if let Some(t) = p.material.base_color_texture {
                extras.push(format!("texture image {t}"));
            }
            let _ = writeln!(
                w,
                "      primitive {k}: {} vertices, {} triangles {}",
                p.positions.len(),
                p.triangle_count(),
                if extras.is_empty() {
                    String::new()
                } else {
                    format!("[{}]", extras.join(", "))
                }
            );
        }
    }
    if !c.images.is_empty() {
        let dims: Vec<String> = c
            .images
            .iter()
            .map(|i| format!("{}×{}", i.width, i.height))
            .collect();
        let _ = writeln!(w, "  images: {}", dims.join(", "));
    }
    let _ = writeln!(
        w,
        "  humanoid: {:?}, confidence {:.2}",
        map.method, map.confidence
    );
    if let Some(by) = &map.declared_by {
        let all = sources(map);
        let other: Vec<String> = all
            .iter()
            .filter(|(_, v)| *v != "declared")
            .map(|(k, v)| format!("{k} ({})", v.as_str().unwrap_or("?")))
            .collect();
        let _ = writeln!(
            w,
            "    declared by the file ({by}): {} of {} roles{}",
            all.len() - other.len(),
            all.len(),
            if other.is_empty() {
                String::new()
            } else {
                format!("; the rest: {}", other.join(", "))
            }
        );
    }
    for side in [Side::Left, Side::Right] {
        match map.arm(side) {
            None => {
                let _ = writeln!(w, "    {}: none", side.name());
            }
            Some(a) => write_arm(w, c, side, a),
        }
    }
    match &map.body {
        None => {
            let _ = writeln!(w, "    body: none");
        }
        Some(b) => write_body(w, c, b),
    }
    if !map.missing.is_empty() || !map.body_missing.is_empty() {
        let m: Vec<String> = map
            .missing
            .iter()
            .map(Role::to_string)
            .chain(map.body_missing.iter().map(BodyRole::to_string))
            .collect();
        let _ = writeln!(w, "    missing: {}", m.join(", "));
    }
    let rest = Pose::rest(&c.skeleton);
    match CharacterFrame::from_map(&rest, map) {
        Ok(f) => {
            let (u, d) = (f.up_in_file, f.forward_in_file);
            let _ = writeln!(
                w,
                "  frame: up [{:.3}, {:.3}, {:.3}], forward [{:.3}, {:.3}, {:.3}], units × {}{}",
                u.x,
                u.y,
                u.z,
                d.x,
                d.y,
                d.z,
                f.unit_scale,
                if f.snapped { " (axis-aligned)" } else { "" }
            );
        }
        Err(e) => {
            let _ = writeln!(w, "  frame: {e}");
        }
    }
    for n in &map.notes {
        let _ = writeln!(w, "    note: {n}");
    }
    let _ = writeln!(w, "  warnings: {}", c.warnings.len());
    for warning in &c.warnings {
        let _ = writeln!(w, "    - {warning}");
    }
    s
}

fn write_body(w: &mut String, c: &Character, b: &BodyMap) {
    let spine: Vec<&str> = b.spine.iter().map(|&s| bone_name(c, s)).collect();
    let _ = writeln!(
        w,
        "    body ({:?}): hips {}, spine [{}], neck {}, head {}",
        b.method,
        bone_name(c, b.hips),
        spine.join(" → "),
        b.neck.map_or("-", |n| bone_name(c, n)),
        bone_name(c, b.head)
    );
    if !b.eyes.is_empty() {
        let eyes: Vec<&str> = b.eyes.iter().map(|&e| bone_name(c, e)).collect();
        let _ = writeln!(w, "    eyes: {}", eyes.join(", "));
    }
    for side in [Side::Left, Side::Right] {
        let l = b.leg(side);
        let _ = writeln!(
            w,
            "    {} leg: thigh {} ({:.3}), shin {} ({:.3}), foot {}, toe {}",
            side.name(),
            bone_name(c, l.thigh),
            l.thigh_length,
            bone_name(c, l.shin),
            l.shin_length,
            bone_name(c, l.foot),
            l.toe.map_or("-", |t| bone_name(c, t)),
        );
    }
}

fn write_arm(w: &mut String, c: &Character, side: Side, a: &ArmMap) {
    let part = |p: ArmPart| {
        a.bone(p)
            .map_or("-".to_string(), |b| bone_name(c, b).to_string())
    };
    let _ = writeln!(
        w,
        "    {}: clavicle {}, upper arm {} ({:.3}), forearm {} ({:.3}), hand {}{}",
        side.name(),
        part(ArmPart::Clavicle),
        part(ArmPart::UpperArm),
        a.upper_arm_length,
        part(ArmPart::Forearm),
        a.forearm_length,
        part(ArmPart::Hand),
        a.palm_length
            .map_or(String::new(), |l| format!(" (palm {l:.3})")),
    );
    let ax = a.elbow_axis_in_world;
    let _ = writeln!(
        w,
        "      elbow bend axis (world): [{:.3}, {:.3}, {:.3}]",
        ax.x, ax.y, ax.z
    );
    for f in Finger::ALL {
        let chain = a.finger(f);
        if chain.is_empty() {
            continue;
        }
        let names: Vec<&str> = chain.iter().map(|&b| bone_name(c, b)).collect();
        let lens: Vec<String> = a.finger_lengths[f.index()]
            .iter()
            .map(|l| format!("{l:.3}"))
            .collect();
        let _ = writeln!(
            w,
            "      {}: {} (lengths {})",
            f.name(),
            names.join(" → "),
            lens.join(", ")
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_skins_meshes_and_map() {
        let path =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/broken/valid.glb");
        let c = gltf_io::load(&path).unwrap();
        let rest = Pose::rest(&c.skeleton);
        let map = HumanoidMap::detect(&c.skeleton, &rest);
        let text = to_text(&c, &map);
        assert!(text.contains("2 joints"), "{text}");
        assert!(text.contains("4 vertices, 2 triangles"), "{text}");
        assert!(text.contains("humanoid: NotFound"), "{text}");
        let j = to_json(&c, &map);
        assert_eq!(j["skins"][0]["joints"], 2);
        assert_eq!(j["meshes"][0]["primitives"][0]["triangles"], 2);
        assert_eq!(j["humanoid"]["method"], "not_found");
        assert!(j["humanoid"]["left"].is_null());
    }
}
