//! Tests of the `trinchera` binary against a real server started by each test.

mod accounts;
mod arena;
mod bench;
mod docs;
mod errors;
mod flows;
mod games;
mod harness;
mod play;
mod resign;
mod show;
mod watching;
