//! PICA200 translations through the disk cache: the key is the [`Setup`]'s stable bytes, the
//! shader type, the [`Options`] and the target; the value is the target's bytes and the
//! [`Interface`].

use pica::shbin::ShaderType;

use super::{geometry, vertex, FlowKind, Interface, Options, Setup};
use crate::cache::{Cache, Key};
use crate::{Error, Precision, Target};

/// One target's bytes of a translation, with its interface.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// What [`crate::Output::to_bytes`] gives for the target.
    pub bytes: Vec<u8>,
    /// What the host needs to bind it.
    pub interface: Interface,
    /// Whether it came from the cache.
    pub hit: bool,
}

impl Setup {
    /// A stable byte encoding of everything in the setup (the same bytes on every machine and
    /// build): the program's cache key.
    ///
    /// ```
    /// use translate::pica::Setup;
    /// let a = Setup::new(vec![0x8800_0000], vec![], 0);
    /// let b = Setup::new(vec![0x8800_0000], vec![0x36F], 0);
    /// assert_ne!(a.key_bytes(), b.key_bytes());
    /// ```
    pub fn key_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(32 + 4 * (self.code.len() + self.descriptors.len()));
        let words = |b: &mut Vec<u8>, ws: &[u32]| {
            b.extend_from_slice(&(ws.len() as u32).to_le_bytes());
            ws.iter().for_each(|w| b.extend_from_slice(&w.to_le_bytes()));
        };
        words(&mut b, &self.code);
        words(&mut b, &self.descriptors);
        b.extend_from_slice(&self.main.to_le_bytes());
        b.extend_from_slice(&self.input_mask.to_le_bytes());
        b.extend_from_slice(&self.output_mask.to_le_bytes());
        b.push(self.geometry_mode.raw());
        b.extend_from_slice(&(self.outputs.len() as u32).to_le_bytes());
        for (reg, kind) in &self.outputs {
            b.push(*reg);
            b.extend_from_slice(&kind.raw().to_le_bytes());
        }
        b.extend_from_slice(&(self.names.len() as u32).to_le_bytes());
        for (name, first, last) in &self.names {
            b.extend_from_slice(&(name.len() as u32).to_le_bytes());
            b.extend_from_slice(name.as_bytes());
            b.extend_from_slice(&first.to_le_bytes());
            b.extend_from_slice(&last.to_le_bytes());
        }
        b
    }
}

impl Options {
    /// A stable byte encoding of the options, for cache keys.
    pub fn key_bytes(&self) -> [u8; 3] {
        let precision = match self.precision {
            Precision::Fast => 0,
            Precision::Compat => 1,
            Precision::Exact => 2,
        };
        [precision, self.dispatch_only as u8, self.compute_wrapper as u8]
    }
}

/// The cache key of a translation.
pub fn cache_key(setup: &Setup, shader_type: ShaderType, options: &Options, target: Target) -> Key {
    Key::new("pica")
        .part(&setup.key_bytes())
        .part(&[shader_type.raw()])
        .part(&options.key_bytes())
        .part(target.name().as_bytes())
}

/// Translates a vertex or geometry program and writes `target`, through `cache` when there is
/// one: a hit reads the bytes and interface from disk and translates nothing.
///
/// ```
/// use translate::pica::{compile, Options, Setup, ShaderType};
/// use translate::Target;
/// let setup = Setup::new(vec![0x4C00_0000, 0x8800_0000], vec![0x0000_036F], 0);
/// let out = compile(None, &setup, ShaderType::Vertex, &Options::default(), Target::SpirV)?;
/// assert_eq!(&out.bytes[..4], &[0x03, 0x02, 0x23, 0x07]);
/// assert!(!out.hit);
/// # Ok::<(), translate::Error>(())
/// ```
///
/// # Errors
/// [`Error::UnknownShaderType`] for a type other than vertex or geometry, and the errors of
/// [`vertex`], [`geometry`] and [`super::Translation::write`].
pub fn compile(
    cache: Option<&Cache>,
    setup: &Setup,
    shader_type: ShaderType,
    options: &Options,
    target: Target,
) -> Result<Compiled, Error> {
    let make = || -> Result<(Vec<u8>, Interface), Error> {
        let t = match shader_type {
            ShaderType::Vertex => vertex(setup, options)?,
            ShaderType::Geometry => geometry(setup, options)?,
            ShaderType::Other(t) => return Err(Error::UnknownShaderType(t)),
        };
        Ok((t.write(target)?.to_bytes(), t.interface().clone()))
    };
    let Some(cache) = cache else {
        let (bytes, interface) = make()?;
        return Ok(Compiled { bytes, interface, hit: false });
    };
    let key = cache_key(setup, shader_type, options, target);
    if let Some(value) = cache.get(&key) {
        if let Some((interface, bytes)) = decode(&value) {
            return Ok(Compiled { bytes: bytes.to_vec(), interface, hit: true });
        }
    }
    let (bytes, interface) = make()?;
    let mut value = encode(&interface);
    value.extend_from_slice(&bytes);
    let _ = cache.put(&key, &value);
    Ok(Compiled { bytes, interface, hit: false })
}

