//! The CLI's one error type: a stable code and a human message, printed as
//! `error: <code>: <message>` on stderr (exit status 1).
//!
//! Library errors keep their own codes (`decode/…`, `setup/…`, `rule/…`);
//! failures of the tool itself use the `cli/…` namespace.

use std::fmt;
use std::path::Path;

/// Code of a write to a closed stdout: the reader went away, not a failure.
pub const BROKEN_PIPE: &str = "cli/broken_pipe";

/// A failure of one CLI command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError {
    /// Stable code, e.g. `cli/io` or `decode/invalid_json`.
    pub code: String,
    /// What went wrong, for humans.
    pub message: String,
}

impl CliError {
    /// An error with a code and a message.
    /// The message is bounded as the engine bounds its reports (D-181).
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        CliError {
            code: code.into(),
            message: ecaz::bounded_message(message.into()),
        }
    }

    /// A file could not be read or written.
    pub fn io(what: &str, path: &Path, err: &std::io::Error) -> Self {
        CliError::new("cli/io", format!("cannot {what} {}: {err}", path.display()))
    }

    /// Writing to stdout failed. A closed pipe (`ecaz demo | head`) gets its
    /// own code, [`BROKEN_PIPE`], which `main` treats as a quiet success.
    pub fn stdout(err: &std::io::Error) -> Self {
        if err.kind() == std::io::ErrorKind::BrokenPipe {
            return CliError::new(BROKEN_PIPE, "stdout was closed");
        }
        CliError::new("cli/io", format!("cannot write to stdout: {err}"))
    }

    /// Is this the closed-pipe case?
    pub fn is_broken_pipe(&self) -> bool {
        self.code == BROKEN_PIPE
    }

    /// A JSON document could not be decoded as `what`: syntax errors are
    /// `decode/invalid_json`, shape errors get `shape_code`.
    pub fn json(path: &Path, what: &str, shape_code: &str, err: &serde_json::Error) -> Self {
        let code = match err.classify() {
            serde_json::error::Category::Data => shape_code,
            _ => "decode/invalid_json",
        };
        CliError::new(code, format!("{} is not a valid {what}: {err}", path.display()))
    }
}

impl From<&ecaz::ApplyError> for CliError {
    fn from(e: &ecaz::ApplyError) -> Self {
        CliError::new(e.code(), e.to_string())
    }
}

impl From<ecaz::ApplyError> for CliError {
    fn from(e: ecaz::ApplyError) -> Self {
        CliError::from(&e)
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}
