//! Backups through the binary: `export` (offline, and from a running server's admin
//! listener), `import` into another data directory (and into PostgreSQL, when
//! `TRINCHERA_TEST_POSTGRES` names a database), and a server on the copy that serves
//! every view, history, fairness proof and listing as the original does; `health` for
//! container checks; the admin service kept off the network.

use std::path::Path;
use std::process::Output;

use tonic::Request;
use trinchera_proto::v1 as pb;
use trinchera_store_postgres::scratch::ScratchSchema;

use crate::harness::{
    ChildServer, Client, Player, authed, connect, eventually, gapless_history, play_random_move,
    random_setups, rng, spectator_view, try_new_game_with, view_of,
};

const RULESETS: [&str; 6] = [
    "frente",
    "clasico",
    "castillos",
    "asalto",
    "tacticas",
    "tanques",
];

/// Runs `trinchera-server ARGS` to its end (no stdin, no settings from the environment).
pub(crate) fn server_command(args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_trinchera-server"))
        .args(args)
        .env_clear()
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the binary runs")
}

/// [`server_command`], which must succeed; its stderr.
pub(crate) fn succeeds(args: &[&str]) -> String {
    let output = server_command(args);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{args:?} failed: {stderr}");
    stderr
}

/// A game the test holds the seats of (one seat when a bot has the other).
struct Held {
    game: String,
    players: Vec<Player>,
}

/// Creates a game of `ruleset` with `time_control`, joined by a person, set up and played
/// for a few random moves; resigned when `finish` says so.
async fn person_against_person(
    client: &mut Client,
    ruleset: &str,
    time_control: Option<pb::TimeControl>,
    seed: u64,
    finish: bool,
) -> Held {
    let request = pb::CreateGameRequest {
        ruleset: ruleset.into(),
        time_control,
        ..Default::default()
    };
    let players = try_new_game_with(client, request).await.expect("created");
    random_setups(client, &players).await;
    let mut rng = rng(seed);
    for _ in 0..6 {
        play_random_move(client, &players, &mut rng).await;
    }
    if finish {
        client
            .resign(authed(
                pb::ResignRequest {
                    game_id: players[0].game.clone(),
                },
                &players[0].token,
            ))
            .await
            .expect("resigned");
    }
    Held {
        game: players[0].game.clone(),
        players: players.to_vec(),
    }
}

/// Creates a game of `ruleset` against the easy bot, sets the person up and waits until
/// the person is to move (the bot has set up and, if it moves first, moved).
async fn person_against_bot(client: &mut Client, ruleset: &str) -> Held {
    let created = client
        .create_game(pb::CreateGameRequest {
            ruleset: ruleset.into(),
            player_name: "Ana".into(),
            bot: "easy".into(),
            ..Default::default()
        })
        .await
        .expect("created")
        .into_inner();
    let person = Player {
        game: created.game_id.clone(),
        seat: created.seat,
        token: created.player_token,
    };
    let view = view_of(client, &person).await;
    // In Asalto the rebels place nothing: only a seat whose setup is to come sets up.
    let to_set_up = view
        .players
        .iter()
        .any(|p| p.seat == person.seat && !p.setup_done);
    if view.phase == pb::Phase::Setup as i32 && to_set_up {
        client
            .submit_setup(authed(
                pb::SubmitSetupRequest {
                    game_id: person.game.clone(),
                    random: true,
                    ..Default::default()
                },
                &person.token,
            ))
            .await
            .expect("set up");
    }
    eventually("the bot sets up and moves", async || {
        (view_of(client, &person).await.to_move == Some(person.seat)).then_some(())
    })
    .await;
    Held {
        game: created.game_id,
        players: vec![person],
    }
}

/// `view` without what depends on the hour it is asked at: a running clock's time left,
/// the server's time and the deadline.
fn timeless(mut view: pb::GameView) -> pb::GameView {
    if let Some(clock) = view.clock.as_mut() {
        if let Some(running) = clock.running {
            clock.remaining_ms[usize::try_from(running).expect("a seat")] = 0;
        }
        clock.server_time_ms = 0;
        clock.deadline_ms = None;
    }
    view
}

