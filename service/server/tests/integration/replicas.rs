//! Two `trinchera-server` replicas on one PostgreSQL database with a NATS bus between them
//! (skipped unless `TRINCHERA_TEST_POSTGRES` names a database and
//! `TRINCHERA_TEST_NATS_SERVER` names a `nats-server` binary: `.ci/postgres` and
//! `.ci/nats`). Each test runs its own `nats-server` on a free loopback port, so that it can
//! stop the bus mid-game.

use std::process::Stdio;
use std::time::Duration;

use rand::RngExt;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio_stream::StreamExt;
use tonic::Code;
use trinchera_proto::v1 as pb;
use trinchera_store_postgres::scratch::ScratchSchema;

use crate::backup::succeeds;
use crate::clocks::{live, play_turn, timed_game};
use crate::harness::{
    ChildServer, Client, PATIENCE, Player, account_client, authed, connect, create_token,
    eventually, finished_games, new_game, random_setups, register, rng, spectator_view,
    try_play_random_move, view_of, within,
};

/// The variable that names the `nats-server` binary.
const NATS_SERVER: &str = "TRINCHERA_TEST_NATS_SERVER";

/// A `nats-server` of a test's own, on a free loopback port.
struct Nats {
    child: tokio::process::Child,
    url: String,
}

