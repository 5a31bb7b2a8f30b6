//! Writing results to stdout. A reader that goes away (`shaderport ... | head`) ends the output
//! quietly: `print!` would panic on the closed pipe.

use std::io::Write;

use anyhow::Context;

/// Writes `text` to stdout and flushes it.
pub fn emit(text: &str) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r.context("cannot write to stdout"),
    }
}

/// Writes `value` as pretty JSON and a newline.
pub fn emit_json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    let mut text = serde_json::to_string_pretty(value)?;
    text.push('\n');
    emit(&text)
}
