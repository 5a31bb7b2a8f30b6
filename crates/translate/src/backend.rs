//! Validation and the back ends. Every module passes naga's validator before any writer runs;
//! options are set explicitly (docs/specs/naga-wgpu-facts.md "SPIR-V back end options"): no
//! coordinate-space adjustment, no debug flag (debug and release builds write the same bytes),
//! no loop bounding (our step budget bounds every loop), explicit binding maps; integer
//! division checked unless the caller proves every divisor nonzero ([`IntDivision`]).
//!
//! Each thread keeps one validator and one SPIR-V writer per option set and reuses them: both
//! reset their state at the start of every module but keep their allocations (their tables,
//! the writer's id and type maps), which saves a fresh set of allocations per translation. The
//! output does not depend on what the thread translated before (naga's `Validator::validate`
//! and `spv::Writer::write` clear everything but the options first).

use std::cell::RefCell;

use naga::valid::{Capabilities, ModuleInfo, ValidationFlags, Validator};
use naga::{Module, ResourceBinding, ShaderStage};

use crate::{Error, Precision};

/// An output language.
///
/// ```
/// let t: translate::Target = "glsl-es".parse().unwrap();
/// assert_eq!((t.name(), t.extension()), ("glsl-es", "glsl"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// SPIR-V 1.3 for Vulkan (words).
    SpirV,
    /// GLSL 450 core for Vulkan (`glslangValidator -V` accepts it).
    Glsl,
    /// GLSL ES 3.10.
    GlslEs,
    /// Metal Shading Language 2.1.
    Msl,
    /// HLSL shader model 5.1.
    Hlsl,
    /// WGSL.
    Wgsl,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 6] = [Target::SpirV, Target::Glsl, Target::GlslEs, Target::Msl, Target::Hlsl, Target::Wgsl];

    /// Its command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Target::SpirV => "spirv",
            Target::Glsl => "glsl",
            Target::GlslEs => "glsl-es",
            Target::Msl => "msl",
            Target::Hlsl => "hlsl",
            Target::Wgsl => "wgsl",
        }
    }

    /// The usual file extension.
    pub fn extension(self) -> &'static str {
        match self {
            Target::SpirV => "spv",
            Target::Glsl | Target::GlslEs => "glsl",
            Target::Msl => "metal",
            Target::Hlsl => "hlsl",
            Target::Wgsl => "wgsl",
        }
    }
}

impl std::str::FromStr for Target {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Target::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| format!("unknown target {s:?} (expected spirv, glsl, glsl-es, msl, hlsl or wgsl)"))
    }
}

/// A back end's output: [`Output::to_bytes`] gives what to write to a file.
///
/// ```
/// let out = translate::Output::Words(vec![0x0723_0203]);
/// assert_eq!(out.to_bytes(), [0x03, 0x02, 0x23, 0x07]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// SPIR-V words.
    Words(Vec<u32>),
    /// Source text.
    Text(String),
}

impl Output {
    /// The bytes to write to a file (SPIR-V little-endian).
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            Output::Words(w) => w.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Output::Text(t) => t.clone().into_bytes(),
        }
    }
}

/// Validates a module.
///
/// # Errors
/// [`Error::Validation`] with the validator's error.
pub(crate) fn validate(module: &Module) -> Result<ModuleInfo, Error> {
    thread_local! {
        static VALIDATOR: RefCell<Validator> =
            RefCell::new(Validator::new(ValidationFlags::all(), Capabilities::empty()));
    }
    VALIDATOR.with_borrow_mut(|v| v.validate(module).map_err(|e| Error::Validation(Box::new(e))))
}

fn backend_err<E: std::error::Error + Send + Sync + 'static>(target: Target) -> impl FnOnce(E) -> Error {
    move |e| Error::Backend { target, source: Box::new(e) }
}

/// How the SPIR-V writer treats integer division and remainder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IntDivision {
    /// naga's checked wrappers (a zero divisor reads as one; `MIN / -1` is `MIN`).
    Checked,
    /// Plain `OpSDiv`/`OpUDiv`/`OpUMod`, for modules whose every integer divisor is nonzero
    /// and never -1 by construction (the caller's proof). Signed `%` is still lowered through
    /// naga's wrapper as `a - b * (a / b)` (`OpSRem` of a negative operand is poison on Vulkan
    /// without VK_KHR_maintenance8), which keeps its divisor check.
    Unchecked,
}