impl Nats {
    /// Starts `TRINCHERA_TEST_NATS_SERVER`; `None` (the test is skipped) when it is not set.
    async fn start() -> Option<Nats> {
        let Ok(binary) = std::env::var(NATS_SERVER) else {
            eprintln!("replica tests skipped: {NATS_SERVER} is not set (.ci/nats sets it)");
            return None;
        };
        let mut child = tokio::process::Command::new(binary)
            .args(["-a", "127.0.0.1", "-p", "-1"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("nats-server starts");
        let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
        let address = within("nats-server listens", async {
            while let Ok(Some(line)) = lines.next_line().await {
                if let Some((_, address)) = line.split_once("client connections on ") {
                    return address.trim().to_owned();
                }
            }
            panic!("nats-server ended before it listened");
        })
        .await;
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        Some(Nats {
            child,
            url: format!("nats://{address}"),
        })
    }

    /// Stops the bus.
    async fn stop(mut self) {
        self.pause().await;
    }

    /// Stops the bus for now.
    async fn pause(&mut self) {
        self.child.start_kill().expect("kill");
        self.child.wait().await.expect("reaped");
    }

    /// Starts the paused bus again on its port (the replicas reconnect).
    async fn resume(&mut self) {
        let port = self.url.rsplit(':').next().expect("a port").to_owned();
        let binary = std::env::var(NATS_SERVER).expect("set");
        let mut child = tokio::process::Command::new(binary)
            .args(["-a", "127.0.0.1", "-p", &port])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("nats-server starts");
        let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
        within("nats-server is ready", async {
            while let Ok(Some(line)) = lines.next_line().await {
                if line.contains("Server is ready") {
                    return;
                }
            }
            panic!("nats-server ended before it was ready");
        })
        .await;
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        self.child = child;
    }
}

/// Two replicas on a fresh schema with a bus between them.
struct Replicas {
    schema: ScratchSchema,
    nats: Nats,
    dir: tempfile::TempDir,
}

impl Replicas {
    /// A fresh schema and bus; `None` when the test is skipped.
    async fn new() -> Option<Replicas> {
        let nats = Nats::start().await?;
        let schema = ScratchSchema::create().await?;
        Some(Replicas {
            schema,
            nats,
            dir: tempfile::tempdir().expect("temp dir"),
        })
    }

    /// A replica on the schema and the bus, with the extra arguments `args`.
    async fn server(&self, args: &[&str]) -> ChildServer {
        let url = self.schema.url();
        let mut all = vec!["--store", &url, "--bus", &self.nats.url];
        all.extend(args);
        // Its --data-dir is never used, with --store.
        ChildServer::start_with(&self.dir.path().join("unused"), &all).await
    }

    async fn remove(self) {
        self.nats.stop().await;
        self.schema.remove().await;
    }
}

/// Reads `stream` until it shows version `last`: the versions of its events, in order.
async fn versions_until(
    stream: &mut tonic::Streaming<pb::WatchGameResponse>,
    last: u64,
) -> Vec<u64> {
    let mut seen = Vec::new();
    tokio::time::timeout(PATIENCE, async {
        while seen.last() != Some(&last) {
            let message = stream
                .next()
                .await
                .expect("the stream goes on")
                .expect("a message");
            assert!(!message.snapshot, "no event was skipped");
            seen.push(message.version);
        }
    })
    .await
    .unwrap_or_else(|_| panic!("version {last} never came; saw {seen:?}"));
    seen
}

/// A spectator's stream of `game` on `client`, after its snapshot: the snapshot's version.
async fn spectate(
    client: &mut Client,
    game: &str,
) -> (tonic::Streaming<pb::WatchGameResponse>, u64) {
    let mut stream = client
        .watch_game(pb::WatchGameRequest {
            game_id: game.to_owned(),
            after_version: None,
            ..Default::default()
        })
        .await
        .expect("watches")
        .into_inner();
    let first = stream.next().await.expect("a snapshot").expect("ok");
    assert!(first.snapshot);
    (stream, first.version)
}

/// Plays `moves` random moves of `players`' game through `client`; the last version.
async fn play(client: &mut Client, players: &[Player; 2], moves: u64, seed: u64) -> u64 {
    play_taking_misses(client, players, moves, seed, 0).await.0
}

/// Plays up to `moves` random moves as [`play`] does, taking up to `misses`
/// `VERSION_MISMATCH` answers (the server's copy was behind the store and is reloaded) as
/// a cue to look again; the last version and the moves made.
async fn play_taking_misses(
    client: &mut Client,
    players: &[Player; 2],
    moves: u64,
    seed: u64,
    mut misses: u32,
) -> (u64, u64) {
    let mut rng = rng(seed);
    let (mut version, mut made) = (0, 0);
    while made < moves {
        match try_play_random_move(client, players, &mut rng).await {
            Ok(Some(reply)) => {
                version = reply.view.expect("a view").version;
                made += 1;
            }
            Ok(None) => break,
            Err(status) if status.code() == Code::Aborted && misses > 0 => misses -= 1,
            Err(status) => panic!("a listed move is accepted: {status:?}"),
        }
    }
    (version, made)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_game_made_on_one_replica_is_played_on_the_other_and_watched_on_both() {
    let Some(replicas) = Replicas::new().await else {
        return;
    };
    let (a, b) = (replicas.server(&[]).await, replicas.server(&[]).await);
    let (mut on_a, mut on_b) = (connect(a.addr).await, connect(b.addr).await);
    let created = on_a
        .create_game(pb::CreateGameRequest {
            ruleset: "frente".into(),
            player_name: "Ana".into(),
            ..Default::default()
        })
        .await
        .expect("created on A")
        .into_inner();
    let (mut watch_a, first) = spectate(&mut on_a, &created.game_id).await;
    assert_eq!(first, 1);
    let joined = on_b
        .join_game(pb::JoinGameRequest {
            game_id: created.game_id.clone(),
            player_name: "Beto".into(),
        })
        .await
        .expect("joined on B")
        .into_inner();
    let players = [
        Player {
            game: created.game_id.clone(),
            seat: created.seat,
            token: created.player_token,
        },
        Player {
            game: created.game_id.clone(),
            seat: joined.seat,
            token: joined.player_token,
        },
    ];
    random_setups(&mut on_b, &players).await;
    let last = play(&mut on_b, &players, 40, 3).await;
    // A's watcher saw every event made through B, once each, in order.
    let seen = versions_until(&mut watch_a, last).await;
    assert_eq!(seen, (2..=last).collect::<Vec<_>>());
    // Views and tokens work on either replica.
    for player in &players {
        let (on_a_view, on_b_view) = (
            view_of(&mut on_a, player).await,
            view_of(&mut on_b, player).await,
        );
        assert_eq!(on_a_view.version, last);
        assert_eq!(on_a_view.legal_moves, on_b_view.legal_moves);
    }
    let listed = on_b
        .list_games(pb::ListGamesRequest::default())
        .await
        .expect("listed")
        .into_inner();
    assert!(listed.games.iter().any(|g| g.game_id == created.game_id));
    a.kill().await;
    b.kill().await;
    replicas.remove().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn one_move_raced_on_two_replicas_goes_through_once() {
    let Some(replicas) = Replicas::new().await else {
        return;
    };
    let (a, b) = (replicas.server(&[]).await, replicas.server(&[]).await);
    let (mut on_a, mut on_b) = (connect(a.addr).await, connect(b.addr).await);
    let players = new_game(&mut on_a, "clasico").await;
    random_setups(&mut on_a, &players).await;
    for _ in 0..20 {
        let seen = spectator_view(&mut on_a, &players[0].game).await;
        let Some(to_move) = seen.to_move else { break };
        let player = &players[usize::try_from(to_move).expect("a seat")];
        let view = view_of(&mut on_a, player).await;
        let Some(legal) = view.legal_moves.first() else {
            break;
        };
        let request = || {
            authed(
                pb::MakeMoveRequest {
                    game_id: player.game.clone(),
                    action: Some(pb::make_move_request::Action::Notation(
                        legal.notation.clone(),
                    )),
                    expected_version: Some(view.version),
                    ..Default::default()
                },
                &player.token,
            )
        };
        let (first, second) = tokio::join!(on_a.make_move(request()), on_b.make_move(request()));
        let codes = [&first, &second].map(|reply| reply.as_ref().err().map(tonic::Status::code));
        let made = codes.iter().filter(|code| code.is_none()).count();
        assert_eq!(made, 1, "exactly one replica made the move: {codes:?}");
        assert!(
            codes.contains(&Some(Code::Aborted)),
            "the other says the game moved on: {first:?} {second:?}"
        );
        // The log has the move once: the game is one version further on both.
        for client in [&mut on_a, &mut on_b] {
            let after = eventually("both replicas see the move", async || {
                let now = spectator_view(client, &player.game).await.version;
                (now > view.version).then_some(now)
            })
            .await;
            assert_eq!(after, view.version + 1);
        }
    }
    a.kill().await;
    b.kill().await;
    replicas.remove().await;
}

/// Plays random moves in `game` through `client` until a call fails or `moves` are made;
/// the last version acknowledged.
async fn mover(mut client: Client, players: [Player; 2], seed: u64, moves: usize) -> u64 {
    let mut rng = rng(seed);
    let mut acknowledged = 0;
    for _ in 0..moves {
        match try_play_random_move(&mut client, &players, &mut rng).await {
            Ok(Some(reply)) => acknowledged = reply.view.expect("a view").version,
            Ok(None) | Err(_) => break,
        }
    }
    acknowledged
}

/// The version of each of `games` as a spectator on `client` sees it.
async fn versions(client: &mut Client, games: &[[Player; 2]]) -> Vec<u64> {
    let mut versions = Vec::with_capacity(games.len());
    for players in games {
        versions.push(spectator_view(client, &players[0].game).await.version);
    }
    versions
}

#[tokio::test(flavor = "multi_thread")]
async fn a_replica_killed_under_load_loses_no_acknowledged_move_and_the_other_goes_on() {
    let Some(replicas) = Replicas::new().await else {
        return;
    };
    let (a, b) = (replicas.server(&[]).await, replicas.server(&[]).await);
    let (mut on_a, on_b) = (connect(a.addr).await, connect(b.addr).await);
    let mut games = Vec::new();
    for _ in 0..6 {
        let players = new_game(&mut on_a, "frente").await;
        random_setups(&mut on_a, &players).await;
        games.push(players);
    }
    // Half the games move through A, half through B, all at once; A dies meanwhile.
    let movers: Vec<_> = games
        .iter()
        .enumerate()
        .map(|(n, players)| {
            let client = if n % 2 == 0 {
                on_a.clone()
            } else {
                on_b.clone()
            };
            tokio::spawn(mover(client, players.clone(), n as u64, 10_000))
        })
        .collect();
    let mut on_b = on_b;
    // A dies once every game has moved twice: its mover sends a move only once the one
    // before was acknowledged, so each has an acknowledged move by then.
    let set_up = versions(&mut on_b, &games).await;
    eventually("every game moves twice", async || {
        let now = versions(&mut on_b, &games).await;
        let moved = |(now, then): (&u64, &u64)| *now >= then + 2;
        now.iter().zip(&set_up).all(moved).then_some(())
    })
    .await;
    a.kill().await;
    // B's movers go on after A is gone: each of their games moves again.
    let killed = versions(&mut on_b, &games).await;
    eventually("B's games move after A's death", async || {
        let now = versions(&mut on_b, &games).await;
        let on = |(n, (now, then)): (usize, (&u64, &u64))| n % 2 == 0 || now > then;
        now.iter().zip(&killed).enumerate().all(on).then_some(())
    })
    .await;
    for (n, (players, mover)) in games.iter().zip(movers).enumerate() {
        if n % 2 == 1 {
            mover.abort();
            continue;
        }
        let acknowledged = mover.await.expect("the mover");
        assert!(acknowledged > 0, "game {n} moved before the kill");
        // B carries every game on, those last moved on A among them. A may have died
        // between a commit and its event, leaving B's copy a move behind: B's first move
        // then hears VERSION_MISMATCH and reloads, as a client of a lagging server would.
        let (after, made) = play_taking_misses(&mut on_b, players, 3, 100 + n as u64, 1).await;
        assert!(made > 0, "game {n} goes on on B");
        let kept = after - made;
        // The move in flight at the kill may or may not have been made.
        assert!(
            (acknowledged..=acknowledged + 1).contains(&kept),
            "game {n}: acknowledged {acknowledged}, kept {kept}"
        );
    }
    b.kill().await;
    replicas.remove().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bot_game_survives_the_death_of_its_replica() {
    let Some(replicas) = Replicas::new().await else {
        return;
    };
    // A's bot waits a minute before it acts: it is still waiting when A dies.
    let lease = ["--bot-lease-secs", "2"];
    let a = replicas
        .server(&[lease[0], lease[1], "--bot-delay-ms", "60000"])
        .await;
    let b = replicas
        .server(&[lease[0], lease[1], "--bot-delay-ms", "0"])
        .await;
    let (mut on_a, mut on_b) = (connect(a.addr).await, connect(b.addr).await);
    let created = on_a
        .create_game(pb::CreateGameRequest {
            ruleset: "frente".into(),
            bot: "random".into(),
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
    on_a.submit_setup(authed(
        pb::SubmitSetupRequest {
            game_id: person.game.clone(),
            random: true,
            ..Default::default()
        },
        &person.token,
    ))
    .await
    .expect("set up");
    // The bot's setup is A's to make, and A dies before its delay is up. The pause gives B
    // the time to take the bot over wrongly: there is no event to wait for.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        view_of(&mut on_b, &person).await.phase,
        pb::Phase::Setup as i32
    );
    a.kill().await;
    // B takes the bot over once A's lease runs out, and the game is played through B.
    let mut rng = rng(8);
    let mut moves = 0;
    eventually(
        "the bot sets up and answers four moves through B",
        async || {
            let view = view_of(&mut on_b, &person).await;
            if view.phase == pb::Phase::Playing as i32 && view.to_move == Some(person.seat) {
                let legal = &view.legal_moves;
                let pick = &legal[rng.random_range(0..legal.len())];
                on_b.make_move(authed(
                    pb::MakeMoveRequest {
                        game_id: person.game.clone(),
                        action: Some(pb::make_move_request::Action::Notation(
                            pick.notation.clone(),
                        )),
                        expected_version: Some(view.version),
                        ..Default::default()
                    },
                    &person.token,
                ))
                .await
                .expect("the person's move");
                moves += 1;
            }
            (moves == 4).then_some(())
        },
    )
    .await;
    b.kill().await;
    replicas.remove().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn watchers_see_every_event_while_the_bus_is_down() {
    let Some(replicas) = Replicas::new().await else {
        return;
    };
    let (a, b) = (replicas.server(&[]).await, replicas.server(&[]).await);
    let (mut on_a, mut on_b) = (connect(a.addr).await, connect(b.addr).await);
    let players = new_game(&mut on_b, "tanques").await;
    let (mut watch_a, first) = spectate(&mut on_a, &players[0].game).await;
    let before = play(&mut on_b, &players, 5, 1).await;
    assert_eq!(
        versions_until(&mut watch_a, before).await,
        (first + 1..=before).collect::<Vec<_>>()
    );
    // A second game A holds in memory but nobody watches there: A does not poll it.
    let quiet = new_game(&mut on_b, "tanques").await;
    let quiet_before = play(&mut on_b, &quiet, 3, 4).await;
    assert_eq!(view_of(&mut on_a, &quiet[0]).await.version, quiet_before);
    let Replicas {
        schema,
        mut nats,
        dir,
    } = replicas;
    nats.pause().await;
    // The bus is gone: A polls the store for its watched game.
    let last = play(&mut on_b, &players, 10, 2).await;
    assert_eq!(
        versions_until(&mut watch_a, last).await,
        (before + 1..=last).collect::<Vec<_>>()
    );
    // What B wrote of the quiet game meanwhile never reached A over the bus.
    let quiet_last = play(&mut on_b, &quiet, 6, 5).await;
    assert!(quiet_last > quiet_before);
    // The bus comes back: A fills what it missed from the store, and both games go on
    // over the bus again.
    nats.resume().await;
    eventually(
        "A's copy of the quiet game catches up after the bus came back",
        async || {
            let version = view_of(&mut on_a, &quiet[0]).await.version;
            assert!(version <= quiet_last);
            (version == quiet_last).then_some(())
        },
    )
    .await;
    let after = play(&mut on_b, &players, 3, 6).await;
    assert_eq!(
        versions_until(&mut watch_a, after).await,
        (last + 1..=after).collect::<Vec<_>>()
    );
    let (mut watch_quiet, first_quiet) = spectate(&mut on_a, &quiet[0].game).await;
    assert_eq!(first_quiet, quiet_last);
    let quiet_after = play(&mut on_b, &quiet, 2, 7).await;
    assert_eq!(
        versions_until(&mut watch_quiet, quiet_after).await,
        (quiet_last + 1..=quiet_after).collect::<Vec<_>>()
    );
    a.kill().await;
    b.kill().await;
    drop(dir);
    nats.stop().await;
    schema.remove().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_timed_game_whose_replica_died_ends_on_time_on_the_other() {
    let Some(replicas) = Replicas::new().await else {
        return;
    };
    // Short leases: the servers look for what dead ones left every second.
    let args = ["--bot-lease-secs", "3"];
    let (a, b) = (replicas.server(&args).await, replicas.server(&args).await);
    let (mut on_a, mut on_b) = (connect(a.addr).await, connect(b.addr).await);
    // Made and played on A only, after B started: B has never seen it.
    let players = timed_game(&mut on_a, live(2, 0)).await;
    play_turn(&mut on_a, &players[0]).await;
    let view = play_turn(&mut on_a, &players[1]).await;
    assert_eq!(
        view.clock.expect("a clock").running,
        Some(0),
        "Rojo's clock runs"
    );
    a.kill().await;
    // Nobody touches the game: B settles Rojo's fallen flag by itself. The listing is read
    // from the database and does not load the game.
    eventually("B ends the game on time", async || {
        finished_games(&mut on_b)
            .await
            .games
            .iter()
            .any(|g| g.game_id == players[0].game)
            .then_some(())
    })
    .await;
    let result = view_of(&mut on_b, &players[1])
        .await
        .result
        .expect("a result");
    assert_eq!(result.winner, Some(1));
    assert_eq!(result.reason, "TIME_FORFEIT");
    b.kill().await;
    replicas.remove().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_revoked_token_or_a_disabled_account_is_refused_at_once_on_the_other_replica() {
    let Some(replicas) = Replicas::new().await else {
        return;
    };
    let a = replicas.server(&["--admin-listen", "127.0.0.1:0"]).await;
    let b = replicas.server(&[]).await;
    let (mut on_a, mut on_b) = (account_client(a.addr).await, account_client(b.addr).await);
    let ana = register(&mut on_a, "Ana").await;
    let who = pb::WhoAmIRequest {};
    on_b.who_am_i(authed(who, &ana))
        .await
        .expect("B knows Ana's session");
    let script = create_token(&mut on_a, &ana, pb::TokenScope::Play, "script", 0).await;
    on_b.who_am_i(authed(who, &script.token))
        .await
        .expect("works on B");
    let id = script.token_info.expect("details").id;
    on_a.revoke_token(authed(pb::RevokeTokenRequest { id }, &ana))
        .await
        .expect("revoked on A");
    let status = on_b
        .who_am_i(authed(who, &script.token))
        .await
        .expect_err("refused on B at once");
    assert_eq!(status.code(), Code::Unauthenticated, "{status:?}");
    let admin = format!("http://{}", a.side_address("admin service").await);
    succeeds(&["accounts", "disable", "Ana", "--from", &admin]);
    let mut games_on_b = connect(b.addr).await;
    let status = games_on_b
        .create_game(authed(
            pb::CreateGameRequest {
                ruleset: "frente".into(),
                ..Default::default()
            },
            &ana,
        ))
        .await
        .expect_err("refused on B at once");
    assert_eq!(status.code(), Code::PermissionDenied, "{status:?}");
    a.kill().await;
    b.kill().await;
    replicas.remove().await;
}
