//! Generates the C header of the ecaz-ffi crate with cbindgen.
//!
//! - `ecaz-ffi-header`: print the header on stdout (scripts/ffi-check diffs
//!   it against the committed `ffi/include/ecaz.h`);
//! - `ecaz-ffi-header --write`: rewrite `ffi/include/ecaz.h`.
//!
//! The settings (include guard, prefixed SCREAMING_SNAKE enum variants,
//! `size_t`, doc comments) are in `ffi/cbindgen.toml`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn ffi_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The header's version macros (D-212), from the workspace version this
/// generator shares with ecaz-ffi; `ecaz_version()` returns the same text, and
/// the installed-prefix consumers (scripts/c-install) check that they agree.
fn version_macros(version: &str) -> Result<String, String> {
    let mut parts = version.split(['.', '-', '+']);
    let mut number = |what: &str| {
        parts
            .next()
            .and_then(|part| part.parse::<u32>().ok())
            .ok_or_else(|| format!("version `{version}` has no numeric {what} part"))
    };
    let (major, minor, patch) = (number("major")?, number("minor")?, number("patch")?);
    Ok(format!(
        "\n/** The version of the library this header describes (`ecaz_version()` returns ECAZ_VERSION). */\n\
         #define ECAZ_VERSION \"{version}\"\n\
         #define ECAZ_VERSION_MAJOR {major}\n\
         #define ECAZ_VERSION_MINOR {minor}\n\
         #define ECAZ_VERSION_PATCH {patch}"
    ))
}

fn generate() -> Result<Vec<u8>, String> {
    let dir = ffi_dir();
    let mut config = cbindgen::Config::from_file(dir.join("cbindgen.toml"))?;
    config.after_includes = Some(version_macros(env!("CARGO_PKG_VERSION"))?);
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(dir.join("src/lib.rs"))
        .generate()
        .map_err(|e| format!("cbindgen: {e}"))?;
    let mut header = Vec::new();
    bindings.write(&mut header);
    Ok(header)
}

fn main() -> ExitCode {
    let write = match std::env::args().nth(1).as_deref() {
        None => false,
        Some("--write") => true,
        Some(other) => {
            eprintln!("usage: ecaz-ffi-header [--write]   (unknown argument `{other}`)");
            return ExitCode::from(2);
        }
    };
    let result = generate().and_then(|header| {
        if write {
            let path = ffi_dir().join("include/ecaz.h");
            std::fs::write(&path, header).map_err(|e| format!("{}: {e}", path.display()))
        } else {
            std::io::stdout().write_all(&header).map_err(|e| format!("stdout: {e}"))
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ecaz-ffi-header: {e}");
            ExitCode::FAILURE
        }
    }
}
