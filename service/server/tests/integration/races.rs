//! Many clients racing on one game and on many games, with and without `expected_version`:
//! each game keeps one consistent history. Every acknowledged action is in it at its
//! version, versions are gapless, watchers see them in order, and replaying the stored log
//! (after a restart, and straight from the store) gives exactly the views the server served.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use rand::RngExt;
use tokio_stream::StreamExt;
use tonic::Code;
use trinchera_proto::v1 as pb;
use trinchera_rules::catalog;
use trinchera_store::GameId;

use crate::harness::{
    Client, Player, TestServer, assert_refused, authed, gapless_history, new_game, random_setups,
    rng, scaled, spectator_view, store_of, stored_games, view_of,
};

/// What racers saw acknowledged on one game: version → notation ("" for a resignation).
type Acks = Arc<Mutex<BTreeMap<u64, String>>>;

/// Records an acknowledgement; two acknowledgements of one version are a broken history.
fn acknowledge(acks: &Acks, version: u64, notation: String) {
    let mut acks = acks.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(before) = acks.insert(version, notation.clone()) {
        panic!("version {version} was acknowledged twice: {before:?} and {notation:?}");
    }
}

/// How a racer's moves went.
#[derive(Default)]
struct Tally {
    /// Accepted.
    accepted: usize,
    /// Refused because another client acted first on the same version.
    aborted: usize,
    /// Refused as no longer this seat's turn or no longer legal.
    late: usize,
}

/// One racer: reads views and plays random listed moves for the seats it holds, with or
/// without `expected_version`, and resigns once in `resign_one_in` turns, until the game
/// ends or its turns run out.
async fn racer(
    mut client: Client,
    players: [Player; 2],
    seats: Vec<usize>,
    seed: u64,
    (turns, resign_one_in): (usize, u32),
    acks: Acks,
) -> Tally {
    let mut rng = rng(seed);
    let mut last_seen = 0;
    let mut tally = Tally::default();
    for _ in 0..turns {
        let player = &players[seats[rng.random_range(0..seats.len())]];
        let view = if rng.random_bool(0.2) {
            spectator_view(&mut client, &player.game).await
        } else {
            view_of(&mut client, player).await
        };
        assert!(
            view.version >= last_seen,
            "a client never sees time go back"
        );
        last_seen = view.version;
        if view.phase == pb::Phase::Finished as i32 {
            break;
        }
        if rng.random_ratio(1, resign_one_in) {
            let request = pb::ResignRequest {
                game_id: player.game.clone(),
            };
            match client.resign(authed(request, &player.token)).await {
                Ok(response) => {
                    let version = response.into_inner().view.expect("view").version;
                    acknowledge(&acks, version, String::new());
                }
                Err(status) => assert_eq!(status.code(), Code::FailedPrecondition),
            }
            continue;
        }
        if view.viewer_seat != Some(player.seat) || view.to_move != Some(player.seat) {
            continue;
        }
        let choice = &view.legal_moves[rng.random_range(0..view.legal_moves.len())];
        let conditional = rng.random_bool(0.5);
        let request = pb::MakeMoveRequest {
            game_id: player.game.clone(),
            action: Some(pb::make_move_request::Action::Notation(
                choice.notation.clone(),
            )),
            expected_version: conditional.then_some(view.version),
            ..Default::default()
        };
        match client.make_move(authed(request, &player.token)).await {
            Ok(response) => {
                let event = response.into_inner().event.expect("event");
                if conditional {
                    assert_eq!(event.version, view.version + 1);
                }
                acknowledge(&acks, event.version, event.notation);
                tally.accepted += 1;
            }
            // Somebody else acted first: the version moved on, it is no longer this
            // seat's turn, the move became illegal, or the game ended.
            Err(status) => match status.code() {
                Code::Aborted => {
                    assert!(conditional, "{status:?}");
                    tally.aborted += 1;
                }
                Code::FailedPrecondition => tally.late += 1,
                _ => panic!("{status:?}"),
            },
        }
    }
    tally
}

