//! A VRM file's humanoid declaration (`extensions.VRMC_vrm.humanoid.humanBones` in VRM 1.0,
//! `extensions.VRM.humanoid.humanBones` in VRM 0.x), read from the glTF JSON: which node each
//! human bone is. VRM 1.0 wins when a file has both.

use serde::Deserialize;
use serde_json::Value;

/// The part of a glTF document this reads.
#[derive(Deserialize)]
struct Root {
    extensions: Option<Extensions>,
}

#[derive(Default, Deserialize)]
struct Extensions {
    #[serde(rename = "VRMC_vrm")]
    vrm1: Option<Value>,
    #[serde(rename = "VRM")]
    vrm0: Option<Value>,
}

/// The declared human bones: where they were declared and (VRM bone name, glTF node index).
#[derive(Clone, Debug, PartialEq)]
pub struct VrmHumanoid {
    pub source: String,
    pub bones: Vec<(String, usize)>,
}

/// The declaration in the glTF JSON `json`, if any; `node_count` bounds its node indices.
///
/// # Errors
/// The problem in words when the file has a VRM extension whose humanoid is malformed (not
/// an object or array of bones, a bone without a node index, an index past the nodes, one
/// node declared as two bones).
pub fn read(json: &[u8], node_count: usize) -> Result<Option<VrmHumanoid>, String> {
    // Only the two extensions are kept; the rest of the document is skipped, not built.
    let root: Root = serde_json::from_slice(json).map_err(|e| e.to_string())?;
    let ext = root.extensions.unwrap_or_default();
    let (source, bones) = if let Some(v1) = &ext.vrm1 {
        let bones = v1
            .pointer("/humanoid/humanBones")
            .and_then(Value::as_object)
            .ok_or("VRMC_vrm has no humanoid.humanBones object")?;
        let mut out = Vec::new();
        for (name, bone) in bones {
            out.push((name.clone(), node_of(bone.get("node"), name)?));
        }
        ("VRM 1.0", out)
    } else if let Some(v0) = &ext.vrm0 {
        let bones = v0
            .pointer("/humanoid/humanBones")
            .and_then(Value::as_array)
            .ok_or("VRM has no humanoid.humanBones array")?;
        let mut out = Vec::new();
        for bone in bones {
            let name = bone
                .get("bone")
                .and_then(Value::as_str)
                .ok_or("a VRM human bone without a bone name")?;
            out.push((name.to_string(), node_of(bone.get("node"), name)?));
        }
        ("VRM 0.x", out)
    } else {
        return Ok(None);
    };
    for (k, (name, node)) in bones.iter().enumerate() {
        if *node >= node_count {
            return Err(format!(
                "human bone {name} is node {node}, but the file has {node_count} nodes"
            ));
        }
        if let Some((other, _)) = bones[..k].iter().find(|(_, n)| n == node) {
            return Err(format!(
                "node {node} is declared as both {other} and {name}"
            ));
        }
    }
    Ok(Some(VrmHumanoid {
        source: source.to_string(),
        bones,
    }))
}

fn node_of(node: Option<&Value>, name: &str) -> Result<usize, String> {
    node.and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| format!("human bone {name} has no node index"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_versions_and_refuses_what_is_malformed() {
        let v1 = br#"{"extensions":{"VRMC_vrm":{"humanoid":{"humanBones":{"hips":{"node":0},"head":{"node":2}}}}}}"#;
        let got = read(v1, 3).unwrap().unwrap();
        assert_eq!(got.source, "VRM 1.0");
        // JSON objects come in key order.
        assert_eq!(got.bones, vec![("head".into(), 2), ("hips".into(), 0)]);
        let v0 =
            br#"{"extensions":{"VRM":{"humanoid":{"humanBones":[{"bone":"hips","node":1}]}}}}"#;
        let got = read(v0, 3).unwrap().unwrap();
        assert_eq!(got.source, "VRM 0.x");
        assert_eq!(got.bones, vec![("hips".into(), 1)]);
        assert_eq!(read(br#"{"asset":{"version":"2.0"}}"#, 3), Ok(None));
        let past =
            br#"{"extensions":{"VRM":{"humanoid":{"humanBones":[{"bone":"hips","node":9}]}}}}"#;
        assert!(read(past, 3).unwrap_err().contains("node 9"));
        let twice = br#"{"extensions":{"VRMC_vrm":{"humanoid":{"humanBones":{"hips":{"node":1},"spine":{"node":1}}}}}}"#;
        assert!(read(twice, 3).unwrap_err().contains("both hips and spine"));
        let no_node = br#"{"extensions":{"VRMC_vrm":{"humanoid":{"humanBones":{"hips":{}}}}}}"#;
        assert!(read(no_node, 3).unwrap_err().contains("hips has no node"));
        let not_bones = br#"{"extensions":{"VRMC_vrm":{"humanoid":{}}}}"#;
        assert!(read(not_bones, 3).is_err());
    }
}
