//! GUI tests.
