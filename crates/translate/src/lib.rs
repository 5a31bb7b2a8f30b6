//! Machine programs to `naga::Module`s, validated and written to SPIR-V, GLSL, MSL, HLSL and WGSL.
//!
//! One module per source builds the naga IR ([`pica`]: PICA200 vertex and geometry shaders);
//! every module passes naga's validator before a [`pica::Translation`] is returned, and the
//! translation writes any [`Target`] with the options it was made with (SPIR-V gets
//! `NoContraction` and `SignedZeroInfNanPreserve` unless the precision is `fast`). The binding
//! ABI is in docs/abi.md. [`pica::compile`] and [`gx_tev::compile`] translate and write one
//! target through the disk cache of [`cache`] (docs/capi.md "The translation cache").
//!
//! ```
//! use translate::pica::{self, Options, Setup};
//! use translate::Target;
//!
//! // mov o0, v0; end (operand descriptor 0: xyzw masks and swizzles).
//! let setup = Setup::new(vec![0x4C00_0000, 0x8800_0000], vec![0x0000_036F], 0);
//! let t = pica::vertex(&setup, &Options::default())?;
//! let words = t.spirv()?;
//! assert_eq!(words[0], 0x0723_0203);
//! let wgsl = t.write(Target::Wgsl)?.to_bytes();
//! assert!(String::from_utf8(wgsl).unwrap().contains("@vertex"));
//! # Ok::<(), translate::Error>(())
//! ```

#![forbid(unsafe_code)]

mod backend;
mod builder;
pub mod cache;
pub mod gx_tev;
pub mod latte;
pub mod pica;
pub mod pica_fs;
mod spv_post;

pub use backend::{Output, Target};

/// Float precision of a translation (docs/design.md "Semantics we commit to").
///
/// ```
/// let p: translate::Precision = "exact".parse().unwrap();
/// assert_eq!(p, translate::Precision::Exact);
/// assert_eq!(translate::Precision::default(), translate::Precision::Compat);
/// ```
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
///
/// The naga error of [`Error::Validation`] and [`Error::Backend`] is their
/// [`source()`](std::error::Error::source), typed (downcast it to `naga::WithSpan<..>` or the
/// back end's error type).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A SHBIN has no executable of that index.
    #[error("no executable {index}: the file has {count}")]
    NoExecutable {
        /// The index asked for.
        index: usize,
        /// Executables in the file.
        count: usize,
    },
    /// The entry point lies outside the program.
    #[error("entry point {entry} is outside the program ({len} instructions)")]
    EntryOutsideProgram {
        /// The entry point, in words.
        entry: u32,
        /// Instructions in the program.
        len: usize,
    },
    /// An executable's shader type is neither vertex nor geometry.
    #[error("unknown shader type {0}")]
    UnknownShaderType(u8),
    /// A Latte program uses something the translation does not cover yet.
    #[error("CF {cf}: not translated yet: {what}")]
    LatteUnsupported {
        /// The CF instruction.
        cf: usize,
        /// What it is.
        what: String,
    },
    /// The naga validator rejected the module we built: a bug in the translation.
    #[error("internal error: the generated module does not validate")]
    Validation(#[source] Box<naga::WithSpan<naga::valid::ValidationError>>),
    /// A back end failed.
    #[error("{} back end failed", .target.name())]
    Backend {
        /// The back end.
        target: Target,
        /// naga's error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync + 'static>,
    },
    /// A PICA200 fragment key uses a stage the fragment translation does not cover yet: refused
    /// rather than translated as zero. Every stage is covered now (fragment lighting was the
    /// last); the variant stays for the C ABI's `SP_ERROR_UNSUPPORTED` mapping.
    #[error("the fragment state uses {0}, which the fragment translation does not cover yet")]
    FragmentUnsupported(&'static str),
}