/// Everything the server at `client` says about `held`: every seat's view, a spectator's,
/// and the history with every position and (for a finished game) the fairness reveal.
async fn seen(client: &mut Client, held: &Held) -> Vec<String> {
    let mut seen = Vec::new();
    for player in &held.players {
        seen.push(format!("{:?}", timeless(view_of(client, player).await)));
    }
    seen.push(format!(
        "{:?}",
        timeless(spectator_view(client, &held.game).await)
    ));
    let mut history = gapless_history(client, &held.game).await;
    history.view = history.view.map(timeless);
    seen.push(format!("{history:?}"));
    seen
}

/// Every listed game, page after page.
async fn listing(client: &mut Client) -> Vec<pb::GameSummary> {
    let mut games = Vec::new();
    let mut page_token = String::new();
    loop {
        let page = client
            .list_games(pb::ListGamesRequest {
                page_size: 7,
                page_token,
                ..Default::default()
            })
            .await
            .expect("listed")
            .into_inner();
        games.extend(page.games);
        if page.next_page_token.is_empty() {
            return games;
        }
        page_token = page.next_page_token;
    }
}

/// The lines of the export in `path` between its header and its end line.
fn game_lines(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("an export");
    let lines: Vec<String> = text.lines().map(str::to_owned).collect();
    assert!(lines[0].starts_with("{\"header\":"), "{}", lines[0]);
    let last = lines.last().expect("an end line");
    assert!(last.starts_with("{\"end\":"), "{last}");
    lines[1..lines.len() - 1].to_vec()
}

