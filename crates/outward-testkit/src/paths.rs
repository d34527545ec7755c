//! Where tests find their files: the repository ([`repo_root`]: `testdata/`, the shipped
//! models) and the dev data beside it ([`shared_data`]: `../shared`, the dev sets and the real
//! and edge samples), with the one rule for when that data is absent.

use std::path::{Path, PathBuf};

/// The repository root (this crate lives in `crates/outward-testkit`): tests of every crate
/// find `testdata/` and `../shared` from here.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Set to `1` (CI does, in `.ci/run`): a test whose dev data is absent fails instead of
/// skipping, so a missing `../shared` cannot turn the dev-data tests into passes.
pub const REQUIRE_DEV_VAR: &str = "OUTWARD_REQUIRE_DEV";

/// Where the dev data is instead of `<repo>/../shared` (to test the rule above, or to use a
/// copy elsewhere).
pub const SHARED_DIR_VAR: &str = "OUTWARD_SHARED_DIR";

/// `rel` under the dev data (`<repo>/../shared`, or `$OUTWARD_SHARED_DIR`), e.g.
/// `"data/dev/dragnet.warc.gz"` or `"samples/real"`, when it exists. When it does not, the
/// test that asked skips: this prints a note and returns `None`, unless
/// `OUTWARD_REQUIRE_DEV=1`, where it panics, naming the path.
pub fn shared_data(rel: &str) -> Option<PathBuf> {
    let root = std::env::var_os(SHARED_DIR_VAR)
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("../shared"));
    let require = std::env::var_os(REQUIRE_DEV_VAR).is_some_and(|v| v == "1");
    shared_data_in(&root, rel, require)
}

/// [`shared_data`] under `root`, with the requirement given.
fn shared_data_in(root: &Path, rel: &str, require: bool) -> Option<PathBuf> {
    let path = root.join(rel);
    if path.exists() {
        return Some(path);
    }
    assert!(
        !require,
        "{} is absent, and {REQUIRE_DEV_VAR}=1 requires the dev data (CI has ../shared beside \
         the repository; unset {REQUIRE_DEV_VAR} to skip the tests that read it)",
        path.display()
    );
    eprintln!("note: {} absent: skipped", path.display());
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_data_is_found_skipped_or_required() {
        let root = repo_root();
        assert_eq!(
            shared_data_in(&root, "testdata", false),
            Some(root.join("testdata"))
        );
        assert_eq!(
            shared_data_in(&root, "testdata", true),
            Some(root.join("testdata"))
        );
        assert_eq!(shared_data_in(&root, "no/such/file", false), None);
        let required = std::panic::catch_unwind(|| shared_data_in(&root, "no/such/file", true));
        let message = *required.unwrap_err().downcast::<String>().unwrap();
        assert!(
            message.contains("no/such/file is absent") && message.contains(REQUIRE_DEV_VAR),
            "{message}"
        );
    }
}
