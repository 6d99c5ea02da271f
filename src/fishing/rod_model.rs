//! The canonical frame of an artist's rod model, found from its geometry alone: whatever the
//! file's up axis, the axis the blank runs along, its units and the side the reel sits on, the
//! rod becomes butt at the origin, blank along +Y, reel toward −Z, metres (issue 20).
//!
//! From the vertices (in the file's model space):
//! 1. the blank axis: the principal axis of all vertices, refined through the centres of the
//!    cross-sections that hold only blank (no reel, no guide feet);
//! 2. the butt: the end whose cross-sections are thicker (handle versus tip), each
//!    section's radius being the outermost surface that wraps all the way round the axis (a
//!    reel, guide or trigger beside the blank does not);
//! 3. the units: a length of 0.8–6 units is metres; anything else is scaled to the stated
//!    real length, or when none is stated read as centimetres or millimetres where that gives
//!    0.8–6 m, else scaled to 2.4 m (game units);
//! 4. the reel: the vertices that stick out furthest from the blank in the butt half give its
//!    span along the blank, whose middle is the reel seat; the geometric median of the reel's
//!    offsets from the blank is the reel side, unless the rod has guides in its tip half:
//!    they stand on the reel's side and are symmetric about it, so their geometric median
//!    gives the side (a crank sticking out sideways does not turn it);
//! 5. the rear grip: a fifth of the way from the butt to the reel seat.
//!
//! Pure: points in, a frame out.

use super::gear::{HandleSection, KNOB_LENGTH, KNOB_RADIUS, ReelBody, ReelCrank, RodGear};
pub use super::prop_geometry::RodModelError;
use super::prop_geometry::{
    BINS, check_length, covariance, extent, median, principal_axis, snap, units, wrap_rings,
};
use super::reel_shape::ReelCircle;
use super::reel_stem::{ReelStem, find_reel_stem};
use super::rod_blank::Blank;
use super::trigger_post::find_trigger_post;
use glam::{DAffine3, DMat3, DVec3};

/// A plausible rod length in metres; outside it the file is in other units.
const METRES: std::ops::RangeInclusive<f64> = 0.8..=6.0;
/// The length a rod in unknown units is scaled to unless the caller states another.
pub const DEFAULT_ROD_LENGTH: f64 = 2.4;

/// What was found, and the frame it gives.
#[derive(Clone, Debug, PartialEq)]
pub struct RodModel {
    /// Canonical rod space (butt at the origin, blank +Y, reel −Z, metres) → the file's
    /// model space.
    pub file_from_rod: DAffine3,
    /// Butt to tip, metres.
    pub length: f64,
    /// Metres per file unit (1 for a file in metres).
    pub metres_per_unit: f64,
    /// Rear grip and reel seat, metres from the butt along the blank.
    pub rear_grip: f64,
    /// Reel seat, metres from the butt along the blank.
    pub reel_seat: f64,
    /// False when nothing sticks out of the blank (the seat is then placed at a sixth of the
    /// length and the reel side is a guess).
    pub reel_found: bool,
    /// Blank radius at the butt and near the tip, metres.
    pub butt_radius: f64,
    /// Blank radius near the tip, metres.
    pub tip_radius: f64,
    /// The blank and handle radius along the rod: (metres from the butt, radius in metres),
    /// one per cross-section that has enough points, butt first.
    pub radius_profile: Vec<(f64, f64)>,
    /// How far the reel reaches from the blank's axis, metres (0 without a reel).
    pub reel_depth: f64,
    /// The reel's width across the blank (10th to 90th percentile, so a crank arm does not
    /// count), metres (0 without a reel).
    pub reel_width: f64,
    /// The reel is low and wide (a baitcaster: it sits on top of the blank in use) rather
    /// than hanging on a stem (a spinning reel, below the blank): depth under 1.2× width.
    pub reel_above: bool,
    /// The reel body's side profile (metres; see [`ReelCircle`]): where a baitcaster's body
    /// and spool meet the front hand. `None` without a reel or when its middle is not round.
    pub reel_circle: Option<ReelCircle>,
    /// A trigger under the reel seat, opposite the reel, metres from the butt (`None`: none).
    pub trigger: Option<f64>,
    /// Human-readable findings (a guessed butt, rescaled units, no reel).
    pub notes: Vec<String>,
}

