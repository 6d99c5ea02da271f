// GPU-skinning check path: the same skin_matrix() as the mesh vertex shader, writing skinned
// positions to a storage buffer for readback.

struct SkinVertex {
    position: vec4<f32>,
    joints: vec4<u32>,
    weights: vec4<f32>,
};

@group(0) @binding(0) var<storage, read> joint_matrices: array<mat4x4<f32>>;
@group(0) @binding(1) var<storage, read> vertices: array<SkinVertex>;
@group(0) @binding(2) var<storage, read_write> skinned: array<vec4<f32>>;

@compute @workgroup_size(64)
fn cs_main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if (i >= arrayLength(&vertices)) {
        return;
    }
    let v = vertices[i];
    skinned[i] = skin_matrix(v.joints, v.weights, 0u) * vec4<f32>(v.position.xyz, 1.0);
}
