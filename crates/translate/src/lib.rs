//! Machine programs to `naga::Module`s, validated and written to SPIR-V, GLSL, MSL, HLSL and WGSL.
//!
//! One module per source builds the naga IR (`pica`: PICA200 vertex and geometry shaders); the
//! shared [`backend`] validates every module before any writer runs, and [`spv_post`] adds what
//! naga's SPIR-V writer cannot say (`NoContraction`). The binding ABI is in docs/abi.md.

#![forbid(unsafe_code)]

pub mod backend;
pub mod builder;
pub mod pica;
pub mod spv_post;

pub use backend::{write, Output, Target};

/// Float precision of a translation (docs/design.md "Semantics we commit to").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Precision {
    /// Host f32 arithmetic, no special cases.
    Fast,
    /// Host f32 arithmetic plus the special cases of the source (PICA: inf*0 = 0, rcp/rsq of 0,
    /// min/max NaN order).
    #[default]
    Compat,
    /// Bit-identical to the reference interpreter.
    Exact,
}

impl std::str::FromStr for Precision {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "fast" => Ok(Precision::Fast),
            "compat" => Ok(Precision::Compat),
            "exact" => Ok(Precision::Exact),
            _ => Err(format!("unknown precision {s:?} (expected fast, compat or exact)")),
        }
    }
}

/// Why a translation failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The input cannot be translated (bad entry index, entry point outside the code, ...).
    #[error("{0}")]
    Input(String),
    /// The naga validator rejected the module we built: a bug in the translation.
    #[error("internal error: the generated module does not validate: {0}")]
    Validation(String),
    /// A back end failed.
    #[error("{target} back end: {message}")]
    Backend {
        /// The back end.
        target: &'static str,
        /// Its error, with its causes.
        message: String,
    },
}

/// The message of an error and all its causes (naga errors carry the text in `source()`).
pub(crate) fn error_chain(err: &dyn std::error::Error) -> String {
    let mut s = err.to_string();
    let mut cur = err.source();
    while let Some(e) = cur {
        s.push_str(": ");
        s.push_str(&e.to_string());
        cur = e.source();
    }
    s
}