impl RodModel {
    /// The rod-space transform of file model space (the inverse of `file_from_rod`).
    pub fn rod_from_file(&self) -> DAffine3 {
        self.file_from_rod.inverse()
    }

    /// This rod with its butt `offset` metres up the blank (a gimbal or butt cap the hands do
    /// not count): the frame's origin moves there, and the length, grips and radius profile
    /// are measured from it.
    ///
    /// # Errors
    /// [`RodModelError::Correction`] unless 0 ≤ `offset` < half the length.
    pub fn shifted(mut self, offset: f64) -> Result<Self, RodModelError> {
        if !(offset.is_finite() && (0.0..0.5 * self.length).contains(&offset)) {
            return Err(RodModelError::Correction {
                what: "the butt offset must be at least 0 and under half the rod's length",
            });
        }
        if offset == 0.0 {
            return Ok(self);
        }
        self.file_from_rod *= DAffine3::from_translation(DVec3::Y * offset);
        self.length -= offset;
        self.rear_grip = (self.rear_grip - offset).max(0.0);
        self.reel_seat = (self.reel_seat - offset).max(0.0);
        self.reel_circle = self.reel_circle.map(|c| c.scaled(1.0, offset));
        self.trigger = self.trigger.map(|t| t - offset);
        self.radius_profile = self
            .radius_profile
            .iter()
            .filter(|p| p.0 >= offset)
            .map(|p| (p.0 - offset, p.1))
            .collect();
        self.notes
            .push(format!("butt set {offset:.3} m up the blank by the artist"));
        Ok(self)
    }

    /// The handle radius at `along` metres from the butt: the median of the three nearest
    /// measured cross-sections (the butt radius when none was measured).
    pub fn radius_at(&self, along: f64) -> f64 {
        let mut near: Vec<&(f64, f64)> = self.radius_profile.iter().collect();
        near.sort_by(|a, b| (a.0 - along).abs().total_cmp(&(b.0 - along).abs()));
        let three: Vec<f64> = near.iter().take(3).map(|p| p.1).collect();
        if three.is_empty() {
            self.butt_radius
        } else {
            median(three)
        }
    }

    /// What the front hand's fingers straddle on `rod` (its seat and the handle's radius
    /// there) held by this model, hold space: a spinning reel's stem (a reel found below the
    /// blank: [`super::reel_stem::find_reel_stem`]), or a baitcaster's trigger (a reel on top
    /// and a trigger found: [`super::trigger_post::find_trigger_post`]). `None` otherwise.
    /// `points_in_rod`: the model's points in its canonical frame.
    pub fn stem(&self, points_in_rod: &[DVec3], rod: &RodGear) -> Option<ReelStem> {
        if !self.reel_found {
            return None;
        }
        if rod.reel_above {
            let t = self.trigger?;
            return find_trigger_post(points_in_rod, t, self.radius_at(t));
        }
        find_reel_stem(
            points_in_rod,
            rod.reel_seat,
            rod.reel_seat_radius,
            self.reel_depth,
        )
    }

    /// The body of a spinning reel below the blank of `rod`, hanging on its stem (see
    /// [`super::spinning_body::find_spinning_body`]), hold space; `None` on a rod held with
    /// its reel on top (its body is the side profile that [`RodModel::gear`] gives), without a
    /// reel, or without a stem found. `points_in_rod`: the model's points in its canonical
    /// frame.
    pub fn body_below(&self, points_in_rod: &[DVec3], rod: &RodGear) -> Option<ReelBody> {
        if !self.reel_found || rod.reel_above {
            return None;
        }
        super::spinning_body::find_spinning_body(
            points_in_rod,
            rod.stem.as_ref()?,
            self.reel_depth,
            self.reel_width,
        )
    }

