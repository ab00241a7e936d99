//! Hostile clients: malformed gRPC frames and HTTP/2, arbitrary requests, corrupt stored
//! logs, and token abuse. Every such request gets an error (never a crash or a hang) and
//! the server keeps serving; every token abuse is refused, changes nothing, and is logged
//! without the token.

use std::net::SocketAddr;
use std::sync::Arc;

use bytes::{BufMut, Bytes, BytesMut};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use sha2::{Digest, Sha256};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tonic::{Code, Status};
use trinchera_game::clock::TimeControl;
use trinchera_game::wire;
use trinchera_game::{Act, Creation, GameState, Moment, Occupant, Refusal};
use trinchera_proto::v1 as pb;
use trinchera_rules::{Seat, catalog};
use trinchera_service::{MAX_REQUEST_BYTES, NetConfig};
use trinchera_store::records::{self, EventRecord};
use trinchera_store::{GameId, TokenHash};

use crate::harness::{
    ChildServer, Client, PASSWORD, TestServer, account_client, authed, connect, create_token,
    eventually, new_game, random_setups, register, scaled, spectator_view, view_of, within,
};

// ------------------------------------------------------------------------------------------
// Raw HTTP/2.

/// How the server answered a raw request.
#[derive(Debug)]
struct Reply {
    /// The HTTP status.
    http: u16,
    /// The gRPC status, from the headers (trailers-only) or the trailers.
    grpc: Option<Code>,
    /// Body bytes received.
    body: usize,
}

/// A gRPC message frame: compression flag, big-endian length, bytes.
fn frame(compressed: bool, declared: u32, bytes: &[u8]) -> Bytes {
    let mut frame = BytesMut::with_capacity(5 + bytes.len());
    frame.put_u8(u8::from(compressed));
    frame.put_u32(declared);
    frame.put_slice(bytes);
    frame.freeze()
}

/// A well-framed message holding `bytes`.
fn message(bytes: &[u8]) -> Bytes {
    frame(false, bytes.len() as u32, bytes)
}

/// Sends one request on a new HTTP/2 connection: `path`, `content_type` (if any), then
/// `chunks` as DATA frames, ending the stream after the last one if `end`. Waits for the
/// whole answer.
async fn raw(
    addr: SocketAddr,
    path: &str,
    content_type: Option<&str>,
    chunks: &[Bytes],
    end: bool,
) -> Reply {
    let answered = format!("an answer to {path}");
    within(&answered, async {
        let tcp = TcpStream::connect(addr).await.expect("connects");
        let (client, connection) = h2::client::handshake(tcp).await.expect("handshake");
        tokio::spawn(async move {
            let _ = connection.await;
        });
        let mut client = client.ready().await.expect("ready");
        let mut request = http::Request::builder()
            .method("POST")
            .uri(format!("http://{addr}{path}"))
            .header("te", "trailers");
        if let Some(content_type) = content_type {
            request = request.header("content-type", content_type);
        }
        let request = request.body(()).expect("request");
        let (response, mut sending) = client
            .send_request(request, chunks.is_empty() && end)
            .expect("sends");
        for (index, chunk) in chunks.iter().enumerate() {
            let last = index + 1 == chunks.len();
            sending.reserve_capacity(chunk.len());
            // The server may answer (and reset the stream) before it has read everything.
            if sending.send_data(chunk.clone(), last && end).is_err() {
                break;
            }
        }
        let response = response.await.expect("an HTTP response");
        let http = response.status().as_u16();
        let mut grpc = grpc_status(response.headers());
        let mut body = response.into_body();
        let mut received = 0;
        while let Some(chunk) = body.data().await {
            let Ok(chunk) = chunk else { break };
            received += chunk.len();
            let _ = body.flow_control().release_capacity(chunk.len());
        }
        if let Ok(Some(trailers)) = body.trailers().await {
            grpc = grpc.or(grpc_status(&trailers));
        }
        Reply {
            http,
            grpc,
            body: received,
        }
    })
    .await
}

fn grpc_status(headers: &http::HeaderMap) -> Option<Code> {
    let value = headers.get("grpc-status")?.to_str().ok()?;
    Some(Code::from(value.parse::<i32>().ok()?))
}

