//! The fragment generators write their SPIR-V without naga's integer-division checks
//! (`pica_fs::Translation::spirv`, `gx_tev::Translation::spirv`): that is sound only while
//! every integer divisor in their modules is at least 1 by construction. Over random keys of
//! both, every integer `/` and `%` must divide by a positive literal, a `max` with a positive
//! literal, or a texture's size (times a positive literal).

use arbitrary::Unstructured;
use gx::key::TevKey;
use naga::{BinaryOperator as Op, Expression, Function, Literal, MathFunction, Module, ScalarKind};
use pica::fixed::FragmentKey;
use translate::gx_tev;
use translate::pica_fs::{self, InputMap};

fn bytes(seed: u64, n: usize) -> Vec<u8> {
    pica::smith::Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x6A09_E667_F3BC_C908).bytes(n)
}

fn positive_literal(e: &Expression) -> bool {
    match *e {
        Expression::Literal(Literal::I32(v)) => v >= 1,
        Expression::Literal(Literal::U32(v)) => v >= 1,
        _ => false,
    }
}

/// Whether `h` is at least 1 by construction.
fn positive(f: &Function, h: naga::Handle<Expression>) -> bool {
    let e = &f.expressions[h];
    positive_literal(e)
        || match *e {
            Expression::Splat { value, .. } => positive(f, value),
            Expression::ImageQuery { query: naga::ImageQuery::Size { .. }, .. } => true,
            Expression::As { expr, convert: Some(4), kind: ScalarKind::Sint | ScalarKind::Uint } => {
                matches!(f.expressions[expr], Expression::ImageQuery { query: naga::ImageQuery::Size { .. }, .. })
            }
            Expression::Math { fun: MathFunction::Max, arg, arg1: Some(b), .. } => positive(f, arg) || positive(f, b),
            Expression::Binary { op: Op::Multiply, left, right } => positive(f, left) && positive(f, right),
            _ => false,
        }
}

/// The integer divisions of `m` (count), panicking on one whose divisor is not positive.
fn check(m: &Module, what: &str) -> usize {
    let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::empty())
        .validate(m)
        .unwrap();
    let mut n = 0;
    let funcs = m
        .functions
        .iter()
        .map(|(h, f)| (f, &info[h]))
        .chain(m.entry_points.iter().enumerate().map(|(i, ep)| (&ep.function, info.get_entry_point(i))));
    for (f, fi) in funcs {
        for (h, e) in f.expressions.iter() {
            let Expression::Binary { op: Op::Divide | Op::Modulo, right, .. } = *e else { continue };
            let kind = fi[h].ty.inner_with(&m.types).scalar_kind();
            if matches!(kind, Some(ScalarKind::Sint | ScalarKind::Uint)) {
                assert!(positive(f, right), "{what}: integer division by {:?}", f.expressions[right]);
                n += 1;
            }
        }
    }
    n
}

#[test]
fn every_integer_divisor_is_positive_by_construction() {
    let n = testkit::count("INT_DIVISION_KEYS", 300);
    let (mut fs, mut tev) = (0, 0);
    for seed in 0..n {
        let data = bytes(seed, 4096);
        let state = pica::smith::fragment_state(&mut Unstructured::new(&data)).unwrap();
        let key = FragmentKey::from_regs(&state.regs);
        if let Ok(t) = pica_fs::fragment(&key, &InputMap::from_regs(&state.regs)) {
            fs += check(t.module(), &format!("pica_fs key {seed}"));
        }
        let state = gx::smith::state(&mut Unstructured::new(&data), &gx::smith::Config::default()).unwrap();
        tev += check(gx_tev::fragment(&TevKey::new(&state)).unwrap().module(), &format!("gx_tev material {seed}"));
    }
    // Both generators divide (D1's / 255, the wrap remainders, the fog), so the test sees some.
    assert!(fs > 0 && tev > 0, "{fs} and {tev} divisions");
}
