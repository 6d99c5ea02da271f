// GPU skinning: a compute pass at the start of each frame skins every skinned draw's
// vertices once (skin_matrix() from skinning.wgsl, the draw's palette starting at
// draw.flags.y) into the frame's skinned-vertex buffer at draw.flags.z; the mesh pipeline
// reads that buffer as its position/normal vertex stream. (A vertex shader would redo the
// four-matrix blend for every triangle corner on some rasterisers; here each vertex is
// skinned exactly once.)

struct SkinVertex {
    position: vec4<f32>,
    normal: vec4<f32>,
    joints: vec4<u32>,
    weights: vec4<f32>,
};

struct Skinned {
    position: vec4<f32>,
    normal: vec4<f32>,
};

@group(0) @binding(0) var<storage, read> joint_matrices: array<mat4x4<f32>>;
@group(0) @binding(1) var<uniform> draw: Draw;
@group(0) @binding(2) var<storage, read_write> skinned: array<Skinned>;
@group(1) @binding(0) var<storage, read> vertices: array<SkinVertex>;

@compute @workgroup_size(64)
fn cs_main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if (i >= arrayLength(&vertices)) {
        return;
    }
    let v = vertices[i];
    let skin = skin_matrix(v.joints, v.weights, draw.flags.y);
    var out: Skinned;
    out.position = vec4<f32>((skin * vec4<f32>(v.position.xyz, 1.0)).xyz, 1.0);
    out.normal = vec4<f32>((skin * vec4<f32>(v.normal.xyz, 0.0)).xyz, 0.0);
    skinned[draw.flags.z + i] = out;
}
