//! Where tests find their files: the repository ([`repo_root`]: `testdata/`, the shipped
//! models, and `../shared` beside it).

use std::path::{Path, PathBuf};

/// The repository root (this crate lives in `crates/outward-testkit`): tests of every crate
/// find `testdata/` and `../shared` from here.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}
