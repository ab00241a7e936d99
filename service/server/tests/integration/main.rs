//! Integration tests: real servers on loopback ports with temporary data directories,
//! driven through the generated `trinchera.v1` client.

mod accounts;
mod backup;
mod clocks;
mod concurrency;
mod connections;
mod crash;
mod docs;
mod durability;
mod errors;
mod exhaustion;
mod harness;
mod hostile;
mod leaks;
mod lifecycle;
mod operations;
mod postgres;
mod races;
mod replays;
mod replicas;
mod watching;
