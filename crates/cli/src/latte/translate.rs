//! `shaderport translate` on a Latte file: the one program `--entry` / `--stage` (or `--raw`)
//! picks, through `translate::latte::translate`, to the target's bytes.

use std::path::Path;

use anyhow::Context;
use translate::{Precision, Target};

use translate::latte::Interface;

use super::select::{pick_one, Selection, Source};

/// Translates the program `sel` picks from `file` to `to`; with `meta`, also returns its
/// interface as `<key>.<stage>.meta` JSON (docs/latte-translate.md "Interface files"): from the
/// GFD header, with varying locations from the semantics of that GFD's shaders (`batch` uses the
/// game-wide map instead), or for a raw program from the documented defaults.
pub fn translate_file(
    file: &Path,
    bytes: &[u8],
    sel: Selection,
    to: Target,
    precision: Precision,
    meta: bool,
) -> anyhow::Result<(Vec<u8>, Option<String>)> {
    let p = pick_one(file, bytes, sel)?;
    let options = translate::latte::Options { precision, ..Default::default() };
    let at = || format!("{}: {}", file.display(), p.what);
    let tr = translate::latte::translate(&p.program, p.stage, &options).with_context(at)?;
    let out = tr.write(to).with_context(at)?.to_bytes();
    if !meta {
        return Ok((out, None));
    }
    let interface = match &p.source {
        Source::Raw { key } => Interface::from_program(key, &p.program, &tr),
        Source::Header { key, entry } => {
            let (_, entries) = latte::mt::entries(bytes).with_context(at)?;
            let file = file.display().to_string();
            let interfaces = translate::latte::gfd_interfaces(&file, &entries[*entry].gfd).with_context(at)?;
            interfaces.into_iter().find(|i| i.key == *key).with_context(|| format!("{}: no interface", at()))?
        }
    };
    Ok((out, Some(interface.to_json())))
}
