use anglerpose::stage::{PropSources, Props, RodSource, bundled_assets_dir};
#[test]
fn g() {
    let dir = bundled_assets_dir();
    for rod in [None, Some("rod_surf.glb"), Some("rod_baitcaster.glb")] {
        let sources = PropSources {
            rod: rod.map(|r| RodSource {
                path: dir.join(r),
                ..Default::default()
            }),
            ..Default::default()
        };
        let props = Props::load_with(&dir, &sources).unwrap();
        eprintln!("{rod:?} len {}", props.gear.rod.length);
        for g in &props.rod_guides {
            eprintln!(
                "  {:.4} {:.4} {:.4} ring {:.4}",
                g.centre_in_rod.x, g.centre_in_rod.y, g.centre_in_rod.z, g.ring_radius
            );
        }
    }
}