fn spirv_writer(division: IntDivision) -> naga::back::spv::Writer {
    let options = naga::back::spv::Options {
        lang_version: (1, 3),
        // PointSize = 1 in vertex stages, as wgpu itself asks of naga on Vulkan: a point list
        // drawn without it has an undefined point size.
        flags: naga::back::spv::WriterFlags::FORCE_POINT_SIZE,
        fake_missing_bindings: true,
        force_loop_bounding: false,
        emit_int_div_checks: division == IntDivision::Checked,
        ..Default::default()
    };
    naga::back::spv::Writer::new(&options).expect("SPIR-V 1.3 is a version naga writes")
}

/// SPIR-V words of a validated module, with `NoContraction` and `SignedZeroInfNanPreserve`
/// unless precision is `fast`.
///
/// # Errors
/// [`Error::Backend`] when naga's writer fails.
pub(crate) fn spirv(module: &Module, info: &ModuleInfo, precision: Precision) -> Result<Vec<u32>, Error> {
    spirv_with(module, info, precision, IntDivision::Checked)
}

/// [`spirv`] with the integer division of `division`.
///
/// # Errors
/// [`Error::Backend`] when naga's writer fails.
pub(crate) fn spirv_with(
    module: &Module,
    info: &ModuleInfo,
    precision: Precision,
    division: IntDivision,
) -> Result<Vec<u32>, Error> {
    thread_local! {
        static WRITERS: RefCell<[Option<naga::back::spv::Writer>; 2]> = const { RefCell::new([None, None]) };
    }
    let mut words = Vec::new();
    WRITERS
        .with_borrow_mut(|w| {
            w[division as usize]
                .get_or_insert_with(|| spirv_writer(division))
                .write(module, info, None, &None, &mut words)
        })
        .map_err(backend_err(Target::SpirV))?;
    Ok(match precision {
        Precision::Fast => words,
        _ => crate::spv_post::preserve_inf_nan(&crate::spv_post::add_no_contraction(&words)),
    })
}

/// Writes a validated module. GLSL needs one entry point: `entry` (stage and name).
///
/// # Errors
/// [`Error::Backend`] when the writer fails.
pub(crate) fn write_validated(
    module: &Module,
    info: &ModuleInfo,
    target: Target,
    entry: (ShaderStage, &str),
    precision: Precision,
) -> Result<Output, Error> {
    match target {
        Target::SpirV => spirv(module, info, precision).map(Output::Words),
        Target::Glsl | Target::GlslEs => {
            use naga::back::glsl;
            let mut binding_map = glsl::BindingMap::default();
            for (_, g) in module.global_variables.iter() {
                if let Some(ResourceBinding { group, binding }) = g.binding {
                    binding_map.insert(ResourceBinding { group, binding }, binding as u8);
                }
            }
            let options = glsl::Options {
                version: if target == Target::Glsl {
                    glsl::Version::Desktop(450)
                } else {
                    glsl::Version::new_gles(310)
                },
                writer_flags: glsl::WriterFlags::empty(),
                binding_map,
                zero_initialize_workgroup_memory: false,
            };
            let pipeline =
                glsl::PipelineOptions { shader_stage: entry.0, entry_point: entry.1.to_string(), multiview: None };
            let mut text = String::new();
            let mut w = glsl::Writer::new(
                &mut text,
                module,
                info,
                &options,
                &pipeline,
                naga::proc::BoundsCheckPolicies::default(),
            )
            .map_err(backend_err(target))?;
            w.write().map_err(backend_err(target))?;
            Ok(Output::Text(text))
        }
        Target::Msl => {
            use naga::back::msl;
            let options = msl::Options {
                lang_version: (2, 1),
                fake_missing_bindings: true,
                force_loop_bounding: false,
                ..Default::default()
            };
            let (text, _) = msl::write_string(module, info, &options, &msl::PipelineOptions::default())
                .map_err(backend_err(target))?;
            Ok(Output::Text(text))
        }
        Target::Hlsl => {
            use naga::back::hlsl;
            let options = hlsl::Options { force_loop_bounding: false, ..Default::default() };
            let pipeline = hlsl::PipelineOptions { entry_point: None };
            let mut text = String::new();
            let mut w = hlsl::Writer::new(&mut text, &options, &pipeline);
            w.write(module, info, None).map_err(backend_err(target))?;
            Ok(Output::Text(text))
        }
        Target::Wgsl => naga::back::wgsl::write_string(module, info, naga::back::wgsl::WriterFlags::empty())
            .map(Output::Text)
            .map_err(backend_err(target)),
    }
}