/// Writes `bytes` on a raw TCP connection and reads until the server closes it; returns
/// what it sent.
async fn raw_tcp(addr: SocketAddr, bytes: &[u8]) -> Vec<u8> {
    within("the server closes a broken connection", async {
        let mut tcp = TcpStream::connect(addr).await.expect("connects");
        tcp.write_all(bytes).await.expect("writes");
        let mut received = Vec::new();
        // A reset instead of a clean close is fine too.
        let _ = tcp.read_to_end(&mut received).await;
        received
    })
    .await
}

/// The server still answers a plain call.
async fn still_serving(client: &mut Client) {
    let rulesets = within(
        "an answer to ListRulesets",
        client.list_rulesets(pb::ListRulesetsRequest {}),
    )
    .await
    .expect("the server still serves");
    assert_eq!(
        rulesets.into_inner().rulesets.len(),
        catalog::RULESETS.len()
    );
}

const MAKE_MOVE: &str = "/trinchera.v1.GameService/MakeMove";
const GET_VIEW: &str = "/trinchera.v1.GameService/GetView";
const CREATE_GAME: &str = "/trinchera.v1.GameService/CreateGame";
const LIST_RULESETS: &str = "/trinchera.v1.GameService/ListRulesets";
const GRPC: Option<&str> = Some("application/grpc");

#[tokio::test(flavor = "multi_thread")]
async fn malformed_grpc_gets_errors_and_the_server_keeps_serving() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let mut client = server.client().await;
    let players = new_game(&mut client, "frente").await;
    let before = spectator_view(&mut client, &players[0].game).await;
    // Bytes that no protobuf decoder accepts: field number 0.
    let invalid = [0x00, 0x01, 0x02];
    // A request whose first field claims more bytes than follow.
    let short = [0x0a, 0x7f, b'1'];
    for path in [MAKE_MOVE, GET_VIEW, CREATE_GAME] {
        for body in [&invalid[..], &short[..]] {
            let reply = raw(addr, path, GRPC, &[message(body)], true).await;
            assert_eq!(reply.grpc, Some(Code::InvalidArgument), "{path}: {reply:?}");
        }
    }
    // Framing errors: a truncated length prefix, fewer bytes than declared, a compressed
    // message nobody negotiated, no message at all.
    let cases: Vec<(&str, Vec<Bytes>)> = vec![
        ("truncated prefix", vec![Bytes::from_static(&[0, 0, 0])]),
        ("short body", vec![frame(false, 100, b"0123456789")]),
        ("compressed", vec![frame(true, 3, b"abc")]),
        ("no message", Vec::new()),
    ];
    for (what, chunks) in &cases {
        let reply = raw(addr, GET_VIEW, GRPC, chunks, true).await;
        let code = reply.grpc.unwrap_or_else(|| panic!("{what}: {reply:?}"));
        assert_ne!(code, Code::Ok, "{what}: {reply:?}");
    }
    // Two messages for a unary call: tonic reads the first and ignores the rest.
    let two = [message(b"\x0a\x011"), message(b"\x0a\x012")];
    let reply = raw(addr, GET_VIEW, GRPC, &two, true).await;
    assert_eq!(reply.grpc, Some(Code::Ok), "{reply:?}");
    // A length prefix far above the limit is refused at once: the server neither waits for
    // 4 GiB nor allocates them, although the stream stays open.
    for declared in [u32::MAX, MAX_REQUEST_BYTES as u32 + 1] {
        let reply = raw(addr, MAKE_MOVE, GRPC, &[frame(false, declared, b"")], false).await;
        assert_eq!(reply.grpc, Some(Code::ResourceExhausted), "{reply:?}");
    }
    // A real oversized message, sent in full.
    let huge = vec![b'x'; 4 * MAX_REQUEST_BYTES];
    let reply = raw(addr, CREATE_GAME, GRPC, &[message(&huge)], true).await;
    assert_eq!(reply.grpc, Some(Code::ResourceExhausted), "{reply:?}");
    // Content types: none, or not gRPC. The body is garbage, so it is an error either way.
    for content_type in [None, Some("text/plain"), Some("application/json")] {
        let reply = raw(addr, MAKE_MOVE, content_type, &[message(&invalid)], true).await;
        assert!(
            reply.http != 200 || reply.grpc.is_some_and(|code| code != Code::Ok),
            "{content_type:?}: {reply:?}"
        );
    }
    // An unknown method.
    let reply = raw(
        addr,
        "/trinchera.v1.GameService/Cheat",
        GRPC,
        &[message(b"")],
        true,
    )
    .await;
    assert_eq!(reply.grpc, Some(Code::Unimplemented), "{reply:?}");
    // The well-formed request still works over the same raw path.
    let reply = raw(addr, LIST_RULESETS, GRPC, &[message(b"")], true).await;
    assert_eq!((reply.http, reply.grpc), (200, Some(Code::Ok)), "{reply:?}");
    assert!(reply.body > 1000, "the rulesets came back: {reply:?}");
    // Random garbage of every size, many streams at once: each gets an answer.
    let mut runner = TestRunner::deterministic();
    let garbage = proptest::collection::vec(any::<u8>(), 0..2000);
    let mut calls = Vec::new();
    // Each call is a connection of its own: at most half the server's per-address cap at
    // once, so that none of them is refused for the cap instead of answered.
    let open = Arc::new(tokio::sync::Semaphore::new(
        NetConfig::default().max_connections_per_peer / 2,
    ));
    for index in 0..scaled(48, 500) {
        let bytes = garbage.new_tree(&mut runner).expect("garbage").current();
        let path = [MAKE_MOVE, GET_VIEW, CREATE_GAME][index % 3];
        let chunks = if index % 2 == 0 {
            vec![message(&bytes)]
        } else {
            vec![Bytes::from(bytes)]
        };
        let open = Arc::clone(&open);
        calls.push(tokio::spawn(async move {
            let _connection = open.acquire_owned().await.expect("open");
            raw(addr, path, GRPC, &chunks, true).await
        }));
    }
    for call in calls {
        let reply = call.await.expect("answered");
        assert!(reply.grpc.is_some() || reply.http != 200, "{reply:?}");
    }
    still_serving(&mut client).await;
    assert_eq!(spectator_view(&mut client, &players[0].game).await, before);
}

