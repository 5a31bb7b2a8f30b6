//! pica machine layer.
