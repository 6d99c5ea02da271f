//! Small synthetic characters as node-only glTF documents (no meshes): a lone hand, a forest
//! of skeletons, a RobotExpressive-style humanoid whose palms hang side by side.
#![allow(dead_code)]

/// A node-only glTF from `(name, parent, translation)` rows.
pub fn nodes_gltf(rows: &[(String, Option<usize>, [f64; 3])]) -> String {
    let mut nodes: Vec<serde_json::Value> = rows
        .iter()
        .map(|(n, _, t)| serde_json::json!({"name": n, "translation": t}))
        .collect();
    for (i, (_, p, _)) in rows.iter().enumerate() {
        if let Some(p) = p {
            let kids = nodes[*p]
                .as_object_mut()
                .unwrap()
                .entry("children")
                .or_insert(serde_json::json!([]));
            kids.as_array_mut().unwrap().push(serde_json::json!(i));
        }
    }
    let roots: Vec<usize> = (0..rows.len()).filter(|&i| rows[i].1.is_none()).collect();
    serde_json::json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": roots}],
        "nodes": nodes,
    })
    .to_string()
}

/// A lone left hand: wrist and five three-joint fingers.
pub fn lone_hand() -> String {
    let mut rows = vec![("hand_l".to_string(), None, [0.0, 1.0, 0.0])];
    for (k, f) in ["thumb", "index", "middle", "ring", "pinky"]
        .iter()
        .enumerate()
    {
        let mut parent = 0;
        for j in 1..=3 {
            let t = if j == 1 {
                [0.08, 0.0, 0.04 - 0.02 * k as f64]
            } else {
                [0.03, 0.0, 0.0]
            };
            rows.push((format!("{f}_0{j}_l"), Some(parent), t));
            parent = rows.len() - 1;
        }
    }
    nodes_gltf(&rows)
}

/// Several unnamed, branching, symmetric trees (RecursiveSkeletons-like).
pub fn forest() -> String {
    let mut rows: Vec<(String, Option<usize>, [f64; 3])> = Vec::new();
    for tree in 0..3 {
        rows.push((String::new(), None, [tree as f64 * 2.0, 0.0, 0.0]));
        let mut level = vec![rows.len() - 1];
        for depth in 0..4 {
            let mut next = Vec::new();
            for &p in &level {
                for sx in [-1.0, 1.0] {
                    let len = 0.5 / (depth + 1) as f64;
                    rows.push((String::new(), Some(p), [sx * len * 0.7, len, 0.0]));
                    next.push(rows.len() - 1);
                }
            }
            level = next;
        }
    }
    nodes_gltf(&rows)
}

/// A T-posed humanoid (node-only glTF) whose hands are three palm bones hanging side by side
/// off the forearm, RobotExpressive-style.
pub fn palm_robot() -> String {
    let mut rows: Vec<(String, Option<usize>, [f64; 3])> = Vec::new();
    let add = |rows: &mut Vec<(String, Option<usize>, [f64; 3])>,
               n: &str,
               p: Option<usize>,
               t: [f64; 3]| {
        rows.push((n.to_string(), p, t));
        rows.len() - 1
    };
    let hips = add(&mut rows, "Hips", None, [0.0, 1.0, 0.0]);
    let abdomen = add(&mut rows, "Abdomen", Some(hips), [0.0, 0.15, 0.0]);
    let torso = add(&mut rows, "Torso", Some(abdomen), [0.0, 0.25, 0.0]);
    let neck = add(&mut rows, "Neck", Some(torso), [0.0, 0.15, 0.0]);
    add(&mut rows, "Head", Some(neck), [0.0, 0.1, 0.0]);
    for (s, x) in [("L", 1.0), ("R", -1.0)] {
        let sh = add(
            &mut rows,
            &format!("Shoulder.{s}"),
            Some(torso),
            [x * 0.05, 0.1, 0.0],
        );
        let up = add(
            &mut rows,
            &format!("UpperArm.{s}"),
            Some(sh),
            [x * 0.15, 0.0, 0.0],
        );
        let low = add(
            &mut rows,
            &format!("LowerArm.{s}"),
            Some(up),
            [x * 0.3, 0.0, 0.0],
        );
        for (k, z) in [0.015, 0.0, -0.015].iter().enumerate() {
            let palm = add(
                &mut rows,
                &format!("Palm{}.{s}", k + 1),
                Some(low),
                [x * 0.25, 0.0, *z],
            );
            add(
                &mut rows,
                &format!("Finger{}.{s}", k + 1),
                Some(palm),
                [x * 0.08, 0.0, 0.0],
            );
        }
        let th = add(
            &mut rows,
            &format!("UpperLeg.{s}"),
            Some(hips),
            [x * 0.1, -0.05, 0.0],
        );
        let sh = add(
            &mut rows,
            &format!("LowerLeg.{s}"),
            Some(th),
            [0.0, -0.43, 0.0],
        );
        let ft = add(&mut rows, &format!("Foot.{s}"), Some(sh), [0.0, -0.42, 0.0]);
        add(&mut rows, &format!("Toe.{s}"), Some(ft), [0.0, -0.06, 0.12]);
    }
    nodes_gltf(&rows)
}
