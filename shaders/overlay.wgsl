// Overlays on top of everything (no depth test, alpha-blended), like three.js's CCDIKHelper.
// kind 0: triangle vertex at `a`; kind 1: sphere impostor corner (centre `a`, `corner` in
// -1..1, world `radius`); kind 2: line vertex (this end `a`, other end `b`, `corner.x` side
// -1/+1 of start→end,
// `corner.y` 0 at the start / 1 at the end, `width` in pixels).

@group(0) @binding(0) var<uniform> frame: Frame;

struct OverlayIn {
    @location(0) a: vec3<f32>,
    @location(1) kind: u32,
    @location(2) b: vec3<f32>,
    @location(3) width: f32,
    @location(4) corner: vec2<f32>,
    @location(5) radius: f32,
    @location(6) colour: vec4<f32>,
};

struct OverlayOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) colour: vec4<f32>,
    // kind 1: corner; kind 2: x = signed distance across the line in px, y = half width.
    @location(1) local: vec2<f32>,
    @location(2) @interpolate(flat) kind: u32,
};

const OFFSCREEN: vec4<f32> = vec4<f32>(2.0, 2.0, 2.0, 1.0);

fn clip_to_near(c: vec4<f32>, other: vec4<f32>, near: f32) -> vec4<f32> {
    if (c.w >= near) {
        return c;
    }
    let t = (near - c.w) / (other.w - c.w);
    return mix(c, other, t);
}

@vertex
fn vs_main(v: OverlayIn) -> OverlayOut {
    var out: OverlayOut;
    out.colour = v.colour;
    out.kind = v.kind;
    out.local = v.corner;
    let near = frame.flags.y;
    if (v.kind == 1u) {
        let centre = frame.view_from_world * vec4<f32>(v.a, 1.0);
        if (-centre.z < near) {
            out.clip = OFFSCREEN;
            return out;
        }
        let p = centre + vec4<f32>(v.corner * v.radius, 0.0, 0.0);
        out.clip = frame.clip_from_view * p;
        // Keep overlays inside the depth range (depth is never tested).
        out.clip.z = 0.0;
        return out;
    }
    if (v.kind == 2u) {
        let ca0 = frame.clip_from_world * vec4<f32>(v.a, 1.0);
        let cb0 = frame.clip_from_world * vec4<f32>(v.b, 1.0);
        if (ca0.w < near && cb0.w < near) {
            out.clip = OFFSCREEN;
            return out;
        }
        let ca = clip_to_near(ca0, cb0, near);
        let cb = clip_to_near(cb0, ca0, near);
        let half_vp = frame.viewport.xy * 0.5;
        let sa = ca.xy / ca.w * half_vp;
        let sb = cb.xy / cb.w * half_vp;
        var dir = sb - sa;
        let len = length(dir);
        dir = select(vec2<f32>(1.0, 0.0), dir / len, len > 1e-6);
        // `corner.y` = 1 marks the segment's end vertex (`a` = end, `b` = start): flip so
        // `corner.x` always names the same side of start→end.
        let sgn = select(1.0, -1.0, v.corner.y > 0.5);
        let perp = vec2<f32>(-dir.y, dir.x) * sgn;
        let half_width = max(v.width, 0.5) * 0.5 + 1.0; // +1 px for anti-aliasing
        // Square caps: extend each end outward by half the width so polyline joins close.
        let along = -dir * max(v.width, 0.5) * 0.5;
        let offset_px = perp * v.corner.x * half_width + along;
        let s = sa + offset_px;
        out.clip = vec4<f32>(s / half_vp * ca.w, 0.0, ca.w);
        out.local = vec2<f32>(v.corner.x * half_width, max(v.width, 0.5) * 0.5);
        return out;
    }
    out.clip = frame.clip_from_world * vec4<f32>(v.a, 1.0);
    // Triangles keep their depth for correct clipping, then pinned inside the range.
    return out;
}

@fragment
fn fs_main(in: OverlayOut) -> @location(0) vec4<f32> {
    var c = in.colour;
    if (in.kind == 1u) {
        let r = length(in.local);
        let aa = max(fwidth(r), 1e-4);
        let coverage = clamp((1.0 - r) / aa + 0.5, 0.0, 1.0);
        if (coverage <= 0.0) {
            discard;
        }
        // Exactly the sphere colour at the centre, darker towards the rim.
        let bulge = sqrt(max(1.0 - r * r, 0.0));
        var shade = 0.62 + 0.38 * bulge;
        shade = mix(shade, 0.45, smoothstep(0.86, 0.93, r));
        c = vec4<f32>(c.rgb * shade, c.a * coverage);
    } else if (in.kind == 2u) {
        let coverage = clamp(in.local.y + 0.5 - abs(in.local.x), 0.0, 1.0);
        if (coverage <= 0.0) {
            discard;
        }
        c.a = c.a * coverage;
    }
    return output_colour(c);
}
