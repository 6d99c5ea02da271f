// The one skinning function, shared by the mesh vertex shader (skinned.wgsl) and the
// compute check path (skin_compute.wgsl). The including shader declares the storage binding
// `joint_matrices: array<mat4x4<f32>>` (joint world x inverse bind, one palette per draw
// starting at `base`). Weights are normalised on upload; an all-zero weight vertex stays in
// bind pose (identity).
fn skin_matrix(joints: vec4<u32>, weights: vec4<f32>, base: u32) -> mat4x4<f32> {
    let total = weights.x + weights.y + weights.z + weights.w;
    if (total < 1e-6) {
        return mat4x4<f32>(
            vec4<f32>(1.0, 0.0, 0.0, 0.0),
            vec4<f32>(0.0, 1.0, 0.0, 0.0),
            vec4<f32>(0.0, 0.0, 1.0, 0.0),
            vec4<f32>(0.0, 0.0, 0.0, 1.0),
        );
    }
    return joint_matrices[base + joints.x] * weights.x
        + joint_matrices[base + joints.y] * weights.y
        + joint_matrices[base + joints.z] * weights.z
        + joint_matrices[base + joints.w] * weights.w;
}