/// Collects a spectator's watch stream until the game ends or `stop` is set, checking that
/// each event comes once, in order.
fn watch_in_order(client: Client, game: String) -> tokio::task::JoinHandle<u64> {
    tokio::spawn(async move {
        let mut client = client;
        let mut stream = client
            .watch_game(pb::WatchGameRequest {
                game_id: game,
                after_version: None,
                ..Default::default()
            })
            .await
            .expect("watch")
            .into_inner();
        let mut last = 0;
        while let Some(message) = stream.next().await {
            let message = message.expect("a message");
            if message.snapshot {
                assert!(message.version >= last, "a snapshot never goes back");
            } else {
                assert_eq!(message.version, last + 1, "every event once, in order");
            }
            last = message.version;
        }
        last
    })
}

/// The views of seat 0, seat 1 and a spectator.
async fn views(client: &mut Client, players: &[Player; 2]) -> [pb::GameView; 3] {
    [
        view_of(client, &players[0]).await,
        view_of(client, &players[1]).await,
        spectator_view(client, &players[0].game).await,
    ]
}

/// Races `racers` clients on each of `games` new games of `ruleset`; then checks each
/// history against the acknowledgements, the watchers, a restart and the store.
async fn race(games: usize, racers: usize, turns: usize, rulesets: &[&str]) {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let mut tables = Vec::new();
    for index in 0..games {
        let players = new_game(&mut client, rulesets[index % rulesets.len()]).await;
        random_setups(&mut client, &players).await;
        let watcher = watch_in_order(server.client().await, players[0].game.clone());
        let acks = Acks::default();
        let mut tasks = Vec::new();
        for racer_index in 0..racers {
            // Some racers hold one seat, some both: the same seat races with itself too.
            let seats = match racer_index % 3 {
                0 => vec![0],
                1 => vec![1],
                _ => vec![0, 1],
            };
            // About one resignation per game over the whole race: games usually last, and
            // some racers race on a game that just ended.
            let resign_one_in = (racers * turns) as u32;
            tasks.push(tokio::spawn(racer(
                server.client().await,
                players.clone(),
                seats,
                (index * racers + racer_index) as u64,
                (turns, resign_one_in),
                Arc::clone(&acks),
            )));
        }
        tables.push((players, acks, tasks, watcher));
    }
    let mut served = Vec::new();
    let mut total = Tally::default();
    for (players, acks, tasks, watcher) in tables {
        for task in tasks {
            let tally = task.await.expect("racer");
            total.accepted += tally.accepted;
            total.aborted += tally.aborted;
            total.late += tally.late;
        }
        let history = gapless_history(&mut client, &players[0].game).await;
        let last = history.events.len() as u64;
        for (version, notation) in acks.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            let event = &history.events[*version as usize - 1];
            let resigned = event.r#type == pb::EventType::Resigned as i32;
            assert_eq!(
                (&event.notation, resigned),
                (notation, notation.is_empty()),
                "version {version} is what was acknowledged"
            );
        }
        let views = views(&mut client, &players).await;
        assert!(views.iter().all(|view| view.version == last));
        // The watcher follows to the end of a finished game; stop waiting for open ones.
        if views[2].phase == pb::Phase::Finished as i32 {
            let seen = watcher.await.expect("watcher");
            assert_eq!(seen, last, "the watcher saw the whole game");
        } else {
            watcher.abort();
        }
        served.push((players, views));
    }
    let Tally {
        accepted,
        aborted,
        late,
    } = total;
    eprintln!(
        "races: {games} games, {racers} racers each: {accepted} moves accepted, {aborted} \
         refused as stale versions, {late} as no longer the racer's turn or legal"
    );
    assert!(accepted > games, "the racers played");
    assert!(aborted + late > 0, "the racers raced");
    // A restart replays every log into the same views...
    let dir = server.dir.clone();
    let temp = server.stop().await;
    let server = TestServer::start_in(&dir, temp, trinchera_service::Limits::for_tests()).await;
    let mut client = server.client().await;
    for (players, before) in &served {
        assert_eq!(
            &views(&mut client, players).await,
            before,
            "after a restart"
        );
    }
    let temp = server.stop().await;
    // ...and so does the store, read directly.
    let stored = stored_games(store_of(&dir).await).await;
    assert_eq!(stored.len(), games);
    for (players, before) in &served {
        let id = GameId(players[0].game.parse().expect("numeric id"));
        let stored = &stored[&id];
        assert_eq!(stored.log.len() as u64, before[2].version);
        assert_eq!(&stored.views(), before, "replayed from the store");
    }
    drop(temp);
}

