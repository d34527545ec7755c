//! Writer stage (lead).
