// Lit mesh pipeline. Positions and normals come in their own vertex stream: the frame's
// skinned-vertex buffer for skinned draws (skinned once per frame by skin_compute.wgsl) or
// the mesh's rest stream for rigid props, placed by the draw's model matrix. Material:
// hemisphere ambient + camera-relative key light + cool fill + rim, base colour x vertex
// colour x texture.

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<uniform> draw: Draw;

@group(1) @binding(0) var base_texture: texture_2d<f32>;
@group(1) @binding(1) var base_sampler: sampler;

struct VertexIn {
    // Stream 1: skinned (or rest) position (w = 1) and normal (w = 0).
    @location(0) position: vec4<f32>,
    @location(1) normal: vec4<f32>,
    // Stream 0: the mesh's surface attributes.
    @location(2) uv: vec2<f32>,
    @location(3) colour: vec4<f32>,
};

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    @location(3) colour: vec4<f32>,
};

@vertex
fn vs_main(v: VertexIn) -> VertexOut {
    let world = draw.world_from_mesh * v.position;
    var out: VertexOut;
    out.world = world.xyz / world.w;
    out.clip = frame.clip_from_world * world;
    out.normal = (draw.normal_from_mesh * v.normal).xyz;
    out.uv = v.uv;
    out.colour = v.colour;
    return out;
}

fn facing_normal(in: VertexOut, front: bool) -> vec3<f32> {
    var n = in.normal;
    let len = length(n);
    if (len > 1e-8) { n = n / len; } else { n = vec3<f32>(0.0, 1.0, 0.0); }
    if (!front) { n = -n; }
    return n;
}

fn view_dir(world: vec3<f32>) -> vec3<f32> {
    let to_eye = frame.eye.xyz - world;
    return select(vec3<f32>(0.0, 0.0, 1.0), normalize(to_eye), length(to_eye) > 1e-8);
}

// The lit colour of `albedo` with unit normal `n` seen along unit `v` (towards the eye).
fn lit(albedo: vec3<f32>, n: vec3<f32>, v: vec3<f32>) -> vec3<f32> {
    // Hemisphere ambient: sky from above, warm ground bounce from below.
    let sky = vec3<f32>(0.50, 0.58, 0.72);
    let ground = vec3<f32>(0.24, 0.20, 0.16);
    let ambient = mix(ground, sky, n.y * 0.5 + 0.5) * 0.75;

    // Key light (camera-relative, from upper left), slightly wrapped for softer terminators.
    let l = frame.key_dir.xyz;
    let ndl = dot(n, l);
    let key = vec3<f32>(1.00, 0.95, 0.88) * 1.25 * max((ndl + 0.15) / 1.15, 0.0);

    // Cool fill from the opposite side.
    let fill_dir = normalize(vec3<f32>(-l.x, 0.25, -l.z));
    let fill = vec3<f32>(0.55, 0.65, 0.85) * 0.22 * max(dot(n, fill_dir), 0.0);

    let h = normalize(l + v);
    let spec = pow(max(dot(n, h), 0.0), 40.0) * 0.18 * step(0.0, ndl);
    let rim = pow(1.0 - max(dot(n, v), 0.0), 3.0) * 0.28 * vec3<f32>(0.85, 0.90, 1.0);

    var c = albedo * (ambient + key + fill) + vec3<f32>(spec) + rim * albedo;
    // Soft shoulder instead of a hard clip on highlights.
    return c / (1.0 + 0.12 * c);
}

@fragment
fn fs_main(in: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    let texel = textureSample(base_texture, base_sampler, in.uv);
    let albedo = draw.colour * in.colour * texel;
    let n = facing_normal(in, front);
    let c = lit(albedo.rgb, n, view_dir(in.world));
    return output_colour(vec4<f32>(c, albedo.a));
}

// X-ray: the same lit colour, see-through. Surfaces facing the camera have the opacity
// (frame.flags.z); towards the silhouette a fresnel term raises it (to 0.9 at most) and lifts
// the colour toward a cool rim tint, so outlines stay crisp while the inside reads through.
@fragment
fn fs_xray(in: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    let texel = textureSample(base_texture, base_sampler, in.uv);
    let albedo = draw.colour * in.colour * texel;
    let n = facing_normal(in, front);
    let v = view_dir(in.world);
    let c = lit(albedo.rgb, n, v);
    let fresnel = pow(1.0 - clamp(abs(dot(n, v)), 0.0, 1.0), 2.0);
    let opacity = clamp(frame.flags.z, 0.0, 1.0);
    let alpha = clamp(opacity * (1.0 + 2.0 * fresnel), 0.0, 0.9) * albedo.a;
    let tinted = mix(c, vec3<f32>(0.80, 0.90, 1.0), 0.5 * fresnel);
    return output_colour(vec4<f32>(tinted, alpha));
}
