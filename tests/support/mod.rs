pub mod angler;
pub mod arm;
pub mod golden;
pub mod khronos;
pub mod xwin;
