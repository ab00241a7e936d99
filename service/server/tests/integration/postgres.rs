//! The real `trinchera-server` binary on PostgreSQL: `--store`, `migrate` and
//! `--migrate-on-start` (skipped when `TRINCHERA_TEST_POSTGRES` is not set).

use trinchera_store_postgres::scratch::ScratchSchema;

use crate::harness::{
    ChildServer, connect, new_game, play_quiet_move, random_setups, rng, view_of,
};

/// Runs the binary with `args` until it exits: whether it succeeded, and what it logged.
async fn run(args: &[&str]) -> (bool, String) {
    let output = tokio::process::Command::new(env!("CARGO_BIN_EXE_trinchera-server"))
        .args(args)
        .env("NO_COLOR", "1")
        .env("RUST_BACKTRACE", "0")
        .output()
        .await
        .expect("the binary runs");
    let logged = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.success(), logged)
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unmigrated_database_is_refused_then_migrated_games_survive_a_kill() {
    let Some(schema) = ScratchSchema::empty().await else {
        return;
    };
    let url = schema.url();
    let (started, logged) = run(&["--listen", "127.0.0.1:0", "--store", &url]).await;
    assert!(!started, "{logged}");
    assert!(
        logged.contains("run `trinchera-server migrate --store URL` first"),
        "{logged}"
    );
    let (migrated, logged) = run(&["migrate", "--store", &url]).await;
    assert!(migrated, "{logged}");

    let temp = tempfile::tempdir().expect("temp dir");
    let data_dir = temp.path().join("unused");
    let server = ChildServer::start_with(&data_dir, &["--store", &url]).await;
    let mut client = connect(server.addr).await;
    let players = new_game(&mut client, "clasico").await;
    random_setups(&mut client, &players).await;
    let moved = play_quiet_move(&mut client, &players, &mut rng(5))
        .await
        .expect("a move");
    // SIGKILL: what was acknowledged had been committed.
    server.kill().await;
    let server = ChildServer::start_with(&data_dir, &["--store", &url]).await;
    let mut client = connect(server.addr).await;
    let view = view_of(&mut client, &players[0]).await;
    assert_eq!(Some(view.version), moved.event.map(|e| e.version));
    assert!(!data_dir.exists(), "--data-dir is not used with --store");
    server.kill().await;
    schema.remove().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn migrate_on_start_serves_a_new_database() {
    let Some(schema) = ScratchSchema::empty().await else {
        return;
    };
    let temp = tempfile::tempdir().expect("temp dir");
    let args = ["--store", &schema.url(), "--migrate-on-start"];
    let server = ChildServer::start_with(temp.path(), &args).await;
    let mut client = connect(server.addr).await;
    new_game(&mut client, "frente").await;
    server.kill().await;
    schema.remove().await;
}
