//! Random valid PICA200 programs ("smith"), for differential tests of the translator, and the
//! program builder they are made with.

mod builder;

pub use builder::{plain_desc, Builder, Built};