#[tokio::test(flavor = "multi_thread")]
async fn many_clients_race_on_one_game() {
    race(1, scaled(9, 24), scaled(300, 1500), &["frente"]).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn many_clients_race_on_many_games() {
    race(scaled(12, 60), 3, scaled(100, 500), &catalog::ids()).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn racing_joins_setups_and_resignations_have_one_winner() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    // Creations in parallel get distinct games.
    let mut creations = Vec::new();
    for _ in 0..16 {
        let mut client = server.client().await;
        creations.push(tokio::spawn(async move {
            client
                .create_game(pb::CreateGameRequest {
                    ruleset: "clasico".into(),
                    ..Default::default()
                })
                .await
                .expect("created")
                .into_inner()
        }));
    }
    let mut created = Vec::new();
    for creation in creations {
        created.push(creation.await.expect("created"));
    }
    let mut ids: Vec<&str> = created.iter().map(|c| c.game_id.as_str()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), created.len(), "every creation is its own game");
    let first = &created[0];
    // Eight clients race for the free seat: one gets it.
    let mut joins = Vec::new();
    for _ in 0..8 {
        let mut client = server.client().await;
        let game_id = first.game_id.clone();
        joins.push(tokio::spawn(async move {
            client
                .join_game(pb::JoinGameRequest {
                    game_id,
                    player_name: "Rival".into(),
                })
                .await
        }));
    }
    let mut joined = Vec::new();
    for join in joins {
        match join.await.expect("joined") {
            Ok(response) => joined.push(response.into_inner()),
            Err(status) => {
                assert_refused::<()>(Err(status), Code::FailedPrecondition, "SEAT_TAKEN")
            }
        }
    }
    assert_eq!(joined.len(), 1, "one seat, one winner");
    let players = [
        Player {
            game: first.game_id.clone(),
            seat: 0,
            token: first.player_token.clone(),
        },
        Player {
            game: first.game_id.clone(),
            seat: 1,
            token: joined[0].player_token.clone(),
        },
    ];
    // Each seat sends its setup three times at once: one of each counts.
    let mut setups = Vec::new();
    for player in players.iter().chain(&players).chain(&players) {
        let mut client = server.client().await;
        let request = authed(
            pb::SubmitSetupRequest {
                game_id: player.game.clone(),
                random: true,
                ..Default::default()
            },
            &player.token,
        );
        let seat = player.seat;
        setups.push(tokio::spawn(async move {
            (seat, client.submit_setup(request).await)
        }));
    }
    let mut accepted = [0, 0];
    for setup in setups {
        match setup.await.expect("setup") {
            (seat, Ok(_)) => accepted[seat as usize] += 1,
            (_, Err(status)) => {
                assert_refused::<()>(Err(status), Code::FailedPrecondition, "WRONG_PHASE");
            }
        }
    }
    assert_eq!(accepted, [1, 1], "one setup per seat");
    // Both seats resign at once, several times: one resignation ends the game.
    let mut resignations = Vec::new();
    for player in players.iter().chain(&players).chain(&players) {
        let mut client = server.client().await;
        let request = authed(
            pb::ResignRequest {
                game_id: player.game.clone(),
            },
            &player.token,
        );
        resignations.push(tokio::spawn(async move { client.resign(request).await }));
    }
    let mut resigned = 0;
    for resignation in resignations {
        match resignation.await.expect("resigned") {
            Ok(_) => resigned += 1,
            Err(status) => assert_refused::<()>(Err(status), Code::FailedPrecondition, "GAME_OVER"),
        }
    }
    assert_eq!(resigned, 1, "one resignation ends the game");
    let history = client
        .get_history(pb::GetHistoryRequest {
            game_id: first.game_id.clone(),
            positions: false,
            ..Default::default()
        })
        .await
        .expect("history")
        .into_inner();
    let kinds: Vec<i32> = history.events.iter().map(|e| e.r#type).collect();
    use pb::EventType as E;
    assert_eq!(
        kinds,
        [
            E::Created,
            E::Joined,
            E::SetupSubmitted,
            E::SetupSubmitted,
            E::Resigned
        ]
        .map(|kind| kind as i32)
    );
}