#[tokio::test(flavor = "multi_thread")]
async fn broken_http2_closes_only_that_connection() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let mut client = server.client().await;
    // A client that sends headers and then nothing holds one stream open, nothing else.
    let tcp = TcpStream::connect(addr).await.expect("connects");
    let (h2, connection) = h2::client::handshake(tcp).await.expect("handshake");
    tokio::spawn(async move {
        let _ = connection.await;
    });
    let mut h2 = h2.ready().await.expect("ready");
    let request = http::Request::builder()
        .method("POST")
        .uri(format!("http://{addr}{MAKE_MOVE}"))
        .header("content-type", "application/grpc")
        .body(())
        .expect("request");
    let (_pending, _stream) = h2.send_request(request, false).expect("sends");
    still_serving(&mut client).await;
    // Not HTTP/2 at all.
    raw_tcp(addr, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n").await;
    raw_tcp(addr, &[0xff; 4096]).await;
    // HTTP/2, then a frame far larger than the 16 KiB the server allows: GOAWAY and close.
    let mut bytes = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
    bytes.extend([0, 0, 0, 0x4, 0, 0, 0, 0, 0]); // empty SETTINGS
    bytes.extend([0xff, 0xff, 0xff, 0x0, 0, 0, 0, 0, 1]); // DATA of 16 MiB on stream 1
    bytes.extend(vec![0; 1024]);
    let answer = raw_tcp(addr, &bytes).await;
    assert!(
        frames(&answer).contains(&0x7),
        "the server says GOAWAY: {answer:?}"
    );
    // Metadata larger than the server accepts.
    let mut request = tonic::Request::new(pb::GetViewRequest {
        game_id: "1".into(),
    });
    let oversized = format!("Bearer {}", "a".repeat(64 * 1024));
    request
        .metadata_mut()
        .insert("authorization", oversized.parse().expect("ascii"));
    let refused = within(
        "an answer to the oversized header",
        connect(addr).await.get_view(request),
    )
    .await;
    assert!(refused.is_err(), "{refused:?}");
    still_serving(&mut client).await;
}