#[tokio::test]
async fn an_imported_export_serves_every_view_history_and_listing_alike() {
    let temp = tempfile::tempdir().expect("temp dir");
    let (source, target) = (temp.path().join("source"), temp.path().join("target"));
    let server = ChildServer::start_with(
        &source,
        &["--admin-listen", "127.0.0.1:0", "--bot-delay-ms", "0"],
    )
    .await;
    let mut client = connect(server.addr).await;
    let clock = pb::TimeControl {
        control: Some(pb::time_control::Control::Live(pb::LiveControl {
            initial_seconds: 600,
            increment_seconds: 5,
        })),
    };
    let mut held = Vec::new();
    for (index, ruleset) in RULESETS.iter().enumerate() {
        let seed = index as u64;
        held.push(person_against_person(&mut client, ruleset, None, seed, true).await);
        let timed = Some(clock);
        held.push(person_against_person(&mut client, ruleset, timed, seed, false).await);
        held.push(person_against_bot(&mut client, ruleset).await);
    }
    let waiting = client
        .create_game(pb::CreateGameRequest {
            ruleset: "frente".into(),
            ..Default::default()
        })
        .await
        .expect("created")
        .into_inner();
    let waiting = Player {
        game: waiting.game_id,
        seat: waiting.seat,
        token: waiting.player_token,
    };
    held.push(Held {
        game: waiting.game.clone(),
        players: vec![waiting],
    });

    let online = temp.path().join("online.jsonl");
    let admin = format!("http://{}", server.side_address("admin service").await);
    let said = succeeds(&[
        "export",
        "--from",
        &admin,
        "-o",
        online.to_str().expect("utf-8"),
    ]);
    assert!(said.contains("exported 19 games"), "{said}");
    let public = format!("http://{}", server.addr);
    let refused = server_command(&["export", "--from", &public]);
    assert!(
        !refused.status.success(),
        "the public port serves no exports"
    );
    let mut before = Vec::new();
    for game in &held {
        before.push(seen(&mut client, game).await);
    }
    let listed = listing(&mut client).await;
    server.signal("TERM");
    assert!(server.exit().await.success());

    // The shell's way: `export > file`.
    let offline = temp.path().join("offline.jsonl");
    let source_dir = source.to_str().expect("utf-8");
    let exported = server_command(&["export", "--data-dir", source_dir]);
    assert!(
        exported.status.success(),
        "{}",
        String::from_utf8_lossy(&exported.stderr)
    );
    std::fs::write(&offline, &exported.stdout).expect("written");
    assert_eq!(
        game_lines(&online),
        game_lines(&offline),
        "a stopped server's export is the one it gave while running"
    );
    let target_dir = target.to_str().expect("utf-8");
    let input = offline.to_str().expect("utf-8");
    let said = succeeds(&["import", "--data-dir", target_dir, "-i", input]);
    assert!(
        said.contains("imported 19 games (6 finished, 13 not)"),
        "{said}"
    );
    let again = server_command(&["import", "--data-dir", target_dir, "-i", input]);
    let words = String::from_utf8_lossy(&again.stderr);
    assert!(
        !again.status.success() && words.contains("--merge"),
        "{words}"
    );
    let said = succeeds(&["import", "--data-dir", target_dir, "-i", input, "--merge"]);
    assert!(said.contains("skipped 19 games"), "{said}");

    let copy = ChildServer::start(&target).await;
    let mut client = connect(copy.addr).await;
    for (game, before) in held.iter().zip(&before) {
        assert_eq!(&seen(&mut client, game).await, before, "game {}", game.game);
    }
    assert_eq!(listing(&mut client).await, listed);
    // The copy goes on: the tokens are the players' and the clocks run.
    let timed = &held[1];
    let players = [timed.players[0].clone(), timed.players[1].clone()];
    play_random_move(&mut client, &players, &mut rng(99))
        .await
        .expect("the game goes on");
    copy.kill().await;

    // Moving from sled to PostgreSQL: `import --store URL < file`, and a server on the
    // database serves every game alike.
    let Some(schema) = ScratchSchema::create().await else {
        return;
    };
    let url = schema.url();
    let mut import = std::process::Command::new(env!("CARGO_BIN_EXE_trinchera-server"))
        .args(["import", "--store", &url])
        .env_clear()
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    std::io::Write::write_all(
        &mut import.stdin.take().expect("stdin"),
        &std::fs::read(&offline).expect("the export"),
    )
    .expect("fed");
    let imported = import.wait_with_output().expect("imported");
    let said = String::from_utf8_lossy(&imported.stderr);
    assert!(imported.status.success(), "{said}");
    assert!(said.contains("imported 19 games"), "{said}");
    let unused = temp.path().join("unused");
    let moved = ChildServer::start_with(&unused, &["--store", &url]).await;
    let mut client = connect(moved.addr).await;
    for (game, before) in held.iter().zip(&before) {
        assert_eq!(&seen(&mut client, game).await, before, "game {}", game.game);
    }
    assert_eq!(listing(&mut client).await, listed);
    moved.kill().await;
    schema.remove().await;
}

#[tokio::test]
async fn a_cut_export_is_refused_by_its_line_and_leaves_the_store_empty() {
    let temp = tempfile::tempdir().expect("temp dir");
    let (source, target) = (temp.path().join("source"), temp.path().join("target"));
    let server = ChildServer::start(&source).await;
    let mut client = connect(server.addr).await;
    for (index, ruleset) in ["clasico", "tanques"].iter().enumerate() {
        person_against_person(&mut client, ruleset, None, index as u64, false).await;
    }
    server.kill().await;
    let export = temp.path().join("games.jsonl");
    let export_path = export.to_str().expect("utf-8");
    succeeds(&[
        "export",
        "--data-dir",
        source.to_str().expect("utf-8"),
        "-o",
        export_path,
    ]);
    let text = std::fs::read_to_string(&export).expect("written");
    std::fs::write(&export, &text[..text.len() * 2 / 3]).expect("cut");
    let target_dir = target.to_str().expect("utf-8");
    let refused = server_command(&["import", "--data-dir", target_dir, "-i", export_path]);
    let words = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{words}");
    assert!(words.contains("line 3"), "{words}");
    let copy = ChildServer::start(&target).await;
    let mut client = connect(copy.addr).await;
    assert!(
        listing(&mut client).await.is_empty(),
        "nothing half imported"
    );
    copy.kill().await;
}