    /// Where the hands hold this rod (see [`RodGear`]), with the rear grip and reel seat at
    /// `rear_grip` and `reel_seat` metres from the butt (the detected ones unless an artist
    /// moved them) and the reel below the blank unless `reel_above`.
    ///
    /// The crank is placed from the reel's size, as on the bundled reel: below a spinning
    /// reel's body on the angler's rear-hand side; beside a baitcaster on top of the blank.
    pub fn gear(&self, rear_grip: f64, reel_seat: f64, reel_above: bool) -> RodGear {
        let d = if self.reel_found {
            self.reel_depth
        } else {
            0.133
        };
        let crank = if reel_above {
            ReelCrank {
                centre_in_hold: DVec3::new(-(0.5 * self.reel_width + 0.012), reel_seat, 0.5 * d),
                radius: 0.3 * d,
                knob_radius: KNOB_RADIUS,
                knob_length: KNOB_LENGTH,
                arm_proud: 0.0,
                opposite_knob: false,
            }
        } else {
            ReelCrank {
                centre_in_hold: DVec3::new(-0.45 * d, reel_seat + 0.075 * d, -0.56 * d),
                radius: 0.34 * d,
                knob_radius: KNOB_RADIUS,
                knob_length: KNOB_LENGTH,
                arm_proud: 0.0,
                opposite_knob: false,
            }
        };
        RodGear {
            length: self.length,
            rear_grip,
            reel_seat,
            rear_grip_radius: self.radius_at(rear_grip),
            reel_seat_radius: self.radius_at(reel_seat),
            reel_above,
            crank,
            stem: None,
            reel_body: if reel_above { self.reel_body() } else { None },
            rear_handle: self.handle_round(rear_grip),
            front_handle: self.front_handle(reel_seat),
        }
    }

    /// The handle round the reel seat at `reel_seat` (metres from the butt) as
    /// [`RodGear::front_handle`] holds it: the stretch that keeps the seat's radius
    /// ([`RodModel::handle_round`]) and the stretches next to it either side, each ending
    /// halfway between its last measured cross-section and the next one (or at its last one
    /// at the end of the profile), the side stretches no farther in than the seat's. `None` without a profile, or with no cross-section measured
    /// beyond the seat's stretch on either side.
    pub fn front_handle(&self, reel_seat: f64) -> Option<[HandleSection; 3]> {
        let profile = &self.radius_profile;
        let before = |at: f64| {
            (profile.iter())
                .filter(|p| p.0 < at)
                .max_by(|p, q| p.0.total_cmp(&q.0))
        };
        let after = |at: f64| {
            (profile.iter())
                .filter(|p| p.0 > at)
                .min_by(|p, q| p.0.total_cmp(&q.0))
        };
        let section = |along: f64, radius: f64| -> Option<HandleSection> {
            let (a, b) = self.handle_round(along)?;
            Some(HandleSection {
                start: before(a).map_or(a, |p| 0.5 * (p.0 + a)),
                end: after(b).map_or(b, |p| 0.5 * (b + p.0)),
                radius,
            })
        };
        let seat = section(reel_seat, self.radius_at(reel_seat))?;
        let (a, b) = self.handle_round(reel_seat)?;
        let (butt, tip) = (before(a)?, after(b)?);
        // A stretch either side ends where the seat's begins (its radius may be within the
        // tolerance of the seat's too).
        let butt = section(butt.0, butt.1)?;
        let tip = section(tip.0, tip.1)?;
        Some([
            HandleSection {
                end: seat.start,
                ..butt
            },
            seat,
            HandleSection {
                start: seat.end,
                ..tip
            },
        ])
    }

