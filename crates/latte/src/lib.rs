//! latte machine layer.