/// The frame types in a stream of HTTP/2 frames sent by a server.
fn frames(mut bytes: &[u8]) -> Vec<u8> {
    let mut types = Vec::new();
    while bytes.len() >= 9 {
        let length =
            usize::from(bytes[0]) << 16 | usize::from(bytes[1]) << 8 | usize::from(bytes[2]);
        types.push(bytes[3]);
        bytes = &bytes[(9 + length).min(bytes.len())..];
    }
    types
}

// ------------------------------------------------------------------------------------------
// Arbitrary requests.

/// Coordinates at the edges of `i8` (which the conversion accepts) and just beyond.
const EDGES: [i32; 7] = [i32::MIN, -129, -128, -127, 127, 128, i32::MAX];

fn any_cell() -> impl Strategy<Value = pb::Cell> {
    let coordinate = prop_oneof![
        6 => -6i32..12,
        1 => any::<i32>(),
        2 => prop::sample::select(EDGES.to_vec()),
    ];
    (coordinate.clone(), coordinate).prop_map(|(x, y)| pb::Cell { x, y })
}

fn any_cells(most: usize) -> impl Strategy<Value = Vec<pb::Cell>> {
    proptest::collection::vec(any_cell(), 0..most)
}

/// Any move the wire can carry, with lists longer and enum numbers wilder than allowed.
fn any_move() -> impl Strategy<Value = pb::Move> {
    use pb::r#move::Action as A;
    let number = prop_oneof![4 => -1i32..8, 1 => any::<i32>()];
    let action = prop_oneof![
        (
            proptest::option::of(any_cell()),
            proptest::option::of(any_cell())
        )
            .prop_map(|(from, to)| A::Step(pb::Step { from, to })),
        (proptest::option::of(any_cell()), any_cells(40))
            .prop_map(|(from, landings)| A::Jump(pb::Jump { from, landings })),
        proptest::option::of(any_cell()).prop_map(|officer| A::Huff(pb::Huff { officer })),
        (proptest::option::of(any_cell()), number.clone())
            .prop_map(|(cell, facing)| A::Enter(pb::Enter { cell, facing })),
        (
            proptest::option::of(any_cell()),
            proptest::collection::vec(number, 0..12)
        )
            .prop_map(|(cell, actions)| A::Maneuver(pb::Maneuver { cell, actions })),
        (
            proptest::option::of(any_cell()),
            any_cells(9),
            proptest::option::of(any_cell()),
            proptest::option::of(any_cell()),
        )
            .prop_map(|(target, attackers, advance, casualty)| {
                A::Attack(pb::Attack {
                    target,
                    attackers,
                    advance,
                    casualty,
                })
            }),
        Just(A::EndPhase(pb::EndPhase {})),
    ];
    proptest::option::of(action).prop_map(|action| pb::Move { action })
}