fn flow_code(flow: FlowKind) -> u8 {
    match flow {
        FlowKind::Straight => 0,
        FlowKind::Structured => 1,
        FlowKind::Dispatch => 2,
    }
}

/// The interface's bytes: shader type, flow, position (0xFF: none), inputs, outputs.
fn encode(i: &Interface) -> Vec<u8> {
    let mut b = vec![i.shader_type.raw(), flow_code(i.flow), i.position.unwrap_or(0xFF), i.inputs.len() as u8];
    b.extend_from_slice(&i.inputs);
    b.push(i.outputs.len() as u8);
    b.extend_from_slice(&i.outputs);
    b
}

/// The interface and the target bytes of a cached value (`None`: not one we wrote).
fn decode(value: &[u8]) -> Option<(Interface, &[u8])> {
    let (&[ty, flow, position, n_in], rest) = value.split_first_chunk::<4>()?;
    let inputs = rest.get(..n_in as usize)?.to_vec();
    let (&n_out, rest) = rest.get(n_in as usize..)?.split_first()?;
    let outputs = rest.get(..n_out as usize)?.to_vec();
    let bytes = rest.get(n_out as usize..)?;
    let flow =
        [FlowKind::Straight, FlowKind::Structured, FlowKind::Dispatch].into_iter().find(|&f| flow_code(f) == flow)?;
    let interface = Interface {
        shader_type: ShaderType::from_raw(ty),
        inputs,
        position: (position != 0xFF).then_some(position),
        outputs,
        flow,
    };
    Some((interface, bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use pica::shbin::{GeometryMode, OutputKind};

    #[test]
    fn interfaces_round_trip() {
        let i = Interface {
            shader_type: ShaderType::Geometry,
            inputs: vec![0, 3, 7],
            position: Some(2),
            outputs: vec![1, 5],
            flow: FlowKind::Structured,
        };
        let mut value = encode(&i);
        value.extend_from_slice(b"words");
        let (back, bytes) = decode(&value).unwrap();
        assert_eq!(format!("{back:?}"), format!("{i:?}"));
        assert_eq!(bytes, b"words");
        assert!(decode(&value[..3]).is_none());
    }

    #[test]
    fn keys_differ_by_every_part() {
        let s = Setup::new(vec![0x8800_0000], vec![], 0);
        let o = Options::default();
        let base = cache_key(&s, ShaderType::Vertex, &o, Target::SpirV);
        assert_ne!(base, cache_key(&s, ShaderType::Geometry, &o, Target::SpirV));
        assert_ne!(base, cache_key(&s, ShaderType::Vertex, &o, Target::Glsl));
        let exact = Options { precision: Precision::Exact, ..o };
        assert_ne!(base, cache_key(&s, ShaderType::Vertex, &exact, Target::SpirV));
        let mapped = s.clone().output(0, OutputKind::Position);
        assert_ne!(base, cache_key(&mapped, ShaderType::Vertex, &o, Target::SpirV));
        let fixed = Setup { geometry_mode: GeometryMode::Fixed, ..s };
        assert_ne!(base, cache_key(&fixed, ShaderType::Vertex, &o, Target::SpirV));
    }
}
