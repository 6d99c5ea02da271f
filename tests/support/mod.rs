pub mod angler;
pub mod arm;
pub mod checks;
pub mod figures;
pub mod gltf_edit;
pub mod golden;
pub mod khronos;
pub mod xwin;