    /// The handle round `along` (metres from the butt): the measured cross-sections on
    /// either side of it whose radius stays within [`HANDLE_RADIUS_TOLERANCE`] of the radius
    /// there, as (first, last) along the blank. `None` without a profile.
    pub fn handle_round(&self, along: f64) -> Option<(f64, f64)> {
        // Butt first, as measured.
        let profile = &self.radius_profile;
        let r = self.radius_at(along);
        let near = (0..profile.len()).min_by(|&i, &j| {
            (profile[i].0 - along)
                .abs()
                .total_cmp(&(profile[j].0 - along).abs())
        })?;
        let same = |i: &usize| (profile[*i].1 - r).abs() <= HANDLE_RADIUS_TOLERANCE * r;
        let first = (0..=near).rev().take_while(same).last()?;
        let last = (near..profile.len()).take_while(same).last()?;
        Some((profile[first].0.min(along), profile[last].0.max(along)))
    }

    /// The reel body's side profile as the front hand meets it (see [`ReelBody`]): the
    /// circle's centre, on the reel's side of the blank (hold space's +Z for a reel on top),
    /// its axis across the blank as wide as the reel less its radius at either end. `None`
    /// without a circle.
    fn reel_body(&self) -> Option<ReelBody> {
        let c = self.reel_circle?;
        let half = (0.5 * self.reel_width - c.radius).max(0.0);
        let centre = DVec3::new(0.0, c.along, c.height);
        Some(ReelBody {
            start_in_hold: centre - DVec3::X * half,
            end_in_hold: centre + DVec3::X * half,
            radius: c.radius,
        })
    }
}

/// How far a handle's radius may differ from the radius at a grip and still be the same
/// handle ([`RodModel::handle_round`]): a surf rod's long butt tapers 10% along its length;
/// the blank beyond it is half as thick.
pub const HANDLE_RADIUS_TOLERANCE: f64 = 0.12;

/// Detects the rod frame of `points` (every mesh vertex in the file's model space).
/// `real_length` (metres) is used when the file's length is not plausible as metres; without
/// it a file whose length is plausible in centimetres or millimetres is read so, and any other
/// is scaled to [`DEFAULT_ROD_LENGTH`].
///
/// # Errors
/// Fewer than 8 points, non-finite points, or a shape whose spread along its main axis is
/// less than 6× the spread across it.
pub fn detect_rod(points: &[DVec3], real_length: Option<f64>) -> Result<RodModel, RodModelError> {
    detect_rod_with(
        points,
        &RodHints {
            real_length,
            ..RodHints::default()
        },
    )
}

/// What an artist tells the rod detector: the real length, and corrections of the butt.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RodHints {
    /// Metres, for a file not in metres (see [`detect_rod`]).
    pub real_length: Option<f64>,
    /// The butt is at the other end than the thicker one.
    pub flip_ends: bool,
    /// The butt is this many metres up the blank from the end (a gimbal or butt cap that the
    /// hands do not count), 0 ≤ offset < half the rod.
    pub butt_offset: f64,
}