fn any_placements() -> impl Strategy<Value = Vec<pb::Placement>> {
    let kind = prop_oneof![
        4 => prop::sample::select(vec!["espia", "soldado", "bomba", "bandera", "officer", "rebel"]).prop_map(str::to_owned),
        1 => any::<String>(),
    ];
    proptest::collection::vec(
        (proptest::option::of(any_cell()), kind)
            .prop_map(|(cell, kind)| pb::Placement { cell, kind }),
        0..50,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(scaled(512, 8192) as u32))]

    #[test]
    fn wire_values_convert_cleanly(
        mv in any_move(),
        placements in any_placements(),
        seat in any::<i32>(),
        cell in proptest::option::of(any_cell()),
    ) {
        match wire::action_from(&mv) {
            // What converts is what it says, and goes back to the same wire value.
            Ok(action) => prop_assert_eq!(wire::action(&action), mv),
            Err(error) => prop_assert!(matches!(error, Refusal::Invalid { .. }), "{error}"),
        }
        match wire::placements_from(&placements) {
            Ok(converted) => {
                let back: Vec<pb::Placement> = converted.iter().map(wire::placement).collect();
                prop_assert_eq!(back, placements);
            }
            Err(error) => prop_assert!(matches!(error, Refusal::Invalid { .. }), "{error}"),
        }
        prop_assert_eq!(wire::seat_from(seat).is_ok(), seat == 0 || seat == 1);
        if let Ok(converted) = wire::cell_from(cell.as_ref(), "cell") {
            prop_assert_eq!(Some(wire::cell(converted)), cell);
        }
    }

    #[test]
    fn corrupt_logs_are_refused_cleanly(
        seed in any::<u64>(),
        victim in any::<prop::sample::Index>(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
        reorder in any::<Option<(prop::sample::Index, prop::sample::Index)>>(),
    ) {
        // A stored log with damaged bytes or entries out of order: decoding or replaying
        // it fails with an error (the game will not load) or yields a game; never a panic.
        let mut encoded: Vec<Vec<u8>> = sample_log(seed).iter().map(records::encode).collect();
        let bytes = victim.get_mut(&mut encoded);
        for (at, value) in edits {
            let index = at.index(bytes.len());
            bytes[index] = value;
        }
        if let Some((a, b)) = reorder {
            let (a, b) = (a.index(encoded.len()), b.index(encoded.len()));
            encoded.swap(a, b);
        }
        let decoded: Result<Vec<EventRecord>, _> =
            encoded.iter().map(|bytes| records::decode(bytes)).collect();
        if let Ok(log) = decoded
            && let Ok(state) = GameState::replay(GameId(1), &log, |_, _| {})
        {
            prop_assert_eq!(state.version(), log.len() as u64);
        }
    }
}

/// `mv` with one coordinate (picked by `pick`) set to one of [`EDGES`].
fn at_the_edge(mv: &pb::Move, pick: usize) -> pb::Move {
    use pb::r#move::Action as A;
    let mut mv = mv.clone();
    let mut cells: Vec<&mut pb::Cell> = match &mut mv.action {
        Some(A::Step(step)) => step.from.iter_mut().chain(step.to.iter_mut()).collect(),
        Some(A::Jump(jump)) => jump.from.iter_mut().chain(&mut jump.landings).collect(),
        Some(A::Huff(huff)) => huff.officer.iter_mut().collect(),
        Some(A::Enter(enter)) => enter.cell.iter_mut().collect(),
        Some(A::Maneuver(maneuver)) => maneuver.cell.iter_mut().collect(),
        Some(A::Attack(attack)) => attack
            .target
            .iter_mut()
            .chain(&mut attack.attackers)
            .chain(attack.advance.iter_mut())
            .collect(),
        Some(A::EndPhase(_)) | None => Vec::new(),
    };
    if !cells.is_empty() {
        let count = cells.len();
        let edge = EDGES[pick % EDGES.len()];
        let axis = pick / EDGES.len() % 2;
        let cell = &mut cells[pick / EDGES.len() / 2 % count];
        if axis == 0 {
            cell.x = edge;
        } else {
            cell.y = edge;
        }
    }
    mv
}

/// The log of a short random game of a ruleset picked by `seed`, played through
/// [`GameState`] as the server plays it.
fn sample_log(seed: u64) -> Vec<EventRecord> {
    use rand::RngExt;
    let mut rng = crate::harness::rng(seed);
    let ruleset = ["frente", "castillos", "asalto", "tanques"][(seed % 4) as usize];
    let tokens = [TokenHash::of("a"), TokenHash::of("b")];
    let creation = Creation {
        ruleset: ruleset.into(),
        name: "x".into(),
        creator: Occupant::guest(Seat::First, "Ana", tokens[0]),
        seed: trinchera_rules::Seed([seed as u8; 32]),
        control: TimeControl::Untimed,
    };
    let (mut state, created) =
        GameState::create(GameId(1), creation, Moment::default()).expect("creates");
    let mut log = vec![created.record];
    let mut apply = |state: &mut GameState, act: Act| {
        let change = state.apply(act, Moment::default()).expect("applies");
        log.push(change.record);
    };
    let join = Act::Join(Occupant::guest(Seat::Second, "Beto", tokens[1]));
    apply(&mut state, join);
    for seat in Seat::BOTH {
        if let Some(zone) = state.description().setup_zone(seat) {
            let setup = trinchera_rules::Setup::random(zone, rng.random());
            apply(
                &mut state,
                Act::Setup {
                    setup,
                    salt: [7; 16],
                },
            );
        }
    }
    for _ in 0..rng.random_range(0..30) {
        let legal = state.game().legal_actions();
        let Some(seat) = state.game().to_move() else {
            break;
        };
        let choice = &legal[rng.random_range(0..legal.len())];
        let action = choice.action.clone();
        apply(&mut state, Act::Move { seat, action });
    }
    log
}

