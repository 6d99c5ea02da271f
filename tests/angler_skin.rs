//! The bundled angler's skin never webs (issue 19 item 5): CPU skinning of the posed angler
//! at every phase of the session, sampled through each phase, stretches no triangle edge of
//! the mesh to more than 4× its bind length, and at the 99.9th percentile to no more than 2×.
//!
//! A web (torso skin dragged to the elbow), a candy-wrapper wrist or a spiking knuckle all
//! show up here as a few edges many times their bind length. The generated weights themselves
//! are checked too: four per vertex summing to one, none on a far bone, elbows blended, the
//! torso's side free of the arm, fingers apart.

use anglerpose::assetgen::angler::{AnglerPart, angler_parts};
use anglerpose::assetgen::skeleton::{Joint, find};
use anglerpose::assetgen::skinning::segment_closest;
use anglerpose::fishing::Phase;
use anglerpose::gltf_io;
use anglerpose::rig::Pose;
use anglerpose::stage::Stage;
use glam::DVec3;
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// Samples per phase (t = 0, 1/(N-1), …, 1).
const SAMPLES: usize = 11;
const P999_LIMIT: f64 = 2.0;
const WORST_LIMIT: f64 = 4.0;

/// One triangle edge of one primitive.
struct Edge {
    primitive: usize,
    a: u32,
    b: u32,
    bind_length: f64,
}

fn to_d(v: [f32; 3]) -> DVec3 {
    DVec3::from_array(v.map(f64::from))
}

/// Every primitive of every mesh as (mesh, primitive) in file order.
fn primitives(stage: &Stage) -> Vec<(usize, usize)> {
    let c = &stage.character;
    (0..c.meshes.len())
        .flat_map(|m| (0..c.meshes[m].primitives.len()).map(move |p| (m, p)))
        .collect()
}

/// Each undirected triangle edge once, with its length in the bind pose.
fn edges(stage: &Stage, prims: &[(usize, usize)]) -> Vec<Edge> {
    let rest = Pose::rest(&stage.character.skeleton);
    let mut out = Vec::new();
    for (k, &(m, p)) in prims.iter().enumerate() {
        let bind = gltf_io::skin_positions(&stage.character, &rest, m, p);
        let mut seen = BTreeSet::new();
        for tri in stage.character.meshes[m].primitives[p]
            .indices
            .chunks_exact(3)
        {
            for (a, b) in [(tri[0], tri[1]), (tri[1], tri[2]), (tri[2], tri[0])] {
                let (a, b) = (a.min(b), a.max(b));
                if a == b || !seen.insert((a, b)) {
                    continue;
                }
                let bind_length = (to_d(bind[a as usize]) - to_d(bind[b as usize])).length();
                if bind_length > 1e-6 {
                    out.push(Edge {
                        primitive: k,
                        a,
                        b,
                        bind_length,
                    });
                }
            }
        }
    }
    out
}

/// The joints a vertex is weighted to, heaviest first ("forearm.L 0.62 + hand.L 0.38").
fn weighting(stage: &Stage, (m, p): (usize, usize), v: u32) -> String {
    let c = &stage.character;
    let prim = &c.meshes[m].primitives[p];
    let (Some(j), Some(w), Some(skin)) = (&prim.joints, &prim.weights, c.meshes[m].skin) else {
        return "(rigid)".into();
    };
    let (j, w) = (j[v as usize], w[v as usize]);
    let mut slots: Vec<usize> = (0..4).filter(|&s| w[s] > 0.0).collect();
    slots.sort_by(|&x, &y| w[y].total_cmp(&w[x]));
    let names: Vec<String> = slots
        .iter()
        .map(|&s| {
            let bone = c.skins[skin].joints[j[s] as usize];
            format!("{} {:.2}", c.skeleton.bones()[bone].name, w[s])
        })
        .collect();
    names.join(" + ")
}

