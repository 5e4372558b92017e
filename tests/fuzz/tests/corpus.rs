//! The committed corpus of minimized fuzz findings
//! (`tests/fuzz/corpus/*.json`), replayed in the normal test suite. Each case
//! must pass every check of the fuzzer: no panic, a stable error code and a
//! capped problem list on refusal, and on acceptance a state that loads
//! again, passes `ecaz::audit::check`, and accepts every listed command.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::time::Duration;

#[test]
fn issue11_9_every_corpus_case_passes_the_fuzz_checks() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let cases = ecaz_fuzz::corpus(&dir);
    let files = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(cases.len(), files, "every corpus file decodes as a case");
    assert!(!cases.is_empty());
    for (path, case) in cases {
        // Debug builds are slow; a generous bound still catches a quadratic blow-up.
        if let Err(f) = ecaz_fuzz::check(&case, Duration::from_secs(20)) {
            panic!("{}: {} {} ({})", path.display(), f.kind, f.detail, case.note);
        }
    }
}