/// [`detect_rod`] with the artist's corrections.
///
/// # Errors
/// As [`detect_rod`], and [`RodModelError::Correction`] for a butt offset outside 0 to half
/// the rod.
pub fn detect_rod_with(points: &[DVec3], hints: &RodHints) -> Result<RodModel, RodModelError> {
    let real_length = hints.real_length;
    if points.len() < 8 {
        return Err(RodModelError::NoGeometry);
    }
    if points.iter().any(|p| !p.is_finite()) {
        return Err(RodModelError::NonFinite);
    }
    let (centre, axis) = blank_axis(points)?;
    let (lo, hi) = extent(points, centre, axis);
    // The handle or blank radius per section: the outermost surface that wraps around the
    // axis (a reel, a guide or a trigger beside it does not).
    let radius: Vec<Option<f64>> = wrap_rings(points, centre, axis)
        .into_iter()
        .map(|r| r.map(|r| r.1))
        .collect();
    let end_radius = |range: std::ops::Range<usize>| {
        median(range.filter_map(|i| radius[i]).collect::<Vec<f64>>())
    };
    let tenth = BINS / 10;
    let (r_lo, r_hi) = (end_radius(0..tenth), end_radius(BINS - tenth..BINS));
    let mut notes = Vec::new();
    // Butt at `lo` when that end is thicker; flip the axis otherwise.
    let butt_at_lo = (r_lo >= r_hi) != hints.flip_ends;
    let (butt_t, dir, butt_r, tip_r) = if butt_at_lo {
        (lo, axis, r_lo, r_hi)
    } else {
        (hi, -axis, r_hi, r_lo)
    };
    if hints.flip_ends {
        notes.push("butt and tip swapped by the artist".to_string());
    } else if (r_lo - r_hi).abs() < 0.1 * r_lo.max(r_hi) {
        notes.push("both ends are about as thick: the butt is a guess".to_string());
    }
    let total_units = hi - lo;
    check_length(total_units)?;
    let length_units = total_units;
    let metres_per_unit = units(
        length_units,
        real_length,
        METRES,
        DEFAULT_ROD_LENGTH,
        &mut notes,
    );
    let blank = Blank {
        butt: centre + axis * butt_t,
        dir,
        radius,
        butt_at_lo,
        total_units,
        butt_r,
    };
    // The reel: what sticks out furthest from the blank in the butt half.
    let half = length_units / 2.0;
    let far = points
        .iter()
        .filter(|p| blank.along(**p) <= half)
        .map(|p| blank.off(*p).length())
        .fold(0.0, f64::max);
    let reel = reel_cluster(points, |p| blank.along(p), |p| blank.off(p), half, far);
    let reel_found = far > 3.0 * butt_r.max(1e-12) && !reel.is_empty();
    let placement = reel_found.then(|| blank.reel_placement(points, &reel, far));
    let (seat_t, reel_dir) = match &placement {
        Some(placed) => (placed.seat, placed.side),
        None => {
            notes.push("nothing sticks out of the blank: no reel found".to_string());
            (length_units / 6.0, dir.any_orthonormal_vector())
        }
    };
    // Files are modelled along their axes: within half a degree of one, take it exactly. (The
    // reel side is not snapped: a reel is not symmetric, and a snap would differ by frame.)
    let dir = snap(dir, 0.5);
    let reel_dir = reel_dir - dir * reel_dir.dot(dir);
    // Canonical basis in file space: y along the blank, z away from the reel.
    let y = dir;
    let z = -(reel_dir - y * reel_dir.dot(y)).normalize();
    let x = y.cross(z);
    let k = 1.0 / metres_per_unit;
    let file_from_rod = DAffine3::from_mat3_translation(DMat3::from_cols(x, y, z) * k, blank.butt);
    let (reel_depth, reel_width) = if reel_found {
        reel_size(&reel, |p| blank.off(p), x, -z)
    } else {
        (0.0, 0.0)
    };
    let (reel_circle, trigger) = match &placement {
        Some(placed) => blank.reel_circle_and_trigger(points, placed, x, -z, metres_per_unit),
        None => (None, None),
    };
    let radius_profile = blank.radius_profile(metres_per_unit);
    let model = RodModel {
        file_from_rod,
        length: length_units * metres_per_unit,
        metres_per_unit,
        rear_grip: 0.2 * seat_t * metres_per_unit,
        reel_seat: seat_t * metres_per_unit,
        reel_found,
        butt_radius: butt_r * metres_per_unit,
        tip_radius: tip_r * metres_per_unit,
        radius_profile,
        reel_depth: reel_depth * metres_per_unit,
        reel_width: reel_width * metres_per_unit,
        reel_above: reel_found && reel_depth < 1.2 * reel_width,
        reel_circle,
        trigger,
        notes,
    };
    model.shifted(hints.butt_offset)
}

