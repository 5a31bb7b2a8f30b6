//! The texture fetch the TEV reference pairs with: nearest texel, repeat, level 0.
//!
//! The evaluator takes texels as inputs ([`PixelInputs::tex`], [`PixelInputs::ind_tex`]); this
//! module supplies them from RGBA8 images at the coordinates the indirect unit computes, so that
//! a whole material (coordinates in, colour out) has one CPU reference that the generated
//! fragment modules are checked against. The fetch rule is the ABI's (docs/abi.md, "Hollywood
//! TEV"): texel `(s >> 7, t >> 7)` of an s17.7 coordinate, wrapped into the image by Euclidean
//! remainder. GX's filters, LOD and clamp / mirror modes are not modelled (docs/gx-decisions.md).

use crate::key::TEXMAPS;
use crate::tev::{Evaluator, PixelInputs, PixelOutput};

/// An RGBA8 image bound to a texture map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// Width in texels (at least 1).
    pub width: u32,
    /// Height in texels (at least 1).
    pub height: u32,
    /// Texels, row by row.
    pub texels: Vec<[u8; 4]>,
}

impl Image {
    /// An image of one colour.
    pub fn solid(width: u32, height: u32, c: [u8; 4]) -> Self {
        Self { width: width.max(1), height: height.max(1), texels: vec![c; (width.max(1) * height.max(1)) as usize] }
    }

    /// The texel an s17.7 coordinate selects.
    ///
    /// ```
    /// let img = gx::sample::Image { width: 2, height: 1, texels: vec![[1; 4], [2; 4]] };
    /// assert_eq!(img.fetch([128, 0]), [2; 4]);
    /// assert_eq!(img.fetch([-1, 0]), [2; 4]); // texel -1 wraps to 1
    /// ```
    pub fn fetch(&self, coord: [i32; 2]) -> [u8; 4] {
        let x = (coord[0] >> 7).rem_euclid(self.width.max(1) as i32) as usize;
        let y = (coord[1] >> 7).rem_euclid(self.height.max(1) as i32) as usize;
        self.texels.get(y * self.width as usize + x).copied().unwrap_or([0; 4])
    }
}

impl Evaluator {
    /// Evaluates one pixel whose texels are fetched from `maps` (one image per texture map):
    /// each indirect stage samples its map at its scaled coordinate, then each TEV stage samples
    /// its map at its final (indirect-offset) coordinate. `input.tex` and `input.ind_tex` are
    /// ignored (they are what this fills in).
    pub fn eval_sampled(&self, maps: &[Image; TEXMAPS], input: &PixelInputs) -> PixelOutput {
        let state = self.state();
        let mut px = PixelInputs { tex: Vec::new(), ind_tex: [[0; 4]; 4], ..input.clone() };
        // The indirect coordinates depend only on the regular coordinates.
        let first = crate::indirect::compute(state, &px);
        for n in 0..(state.gen_mode.num_indstages as usize).min(4) {
            let (bi, _) = state.ind_ref(n);
            px.ind_tex[n] = maps[bi as usize & 7].fetch(first.ind_coord[n]);
        }
        let ind = crate::indirect::compute(state, &px);
        px.tex =
            (0..state.num_stages()).map(|i| maps[state.stage(i).texmap as usize & 7].fetch(ind.tevcoord[i])).collect();
        self.eval(&px)
    }
}
