//! gx machine layer.
