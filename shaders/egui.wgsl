// egui's tessellated meshes: vertex positions in points, premultiplied gamma-space colours,
// textures in gamma space (Rgba8Unorm). No branches on uniforms: software rasterisers run both
// sides of such a branch for every fragment (see editor/egui_draw.rs).

struct Screen {
    // The target's size in points (pixels / pixels_per_point).
    size: vec2<f32>,
    pad: vec2<f32>,
};

@group(0) @binding(0) var<uniform> screen: Screen;
@group(1) @binding(0) var image: texture_2d<f32>;
@group(1) @binding(1) var image_sampler: sampler;

// The target is an *Srgb format (colours are written linear and encoded by the hardware).
override LINEAR_TARGET: bool = false;

struct VertexOut {
    @builtin(position) position: vec4<f32>,
    @location(0) uv: vec2<f32>,
    @location(1) colour: vec4<f32>,
};

@vertex
fn vs_main(
    @location(0) position: vec2<f32>,
    @location(1) uv: vec2<f32>,
    @location(2) colour: u32,
) -> VertexOut {
    var out: VertexOut;
    out.position = vec4<f32>(
        2.0 * position.x / screen.size.x - 1.0,
        1.0 - 2.0 * position.y / screen.size.y,
        0.0,
        1.0,
    );
    out.uv = uv;
    // Color32 is [r, g, b, a] bytes: little-endian, r in the low byte.
    out.colour = unpack4x8unorm(colour);
    return out;
}

fn linear_from_gamma(c: vec3<f32>) -> vec3<f32> {
    let lo = c / 12.92;
    let hi = pow((c + 0.055) / 1.055, vec3<f32>(2.4));
    return select(hi, lo, c < vec3<f32>(0.04045));
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    let c = in.colour * textureSample(image, image_sampler, in.uv);
    if (LINEAR_TARGET) {
        return vec4<f32>(linear_from_gamma(c.rgb), c.a);
    }
    return c;
}
