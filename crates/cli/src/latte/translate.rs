//! `shaderport translate` on a Latte file: the one program `--entry` / `--stage` (or `--raw`)
//! picks, through `translate::latte::translate`, to the target's bytes.

use std::path::Path;

use anyhow::Context;
use translate::{Precision, Target};

use super::select::{pick_one, Selection};

/// Translates the program `sel` picks from `file` to `to`.
pub fn translate_file(
    file: &Path,
    bytes: &[u8],
    sel: Selection,
    to: Target,
    precision: Precision,
) -> anyhow::Result<Vec<u8>> {
    let p = pick_one(file, bytes, sel)?;
    let options = translate::latte::Options { precision, ..Default::default() };
    let at = || format!("{}: {}", file.display(), p.what);
    let tr = translate::latte::translate(&p.program, p.stage, &options).with_context(at)?;
    Ok(tr.write(to).with_context(at)?.to_bytes())
}
