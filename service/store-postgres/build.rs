//! Marks the build as one with a test database when `TRINCHERA_TEST_POSTGRES` is set
//! (`.ci/postgres` sets it): without one, the tests that need it are reported as ignored,
//! with the reason, rather than passing without having run.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(trinchera_test_postgres)");
    println!("cargo::rerun-if-env-changed=TRINCHERA_TEST_POSTGRES");
    if std::env::var_os("TRINCHERA_TEST_POSTGRES").is_some() {
        println!("cargo::rustc-cfg=trinchera_test_postgres");
    }
}
