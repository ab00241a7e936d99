//! Transport limits under attack: WatchGame streams past the per-connection and per-peer
//! caps, connections past the per-peer cap, sockets that never send the HTTP/2 preface,
//! connections that stay idle, and peers behind a trusted proxy. Each attack is refused
//! or closed while another client is still served.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use bytes::Bytes;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_stream::StreamExt;
use tonic::transport::{Channel, Endpoint};
use tonic::{Code, Request, Streaming};
use trinchera_proto::v1 as pb;
use trinchera_service::NetConfig;

use crate::harness::{
    ChildServer, Client, TestServer, assert_refused, connect, eventually, heavy, new_game,
    play_quiet_move, random_setups, rng, scaled, scrape, within,
};

/// A second loopback address: a peer other than 127.0.0.1 (Linux routes all of 127/8 to lo).
const OTHER_PEER: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));

/// A client of `addr` whose connections come from `local`.
async fn connect_from(addr: SocketAddr, local: IpAddr) -> Client {
    let channel: Channel = Endpoint::from_shared(format!("http://{addr}"))
        .expect("uri")
        .local_address(Some(local))
        .connect()
        .await
        .expect("connects");
    Client::new(channel)
}

/// A spectator's WatchGame request for `game`, as if forwarded for `forwarded` (if any).
fn watch_request(game: &str, forwarded: Option<&str>) -> Request<pb::WatchGameRequest> {
    let mut request = Request::new(pb::WatchGameRequest {
        game_id: game.to_owned(),
        after_version: None,
        ..Default::default()
    });
    if let Some(forwarded) = forwarded {
        request
            .metadata_mut()
            .insert("x-forwarded-for", forwarded.parse().expect("ascii address"));
    }
    request
}

/// Opens a WatchGame stream and waits for its snapshot, so that the server holds it.
async fn try_watch(
    client: &mut Client,
    request: Request<pb::WatchGameRequest>,
) -> Result<Streaming<pb::WatchGameResponse>, tonic::Status> {
    let mut stream = within("an answer to WatchGame", client.watch_game(request))
        .await?
        .into_inner();
    let snapshot = within("the watch's snapshot", stream.next())
        .await
        .expect("a snapshot")?;
    assert!(snapshot.snapshot);
    Ok(stream)
}

/// A spectator stream of `game` that must be accepted.
async fn watch(client: &mut Client, game: &str) -> Streaming<pb::WatchGameResponse> {
    try_watch(client, watch_request(game, None))
        .await
        .expect("a watch under the caps")
}

/// Asserts that a watch was refused by the cap whose setting is `setting`.
fn assert_capped(result: Result<Streaming<pb::WatchGameResponse>, tonic::Status>, setting: &str) {
    let status = result.as_ref().map(|_| ()).expect_err("refused");
    assert!(status.message().contains(setting), "{status:?}");
    assert_refused(result, Code::ResourceExhausted, "LIMIT_EXCEEDED");
}

/// The next message of a live stream is an event (the stream still works).
async fn next_event(stream: &mut Streaming<pb::WatchGameResponse>) -> pb::WatchGameResponse {
    let message = within("the stream's next event", stream.next())
        .await
        .expect("the stream is open")
        .expect("a message");
    assert!(message.event.is_some(), "{message:?}");
    message
}

/// The server answers a plain call on `client`.
async fn serves(client: &mut Client) {
    within(
        "an answer to ListRulesets",
        client.list_rulesets(pb::ListRulesetsRequest {}),
    )
    .await
    .expect("served");
}

