//! The game-wide varying map: Latte semantic id -> dense location (docs/abi.md "Latte",
//! "Varyings"), and its text form `varyings.txt`.
//!
//! The hardware links a VS parameter to a PS input by semantic id (latte-semantics-facts.md
//! §5.3: PS input R j receives the parameter whose SPI_VS_OUT_ID semantic equals
//! SPI_PS_INPUT_CNTL_j.SEMANTIC). Vulkan links by location, so every semantic any shader of the
//! game uses gets one location, the same in every shader: the semantics sorted by id, numbered
//! from 0 (latte-shader-translation.md, "Bindings / interface").

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// Locations the ABI gives varyings: 0-31 (Latte exports at most 32 parameters, PARAM 0-31;
/// 32 `vec4` locations is what Vulkan devices with 128 output components offer).
pub const MAX_VARYING_LOCATIONS: usize = 32;

/// The semantic id meaning "no parameter" in SPI_VS_OUT_ID (latte-semantics-facts.md §5.2).
pub const NO_SEMANTIC: u8 = 0xFF;

/// Semantic id -> location, dense from 0 in semantic order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Varyings {
    locations: BTreeMap<u8, u32>,
}

/// A `varyings.txt` line that cannot be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("varyings.txt line {line}: {message}")]
pub struct VaryingsError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl Varyings {
    /// The map of every semantic in `semantics` (any order, repeats allowed).
    pub fn from_semantics(semantics: impl IntoIterator<Item = u8>) -> Varyings {
        let set: BTreeSet<u8> = semantics.into_iter().filter(|&s| s != NO_SEMANTIC).collect();
        Varyings { locations: set.into_iter().zip(0u32..).collect() }
    }

    /// The location of `semantic`.
    pub fn location(&self, semantic: u8) -> Option<u32> {
        self.locations.get(&semantic).copied()
    }

    /// Number of semantics (= locations used).
    pub fn len(&self) -> usize {
        self.locations.len()
    }

    /// Whether no shader has a varying.
    pub fn is_empty(&self) -> bool {
        self.locations.is_empty()
    }

    /// (semantic, location) in semantic order.
    pub fn iter(&self) -> impl Iterator<Item = (u8, u32)> + '_ {
        self.locations.iter().map(|(&s, &l)| (s, l))
    }

    /// The `varyings.txt` text: a comment line, then one line `<semantic id> <location>` per
    /// semantic (both decimal), sorted by semantic id.
    pub fn to_text(&self) -> String {
        let mut s = String::from("# semantic location\n");
        for (sem, loc) in self.iter() {
            let _ = writeln!(s, "{sem} {loc}");
        }
        s
    }

    /// Reads [`Varyings::to_text`]'s form: lines starting with `#` and blank lines are
    /// skipped; the others must be `<semantic> <location>` with semantics rising and locations
    /// 0, 1, 2, ... in order.
    ///
    /// # Errors
    /// The first line that is not of that form, with its number.
    pub fn parse(text: &str) -> Result<Varyings, VaryingsError> {
        let mut locations = BTreeMap::new();
        for (i, line) in text.lines().enumerate() {
            let err = |message: String| VaryingsError { line: i + 1, message };
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let mut f = t.split_whitespace();
            let (Some(a), Some(b), None) = (f.next(), f.next(), f.next()) else {
                return Err(err(format!("expected `<semantic> <location>`, found {t:?}")));
            };
            let sem: u8 = a.parse().map_err(|_| err(format!("semantic {a:?} is not 0-254")))?;
            let loc: u32 = b.parse().map_err(|_| err(format!("location {b:?} is not a number")))?;
            if sem == NO_SEMANTIC {
                return Err(err("semantic 255 means no parameter".into()));
            }
            if locations.last_key_value().is_some_and(|(&p, _)| p >= sem) {
                return Err(err(format!("semantic {sem} is not above the previous line's")));
            }
            if loc as usize != locations.len() {
                return Err(err(format!("location {loc}: expected {} (locations are dense)", locations.len())));
            }
            locations.insert(sem, loc);
        }
        Ok(Varyings { locations })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_are_dense_in_semantic_order_and_the_text_round_trips() {
        let v = Varyings::from_semantics([0x93, 0x80, 0xFF, 0x8A, 0x80, 3]);
        assert_eq!(v.iter().collect::<Vec<_>>(), vec![(3, 0), (0x80, 1), (0x8A, 2), (0x93, 3)]);
        assert_eq!(v.to_text(), "# semantic location\n3 0\n128 1\n138 2\n147 3\n");
        assert_eq!(Varyings::parse(&v.to_text()), Ok(v));
    }

    #[test]
    fn bad_lines_name_their_number() {
        assert_eq!(Varyings::parse("# x\n3 0\n2 1\n").unwrap_err().line, 3);
        assert_eq!(Varyings::parse("3 1\n").unwrap_err().line, 1);
        assert_eq!(Varyings::parse("3\n").unwrap_err().line, 1);
        assert_eq!(Varyings::parse("300 0\n").unwrap_err().line, 1);
    }
}