#[test]
fn no_edge_of_the_bundled_angler_stretches_far_at_any_phase() {
    let mut stage = Stage::bundled().expect("bundled stage");
    let prims = primitives(&stage);
    let edges = edges(&stage, &prims);
    assert!(edges.len() > 10_000, "{} edges", edges.len());
    let mut failures = Vec::new();
    for phase in Phase::ALL {
        let mut phase_p999: f64 = 0.0;
        let mut phase_worst = (0.0, String::new());
        for i in 0..SAMPLES {
            stage.inputs.state.phase = phase;
            stage.inputs.state.t = i as f64 / (SAMPLES - 1) as f64;
            stage.update().expect("pose");
            let posed: Vec<Vec<[f32; 3]>> = prims
                .iter()
                .map(|&(m, p)| gltf_io::skin_positions(&stage.character, &stage.pose, m, p))
                .collect();
            let mut ratios: Vec<(f64, usize)> = edges
                .iter()
                .enumerate()
                .map(|(k, e)| {
                    let pos = &posed[e.primitive];
                    let l = (to_d(pos[e.a as usize]) - to_d(pos[e.b as usize])).length();
                    (l / e.bind_length, k)
                })
                .collect();
            ratios.sort_by(|x, y| x.0.total_cmp(&y.0));
            let p999 = ratios[(ratios.len() as f64 * 0.999) as usize].0;
            let (worst, k) = *ratios.last().unwrap();
            phase_p999 = phase_p999.max(p999);
            if worst > phase_worst.0 {
                let e = &edges[k];
                let at = prims[e.primitive];
                phase_worst = (
                    worst,
                    format!(
                        "t {:.1}: {} ↔ {}",
                        stage.inputs.state.t,
                        weighting(&stage, at, e.a),
                        weighting(&stage, at, e.b)
                    ),
                );
            }
        }
        let line = format!(
            "{:<12} p99.9 {phase_p999:5.2}×  worst {:5.2}× ({})",
            phase.name(),
            phase_worst.0,
            phase_worst.1
        );
        println!("{line}");
        if phase_p999 > P999_LIMIT || phase_worst.0 > WORST_LIMIT {
            failures.push(line);
        }
    }
    assert!(
        failures.is_empty(),
        "edges stretch past {P999_LIMIT}× (99.9th percentile) or {WORST_LIMIT}× (worst):\n{}",
        failures.join("\n")
    );
}

fn parts() -> &'static (Vec<Joint>, Vec<AnglerPart>) {
    static PARTS: OnceLock<(Vec<Joint>, Vec<AnglerPart>)> = OnceLock::new();
    PARTS.get_or_init(angler_parts)
}

fn part(name: &str) -> &'static AnglerPart {
    parts().1.iter().find(|p| p.name == name).unwrap()
}

fn weight_of(p: &AnglerPart, v: usize, joint: usize) -> f32 {
    (0..4)
        .filter(|&s| p.joints[v][s] as usize == joint)
        .map(|s| p.weights[v][s])
        .sum()
}

fn distance(p: DVec3, j: &Joint) -> f64 {
    (p - segment_closest(p, j.head, j.tail)).length()
}

/// Vertices of `part` within `r` of `centre`.
fn near(p: &AnglerPart, centre: DVec3, r: f64) -> Vec<usize> {
    (0..p.mesh.positions.len())
        .filter(|&v| (p.mesh.positions[v] - centre).length() < r)
        .collect()
}

#[test]
fn weights_are_four_sorted_and_sum_to_one() {
    for p in &parts().1 {
        assert_eq!(p.weights.len(), p.mesh.positions.len());
        for w in &p.weights {
            let sum = w[0] + (w[1] + w[2] + w[3]);
            assert!((sum - 1.0).abs() <= f32::EPSILON, "{}: {w:?}", p.name);
            assert!(w.windows(2).all(|x| x[0] >= x[1]), "{}: {w:?}", p.name);
            assert!(w.iter().all(|&x| x >= 0.0));
        }
    }
}