#[tokio::test(flavor = "multi_thread")]
async fn watch_streams_past_the_caps_are_refused_while_others_watch_and_call() {
    let per_connection = scaled(4, 256);
    let server = TestServer::start_net(NetConfig {
        max_watches_per_connection: per_connection,
        max_watches_per_peer: per_connection + 2,
        ..NetConfig::default()
    })
    .await;
    let mut player = server.client().await;
    let players = new_game(&mut player, "frente").await;
    let game = &players[0].game;

    let mut first = server.client().await;
    let mut held = Vec::new();
    for _ in 0..per_connection {
        held.push(watch(&mut first, game).await);
    }
    let over = try_watch(&mut first, watch_request(game, None)).await;
    assert_capped(over, "--max-watches-per-connection");
    serves(&mut first).await;

    // Another connection of the same peer gets what is left of the peer's cap.
    let mut second = server.client().await;
    let mut watching = watch(&mut second, game).await;
    let _also = watch(&mut second, game).await;
    let over = try_watch(&mut second, watch_request(game, None)).await;
    assert_capped(over, "--max-watches-per-peer");
    serves(&mut second).await;

    // Another peer is not held to this peer's cap.
    let mut other = connect_from(server.addr, OTHER_PEER).await;
    let mut elsewhere = watch(&mut other, game).await;

    // Every open stream still gets the game's events.
    random_setups(&mut player, &players).await;
    play_quiet_move(&mut player, &players, &mut rng(1)).await;
    for stream in [&mut watching, &mut elsewhere, &mut held[0]] {
        next_event(stream).await;
    }

    // A stream that ends gives its place back (once the server sees the reset).
    drop(held.pop());
    let _again = eventually("the freed place is given back", async || {
        match try_watch(&mut second, watch_request(game, None)).await {
            Ok(stream) => Some(stream),
            Err(status) if status.code() == Code::ResourceExhausted => None,
            Err(status) => panic!("{status:?}"),
        }
    })
    .await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_trusted_proxy_forwards_the_peer_its_clients_are_counted_as() {
    let per_peer = scaled(2, 200);
    let config = NetConfig {
        max_watches_per_peer: per_peer,
        trusted_proxies: vec![IpAddr::V4(Ipv4Addr::LOCALHOST)],
        ..NetConfig::default()
    };
    let server = TestServer::start_net(config.clone()).await;
    let mut client = server.client().await;
    let players = new_game(&mut client, "frente").await;
    let game = &players[0].game;
    let mut held = Vec::new();
    for _ in 0..per_peer {
        let request = watch_request(game, Some("203.0.113.1"));
        held.push(
            try_watch(&mut client, request)
                .await
                .expect("under the cap"),
        );
    }
    let over = try_watch(&mut client, watch_request(game, Some("203.0.113.1"))).await;
    assert_capped(over, "--max-watches-per-peer");
    let request = watch_request(game, Some("198.51.100.7, 203.0.113.2"));
    held.push(
        try_watch(&mut client, request)
            .await
            .expect("another client of the proxy"),
    );
    server.stop().await;

    // Without the trust, the header names nobody: every stream is the socket peer's.
    let server = TestServer::start_net(NetConfig {
        trusted_proxies: Vec::new(),
        ..config
    })
    .await;
    let mut client = server.client().await;
    let players = new_game(&mut client, "frente").await;
    let game = &players[0].game;
    let mut held = Vec::new();
    for forwarded in (0..per_peer).map(|n| format!("203.0.113.{n}")) {
        let request = watch_request(game, Some(&forwarded));
        held.push(
            try_watch(&mut client, request)
                .await
                .expect("under the cap"),
        );
    }
    let over = try_watch(&mut client, watch_request(game, Some("198.51.100.9"))).await;
    assert_capped(over, "--max-watches-per-peer");
    drop(held);
    server.stop().await;
}

/// A raw TCP connection to `addr` from `local`.
async fn tcp_from(addr: SocketAddr, local: IpAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().expect("socket");
    socket.bind(SocketAddr::new(local, 0)).expect("binds");
    socket.connect(addr).await.expect("connects")
}

/// Whether the server speaks HTTP/2 on `tcp`: its SETTINGS frame arrives. `false` if the
/// server closed the connection without a byte.
async fn greeted(tcp: &mut TcpStream) -> bool {
    let mut header = [0u8; 9];
    let read = within("the server answers or closes", tcp.read(&mut header)).await;
    matches!(read, Ok(n) if n > 0)
}

/// Reads until the server closes `tcp` (a reset counts); fails on a hang.
async fn closed_by_server(tcp: &mut TcpStream) {
    let mut sink = Vec::new();
    within(
        "the server closes the connection",
        tcp.read_to_end(&mut sink),
    )
    .await
    .ok();
}

#[tokio::test(flavor = "multi_thread")]
async fn connections_past_the_per_peer_cap_are_closed_while_other_peers_are_served() {
    let cap = scaled(3, 200);
    let server = TestServer::start_net(NetConfig {
        max_connections_per_peer: cap,
        ..NetConfig::default()
    })
    .await;
    let localhost = IpAddr::V4(Ipv4Addr::LOCALHOST);
    let mut held = Vec::new();
    for _ in 0..cap {
        let mut tcp = tcp_from(server.addr, localhost).await;
        assert!(greeted(&mut tcp).await, "under the cap");
        held.push(tcp);
    }
    let mut over = tcp_from(server.addr, localhost).await;
    assert!(!greeted(&mut over).await, "over the cap: closed at once");
    closed_by_server(&mut over).await;

    serves(&mut connect_from(server.addr, OTHER_PEER).await).await;

    // A connection that ends gives its place back (once the server sees it close).
    drop(held.pop());
    eventually("the freed place is given back", async || {
        let mut tcp = tcp_from(server.addr, localhost).await;
        greeted(&mut tcp).await.then_some(())
    })
    .await;
    drop(held);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn sockets_without_the_http2_preface_are_closed_after_the_preface_timeout() {
    let server = TestServer::start_net(NetConfig {
        preface_timeout: Duration::from_millis(300),
        ..NetConfig::default()
    })
    .await;
    let mut client = server.client().await;
    serves(&mut client).await;
    let mut silent = Vec::new();
    for n in 0..scaled(10, 500) {
        let mut tcp = TcpStream::connect(server.addr).await.expect("connects");
        if n % 2 == 1 {
            // Half of the preface, then nothing.
            tcp.write_all(b"PRI * HTTP/2.0\r\n").await.expect("writes");
        }
        silent.push(tcp);
    }
    for tcp in &mut silent {
        closed_by_server(tcp).await;
    }
    // The client that sent its preface long ago is still connected and served.
    serves(&mut client).await;
    server.stop().await;
}

/// A gRPC ListRulesets call on a raw HTTP/2 connection; waits for the whole answer.
async fn list_rulesets_raw(client: &mut h2::client::SendRequest<Bytes>, addr: SocketAddr) {
    let request = http::Request::builder()
        .method("POST")
        .uri(format!(
            "http://{addr}/trinchera.v1.GameService/ListRulesets"
        ))
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .body(())
        .expect("request");
    let (response, mut body) = client.send_request(request, false).expect("sent");
    body.send_data(Bytes::from_static(&[0, 0, 0, 0, 0]), true)
        .expect("sends an empty message");
    let mut response = within("an answer to ListRulesets", response)
        .await
        .expect("a response")
        .into_body();
    while let Some(chunk) = response.data().await {
        let chunk = chunk.expect("data");
        let _ = response.flow_control().release_capacity(chunk.len());
    }
    let trailers = response.trailers().await.expect("trailers").expect("some");
    assert_eq!(trailers.get("grpc-status").expect("status"), "0");
}

#[tokio::test(flavor = "multi_thread")]
async fn idle_connections_are_closed_but_not_while_a_watch_is_open() {
    let server = TestServer::start_net(NetConfig {
        idle_timeout: Duration::from_millis(500),
        ..NetConfig::default()
    })
    .await;
    let mut player = server.client().await;
    let players = new_game(&mut player, "frente").await;
    let mut watcher = server.client().await;
    let mut watching = watch(&mut watcher, &players[0].game).await;

    // A connection that made one call and then nothing, and one that never called.
    let mut idle = Vec::new();
    for calls in [1, 0] {
        let tcp = TcpStream::connect(server.addr).await.expect("connects");
        let (mut client, connection) = h2::client::handshake(tcp).await.expect("handshake");
        let ended = tokio::spawn(connection);
        for _ in 0..calls {
            list_rulesets_raw(&mut client, server.addr).await;
        }
        idle.push((client, ended));
    }
    for (_client, ended) in idle {
        let _ = within("the server closes an idle connection", ended)
            .await
            .expect("the connection task ran");
    }

    // The watcher's connection, older than those, is still open: its stream gets events.
    let mut player = server.client().await;
    random_setups(&mut player, &players).await;
    play_quiet_move(&mut player, &players, &mut rng(2)).await;
    next_event(&mut watching).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_server_binary_takes_its_limits_from_flags_and_logs_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let args = [
        "--max-watches-per-connection",
        "1",
        "--max-connections",
        "50",
        "--trusted-proxy",
        "192.0.2.1",
    ];
    let server = ChildServer::start_with(dir.path(), &args).await;
    let mut client = connect(server.addr).await;
    let players = new_game(&mut client, "frente").await;
    let _watching = watch(&mut client, &players[0].game).await;
    let over = try_watch(&mut client, watch_request(&players[0].game, None)).await;
    assert_capped(over, "--max-watches-per-connection");
    let logged = server.logs().lines();
    assert!(
        logged
            .iter()
            .any(|line| line.contains("connection limits") && line.contains("max_connections=50")),
        "{logged:#?}"
    );
    server.kill().await;
}

/// Waits until a new client of `addr` is served (a try that hangs counts as a failure:
/// the flood may hold the connection or the call).
async fn served_again(addr: SocketAddr) {
    let endpoint = Endpoint::from_shared(format!("http://{addr}")).expect("uri");
    let attempt = Duration::from_secs(10);
    eventually("a new client is served", async || {
        let channel = tokio::time::timeout(attempt, endpoint.connect())
            .await
            .ok()?
            .ok()?;
        let mut client = Client::new(channel);
        let call = client.list_rulesets(pb::ListRulesetsRequest {});
        tokio::time::timeout(attempt, call).await.ok()?.ok()
    })
    .await;
}

/// Opens `count` connections to `addr` that send nothing.
async fn silent_flood(addr: SocketAddr, count: usize) -> Vec<TcpStream> {
    let mut flood = Vec::with_capacity(count);
    for _ in 0..count {
        flood.push(TcpStream::connect(addr).await.expect("connects"));
    }
    flood
}

/// The open-files limit of a server under a flood, and the flood: 1,100 sockets against
/// `ulimit -n 1024` locked every client out for good before the caps.
fn fd_limit_and_flood() -> (u64, usize) {
    if heavy() { (1024, 1100) } else { (128, 150) }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_silent_flood_at_a_low_fd_limit_is_capped_and_new_clients_get_in_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (fds, flood) = fd_limit_and_flood();
    let args = ["--preface-timeout-secs", "1"];
    let server = ChildServer::start_with_fd_limit(dir.path(), fds, &args).await;
    server
        .logs()
        .wait_for(&format!("max_connections={}", fds / 4 * 3))
        .await;
    let flood = silent_flood(server.addr, flood).await;
    // At the cap the longest idle sockets make room (a few closing at a time), or new ones
    // are closed at once; the rest are closed at the preface timeout. New clients get in,
    // and the descriptors never run out.
    served_again(server.addr).await;
    let logs = server.logs().lines();
    assert!(
        !logs.iter().any(|line| line.contains("cannot accept")),
        "{}",
        logs.join("\n")
    );
    drop(flood);
    server.kill().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn accept_errors_at_the_fd_limit_back_off_and_the_server_recovers() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (fds, flood) = fd_limit_and_flood();
    // No connection cap below the descriptor limit: accept itself fails (EMFILE).
    let args = [
        "--max-connections",
        "100000",
        "--max-connections-per-peer",
        "100000",
    ];
    let server = ChildServer::start_with_fd_limit(dir.path(), fds, &args).await;
    let flood = silent_flood(server.addr, flood).await;
    server
        .logs()
        .wait_for("cannot accept connections; backing off")
        .await;
    // The flood goes on failing to be accepted for a while: this lets it, to show that the
    // burst is reported once (the warning is rate-limited to one per 10 s).
    tokio::time::sleep(Duration::from_millis(500)).await;
    let warnings = server
        .logs()
        .lines()
        .iter()
        .filter(|line| line.contains("backing off"))
        .count();
    assert_eq!(warnings, 1, "one warning for the whole burst of errors");
    drop(flood);
    served_again(server.addr).await;
    server.kill().await;
}

/// The metrics and admin listeners hold few connections and close idle ones: a flood of
/// silent connections to them, at a low descriptor limit, neither starves the players nor
/// floods the log, and a scrape still gets in.
#[tokio::test(flavor = "multi_thread")]
async fn side_listeners_under_a_silent_flood_leave_the_players_served() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (fds, flood) = if heavy() { (1024, 4000) } else { (256, 400) };
    let args = [
        "--metrics-listen",
        "127.0.0.1:0",
        "--admin-listen",
        "127.0.0.1:0",
    ];
    let server = ChildServer::start_with_fd_limit(dir.path(), fds, &args).await;
    let metrics = server.side_address("Prometheus metrics").await;
    let admin = server.side_address("admin service").await;
    // From many addresses (127.0.0.2 and on), so that the total cap is met, not only the
    // per-address one.
    let mut at_sides = Vec::new();
    for (n, side) in std::iter::repeat_n(metrics, flood)
        .chain(std::iter::repeat_n(admin, flood / 4))
        .enumerate()
    {
        let local = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2 + (n % 100) as u8));
        at_sides.push(tcp_from(side, local).await);
    }
    let mut player = connect(server.addr).await;
    let players = new_game(&mut player, "frente").await;
    random_setups(&mut player, &players).await;
    play_quiet_move(&mut player, &players, &mut rng(3)).await;
    // At its cap the metrics listener closes the longest idle connection for the scrape.
    let text = within("a scrape gets in", scrape(metrics)).await;
    let logs = || server.logs().lines().join("\n");
    assert!(text.contains("trinchera_build_info"), "{text}\n{}", logs());
    let warnings = server
        .logs()
        .lines()
        .iter()
        .filter(|line| line.contains("WARN"))
        .count();
    assert!(warnings <= 2, "{}", logs());
    drop(at_sides);
    server.kill().await;
}

