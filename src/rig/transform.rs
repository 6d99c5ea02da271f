//! The [`Transform`] type: one bone's local translation, rotation and scale.

use glam::{DAffine3, DMat4, DQuat, DVec3};
use serde::{Deserialize, Serialize};

/// A local translation / rotation / scale, composed as `T * R * S` (glTF and three.js order).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Transform {
    /// Translation, in the space the transform maps into (the parent's, for a bone).
    pub translation: DVec3,
    /// Rotation, applied after scale; expected to be unit length.
    pub rotation: DQuat,
    /// Per-axis scale, applied first (along the transform's own axes).
    pub scale: DVec3,
}

impl Default for Transform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Transform {
    /// No translation, no rotation, unit scale.
    pub const IDENTITY: Self = Self {
        translation: DVec3::ZERO,
        rotation: DQuat::IDENTITY,
        scale: DVec3::ONE,
    };

    /// A transform from its three parts, stored as given (`rotation` is not normalised).
    pub fn new(translation: DVec3, rotation: DQuat, scale: DVec3) -> Self {
        Self {
            translation,
            rotation,
            scale,
        }
    }

    /// A pure translation: identity rotation, unit scale.
    pub fn from_translation(translation: DVec3) -> Self {
        Self {
            translation,
            ..Self::IDENTITY
        }
    }

    /// True when the scale is exactly uniform (`x = y = z`): the transform is then `T·R·s`.
    #[inline]
    pub fn has_uniform_scale(&self) -> bool {
        let s = self.scale;
        s.x == s.y && s.y == s.z
    }

    /// The affine matrix `T * R * S`.
    #[inline]
    pub fn to_affine(&self) -> DAffine3 {
        DAffine3::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }

    /// The matrix `T * R * S` as a 4×4 matrix.
    pub fn to_mat4(&self) -> DMat4 {
        DMat4::from(self.to_affine())
    }

    /// Decomposes an affine matrix. Precondition: no shear (true for any chain of TRS with
    /// uniform scale). Negative determinants put the reflection into `scale.x`.
    pub fn from_affine(m: &DAffine3) -> Self {
        let (scale, rotation, translation) = m.to_scale_rotation_translation();
        Self {
            translation,
            rotation,
            scale,
        }
    }

    /// `self · child` for rigid frames: the child's origin goes through the whole affine
    /// (scale included), rotations compose, and the result has unit scale.
    pub fn compose_rigid(&self, child: &Transform) -> Transform {
        Transform::new(
            self.to_affine().transform_point3(child.translation),
            (self.rotation * child.rotation).normalize(),
            DVec3::ONE,
        )
    }

    /// `self · child` when `self` has a uniform scale (`scale.x` is used): exact as TRS, so
    /// the child keeps any non-uniform scale of its own. Precondition: `self.scale` uniform.
    pub fn compose_uniform(&self, child: &Transform) -> Transform {
        let s = self.scale.x;
        Transform::new(
            self.translation + self.rotation * (child.translation * s),
            (self.rotation * child.rotation).normalize(),
            child.scale * s,
        )
    }

    /// True when every component is finite.
    pub fn is_finite(&self) -> bool {
        self.translation.is_finite() && self.rotation.is_finite() && self.scale.is_finite()
    }
}