/// No vertex is weighted to a bone it is far from: a bone carrying 10% or more of a vertex
/// is at most two blend lengths (see `assetgen::body`) farther from it than its nearest bone.
/// (The old distance weights put half of some armpit vertices on the forearm, 25 cm past
/// the upper arm.)
#[test]
fn no_vertex_leans_on_a_far_bone() {
    let joints = &parts().0;
    for p in &parts().1 {
        let limit = match p.name {
            "body" => 2.0 * 5.0 * 0.017,
            "head" => 2.0 * 5.0 * 0.0075,
            _ => 2.0 * 5.0 * 0.0042,
        };
        for (v, &x) in p.mesh.positions.iter().enumerate() {
            let nearest = (1..joints.len())
                .map(|j| distance(x, &joints[j]))
                .fold(f64::INFINITY, f64::min);
            for s in 0..4 {
                if p.weights[v][s] < 0.1 {
                    continue;
                }
                let j = &joints[p.joints[v][s] as usize];
                let extra = distance(x, j) - nearest;
                assert!(
                    extra <= limit,
                    "{} vertex {v} at {x}: {} ({:.2}) is {extra:.3} m past the nearest bone",
                    p.name,
                    j.name,
                    p.weights[v][s]
                );
            }
        }
    }
}

#[test]
fn elbows_blend_arms_leave_the_torso_and_fingers_stay_apart() {
    let joints = &parts().0;
    let id = |n: &str| find(joints, n).unwrap();
    let body = part("body");
    // Across the elbow both arm bones share the skin; mid-forearm is the forearm's.
    let (upper, fore) = (id("upperarm.L"), id("forearm.L"));
    let elbow = near(body, joints[fore].head, 0.05);
    assert!(!elbow.is_empty());
    assert!(
        elbow
            .iter()
            .any(|&v| { weight_of(body, v, upper) > 0.3 && weight_of(body, v, fore) > 0.3 })
    );
    // The ring round the middle of the forearm.
    let (elbow, wrist) = (joints[fore].head, joints[fore].tail);
    let ring: Vec<usize> = (0..body.mesh.positions.len())
        .filter(|&v| {
            let p = body.mesh.positions[v];
            let t = (p - elbow).dot(wrist - elbow) / (wrist - elbow).length_squared();
            (0.45..0.55).contains(&t) && distance(p, &joints[fore]) < 0.06
        })
        .collect();
    assert!(ring.len() > 10, "{}", ring.len());
    for v in ring {
        assert!(weight_of(body, v, fore) > 0.95, "{:?}", body.weights[v]);
    }
    // The torso's side below the armpit, beside the hanging arm, follows the spine: a
    // little of the arm 20 cm below the shoulder, almost nothing 25 cm below.
    let shoulder = joints[upper].head;
    for (below, most) in [(0.20, 0.3), (0.25, 0.1)] {
        let y = shoulder.y - below;
        let side: Vec<usize> = (0..body.mesh.positions.len())
            .filter(|&v| {
                let p = body.mesh.positions[v];
                (p.y - y).abs() < 0.01 && (0.08..0.16).contains(&p.x) && (p.z - 0.03).abs() < 0.03
            })
            .collect();
        assert!(side.len() >= 3, "{below}: {}", side.len());
        for v in side {
            let w = weight_of(body, v, upper);
            assert!(w < most, "{below} m below: {:?}", body.weights[v]);
        }
    }
    // Fingers: the skin round the middle of the index finger's middle bone (its middle
    // 60%: the thinned mesh has a few vertices a side there), on the side
    // toward the middle finger as on the outer side, carries under 2% of any other digit
    // (what reaches it does so through the palm).
    let hand = part("hand.L");
    let index = id("index_02.L");
    let (a, b) = (joints[index].head, joints[index].tail);
    let toward_middle = joints[id("middle_02.L")].head - a;
    let mut max_other = [0.0f32; 2];
    let mut count = [0usize; 2];
    for v in 0..hand.mesh.positions.len() {
        let p = hand.mesh.positions[v];
        let t = (p - a).dot(b - a) / (b - a).length_squared();
        let q = a.lerp(b, t);
        if !(0.2..0.8).contains(&t) || (p - q).length() > 0.011 {
            continue;
        }
        let inner = usize::from((p - q).dot(toward_middle) > 0.0);
        count[inner] += 1;
        for other in ["middle", "ring", "pinky", "thumb"] {
            for k in 1..=3 {
                let j = id(&format!("{other}_0{k}.L"));
                max_other[inner] = max_other[inner].max(weight_of(hand, v, j));
            }
        }
    }
    assert!(count.iter().all(|&c| c >= 10), "{count:?}");
    assert!(max_other.iter().all(|&w| w < 0.02), "{max_other:?}");
}