/// At the connection cap, an idle connection makes room for a new client at once; a
/// connection with a stream open is never the one closed.
#[tokio::test(flavor = "multi_thread")]
async fn at_the_connection_cap_an_idle_connection_makes_room() {
    let cap = 6;
    let server = TestServer::start_net(NetConfig {
        max_connections: cap,
        ..NetConfig::default()
    })
    .await;
    let mut watcher = server.client().await;
    let players = new_game(&mut watcher, "frente").await;
    let mut watching = watch(&mut watcher, &players[0].game).await;
    let mut idle = Vec::new();
    let mut closings = tokio::task::JoinSet::new();
    for _ in 1..cap {
        let tcp = TcpStream::connect(server.addr).await.expect("connects");
        let (mut client, connection) = h2::client::handshake(tcp).await.expect("handshake");
        closings.spawn(connection);
        list_rulesets_raw(&mut client, server.addr).await;
        idle.push(client);
    }
    let mut newcomer = within("a new client gets in at the cap", server.client()).await;
    serves(&mut newcomer).await;
    // Which idle one the server takes depends on when it saw each call end (a call's end
    // may be noted after its reply reached the client); the order is the unit test's.
    within("an idle connection is closed", closings.join_next())
        .await
        .expect("one of them ended")
        .expect("its task ran")
        .ok();
    random_setups(&mut newcomer, &players).await;
    play_quiet_move(&mut newcomer, &players, &mut rng(4)).await;
    next_event(&mut watching).await;
    server.stop().await;
}