#[tokio::test(flavor = "multi_thread")]
async fn arbitrary_moves_over_the_wire_are_refused_cleanly() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let mut games = Vec::new();
    for ruleset in ["frente", "castillos", "asalto", "tanques"] {
        let players = new_game(&mut client, ruleset).await;
        random_setups(&mut client, &players).await;
        games.push(players);
    }
    let mut runner = TestRunner::deterministic();
    let strategy = any_move();
    let (mut refused, mut played) = (0, 0);
    for round in 0..scaled(120, 2000) {
        let random = strategy.new_tree(&mut runner).expect("a move").current();
        for players in &games {
            let before = spectator_view(&mut client, &players[0].game).await;
            let Some(to_move) = before.to_move else {
                continue;
            };
            let mover = &players[to_move as usize];
            let legal = view_of(&mut client, mover).await.legal_moves;
            let choice = &legal[round % legal.len()];
            // Every other round a listed move with a coordinate at the edge of `i8` instead
            // of a random one: past the conversion, into the rules' cell checks.
            let arbitrary = if round % 2 == 1 {
                at_the_edge(choice.r#move.as_ref().expect("a move"), round / 2)
            } else {
                random.clone()
            };
            // Now and then the mover plays a listed move, so that the arbitrary ones meet
            // many positions.
            if round % 4 == 0 {
                let request = authed(
                    pb::MakeMoveRequest {
                        game_id: mover.game.clone(),
                        action: Some(pb::make_move_request::Action::Notation(
                            choice.notation.clone(),
                        )),
                        expected_version: None,
                        ..Default::default()
                    },
                    &mover.token,
                );
                client.make_move(request).await.expect("a listed move");
                played += 1;
                continue;
            }
            for player in players {
                let request = authed(
                    pb::MakeMoveRequest {
                        game_id: player.game.clone(),
                        action: Some(pb::make_move_request::Action::Move(arbitrary.clone())),
                        expected_version: None,
                        ..Default::default()
                    },
                    &player.token,
                );
                let result = within("an answer to the move", client.make_move(request)).await;
                match result {
                    Ok(_) => {
                        assert_eq!(player.seat, to_move, "accepted out of turn: {arbitrary:?}");
                        break;
                    }
                    Err(status) => {
                        assert!(
                            matches!(
                                status.code(),
                                Code::InvalidArgument | Code::FailedPrecondition
                            ),
                            "{arbitrary:?}: {status:?}"
                        );
                        let after = spectator_view(&mut client, &player.game).await;
                        assert_eq!(after, before, "a refusal changed the game");
                        refused += 1;
                    }
                }
            }
        }
    }
    assert!(
        refused > played,
        "{refused} arbitrary moves refused, {played} played"
    );
    still_serving(&mut client).await;
}

// ------------------------------------------------------------------------------------------
// Tokens.

/// Collects how a token abuse went: every refusal, and every token sent.
#[derive(Default)]
struct Abuse {
    refusals: usize,
    tokens: Vec<String>,
}

impl Abuse {
    /// Checks that `result` was refused with `code`, and that the refusal does not echo the
    /// token sent (if any).
    fn refused<T: std::fmt::Debug>(
        &mut self,
        result: Result<T, Status>,
        code: Code,
        token: Option<&str>,
    ) {
        let status = result.expect_err("refused");
        assert_eq!(status.code(), code, "{status:?}");
        if let Some(token) = token {
            assert!(!status.message().contains(token), "{status:?}");
            assert!(!String::from_utf8_lossy(status.details()).contains(token));
            self.tokens.push(token.to_owned());
        }
        self.refusals += 1;
    }
}

