//! include/shaderport.h is what cbindgen writes from this crate now (`SHADERPORT_BLESS=1`
//! rewrites it after a change to the ABI).

use std::path::Path;

#[test]
fn the_committed_header_is_cbindgens_output() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let bindings =
        cbindgen::Builder::new().with_crate(dir).with_config(config).generate().expect("cbindgen reads the crate");
    let mut generated = Vec::new();
    bindings.write(&mut generated);
    let generated = String::from_utf8(generated).expect("UTF-8 header");
    let path = dir.join("include/shaderport.h");
    if std::env::var_os("SHADERPORT_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write the header");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{} is not cbindgen's output for the crate: run `SHADERPORT_BLESS=1 cargo test -p capi --test header`",
        path.display()
    );
}