/// The blank's centre and axis in file units: the principal axis of all of `points`, refined
/// through the points near it and then through the centres of the cross-sections' rings.
///
/// # Errors
/// [`RodModelError::NotElongated`] when the spread along the main axis is under 6× the
/// spread across it.
fn blank_axis(points: &[DVec3]) -> Result<(DVec3, DVec3), RodModelError> {
    let (mean, cov) = covariance(points);
    let (mut axis, ratio) = principal_axis(cov);
    let elongation = ratio.sqrt();
    if elongation.is_nan() || elongation < 6.0 {
        return Err(RodModelError::NotElongated { ratio: elongation });
    }
    // Refine: the principal axis of the points near the axis only (the blank and the
    // handle), leaving out what sticks out (reel, guides), which would tilt it.
    let mut centre = mean;
    for _ in 0..4 {
        let dist = |p: &DVec3| {
            let d = *p - centre;
            (d - axis * d.dot(axis)).length()
        };
        let mut ds: Vec<f64> = points.iter().map(dist).collect();
        ds.sort_by(f64::total_cmp);
        let keep = 2.0 * ds[ds.len() * 2 / 5];
        let core: Vec<DVec3> = points.iter().copied().filter(|p| dist(p) <= keep).collect();
        if core.len() < 8 {
            break;
        }
        let (m, c) = covariance(&core);
        let (a, _) = principal_axis(c);
        axis = if a.dot(axis) < 0.0 { -a } else { a };
        centre = m;
    }
    // Then through the centres of the rings the blank and handle make in each cross-section
    // (exact for a straight blank, whatever sticks out of it), taking a file axis when within
    // half a degree of one.
    for _ in 0..6 {
        let rings: Vec<DVec3> = wrap_rings(points, centre, axis)
            .into_iter()
            .flatten()
            .map(|r| r.0)
            .collect();
        if rings.len() < 3 {
            break;
        }
        let (m, c) = covariance(&rings);
        let (a, _) = principal_axis(c);
        axis = snap(if a.dot(axis) < 0.0 { -a } else { a }, 0.5);
        centre = m;
    }
    Ok((centre, axis))
}

/// The points of the reel: those in the butt half that reach at least half as far from the
/// blank as the furthest one, kept only in the run along the blank around the furthest point
/// (gaps under the reel's own reach), so that a big butt guide further up is not counted.
fn reel_cluster(
    points: &[DVec3],
    along: impl Fn(DVec3) -> f64,
    off: impl Fn(DVec3) -> DVec3,
    half: f64,
    far: f64,
) -> Vec<DVec3> {
    let mut candidates: Vec<(f64, DVec3)> = points
        .iter()
        .filter(|p| along(**p) <= half && off(**p).length() >= 0.5 * far)
        .map(|p| (along(*p), *p))
        .collect();
    candidates.sort_by(|a, b| a.0.total_cmp(&b.0));
    let Some(top) = candidates
        .iter()
        .enumerate()
        .max_by(|a, b| off(a.1.1).length().total_cmp(&off(b.1.1).length()))
        .map(|(i, _)| i)
    else {
        return Vec::new();
    };
    let (mut lo, mut hi) = (top, top);
    while lo > 0 && candidates[lo].0 - candidates[lo - 1].0 < far {
        lo -= 1;
    }
    while hi + 1 < candidates.len() && candidates[hi + 1].0 - candidates[hi].0 < far {
        hi += 1;
    }
    candidates[lo..=hi].iter().map(|c| c.1).collect()
}

/// The reel's depth (furthest reach along `toward`, the side it is on) and width across
/// (10th to 90th percentile along `across`) of `reel`'s offsets from the blank.
fn reel_size(
    reel: &[DVec3],
    off: impl Fn(DVec3) -> DVec3,
    across: DVec3,
    toward: DVec3,
) -> (f64, f64) {
    let depth = reel.iter().map(|p| off(*p).dot(toward)).fold(0.0, f64::max);
    let mut xs: Vec<f64> = reel.iter().map(|p| off(*p).dot(across)).collect();
    xs.sort_by(f64::total_cmp);
    let q = |f: f64| xs[((xs.len() - 1) as f64 * f).round() as usize];
    (depth, q(0.9) - q(0.1))
}