/// Every acting call and every read with `token` on `player`'s game.
async fn all_calls(
    client: &mut Client,
    abuse: &mut Abuse,
    game: &str,
    token: &str,
    code: Code,
    legal: &pb::Move,
) {
    let mv = pb::MakeMoveRequest {
        game_id: game.into(),
        action: Some(pb::make_move_request::Action::Move(legal.clone())),
        expected_version: None,
        ..Default::default()
    };
    abuse.refused(client.make_move(authed(mv, token)).await, code, Some(token));
    let resign = pb::ResignRequest {
        game_id: game.into(),
    };
    abuse.refused(
        client.resign(authed(resign, token)).await,
        code,
        Some(token),
    );
    let setup = pb::SubmitSetupRequest {
        game_id: game.into(),
        random: true,
        ..Default::default()
    };
    abuse.refused(
        client.submit_setup(authed(setup, token)).await,
        code,
        Some(token),
    );
    let view = pb::GetViewRequest {
        game_id: game.into(),
    };
    abuse.refused(
        client.get_view(authed(view, token)).await,
        code,
        Some(token),
    );
    let history = pb::GetHistoryRequest {
        game_id: game.into(),
        positions: true,
        ..Default::default()
    };
    abuse.refused(
        client.get_history(authed(history, token)).await,
        code,
        Some(token),
    );
    let watch = pb::WatchGameRequest {
        game_id: game.into(),
        after_version: None,
        ..Default::default()
    };
    abuse.refused(
        client.watch_game(authed(watch, token)).await,
        code,
        Some(token),
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn token_abuse_is_refused_and_logged_without_the_token() {
    let temp = tempfile::tempdir().expect("temp dir");
    let server = ChildServer::spawn(temp.path(), "debug", &[]).ready().await;
    let mut client = connect(server.addr).await;
    let players = new_game(&mut client, "frente").await;
    let other = new_game(&mut client, "clasico").await;
    random_setups(&mut client, &players).await;
    let snapshot = |client: &mut Client| {
        let mut client = client.clone();
        let players = players.clone();
        async move {
            [
                view_of(&mut client, &players[0]).await,
                view_of(&mut client, &players[1]).await,
                spectator_view(&mut client, &players[0].game).await,
            ]
        }
    };
    let before = snapshot(&mut client).await;
    let legal = before[0].legal_moves[0].r#move.clone().expect("a move");
    let game = players[0].game.clone();
    let mut abuse = Abuse::default();

    // Guessed tokens: well-formed random ones, near misses of the real ones, junk.
    let mut runner = TestRunner::deterministic();
    let mut guesses: Vec<String> = (0..scaled(20, 300))
        .map(|_| {
            let bytes = proptest::collection::vec(any::<u8>(), 24)
                .new_tree(&mut runner)
                .expect("bytes")
                .current();
            format!("tr1_{}", hex::encode(bytes))
        })
        .collect();
    for player in &players {
        let token = &player.token;
        guesses.push(token.to_uppercase());
        guesses.push(format!("{token}0"));
        guesses.push(token[..token.len() - 1].to_owned());
        guesses.push(token.replace("tr1_", "tr2_"));
    }
    guesses.push("x".repeat(4096));
    for guess in &guesses {
        all_calls(
            &mut client,
            &mut abuse,
            &game,
            guess,
            Code::Unauthenticated,
            &legal,
        )
        .await;
    }
    // Another game's token, both ways.
    for (token, game) in [
        (&other[0].token, &game),
        (&players[1].token, &other[0].game),
    ] {
        all_calls(
            &mut client,
            &mut abuse,
            game,
            token,
            Code::PermissionDenied,
            &legal,
        )
        .await;
    }
    // Acting for the other seat: seat 1 plays seat 0's listed move on seat 0's turn, and
    // on its own turn a move of a seat 0 piece.
    let mv = |action: &pb::Move| pb::MakeMoveRequest {
        game_id: game.clone(),
        action: Some(pb::make_move_request::Action::Move(action.clone())),
        expected_version: None,
        ..Default::default()
    };
    let result = client
        .make_move(authed(mv(&legal), &players[1].token))
        .await;
    assert!(
        result
            .as_ref()
            .is_err_and(|s| s.message().contains("Rojo to move"))
    );
    abuse.refused(result, Code::FailedPrecondition, Some(&players[1].token));
    // Spectators acting.
    let result = client.make_move(mv(&legal)).await;
    abuse.refused(result, Code::Unauthenticated, None);
    let result = client
        .resign(pb::ResignRequest {
            game_id: game.clone(),
        })
        .await;
    abuse.refused(result, Code::Unauthenticated, None);
    let result = client
        .submit_setup(pb::SubmitSetupRequest {
            game_id: other[0].game.clone(),
            random: true,
            ..Default::default()
        })
        .await;
    abuse.refused(result, Code::Unauthenticated, None);
    // Taking a taken seat.
    let result = client
        .join_game(pb::JoinGameRequest {
            game_id: game.clone(),
            player_name: "Intruso".into(),
        })
        .await;
    abuse.refused(result, Code::FailedPrecondition, None);
    assert_eq!(
        snapshot(&mut client).await,
        before,
        "the abuse changed nothing"
    );

    // Seat 0 moves; now seat 1 tries to move one of seat 0's pieces: nothing of theirs.
    let own = client
        .make_move(authed(mv(&legal), &players[0].token))
        .await
        .expect("the real move")
        .into_inner()
        .view
        .expect("view");
    let from = |action: &pb::Move| match &action.action {
        Some(pb::r#move::Action::Step(step)) => step.from,
        _ => None,
    };
    let theirs = before[0]
        .legal_moves
        .iter()
        .filter_map(|l| l.r#move.clone())
        .find(|other| from(other) != from(&legal))
        .expect("another piece can move");
    let result = client
        .make_move(authed(mv(&theirs), &players[1].token))
        .await;
    assert!(
        result
            .as_ref()
            .is_err_and(|s| s.message().contains("no piece of yours"))
    );
    abuse.refused(result, Code::FailedPrecondition, Some(&players[1].token));
    let after = snapshot(&mut client).await;
    assert_eq!(after[0].version, own.version, "only the real move counted");

    // Accounts: a session, a personal token, a wrong password, a forged account token.
    let mut accounts = account_client(server.addr).await;
    let ana = register(&mut accounts, "Ana").await;
    let script = create_token(&mut accounts, &ana, pb::TokenScope::Play, "script", 0).await;
    let wrong = accounts
        .login(pb::LoginRequest {
            name: "Ana".into(),
            password: "wrong horse".into(),
            label: String::new(),
        })
        .await;
    assert_eq!(wrong.expect_err("refused").code(), Code::Unauthenticated);
    let forged = format!("tra1_{}", "f".repeat(64));
    let forged_call = accounts
        .who_am_i(authed(pb::WhoAmIRequest {}, &forged))
        .await;
    assert_eq!(
        forged_call.expect_err("refused").code(),
        Code::Unauthenticated
    );

    // The log: every refusal is there, and no token, token hash, password or header is.
    let expected = abuse.refusals;
    let logs = eventually("every refusal is logged", async || {
        let lines = server.logs().lines();
        let refused = lines.iter().filter(|l| l.contains("refused")).count();
        (refused >= expected).then_some(lines)
    })
    .await;
    let text = logs.join("\n");
    assert!(text.contains("DEBUG"), "the server logged at debug level");
    let mut secrets = abuse.tokens.clone();
    for player in players.iter().chain(&other) {
        secrets.push(player.token.clone());
        secrets.push(player.token.trim_start_matches("tr1_").to_owned());
        secrets.push(hex::encode(Sha256::digest(player.token.as_bytes())));
    }
    for token in [&ana, &script.token, &forged] {
        secrets.push(token.clone());
        secrets.push(token.trim_start_matches("tra1_").to_owned());
        secrets.push(hex::encode(Sha256::digest(token.as_bytes())));
    }
    secrets.extend([PASSWORD.to_owned(), "wrong horse".to_owned()]);
    for secret in &secrets {
        assert!(
            !text.contains(secret.as_str()),
            "the log shows a token, its hash or a password: {secret}"
        );
    }
    server.kill().await;
}
