//! Pipeline wiring (lead).
