// The per-draw uniform (`DrawUniform` in src/render/skinned.rs), shared by the mesh pipeline
// (skinned.wgsl) and the skinning pass (skin_compute.wgsl).
struct Draw {
    world_from_mesh: mat4x4<f32>,
    // Inverse-transpose of world_from_mesh (for normals).
    normal_from_mesh: mat4x4<f32>,
    // Base colour factor x tint (linear).
    colour: vec4<f32>,
    // x: unused (0), y: first joint of this draw's palette in joint_matrices,
    // z: first vertex of this draw in the frame's skinned-vertex buffer.
    flags: vec4<u32>,
};
