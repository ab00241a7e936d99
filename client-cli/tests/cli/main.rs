//! Tests of the `trinchera` binary against a real server started by each test.

mod games;
mod harness;