/// A hostile import through the binary (a game id near u64::MAX once made every later
/// start and export panic): refused, and the data directory serves and exports as before.
#[tokio::test]
async fn a_hostile_import_leaves_the_data_directory_as_it_was() {
    let temp = tempfile::tempdir().expect("temp dir");
    let data = temp.path().join("data");
    let server = ChildServer::start(&data).await;
    let mut client = connect(server.addr).await;
    person_against_person(&mut client, "tanques", None, 1, false).await;
    server.kill().await;
    let data_dir = data.to_str().expect("utf-8");
    let export = |name: &str| {
        let path = temp.path().join(name);
        succeeds(&[
            "export",
            "--data-dir",
            data_dir,
            "-o",
            path.to_str().expect("utf-8"),
        ]);
        game_lines(&path)
    };
    let before = export("before.jsonl");
    let text = std::fs::read_to_string(temp.path().join("before.jsonl")).expect("written");
    let header = text.lines().next().expect("a header");
    let game = before[0].replacen("\"id\":1,", &format!("\"id\":{},", u64::MAX), 1);
    let hostile = temp.path().join("hostile.jsonl");
    std::fs::write(
        &hostile,
        format!("{header}\n{game}\n{{\"end\":{{\"games\":1}}}}\n"),
    )
    .expect("written");
    let hostile = hostile.to_str().expect("utf-8");
    let refused = server_command(&["import", "--merge", "--data-dir", data_dir, "-i", hostile]);
    let words = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{words}");
    assert!(
        words.contains("line 2: game id 18446744073709551615 is out of range"),
        "{words}"
    );
    assert_eq!(export("after.jsonl"), before, "the store is as it was");
    let again = ChildServer::start(&data).await;
    let mut client = connect(again.addr).await;
    assert_eq!(listing(&mut client).await.len(), 1);
    again.kill().await;
}

#[tokio::test]
async fn health_answers_for_a_running_server_and_fails_without_one() {
    let temp = tempfile::tempdir().expect("temp dir");
    let server = ChildServer::start(temp.path()).await;
    let url = format!("http://{}", server.addr);
    succeeds(&["health", "--url", &url]);
    let unknown = server_command(&["health", "--url", &url, "--service", "nothing.Here"]);
    assert_eq!(unknown.status.code(), Some(1));
    server.kill().await;
    let gone = server_command(&["health", "--url", &url, "--timeout-secs", "2"]);
    assert_eq!(gone.status.code(), Some(1));
    assert!(!gone.stderr.is_empty(), "it says why");
}

#[tokio::test]
async fn the_admin_service_is_loopback_or_behind_client_certificates() {
    let exposed = server_command(&["--check-config", "--admin-listen", "0.0.0.0:50052"]);
    assert_eq!(exposed.status.code(), Some(2));
    let words = String::from_utf8_lossy(&exposed.stderr);
    assert!(words.contains("admin.listen"), "{words}");
    let loopback = server_command(&["--check-config", "--admin-listen", "127.0.0.1:50052"]);
    assert_eq!(loopback.status.code(), Some(0));
    // The public port's reflection names the game and health services, never the admin one.
    let temp = tempfile::tempdir().expect("temp dir");
    let server = ChildServer::start_with(temp.path(), &["--admin-listen", "127.0.0.1:0"]).await;
    let channel = tonic::transport::Endpoint::from_shared(format!("http://{}", server.addr))
        .expect("url")
        .connect()
        .await
        .expect("connects");
    let mut health = tonic_health::pb::health_client::HealthClient::new(channel);
    let admin = health
        .check(Request::new(tonic_health::pb::HealthCheckRequest {
            service: "trinchera.admin.v1.AdminService".into(),
        }))
        .await;
    assert!(admin.is_err(), "the public port knows no admin service");
    server.kill().await;
}
