//! `anglerpose inspect FILE --as rod|net [--json] [--length M]`: the canonical frame found in
//! a rod or net model, and where the hands will hold it.

use anglerpose::fishing::net_model::detect_net;
use anglerpose::fishing::rod_guides::find_line_run;
use anglerpose::gltf_io::Character;
use anglerpose::rig::Transform;
use anglerpose::stage::Props;
use anglerpose::stage::rod_crank::modelled_crank;
use anglerpose::stage::rod_file::{model_points, model_points_except, refuse_character, rod_model};
use glam::DVec3;
use serde_json::json;
use std::path::Path;

/// What `inspect --as rod|net` was asked.
pub struct PropQuery<'a> {
    pub file: &'a Path,
    pub json: bool,
    pub length: Option<f64>,
}

fn length(args: &PropQuery) -> anyhow::Result<Option<f64>> {
    if let Some(l) = args.length
        && !(l.is_finite() && (0.3..=10.0).contains(&l))
    {
        anyhow::bail!("--length {l} is outside 0.3..=10 m");
    }
    Ok(args.length)
}

fn v(p: DVec3) -> String {
    format!("[{:.4}, {:.4}, {:.4}]", p.x, p.y, p.z)
}

pub fn rod(args: &PropQuery, character: &Character) -> anyhow::Result<()> {
    let m = rod_model(character, length(args)?)?;
    let mut gear = m.gear(m.rear_grip, m.reel_seat, m.reel_above);
    let f = m.file_from_rod;
    let butt = f.translation;
    let axis = f.matrix3.y_axis.normalize();
    let reel = -f.matrix3.z_axis.normalize();
    let at = |d: f64| f.transform_point3(DVec3::Y * d).to_array();
    // The line's run along the rod, in rod space (as the stage finds it for this rod).
    let rod_from_file = m.rod_from_file();
    let points: Vec<DVec3> = model_points(character)
        .iter()
        .map(|p| rod_from_file.transform_point3(*p))
        .collect();
    let (guides, reel_exit) = find_line_run(&points, m.length, m.reel_seat);
    gear.stem = m.stem(&points, &gear);
    // A crank modelled as its own node: its knob is the gear's (as the stage places it).
    let placed = character
        .skeleton
        .with_roots_under(&Transform::from_affine(&rod_from_file));
    let crank = modelled_crank((&placed, &character.meshes), &gear);
    let crank_node = |b: usize| placed.bones()[b].name.clone();
    if let Some((_, Some((fit, _)))) = crank {
        gear.crank = fit.crank;
    }
    // A spinning reel's body, without a crank modelled as its own node (as the stage finds it).
    if !gear.reel_above {
        gear.reel_body = match &crank {
            Some((b, _)) => {
                let reel: Vec<DVec3> = model_points_except(character, Some(*b))
                    .iter()
                    .map(|p| rod_from_file.transform_point3(*p))
                    .collect();
                m.body_below(&reel, &gear)
            }
            None => m.body_below(&points, &gear),
        };
    }
    if args.json {
        let out = json!({
            "file": args.file.display().to_string(),
            "length_m": m.length,
            "metres_per_unit": m.metres_per_unit,
            "butt_in_file": butt.to_array(),
            "blank_axis_in_file": axis.to_array(),
            "reel_side_in_file": reel.to_array(),
            "reel_found": m.reel_found,
            "reel_above": m.reel_above,
            "reel_depth_m": m.reel_depth,
            "reel_width_m": m.reel_width,
            "reel_seat_m": m.reel_seat,
            "rear_grip_m": m.rear_grip,
            "reel_seat_in_file": at(m.reel_seat),
            "rear_grip_in_file": at(m.rear_grip),
            "reel_body_m": m.reel_circle.map(|c| json!({
                "along": c.along, "height": c.height, "radius": c.radius,
            })),
            "trigger_m": m.trigger,
            "crank_node": crank.map(|(b, fit)| json!({
                "name": crank_node(b),
                "turns": fit.is_some(),
                "knob_rest_angle_rad": fit.map(|(_, r)| r.rest_angle),
                "modelled_on_front_side": fit.map(|(_, r)| r.mirrored),
                "knob_radius_m": fit.map(|(f, _)| f.crank.knob_radius),
            })),
            "guides_m": guides.iter().map(|g| json!({
                "along": g.centre_in_rod.y,
                "off_blank": g.centre_in_rod.x.hypot(g.centre_in_rod.z),
                "ring_radius": g.ring_radius,
            })).collect::<Vec<_>>(),
            "reel_exit_in_rod_m": reel_exit.map(|p| p.to_array()),
            "butt_radius_m": m.butt_radius,
            "tip_radius_m": m.tip_radius,
            "radius_profile_m": m.radius_profile,
            "gear": gear,
            "file_from_rod": f.to_cols_array(),
            "notes": m.notes,
        });
        outln!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    outln!("{} as a rod", args.file.display());
    outln!(
        "  length: {:.3} m ({} m per file unit)",
        m.length,
        m.metres_per_unit
    );
    outln!("  butt (file): {}", v(butt));
    outln!("  blank axis (file): {}", v(axis));
    outln!(
        "  reel: {} toward {} (file), seat {:.3} m from the butt, {:.0} mm deep × {:.0} mm \
         wide: {}",
        if m.reel_found { "found" } else { "not found" },
        v(reel),
        m.reel_seat,
        m.reel_depth * 1e3,
        m.reel_width * 1e3,
        if m.reel_above {
            "on top of the blank in use (baitcaster)"
        } else {
            "below the blank in use (spinning)"
        }
    );
    if let Some(c) = m.reel_circle {
        outln!(
            "  reel body (side profile): a {:.0} mm radius round {:.3} m from the butt, {:.0} mm \
             off the blank",
            c.radius * 1e3,
            c.along,
            c.height * 1e3
        );
    }
    if let Some(t) = m.trigger {
        outln!("  trigger: {t:.3} m from the butt, opposite the reel");
    }
    if let Some(s) = gear.stem {
        outln!(
            "  {}: {:.3} m from the butt at the handle, {:.3} m at {:.0} mm off the blank, \
             {:.1} mm thick",
            if gear.reel_above {
                "the front hand rests behind the reel's body and the trigger, the trigger"
            } else {
                "the front hand's fingers straddle the reel's stem"
            },
            s.top_in_rod.y,
            s.bottom_in_rod.y,
            -s.bottom_in_rod.z * 1e3,
            2e3 * s.radius
        );
    }
    if let (Some(b), false) = (gear.reel_body, gear.reel_above) {
        outln!(
            "  reel body: {:.3}-{:.3} m from the butt, {:.0} mm thick, {:.0} mm below the blank \
             (a hand without fingers rests behind it)",
            b.start_in_hold.y - b.radius,
            b.end_in_hold.y + b.radius,
            2e3 * b.radius,
            -b.start_in_hold.z * 1e3
        );
    }
    if let Some([butt, seat, tip]) = gear.front_handle {
        let mm = |s: &anglerpose::fishing::HandleSection| {
            format!("{:.3}-{:.3} m, {:.1} mm", s.start, s.end, 2e3 * s.radius)
        };
        outln!(
            "  front handle (thumb): {} thick, between {} toward the butt and {} toward the tip",
            mm(&seat),
            mm(&butt),
            mm(&tip)
        );
    }
    match crank {
        Some((b, Some((fit, rest)))) => outln!(
            "  crank: node {:?} turns, its knob {:.0} mm from its axis, {:.1} mm thick, \
             {:.1} mm long, its arm {:.1} mm out of the knob's base toward the hand{}{}",
            crank_node(b),
            fit.crank.radius * 1e3,
            2e3 * fit.crank.knob_radius,
            1e3 * fit.crank.knob_length,
            1e3 * fit.crank.arm_proud,
            if fit.crank.opposite_knob {
                ", a second knob half a turn round"
            } else {
                ""
            },
            if rest.mirrored {
                " (modelled on the front hand's side: drawn mirrored, on the cranking hand's)"
            } else {
                ""
            }
        ),
        Some((b, None)) => outln!(
            "  crank: node {:?} has no knob off its axis: drawn as modelled, the knob placed \
             from the reel's size",
            crank_node(b)
        ),
        None => outln!(
            "  crank: no node named for it: drawn as modelled, the knob placed from the reel's size"
        ),
    }
    if guides.is_empty() {
        outln!("  guides: none found (the line leaves the tip)");
    } else {
        let along: Vec<String> = guides
            .iter()
            .map(|g| format!("{:.3}", g.centre_in_rod.y))
            .collect();
        outln!(
            "  guides: {} at {} m from the butt",
            guides.len(),
            along.join(", ")
        );
    }
    if let Some(p) = reel_exit {
        outln!(
            "  the line leaves the reel {:.0} mm ahead of the seat, {:.0} mm off the blank",
            (p.y - m.reel_seat) * 1e3,
            p.x.hypot(p.z) * 1e3
        );
    }
    outln!("  rear grip: {:.3} m from the butt", m.rear_grip);
    outln!(
        "  handle radius: {:.1} mm at the rear grip, {:.1} mm at the reel seat",
        gear.rear_grip_radius * 1e3,
        gear.reel_seat_radius * 1e3
    );
    outln!(
        "  blank radius: {:.1} mm at the butt, {:.1} mm at the tip",
        m.butt_radius * 1e3,
        m.tip_radius * 1e3
    );
    for n in &m.notes {
        outln!("  note: {n}");
    }
    Ok(())
}

pub fn net(args: &PropQuery, character: &Character) -> anyhow::Result<()> {
    refuse_character(character)?;
    let m = detect_net(&model_points(character), length(args)?)
        .map_err(|e| anyhow::anyhow!("{}: {e}", character.source.display()))?;
    let f = m.file_from_net;
    if args.json {
        let out = json!({
            "file": args.file.display().to_string(),
            "length_m": m.gear.length,
            "metres_per_unit": m.metres_per_unit,
            "handle_end_in_file": f.translation.to_array(),
            "handle_axis_in_file": f.matrix3.y_axis.normalize().to_array(),
            "bag_side_in_file": (-f.matrix3.z_axis).normalize().to_array(),
            "hoop_width_m": m.hoop_width,
            "grip_m": m.gear.grip,
            "grip_radius_m": m.gear.grip_radius,
            "file_from_net": f.to_cols_array(),
            "notes": m.notes,
        });
        outln!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    outln!("{} as a landing net", args.file.display());
    outln!(
        "  length: {:.3} m ({} m per file unit)",
        m.gear.length,
        m.metres_per_unit
    );
    outln!("  handle end (file): {}", v(f.translation));
    outln!("  handle axis (file): {}", v(f.matrix3.y_axis.normalize()));
    outln!(
        "  hoop: {:.0} mm wide, bag toward {} (file)",
        m.hoop_width * 1e3,
        v((-f.matrix3.z_axis).normalize())
    );
    outln!(
        "  grip: {:.3} m from the handle end, handle radius {:.1} mm",
        m.gear.grip,
        m.gear.grip_radius * 1e3
    );
    for n in &m.notes {
        outln!("  note: {n}");
    }
    Ok(())
}

/// One line per artist's prop in use: what was found and where the hands hold it.
pub fn props_lines(props: &Props) -> Vec<String> {
    let mut out = Vec::new();
    if let (Some(src), Some(m)) = (&props.sources.rod, &props.rod_model) {
        let g = &props.gear.rod;
        out.push(format!(
            "rod: {}: {:.3} m, rear grip {:.3} m, reel seat {:.3} m, reel {}{}",
            src.path.display(),
            g.length,
            g.rear_grip,
            g.reel_seat,
            if g.reel_above { "on top" } else { "below" },
            m.notes.iter().map(|n| format!("; {n}")).collect::<String>()
        ));
    }
    if let (Some(src), Some(m)) = (&props.sources.net, &props.net_model) {
        out.push(format!(
            "net: {}: {:.3} m, grip {:.3} m{}",
            src.path.display(),
            m.gear.length,
            m.gear.grip,
            m.notes.iter().map(|n| format!("; {n}")).collect::<String>()
        ));
    }
    if let Some(seat) = &props.sources.seat {
        out.push(format!("seat: {}", seat.display()));
    }
    out
}
