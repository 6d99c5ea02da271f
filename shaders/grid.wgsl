// Background gradient (sky above the horizon, ground below) and the fading ground grid on
// the y = 0 plane (1 m major lines, 0.25 m minor lines, X axis red, Z axis blue).

@group(0) @binding(0) var<uniform> frame: Frame;

struct BackgroundOut {
    @builtin(position) clip: vec4<f32>,
    // The view ray (far-plane point minus near-plane point), unnormalised. For any
    // projection it is affine in NDC x, y (each plane's w is the same all over the screen),
    // so the rasteriser's interpolation gives every pixel its exact ray and the fragment
    // shader only normalises it.
    @location(0) ray: vec3<f32>,
};

@vertex
fn vs_background(@builtin(vertex_index) i: u32) -> BackgroundOut {
    // One triangle covering the screen.
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    let ndc = uv * 2.0 - 1.0;
    let far = frame.world_from_clip * vec4<f32>(ndc, 1.0, 1.0);
    let near = frame.world_from_clip * vec4<f32>(ndc, 0.0, 1.0);
    var out: BackgroundOut;
    out.clip = vec4<f32>(ndc, 1.0, 1.0);
    out.ray = far.xyz / far.w - near.xyz / near.w;
    return out;
}

@fragment
fn fs_background(in: BackgroundOut) -> @location(0) vec4<f32> {
    let len = length(in.ray);
    let dir = select(vec3<f32>(0.0, 0.0, -1.0), in.ray / len, len > 1e-12);
    let zenith = vec3<f32>(0.16, 0.24, 0.38);
    let horizon = vec3<f32>(0.55, 0.60, 0.66);
    let ground_near = vec3<f32>(0.30, 0.31, 0.31);
    let ground_far = vec3<f32>(0.14, 0.15, 0.16);
    var c: vec3<f32>;
    if (dir.y >= 0.0) {
        c = mix(horizon, zenith, pow(dir.y, 0.6));
    } else {
        // Ground, fading into a haze band just below the horizon.
        let ground = mix(ground_near, ground_far, sqrt(-dir.y));
        c = mix(ground, horizon, exp(dir.y * 25.0));
    }
    return output_colour(vec4<f32>(c, 1.0));
}

const GRID_HALF_SIZE: f32 = 40.0;

struct GridOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
};

@vertex
fn vs_grid(@builtin(vertex_index) i: u32) -> GridOut {
    // A quad (two triangles) on y = 0 centred under the camera.
    var corners = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, -1.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, 1.0), vec2<f32>(-1.0, 1.0),
    );
    let c = corners[i] * GRID_HALF_SIZE + floor(frame.eye.xz);
    let world = vec3<f32>(c.x, 0.0, c.y);
    var out: GridOut;
    out.world = world;
    out.clip = frame.clip_from_world * vec4<f32>(world, 1.0);
    return out;
}

// Coverage (0..1) of grid lines of spacing `s` and width `w_px` pixels at `p`.
fn grid_lines(p: vec2<f32>, s: f32, w_px: f32) -> f32 {
    let q = p / s;
    let d = fwidth(q);
    let g = abs(fract(q - 0.5) - 0.5) / max(d, vec2<f32>(1e-6));
    let line = 1.0 - clamp(min(g.x, g.y) - (w_px * 0.5 - 0.5), 0.0, 1.0);
    // Fade lines out where they get denser than a few pixels (avoids moire).
    let density = clamp(1.0 - (max(d.x, d.y) - 0.15) / 0.35, 0.0, 1.0);
    return line * density;
}

fn axis_line(coord: f32, w_px: f32) -> f32 {
    let d = max(fwidth(coord), 1e-6);
    return 1.0 - clamp(abs(coord) / d - (w_px * 0.5 - 0.5), 0.0, 1.0);
}

@fragment
fn fs_grid(in: GridOut) -> @location(0) vec4<f32> {
    let p = in.world.xz;
    let minor = grid_lines(p, 0.25, 1.0);
    let major = grid_lines(p, 1.0, 1.5);
    let dist = length(p - frame.eye.xz);
    let fade = 1.0 - smoothstep(6.0, 22.0, dist);
    var c = vec3<f32>(0.10, 0.11, 0.12);
    var a = max(minor * 0.22, major * 0.5);
    let ax = axis_line(in.world.z, 2.0); // the X axis: z = 0
    let az = axis_line(in.world.x, 2.0); // the Z axis: x = 0
    if (ax > 0.0) {
        c = mix(c, vec3<f32>(0.75, 0.12, 0.10), ax);
        a = max(a, ax * 0.8);
    }
    if (az > 0.0) {
        c = mix(c, vec3<f32>(0.10, 0.25, 0.80), az);
        a = max(a, az * 0.8);
    }
    a = a * fade;
    if (a <= 0.002) {
        discard;
    }
    return output_colour(vec4<f32>(c, a));
}
