#![allow(dead_code)]
//! The reel's knob as the posed export draws it (issue 33): the export is read back with the
//! `gltf` crate, the rod's `reel_crank` node placed by the document's own transforms, and the
//! knob taken where the bundled rod models it in that node (its middle `REEL_CRANK_RADIUS`
//! along +Y, its axis along X, `REEL_KNOB_LENGTH` long). Skin is measured against it as a
//! finite cylinder (flat ends): the signed distance to its surface.

use super::grip_measure::node_worlds;
use super::prop_solid::Solid;
use anglerpose::assetgen::props::{
    REEL_CRANK_NODE, REEL_CRANK_RADIUS, REEL_KNOB_LENGTH, REEL_KNOB_RADIUS,
};
use anglerpose::preset::posed_glb;
use anglerpose::stage::Stage;
use glam::{DAffine3, DVec3};

/// The knob in world space.
pub struct Knob {
    /// World → the knob's frame: its middle at the origin, its axis along X.
    pub knob_from_world: DAffine3,
}

impl Knob {
    /// Signed distance of `p` from the knob's surface (negative: inside).
    pub fn gap(&self, p: DVec3) -> f64 {
        let q = self.knob_from_world.transform_point3(p);
        let radial = q.y.hypot(q.z) - REEL_KNOB_RADIUS;
        let axial = q.x.abs() - 0.5 * REEL_KNOB_LENGTH;
        if radial < 0.0 && axial < 0.0 {
            radial.max(axial)
        } else {
            radial.max(0.0).hypot(axial.max(0.0))
        }
    }

    /// The knob's middle, world space.
    pub fn middle(&self) -> DVec3 {
        self.knob_from_world.inverse().translation
    }
}

/// The knob of `stage`'s posed export, or `None` when its rod has no `reel_crank` node.
pub fn exported_knob(stage: &Stage) -> Option<Knob> {
    let bytes = posed_glb(stage).expect("posed export");
    let (doc, _, _) = gltf::import_slice(&bytes).expect("the export reads back");
    let crank = doc.nodes().find(|x| x.name() == Some(REEL_CRANK_NODE))?;
    let (world, _) = node_worlds(&doc);
    let world = world[crank.index()];
    let world_from_crank = DAffine3::from_mat4(world);
    let world_from_knob =
        world_from_crank * DAffine3::from_translation(DVec3::Y * REEL_CRANK_RADIUS);
    Some(Knob {
        knob_from_world: world_from_knob.inverse(),
    })
}

/// A knob as an artist's rod models it, drawn where the stage puts it: the triangles of the
/// rod's mesh round the knob (all three corners within 3 mm of the cylinder `world_from_knob`
/// places: its middle at the origin, its axis along X, `radius` and `length` as fitted), so
/// the crank's arm and the reel are left out. Inside is the whole rod's winding number there
/// (`support/prop_solid.rs`).
pub struct DrawnKnob {
    knob: Solid,
    rod: Solid,
    radius: f64,
}

impl DrawnKnob {
    /// The knob in `rod` (the rod as the stage poses it, see `support/prop_solid.rs`).
    pub fn new(rod: &Solid, world_from_knob: DAffine3, (radius, length): (f64, f64)) -> Self {
        const MARGIN: f64 = 0.003;
        let knob_from_world = world_from_knob.inverse();
        let rod = rod.near(&[world_from_knob.translation], length + radius + 0.03);
        let round_knob = |p: DVec3| {
            let q = knob_from_world.transform_point3(p);
            q.x.abs() <= 0.5 * length + MARGIN && q.y.hypot(q.z) <= radius + MARGIN
        };
        let knob = rod.only(|t| t.iter().all(|p| round_knob(*p)));
        assert!(
            knob.triangles.len() >= 8,
            "no knob modelled round {:?}",
            world_from_knob.translation
        );
        Self { knob, rod, radius }
    }

    /// Signed distance of `p` from the knob's drawn surface (negative: inside it; a point in
    /// the rod farther from the knob's surface than its radius is in another part).
    pub fn gap(&self, p: DVec3) -> f64 {
        let d = self.knob.distance(p);
        if d <= self.radius && self.rod.winding(p).abs() >= 0.5 {
            -d
        } else {
            d
        }
    }
}
