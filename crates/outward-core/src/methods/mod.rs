//! The extraction methods, one file each: `fulltext` (all visible text, the baseline),
//! `reverse` (the product method) and `paper` (seed paper 002 as published).

pub mod fulltext;
pub mod paper;
pub mod reverse;

pub use fulltext::Fulltext;
pub use paper::Paper;
pub use reverse::Reverse;
