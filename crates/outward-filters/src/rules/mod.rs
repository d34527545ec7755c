//! The four filters, one file each: its thresholds (DataTrove's argument names and defaults),
//! the signals it decides on, and its decision in DataTrove's order of rules.

pub mod c4_quality;
pub mod fineweb_quality;
pub mod gopher_quality;
pub mod gopher_repetition;
