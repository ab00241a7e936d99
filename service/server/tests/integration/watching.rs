//! WatchGame: snapshot first, then every event in order; resume without gaps or duplicates;
//! a watcher that falls behind gets a fresh snapshot; the stream ends with the game.

use tokio_stream::StreamExt;
use tonic::Streaming;
use tonic::transport::Channel;
use trinchera_proto::v1 as pb;
use trinchera_service::Limits;

use crate::harness::{
    Client, TestServer, authed, new_game, play_quiet_move, play_random_move, random_setups, rng,
    view_of,
};

/// A spectator's WatchGame stream of `game` from its start, over `client`.
async fn spectate(mut client: Client, game: &str) -> Streaming<pb::WatchGameResponse> {
    client
        .watch_game(pb::WatchGameRequest {
            game_id: game.to_owned(),
            after_version: None,
            ..Default::default()
        })
        .await
        .expect("watch")
        .into_inner()
}

#[tokio::test(flavor = "multi_thread")]
async fn watchers_see_every_event_and_resume_without_gaps() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let players = new_game(&mut client, "frente").await;
    let mut live = spectate(server.client().await, &players[0].game).await;
    let first = live.next().await.expect("snapshot").expect("ok");
    assert!(first.snapshot && first.event.is_none());
    assert_eq!(first.version, 2);
    random_setups(&mut client, &players).await;
    let mut rng = rng(3);
    for _ in 0..20 {
        play_quiet_move(&mut client, &players, &mut rng).await;
    }
    let mut seen = Vec::new();
    while seen.len() < 22 {
        let message = live.next().await.expect("an event").expect("ok");
        assert!(!message.snapshot);
        let event = message.event.expect("event");
        assert_eq!(event.version, message.version);
        let view = message.view.expect("view");
        assert_eq!(view.version, message.version);
        assert!(view.viewer_seat.is_none(), "a spectator's view");
        assert!(view.legal_moves.is_empty());
        seen.push(message.version);
    }
    assert_eq!(seen, (3..=24).collect::<Vec<_>>());
    // A player resuming after version 10 gets 11..=24, each with their own view.
    let mut resumed = server
        .client()
        .await
        .watch_game(authed(
            pb::WatchGameRequest {
                game_id: players[0].game.clone(),
                after_version: Some(10),
                ..Default::default()
            },
            &players[1].token,
        ))
        .await
        .expect("watch")
        .into_inner();
    let mut versions = Vec::new();
    for _ in 11..=24 {
        let message = resumed.next().await.expect("an event").expect("ok");
        assert_eq!(message.view.expect("view").viewer_seat, Some(1));
        versions.push(message.version);
    }
    assert_eq!(versions, (11..=24).collect::<Vec<_>>());
    // The end of the game ends both streams after the last event.
    client
        .resign(authed(
            pb::ResignRequest {
                game_id: players[0].game.clone(),
            },
            &players[0].token,
        ))
        .await
        .expect("resigns");
    for stream in [&mut live, &mut resumed] {
        let last = stream.next().await.expect("the resignation").expect("ok");
        assert_eq!(
            last.event.expect("event").r#type,
            pb::EventType::Resigned as i32
        );
        assert_eq!(last.view.expect("view").phase, pb::Phase::Finished as i32);
        assert!(
            stream.next().await.is_none(),
            "the stream ends with the game"
        );
    }
    // Watching a finished game gives its final snapshot and ends.
    let mut after = spectate(server.client().await, &players[0].game).await;
    assert!(after.next().await.expect("snapshot").expect("ok").snapshot);
    assert!(after.next().await.is_none());
    // Resuming from the future is refused.
    let ahead = server
        .client()
        .await
        .watch_game(pb::WatchGameRequest {
            game_id: players[0].game.clone(),
            after_version: Some(999),
            ..Default::default()
        })
        .await;
    assert_eq!(
        ahead.err().map(|s| s.code()),
        Some(tonic::Code::InvalidArgument)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn shutdown_ends_streams() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let players = new_game(&mut client, "clasico").await;
    let mut live = spectate(client.clone(), &players[0].game).await;
    assert!(live.next().await.expect("snapshot").expect("ok").snapshot);
    let stopping = tokio::spawn(server.stop());
    // Promptly: as the server starts to stop, not when its drain time (10 s) is up.
    let end = tokio::time::timeout(std::time::Duration::from_secs(10), live.next())
        .await
        .expect("the stream ends promptly");
    assert!(end.is_none_or(|item| item.is_err()));
    stopping.await.expect("stopped");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_slow_watcher_gets_a_fresh_snapshot_and_goes_on() {
    let server = TestServer::start_with(Limits {
        watch_buffer: 4,
        ..Limits::for_tests()
    })
    .await;
    let mut client = server.client().await;
    let players = new_game(&mut client, "frente").await;
    random_setups(&mut client, &players).await;
    // A small HTTP/2 window, so that the unread stream backs up into the server quickly.
    let channel = Channel::from_shared(format!("http://{}", server.addr))
        .expect("uri")
        .initial_stream_window_size(Some(8 * 1024))
        .initial_connection_window_size(Some(64 * 1024))
        .connect()
        .await
        .expect("connects");
    let mut slow = spectate(
        pb::game_service_client::GameServiceClient::new(channel),
        &players[0].game,
    )
    .await;
    let first = slow.next().await.expect("snapshot").expect("ok");
    assert!(first.snapshot);
    let mut rng = rng(5);
    let mut last = first.version;
    for _ in 0..60 {
        if let Some(reply) = play_quiet_move(&mut client, &players, &mut rng).await {
            last = reply.view.expect("view").version;
        }
    }
    // Everything arrives in order; where the watcher fell behind, a snapshot stands in for
    // the events it missed, and the events after it follow without gaps.
    let (mut previous, mut snapshots) = (first.version, 0);
    while previous < last {
        let message = slow.next().await.expect("a message").expect("not an error");
        if message.snapshot {
            snapshots += 1;
            assert!(message.event.is_none());
            assert!(message.version > previous);
        } else {
            assert_eq!(
                message.version,
                previous + 1,
                "no gap after version {previous}"
            );
        }
        assert_eq!(message.view.expect("view").version, message.version);
        previous = message.version;
    }
    assert!(snapshots > 0, "the watcher fell behind and got a snapshot");
    // The stream goes on live afterwards.
    let reply = play_quiet_move(&mut client, &players, &mut rng)
        .await
        .expect("the game goes on");
    let next = slow.next().await.expect("a message").expect("ok");
    assert_eq!(next.version, reply.view.expect("view").version);
    assert!(!next.snapshot);
}

/// A resumption further back than the watch buffer costs one snapshot, not a replay of
/// every event since; one within the buffer gets each event, as live.
#[tokio::test(flavor = "multi_thread")]
async fn a_resumption_from_further_back_than_the_buffer_starts_with_a_snapshot() {
    let server = TestServer::start_with(Limits {
        watch_buffer: 8,
        ..Limits::for_tests()
    })
    .await;
    let mut client = server.client().await;
    let players = new_game(&mut client, "frente").await;
    random_setups(&mut client, &players).await;
    let mut rng = rng(7);
    let mut version = 0;
    for _ in 0..20 {
        if let Some(reply) = play_quiet_move(&mut client, &players, &mut rng).await {
            version = reply.view.expect("view").version;
        }
    }
    let resume = |after: u64| {
        let mut client = client.clone();
        let token = players[0].token.clone();
        let game = players[0].game.clone();
        async move {
            client
                .watch_game(authed(
                    pb::WatchGameRequest {
                        game_id: game,
                        after_version: Some(after),
                        ..Default::default()
                    },
                    &token,
                ))
                .await
                .expect("watch")
                .into_inner()
        }
    };
    let mut far = resume(version - 9).await;
    let first = far.next().await.expect("a message").expect("ok");
    assert!(first.snapshot && first.event.is_none(), "{first:?}");
    assert_eq!(first.version, version);
    assert_eq!(first.view.expect("view").viewer_seat, Some(0));
    let mut near = resume(version - 8).await;
    for expected in version - 7..=version {
        let message = near.next().await.expect("an event").expect("ok");
        assert!(!message.snapshot);
        assert_eq!(message.version, expected);
        assert_eq!(message.event.expect("event").version, expected);
    }
}

/// A WatchGame stream of `game` from its start, as `token`'s seat (or a spectator), with
/// whole views or only the pieces that changed, with or without the seat's own moves.
async fn watch_from_start(
    mut client: Client,
    game: &str,
    token: Option<&str>,
    piece_changes_only: bool,
    skip_own_moves: bool,
) -> Streaming<pb::WatchGameResponse> {
    let request = pb::WatchGameRequest {
        game_id: game.to_owned(),
        after_version: None,
        piece_changes_only,
        skip_own_moves,
    };
    let request = match token {
        Some(token) => authed(request, token),
        None => tonic::Request::new(request),
    };
    client
        .watch_game(request)
        .await
        .expect("watch")
        .into_inner()
}

/// Pieces by id.
type Board = std::collections::BTreeMap<u32, pb::Piece>;

fn board(pieces: &[pb::Piece]) -> Board {
    pieces.iter().map(|p| (p.id, p.clone())).collect()
}

/// The pieces a client rebuilds from a `piece_changes_only` stream.
#[derive(Default)]
struct Rebuilt {
    pieces: Board,
    captured: Board,
}

impl Rebuilt {
    /// Takes in `light`, a message of the changes stream, and checks it against `full`, the
    /// message of a whole stream at the same version: the same event, the same pieces once
    /// merged, the rest of the view whole. Returns how many pieces `full` and `light` held.
    fn check(&mut self, light: pb::WatchGameResponse, full: pb::WatchGameResponse) -> [usize; 2] {
        let context = format!("at version {}", full.version);
        assert_eq!(
            (light.version, light.snapshot),
            (full.version, full.snapshot),
            "{context}"
        );
        assert_eq!(light.event, full.event, "{context}");
        let (full_view, light_view) = (full.view.expect("view"), light.view.expect("view"));
        if light.snapshot {
            assert!(light.removed_pieces.is_empty());
            *self = Rebuilt::default();
        }
        for id in &light.removed_pieces {
            assert!(
                self.pieces.remove(id).is_some(),
                "{id} was in play {context}"
            );
        }
        self.pieces.extend(board(&light_view.pieces));
        self.captured.extend(board(&light_view.captured));
        assert_eq!(self.pieces, board(&full_view.pieces), "{context}");
        assert_eq!(self.captured, board(&full_view.captured), "{context}");
        let sizes = [full_view.pieces.len(), light_view.pieces.len()];
        let strip = |view: pb::GameView| pb::GameView {
            pieces: Vec::new(),
            captured: Vec::new(),
            ..view
        };
        assert_eq!(
            strip(light_view),
            strip(full_view),
            "the rest is whole {context}"
        );
        sizes
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn piece_changes_rebuild_the_whole_views_and_a_lean_move_reply_has_no_view() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let mut rng = rng(11);
    let (mut removals, mut whole_pieces, mut changed_pieces) = (0, 0, 0);
    for ruleset in ["frente", "asalto", "tanques"] {
        let players = new_game(&mut client, ruleset).await;
        let game = players[0].game.clone();
        random_setups(&mut client, &players).await;
        // Seat 1 watches twice, a spectator with changes only: each changes stream, merged
        // into a board, must show what its whole twin shows, message by message.
        let seat = Some(players[1].token.as_str());
        let mut pairs = [
            (
                watch_from_start(server.client().await, &game, seat, false, false).await,
                watch_from_start(server.client().await, &game, seat, true, false).await,
            ),
            (
                watch_from_start(server.client().await, &game, None, false, false).await,
                watch_from_start(server.client().await, &game, None, true, false).await,
            ),
        ];
        // The first move without a view in its reply.
        let first = view_of(&mut client, &players[0]).await;
        let mover = &players[first.to_move.expect("someone moves") as usize];
        let legal = view_of(&mut client, mover).await.legal_moves;
        let reply = client
            .make_move(authed(
                pb::MakeMoveRequest {
                    game_id: game.clone(),
                    action: Some(pb::make_move_request::Action::Notation(
                        legal[0].notation.clone(),
                    )),
                    expected_version: None,
                    omit_view: true,
                },
                &mover.token,
            ))
            .await
            .expect("the move is played")
            .into_inner();
        assert!(reply.view.is_none(), "omit_view leaves the view out");
        let played = reply.event.expect("the event is still sent").version;
        assert_eq!(played, first.version + 1);
        let mut last = played;
        for _ in 0..150 {
            match play_random_move(&mut client, &players, &mut rng).await {
                Some(reply) => last = reply.event.expect("event").version,
                None => break,
            }
        }
        for (whole, changes) in &mut pairs {
            let mut rebuilt = Rebuilt::default();
            loop {
                let full = whole.next().await.expect("a message").expect("ok");
                let light = changes.next().await.expect("a message").expect("ok");
                let version = full.version;
                removals += light.removed_pieces.len();
                let [full_size, light_size] = rebuilt.check(light, full);
                whole_pieces += full_size;
                changed_pieces += light_size;
                if version == last {
                    break;
                }
            }
        }
    }
    assert!(removals > 0, "random games capture pieces");
    assert!(
        changed_pieces * 5 < whole_pieces,
        "changes are a fraction of the whole: {changed_pieces} of {whole_pieces} pieces"
    );
}

/// A stream that skips the seat's own moves differs from a whole stream only by the
/// messages of those moves after which the other seat acts; the next message's piece
/// changes cover them. A spectator's stream skips nothing.
#[tokio::test(flavor = "multi_thread")]
async fn a_stream_without_its_own_moves_leaves_out_only_those_handing_the_turn_over() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let mut rng = rng(13);
    for ruleset in ["frente", "asalto", "tanques"] {
        let players = new_game(&mut client, ruleset).await;
        let game = players[0].game.clone();
        random_setups(&mut client, &players).await;
        let viewers = [Some(0), Some(1), None];
        let mut pairs = Vec::new();
        for viewer in viewers {
            let token = viewer.map(|seat: usize| players[seat].token.as_str());
            pairs.push((
                watch_from_start(server.client().await, &game, token, false, false).await,
                watch_from_start(server.client().await, &game, token, true, true).await,
            ));
        }
        let mut last = 0;
        for _ in 0..120 {
            match play_random_move(&mut client, &players, &mut rng).await {
                Some(reply) => last = reply.event.expect("event").version,
                None => break,
            }
        }
        // Per viewer: messages left out, and own moves sent because the seat acted again.
        let (mut skipped, mut kept) = ([0; 3], [0; 3]);
        for (index, (viewer, (whole, lean))) in viewers.iter().zip(&mut pairs).enumerate() {
            [skipped[index], kept[index]] = without_own_moves(whole, lean, *viewer, last).await;
        }
        assert!(
            skipped[0] >= 5 && skipped[1] >= 5,
            "{ruleset}: each seat's own moves were left out: {skipped:?}"
        );
        assert_eq!(skipped[2], 0, "{ruleset}: a spectator has no own moves");
        if ruleset == "tanques" {
            assert!(
                kept[0] + kept[1] > 0,
                "tanques: a seat acting again got its own moves: {kept:?}"
            );
        }
        // Nothing else is waiting in the lean streams: the next message is the next move's.
        let reply = play_random_move(&mut client, &players, &mut rng).await;
        if let Some(event) = reply.and_then(|reply| reply.event) {
            for (viewer, (_, lean)) in viewers.iter().zip(&mut pairs) {
                if event
                    .seat
                    .zip(*viewer)
                    .is_some_and(|(s, v)| s as usize == v)
                {
                    continue;
                }
                let next = lean.next().await.expect("a message").expect("ok");
                assert_eq!(next.version, event.version, "{ruleset}: {viewer:?}");
            }
        }
        // A resumption leaves out the same messages of the events it catches up on.
        let now = view_of(&mut client, &players[0]).await.version;
        let resume = |lean: bool| {
            let request = pb::WatchGameRequest {
                game_id: game.clone(),
                after_version: Some(now.saturating_sub(30).max(1)),
                piece_changes_only: lean,
                skip_own_moves: lean,
            };
            let mut client = client.clone();
            let token = players[0].token.clone();
            async move {
                let request = authed(request, &token);
                client
                    .watch_game(request)
                    .await
                    .expect("watch")
                    .into_inner()
            }
        };
        let (mut whole, mut lean) = (resume(false).await, resume(true).await);
        let [skipped, _] = without_own_moves(&mut whole, &mut lean, Some(0), now).await;
        assert!(skipped > 0, "{ruleset}: the catch-up left out own moves");
    }
}

/// Reads `whole` (every message) and `lean` (changes only, without `viewer`'s own moves)
/// side by side up to version `last`, checking that `lean` has exactly the messages of
/// `whole` but the viewer's own moves after which the other seat acts, with the same
/// pieces once rebuilt. Returns how many messages were left out, and how many own moves
/// were sent because the seat acted again.
async fn without_own_moves(
    whole: &mut Streaming<pb::WatchGameResponse>,
    lean: &mut Streaming<pb::WatchGameResponse>,
    viewer: Option<usize>,
    last: u64,
) -> [usize; 2] {
    let (mut skipped, mut kept) = (0, 0);
    let mut rebuilt = Rebuilt::default();
    loop {
        let full = whole.next().await.expect("a message").expect("ok");
        let version = full.version;
        let own_move = full.event.as_ref().is_some_and(|event| {
            event.r#type == pb::EventType::Move as i32
                && event.seat.zip(viewer).is_some_and(|(s, v)| s as usize == v)
        });
        let to_move = full.view.as_ref().and_then(|view| view.to_move);
        let acts_again = to_move.zip(viewer).is_some_and(|(s, v)| s as usize == v);
        if own_move && to_move.is_some() && !acts_again {
            skipped += 1;
        } else {
            kept += usize::from(own_move);
            let light = lean.next().await.expect("a message").expect("ok");
            rebuilt.check(light, full);
        }
        if version == last {
            return [skipped, kept];
        }
    }
}
