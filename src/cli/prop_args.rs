//! `--rod`, `--net`, `--seat` and the rod's corrections, shared by the commands that build a
//! stage from a character file (`calibrate`, `render --character`).

use anglerpose::stage::{NetSource, PropSources, Props, RodGrips, RodSource, bundled_assets_dir};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug, Default, Clone)]
pub struct PropArgs {
    /// An artist's rod model (.glb/.gltf) instead of the bundled rod: any frame and units.
    #[arg(long, value_name = "ROD")]
    pub rod: Option<PathBuf>,
    /// The rod's real length in metres when its file is not in metres (default 2.4).
    #[arg(long, value_name = "METRES", requires = "rod")]
    pub rod_length: Option<f64>,
    /// The rear grip, metres from the butt (replaces the detected one).
    #[arg(long, value_name = "METRES", requires = "rod")]
    pub rear_grip: Option<f64>,
    /// The reel seat, metres from the butt (replaces the detected one).
    #[arg(long, value_name = "METRES", requires = "rod")]
    pub reel_seat: Option<f64>,
    /// The reel sits on top of the blank in use (a baitcaster), whatever its shape says.
    #[arg(long, requires = "rod", conflicts_with = "reel_below")]
    pub reel_above: bool,
    /// The reel hangs below the blank in use (a spinning reel), whatever its shape says.
    #[arg(long, requires = "rod")]
    pub reel_below: bool,
    /// The butt is the thinner end (detection takes the thicker one).
    #[arg(long, requires = "rod")]
    pub flip_rod_ends: bool,
    /// The butt is this many metres up the blank from the end (a gimbal or cap).
    #[arg(long, value_name = "METRES", requires = "rod")]
    pub butt_offset: Option<f64>,
    /// An artist's landing net (.glb/.gltf) instead of the bundled net.
    #[arg(long, value_name = "NET")]
    pub net: Option<PathBuf>,
    /// The net's real length in metres when its file is not in metres (default 1.7).
    #[arg(long, value_name = "METRES", requires = "net")]
    pub net_length: Option<f64>,
    /// An artist's seat (.glb/.gltf) instead of the bundled stool.
    #[arg(long, value_name = "SEAT")]
    pub seat: Option<PathBuf>,
}

impl PropArgs {
    /// The files and corrections these flags name.
    pub fn sources(&self) -> PropSources {
        PropSources {
            rod: self.rod.as_ref().map(|path| RodSource {
                path: path.clone(),
                length: self.rod_length,
                flip_ends: self.flip_rod_ends,
                grips: RodGrips {
                    butt_offset: self.butt_offset,
                    rear_grip: self.rear_grip,
                    reel_seat: self.reel_seat,
                    reel_above: match (self.reel_above, self.reel_below) {
                        (true, _) => Some(true),
                        (_, true) => Some(false),
                        _ => None,
                    },
                },
            }),
            net: self.net.as_ref().map(|path| NetSource {
                path: path.clone(),
                length: self.net_length,
            }),
            seat: self.seat.clone(),
        }
    }

    /// The bundled props with these flags' files in their place.
    pub fn load(&self) -> anyhow::Result<Props> {
        Ok(Props::load_with(&bundled_assets_dir(), &self.sources())?)
    }
}
