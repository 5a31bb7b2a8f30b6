//! What the device tests share.

use gpu::Gpu;

/// The Vulkan device, or `None` (the test skips) when there is none, unless the run requires one
/// (`scripts/test` sets SHADERPORT_REQUIRE_GPU): then a missing device fails the test.
pub fn device() -> Option<Gpu> {
    match Gpu::new() {
        Ok(g) => Some(g),
        Err(e) if testkit::required() => panic!("{} is set but {e}", testkit::REQUIRE_ENV),
        Err(e) => {
            eprintln!("skipping: {e}");
            None
        }
    }
}
