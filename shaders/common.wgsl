// Shared by every anglerpose shader: the per-frame uniform and output encoding.
// Concatenated in front of each shader by src/render (WGSL has no #include).

struct Frame {
    clip_from_world: mat4x4<f32>,
    world_from_clip: mat4x4<f32>,
    view_from_world: mat4x4<f32>,
    clip_from_view: mat4x4<f32>,
    // xyz: camera position in world space.
    eye: vec4<f32>,
    // xyz: unit direction towards the key light (world space).
    key_dir: vec4<f32>,
    // width, height, 1/width, 1/height in pixels.
    viewport: vec4<f32>,
    // x: unused (0); y: near plane distance; z: x-ray opacity (MeshStyle::XRay, 0 otherwise).
    flags: vec4<f32>,
};

fn srgb_from_linear(c: vec3<f32>) -> vec3<f32> {
    let x = clamp(c, vec3<f32>(0.0), vec3<f32>(1.0));
    let lo = x * 12.92;
    let hi = 1.055 * pow(x, vec3<f32>(1.0 / 2.4)) - 0.055;
    return select(hi, lo, x <= vec3<f32>(0.0031308));
}

// The target is not an *Srgb format, so the shader encodes (a pipeline constant, see
// `gpu::output_constants`: software rasterisers run both sides of a branch on a uniform, so
// as a uniform the encode's three pows cost every fragment even for sRGB targets).
override ENCODE_SRGB: bool = false;

// Final colour as the target expects it (linear for *Srgb targets, encoded otherwise).
fn output_colour(c: vec4<f32>) -> vec4<f32> {
    if (ENCODE_SRGB) {
        return vec4<f32>(srgb_from_linear(c.rgb), c.a);
    }
    return c;
}
