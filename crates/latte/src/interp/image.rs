//! Sampling of [`super::CpuTextures`]: level selection (explicit LOD, bias, LOD from gradients),
//! nearest / bilinear / trilinear filtering, 2D, 2D-array, 3D and cube images (the cube through
//! CUBE's face coordinates), depth compare, LD and the size query (latte-semantics-facts.md
//! §4.1; the choices the facts leave open are in docs/latte-interp.md, "Textures").

use super::tex::{Compare, Image, Sampler, TexKind, TexRequest, Wrap};

/// A borrowed image: what [`sample`] reads ([`Image`]s and one-level [`super::Texture2d`]s).
pub(crate) struct View<'a> {
    pub kind: TexKind,
    pub size: [u32; 3],
    pub levels: Vec<&'a [[f32; 4]]>,
    pub mip_linear: bool,
    pub compare: Option<Compare>,
    pub wrap_r: Wrap,
}

impl<'a> View<'a> {
    pub fn of(img: &'a Image) -> View<'a> {
        View {
            kind: img.kind,
            size: [img.width, img.height, img.depth],
            levels: img.levels.iter().map(|l| l.as_slice()).collect(),
            mip_linear: img.mip_linear,
            compare: img.compare,
            wrap_r: img.wrap_r,
        }
    }

    /// Width, height and depth (layers for arrays and cubes) of level `k`.
    fn dims(&self, k: usize) -> [u32; 3] {
        let s = |v: u32| (v >> k.min(31)).max(1);
        let d = if self.kind == TexKind::D3 { s(self.size[2]) } else { self.size[2].max(1) };
        [s(self.size[0]), s(self.size[1]), d]
    }

    /// Checks every level holds its texels.
    pub fn check(&self, resource: u8) -> Result<(), String> {
        if self.size.contains(&0) || self.levels.is_empty() {
            return Err(format!("texture {resource} is empty"));
        }
        for (k, l) in self.levels.iter().enumerate() {
            let [w, h, d] = self.dims(k);
            if (l.len() as u64) < w as u64 * h as u64 * d as u64 {
                return Err(format!("texture {resource} level {k} has {} texels, {w}x{h}x{d} needed", l.len()));
            }
        }
        Ok(())
    }

    fn texel(&self, k: usize, x: usize, y: usize, z: usize) -> [f32; 4] {
        let [w, h, _] = self.dims(k);
        self.levels[k][(z * h as usize + y) * w as usize + x]
    }
}

fn wrap(i: i64, n: u32, w: Wrap) -> usize {
    let n = n as i64;
    (match w {
        Wrap::Repeat => i.rem_euclid(n),
        Wrap::Clamp => i.clamp(0, n - 1),
        Wrap::Mirror => {
            let m = i.rem_euclid(2 * n);
            if m < n {
                m
            } else {
                2 * n - 1 - m
            }
        }
    }) as usize
}

fn finite(v: f64) -> f64 {
    if v.is_finite() {
        v.clamp(-1e9, 1e9)
    } else {
        0.0
    }
}

/// `reference OP texel` (GL / Vulkan depth compare).
fn passes(c: Compare, reference: f32, texel: f32) -> bool {
    match c {
        Compare::Never => false,
        Compare::Less => reference < texel,
        Compare::Equal => reference == texel,
        Compare::LessEqual => reference <= texel,
        Compare::Greater => reference > texel,
        Compare::NotEqual => reference != texel,
        Compare::GreaterEqual => reference >= texel,
        Compare::Always => true,
    }
}

/// Where a sample reads: per axis (u, v, r; r only for 3D) the coordinate and whether it is
/// normalized (else texels of level 0), and the layer.
struct Coord {
    uvr: [f64; 3],
    norm: [bool; 3],
    layer: usize,
}

fn coord(v: &View, req: &TexRequest) -> Coord {
    let src = |i: usize| f32::from_bits(req.src[i]) as f64;
    let n = req.normalized;
    let layers = v.size[2].max(1) as i64;
    match v.kind {
        TexKind::D2 => Coord { uvr: [src(0), src(1), 0.0], norm: [n[0], n[1], true], layer: 0 },
        TexKind::D3 => Coord { uvr: [src(0), src(1), src(2)], norm: [n[0], n[1], n[2]], layer: 0 },
        TexKind::D2Array => {
            let z = if n[2] { src(2) * layers as f64 } else { src(2) };
            let layer = (finite(z).round_ties_even() as i64).clamp(0, layers - 1) as usize;
            Coord { uvr: [src(0), src(1), 0.0], norm: [n[0], n[1], true], layer }
        }
        TexKind::Cube => {
            // CUBE's face coordinates lie in [1, 2] (sc/|2ma| + 1.5, facts §3 / §4.1); the face
            // (and 8 x the cube index, for cube arrays) in z.
            let f = (finite(src(2)).round_ties_even() as i64).max(0);
            let layer = ((f % 8).min(5) + 6 * (f / 8)).clamp(0, layers - 1) as usize;
            Coord { uvr: [src(0) - 1.0, src(1) - 1.0, 0.0], norm: [true; 3], layer }
        }
    }
}

/// The level of detail from the gradients: log2 of the larger of the two scaled derivative
/// lengths (Vulkan's isotropic ρ); -inf when both are 0.
fn gradient_lod(v: &View, req: &TexRequest) -> f64 {
    let axes = if v.kind == TexKind::D3 { 3 } else { 2 };
    let rho = |g: &[u32; 4]| {
        (0..axes)
            .map(|i| {
                let d = f32::from_bits(g[i]) as f64;
                let d = if req.normalized[i] || v.kind == TexKind::Cube { d } else { d / v.size[i] as f64 };
                let s = d * v.size[i] as f64;
                s * s
            })
            .sum::<f64>()
            .sqrt()
    };
    finite(rho(&req.gradients[0]).max(rho(&req.gradients[1])).log2())
}

/// The four words of a SAMPLE* request.
pub(crate) fn sample(v: &View, smp: &Sampler, req: &TexRequest) -> [u32; 4] {
    let cmp = req.op >= 0x18;
    let base = if cmp { req.op - 8 } else { req.op };
    let w = f32::from_bits(req.src[3]);
    // The reference: w, or z where w holds the LOD / bias (C_L, C_LB, C_G_L, C_G_LB).
    let explicit = matches!(base, 0x11 | 0x12 | 0x15 | 0x16);
    let reference = if cmp && explicit { f32::from_bits(req.src[2]) } else { w };
    let lod = match base {
        0x11 | 0x15 => w as f64,
        0x12 | 0x16 => gradient_lod(v, req) + w as f64,
        0x13 | 0x17 => 0.0,
        _ => gradient_lod(v, req),
    } + if matches!(base, 0x13 | 0x17) { 0.0 } else { req.lod_bias as f64 };
    let c = coord(v, req);
    let compare = cmp.then(|| (v.compare.unwrap_or(Compare::LessEqual), reference));
    let last = (v.levels.len() - 1) as f64;
    // NaN compares false: level 0.
    let out = if lod.is_nan() || lod <= 0.0 || last == 0.0 {
        level(v, smp, req, &c, 0, compare)
    } else {
        let lod = finite(lod).min(last);
        if v.mip_linear {
            let (lo, t) = (lod.floor(), (lod - lod.floor()) as f32);
            let a = level(v, smp, req, &c, lo as usize, compare);
            let b = level(v, smp, req, &c, (lo as usize + 1).min(last as usize), compare);
            std::array::from_fn(|k| a[k] + (b[k] - a[k]) * t)
        } else {
            level(v, smp, req, &c, ((lod + 0.5).ceil() - 1.0).max(0.0) as usize, compare)
        }
    };
    match compare {
        Some(_) => [out[0].to_bits(), 0, 0, 1.0f32.to_bits()],
        None => out.map(f32::to_bits),
    }
}

/// Filters level `k` at `c` (nearest or linear per the sampler; trilinear for 3D).
fn level(v: &View, smp: &Sampler, req: &TexRequest, c: &Coord, k: usize, cmp: Option<(Compare, f32)>) -> [f32; 4] {
    let dims = v.dims(k);
    let three = v.kind == TexKind::D3;
    let wraps = if v.kind == TexKind::Cube { [Wrap::Clamp; 3] } else { [smp.wrap[0], smp.wrap[1], v.wrap_r] };
    // Texel-space coordinate per axis, with the half-texel offsets.
    let t = |i: usize| {
        let x = if c.norm[i] { c.uvr[i] * dims[i] as f64 } else { c.uvr[i] * (dims[i] as f64 / v.size[i] as f64) };
        finite(x + req.offset[i] as f64 * 0.5)
    };
    let fetch = |x: i64, y: i64, z: i64| {
        let z = if three { wrap(z, dims[2], wraps[2]) } else { c.layer };
        let tx = v.texel(k, wrap(x, dims[0], wraps[0]), wrap(y, dims[1], wraps[1]), z);
        match cmp {
            Some((f, r)) => [if passes(f, r, tx[0]) { 1.0 } else { 0.0 }; 4],
            None => tx,
        }
    };
    if !smp.linear {
        let z = if three { t(2).floor() as i64 } else { 0 };
        return fetch(t(0).floor() as i64, t(1).floor() as i64, z);
    }
    let (u, w) = (t(0) - 0.5, t(1) - 0.5);
    let (x0, y0) = (u.floor(), w.floor());
    let (fx, fy) = ((u - x0) as f32, (w - y0) as f32);
    let (x0, y0) = (x0 as i64, y0 as i64);
    let plane = |z: i64| {
        let (a, b, c2, d) = (fetch(x0, y0, z), fetch(x0 + 1, y0, z), fetch(x0, y0 + 1, z), fetch(x0 + 1, y0 + 1, z));
        let mut out = [0.0f32; 4];
        for k in 0..4 {
            let top = a[k] + (b[k] - a[k]) * fx;
            let bottom = c2[k] + (d[k] - c2[k]) * fx;
            out[k] = top + (bottom - top) * fy;
        }
        out
    };
    if !three {
        return plane(0);
    }
    let r = t(2) - 0.5;
    let z0 = r.floor();
    let fz = (r - z0) as f32;
    let (a, b) = (plane(z0 as i64), plane(z0 as i64 + 1));
    std::array::from_fn(|k| a[k] + (b[k] - a[k]) * fz)
}

/// LD: integer texel coordinates (clamped), the level in w; layer or slice in z.
pub(crate) fn load(v: &View, req: &TexRequest) -> [u32; 4] {
    let i = |k: usize| req.src[k] as i32 as i64;
    let k = i(3).clamp(0, v.levels.len() as i64 - 1) as usize;
    let d = v.dims(k);
    let c = |x: i64, n: u32| x.clamp(0, n as i64 - 1) as usize;
    let z = if matches!(v.kind, TexKind::D2) { 0 } else { c(i(2), d[2]) };
    v.texel(k, c(i(0), d[0]), c(i(1), d[1]), z).map(f32::to_bits)
}

/// GET_TEXTURE_INFO: (width, height, depth or layers, levels) of the level in x, as integers.
pub(crate) fn info(v: &View, req: &TexRequest) -> [u32; 4] {
    let k = (req.src[0] as i32).clamp(0, v.levels.len() as i32 - 1) as usize;
    let [w, h, d] = v.dims(k);
    let d = if v.kind == TexKind::Cube { d / 6 } else { d };
    [w, h, d.max(1), v.levels.len() as u32]
}
