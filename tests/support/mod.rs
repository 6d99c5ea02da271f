pub mod arm;
pub mod golden;
