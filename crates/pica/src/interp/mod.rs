//! The PICA200 reference interpreter: bit-exact float24 arithmetic ([`f24ops`]), the control-flow
//! stacks, vertex and geometry shaders (docs/pica-interp.md).

pub mod f24ops;
