//! Running the server on a network, with the real binary: TLS (a trusted client plays, an
//! untrusted one is refused, client certificates, a certificate reloaded on SIGHUP under an
//! open stream), Prometheus metrics, JSON logs with request ids and no tokens, the drain on
//! SIGTERM, and the configuration's checks.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair, KeyUsagePurpose,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Identity};
use trinchera_proto::admin::v1::ExportGamesRequest;
use trinchera_proto::admin::v1::admin_service_client::AdminServiceClient;
use trinchera_proto::v1 as pb;
use trinchera_proto::v1::game_service_client::GameServiceClient;

use crate::harness::{
    ChildServer, Client, authed, connect, eventually, new_game, play_random_move, random_setups,
    rng, scaled, scrape, spectator_view, try_play_random_move, within,
};

/// A certificate authority for a test, writing the PEM files of what it signs into a
/// directory.
struct TestCa {
    issuer: CertifiedIssuer<'static, KeyPair>,
    dir: PathBuf,
    name: &'static str,
}

impl TestCa {
    /// A new CA named `name` with its files in `dir`.
    fn new(dir: &Path, name: &'static str) -> TestCa {
        let mut params = CertificateParams::new(Vec::<String>::new()).expect("params");
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![
            KeyUsagePurpose::KeyCertSign,
            KeyUsagePurpose::DigitalSignature,
        ];
        params
            .distinguished_name
            .push(DnType::CommonName, format!("Trinchera test CA {name}"));
        let key = KeyPair::generate().expect("a key");
        let issuer = CertifiedIssuer::self_signed(params, key).expect("a CA");
        std::fs::write(dir.join(format!("{name}-ca.pem")), issuer.pem()).expect("written");
        TestCa {
            issuer,
            dir: dir.to_owned(),
            name,
        }
    }

    /// The CA's certificate file.
    fn ca(&self) -> PathBuf {
        self.dir.join(format!("{}-ca.pem", self.name))
    }

    /// The CA's certificate, for a client to trust.
    fn trusted(&self) -> Certificate {
        Certificate::from_pem(self.issuer.pem())
    }

    /// A certificate for `names` signed by the CA, and its key, as PEM.
    fn sign(&self, names: &[&str]) -> (String, String) {
        let names: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
        let params = CertificateParams::new(names).expect("params");
        let key = KeyPair::generate().expect("a key");
        let cert = params.signed_by(&key, &self.issuer).expect("signed");
        (cert.pem(), key.serialize_pem())
    }

    /// A server certificate for 127.0.0.1 and localhost written to `cert` and `key`.
    fn server_files(&self, cert: &Path, key: &Path) {
        let (pem, key_pem) = self.sign(&["localhost", "127.0.0.1"]);
        std::fs::write(cert, pem).expect("written");
        std::fs::write(key, key_pem).expect("written");
    }
}

/// A client of `server` over TLS, trusting `ca`, presenting `identity` if given.
async fn tls_client(
    server: &ChildServer,
    ca: &TestCa,
    identity: Option<(String, String)>,
) -> Result<Client, tonic::transport::Error> {
    let mut tls = ClientTlsConfig::new()
        .ca_certificate(ca.trusted())
        .domain_name("localhost");
    if let Some((cert, key)) = identity {
        tls = tls.identity(Identity::from_pem(cert, key));
    }
    let channel = Channel::from_shared(format!("https://localhost:{}", server.addr.port()))
        .expect("uri")
        .tls_config(tls)?
        .connect()
        .await?;
    Ok(GameServiceClient::new(channel))
}

/// Creates a tanques game (no setups) on `client` and plays `moves` random moves.
async fn play(client: &mut Client, moves: usize) -> [crate::harness::Player; 2] {
    let players = new_game(client, "tanques").await;
    let mut rng = rng(5);
    for _ in 0..moves {
        play_random_move(client, &players, &mut rng).await;
    }
    players
}

#[tokio::test(flavor = "multi_thread")]
async fn tls_serves_trusted_clients_and_reloads_its_certificate_on_sighup() {
    let dir = tempfile::tempdir().expect("temp dir");
    let first = TestCa::new(dir.path(), "first");
    let (cert, key) = (dir.path().join("server.pem"), dir.path().join("server.key"));
    first.server_files(&cert, &key);
    let data = dir.path().join("data");
    let server = ChildServer::start_with(
        &data,
        &[
            "--tls-cert",
            cert.to_str().expect("utf-8"),
            "--tls-key",
            key.to_str().expect("utf-8"),
        ],
    )
    .await;
    let mut trusted = tls_client(&server, &first, None).await.expect("handshake");
    let players = play(&mut trusted, 3).await;
    // A client that trusts another CA is refused: no fallback to plaintext.
    let stranger = TestCa::new(dir.path(), "stranger");
    let refused = tls_client(&server, &stranger, None)
        .await
        .map(drop)
        .expect_err("an untrusted certificate");
    let words = format!("{refused:?}");
    assert!(
        words.contains("certificate") || words.contains("Unknown"),
        "{words}"
    );
    // Plaintext on the TLS port gets nowhere.
    let plain = connect_plain(server.addr).await;
    assert!(plain.is_err(), "plaintext HTTP/2 on a TLS port");
    // A watch stream stays open while the certificate changes under it.
    let mut stream = trusted
        .watch_game(pb::WatchGameRequest {
            game_id: players[0].game.clone(),
            after_version: None,
            ..Default::default()
        })
        .await
        .expect("watches")
        .into_inner();
    stream.message().await.expect("snapshot").expect("one");
    let second = TestCa::new(dir.path(), "second");
    second.server_files(&cert, &key);
    server.signal("HUP");
    server.logs().wait_for("reloaded the TLS certificate").await;
    let mut renewed = tls_client(&server, &second, None)
        .await
        .expect("new connections get the new certificate");
    play_random_move(&mut renewed, &players, &mut rng(9)).await;
    let moved = within("the old stream's next event", stream.message())
        .await
        .expect("a message")
        .expect("an event");
    assert!(moved.event.is_some());
    // A bad new file keeps the identity that works.
    std::fs::write(&cert, "not a certificate").expect("written");
    server.signal("HUP");
    server.logs().wait_for("kept the old TLS certificate").await;
    tls_client(&server, &second, None)
        .await
        .expect("the old certificate is kept");
    server.kill().await;
}

/// A plaintext gRPC client of `addr`, asking for the rulesets.
async fn connect_plain(addr: std::net::SocketAddr) -> Result<(), tonic::Status> {
    let channel = Channel::from_shared(format!("http://{addr}"))
        .expect("uri")
        .connect_timeout(Duration::from_secs(2))
        .timeout(Duration::from_secs(2))
        .connect_lazy();
    GameServiceClient::new(channel)
        .list_rulesets(pb::ListRulesetsRequest {})
        .await
        .map(drop)
}

/// `trinchera-server ARGS…` with no environment: its exit code and stderr.
fn server_command(args: &[&str]) -> (Option<i32>, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_trinchera-server"))
        .args(args)
        .env_clear()
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code(), stderr)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_tls_server_is_health_checked_through_its_loopback_admin_service() {
    // A certificate for the server's host name, as a real deployment has: it does not
    // name 127.0.0.1, so a check over TLS from the machine itself cannot verify it.
    let dir = tempfile::tempdir().expect("temp dir");
    let ca = TestCa::new(dir.path(), "site");
    let (pem, key_pem) = ca.sign(&["trinchera.example"]);
    let (cert, key) = (dir.path().join("server.pem"), dir.path().join("server.key"));
    std::fs::write(&cert, pem).expect("written");
    std::fs::write(&key, key_pem).expect("written");
    let (cert, key) = (cert.to_str().expect("utf-8"), key.to_str().expect("utf-8"));
    let admin = format!("127.0.0.1:{}", free_port());
    let tls = ["--tls-cert", cert, "--tls-key", key];
    let server = ChildServer::start_with(
        &dir.path().join("data"),
        &[&tls[..], &["--admin-listen", &admin]].concat(),
    )
    .await;
    let listen = server.addr.to_string();
    let settings = [&tls[..], &["--listen", &listen]].concat();

    // The configured check asks the admin service on loopback, in plaintext (once it
    // listens: it starts beside the game port).
    server.side_address("admin service").await;
    let check = [&settings[..], &["--admin-listen", &admin, "health"]].concat();
    let answer = server_command(&check);
    assert_eq!(answer.0, Some(0), "{}", answer.1);
    // Without it, the check over TLS fails and says what to set.
    let (code, words) =
        server_command(&[&settings[..], &["health", "--timeout-secs", "2"]].concat());
    assert_eq!(code, Some(1), "{words}");
    assert!(
        words.contains("set admin.listen to a loopback address"),
        "{words}"
    );

    // --check-config reads the TLS files it names: a bad one fails the check, not the
    // next start.
    assert_eq!(
        server_command(&[&tls[..], &["--check-config"]].concat()).0,
        Some(0)
    );
    let (code, words) = server_command(&["--check-config", "--tls-cert", key, "--tls-key", key]);
    assert_eq!(code, Some(2), "{words}");
    assert!(words.contains(key), "the file is named: {words}");
    server.kill().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn client_certificates_are_asked_for_when_a_client_ca_is_set() {
    let dir = tempfile::tempdir().expect("temp dir");
    let servers = TestCa::new(dir.path(), "servers");
    let clients = TestCa::new(dir.path(), "clients");
    let (cert, key) = (dir.path().join("server.pem"), dir.path().join("server.key"));
    servers.server_files(&cert, &key);
    let server = ChildServer::start_with(
        &dir.path().join("data"),
        &[
            "--tls-cert",
            cert.to_str().expect("utf-8"),
            "--tls-key",
            key.to_str().expect("utf-8"),
            "--tls-client-ca",
            clients.ca().to_str().expect("utf-8"),
        ],
    )
    .await;
    let mut with_identity = tls_client(&server, &servers, Some(clients.sign(&["ana"])))
        .await
        .expect("a client certificate");
    play(&mut with_identity, 1).await;
    let outsider = TestCa::new(dir.path(), "outsider");
    for identity in [None, Some(outsider.sign(&["mallory"]))] {
        let refused = match tls_client(&server, &servers, identity).await {
            Err(error) => Err(format!("{error:?}")),
            Ok(mut client) => client
                .list_rulesets(pb::ListRulesetsRequest {})
                .await
                .map(drop)
                .map_err(|status| format!("{status:?}")),
        };
        assert!(
            refused.is_err(),
            "no trusted client certificate, no service"
        );
    }
    server.kill().await;
}

/// The admin service at `addr` over TLS, trusting `ca`, presenting `identity`.
async fn admin_client(
    addr: std::net::SocketAddr,
    ca: &TestCa,
    identity: (String, String),
) -> Result<AdminServiceClient<Channel>, tonic::transport::Error> {
    let tls = ClientTlsConfig::new()
        .ca_certificate(ca.trusted())
        .domain_name("localhost")
        .identity(Identity::from_pem(identity.0, identity.1));
    let channel = Channel::from_shared(format!("https://localhost:{}", addr.port()))
        .expect("uri")
        .tls_config(tls)?
        .connect()
        .await?;
    Ok(AdminServiceClient::new(channel))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_players_certificate_does_not_open_the_admin_service() {
    let dir = tempfile::tempdir().expect("temp dir");
    let servers = TestCa::new(dir.path(), "servers");
    let players = TestCa::new(dir.path(), "players");
    let operators = TestCa::new(dir.path(), "operators");
    let (cert, key) = (dir.path().join("server.pem"), dir.path().join("server.key"));
    servers.server_files(&cert, &key);
    let (players_ca, operators_ca) = (players.ca(), operators.ca());
    let tls = [
        "--tls-cert",
        cert.to_str().expect("utf-8"),
        "--tls-key",
        key.to_str().expect("utf-8"),
        "--tls-client-ca",
        players_ca.to_str().expect("utf-8"),
    ];
    // The players' CA is not enough for an admin service on a network address.
    let exposed = [
        &tls[..],
        &["--check-config", "--admin-listen", "0.0.0.0:50052"],
    ]
    .concat();
    let (code, words) = server_command(&exposed);
    assert_eq!(code, Some(2), "{words}");
    assert!(words.contains("admin.client_ca"), "{words}");
    let admin_ca = ["--admin-client-ca", operators_ca.to_str().expect("utf-8")];
    let server = ChildServer::start_with(
        &dir.path().join("data"),
        &[&tls[..], &admin_ca, &["--admin-listen", "127.0.0.1:0"]].concat(),
    )
    .await;
    let admin = server.side_address("admin service").await;
    let mut player = tls_client(&server, &servers, Some(players.sign(&["ana"])))
        .await
        .expect("a player's certificate opens the game port");
    play(&mut player, 1).await;
    let refused = match admin_client(admin, &servers, players.sign(&["ana"])).await {
        Err(error) => Err(format!("{error:?}")),
        Ok(mut client) => client
            .export_games(ExportGamesRequest {})
            .await
            .map(drop)
            .map_err(|status| format!("{status:?}")),
    };
    assert!(refused.is_err(), "a player's certificate exports nothing");
    let mut operator = admin_client(admin, &servers, operators.sign(&["ops"]))
        .await
        .expect("an operator's certificate opens the admin service");
    let mut export = operator
        .export_games(ExportGamesRequest {})
        .await
        .expect("exports")
        .into_inner();
    let mut lines = 0;
    while let Some(response) = export.message().await.expect("reads") {
        lines += response.lines.len();
    }
    assert_eq!(lines, 3, "header, the game, end");
    server.kill().await;
}

/// Connections that finish their TLS handshake and then say nothing are closed at the
/// preface timeout, like plaintext ones, while a player is served.
#[tokio::test(flavor = "multi_thread")]
async fn silent_tls_connections_are_closed_after_the_preface_timeout() {
    let dir = tempfile::tempdir().expect("temp dir");
    let servers = TestCa::new(dir.path(), "servers");
    let (cert, key) = (dir.path().join("server.pem"), dir.path().join("server.key"));
    servers.server_files(&cert, &key);
    let server = ChildServer::start_with(
        &dir.path().join("data"),
        &[
            "--tls-cert",
            cert.to_str().expect("utf-8"),
            "--tls-key",
            key.to_str().expect("utf-8"),
            "--preface-timeout-secs",
            "1",
            // The heavy variant opens 500 from one address: above the per-peer cap of 256.
            "--max-connections-per-peer",
            "1000",
        ],
    )
    .await;
    let mut roots = rustls::RootCertStore::empty();
    use rustls::pki_types::pem::PemObject as _;
    let ca = rustls::pki_types::CertificateDer::from_pem_slice(servers.issuer.pem().as_bytes())
        .expect("the CA's certificate");
    roots.add(ca).expect("trusted");
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("versions")
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"h2".to_vec()];
    let connector = tokio_rustls::TlsConnector::from(std::sync::Arc::new(config));
    let name = rustls::pki_types::ServerName::try_from("localhost").expect("a name");
    let mut silent = Vec::new();
    for _ in 0..scaled(50, 500) {
        let tcp = tokio::net::TcpStream::connect(server.addr)
            .await
            .expect("connects");
        let stream = connector
            .connect(name.clone(), tcp)
            .await
            .expect("the handshake completes");
        silent.push(stream);
    }
    let mut player = tls_client(&server, &servers, None).await.expect("connects");
    play(&mut player, 1).await;
    for stream in &mut silent {
        // The server's HTTP/2 settings come first; then the connection ends.
        let mut sink = Vec::new();
        let _ = within(
            "the server closes a silent connection",
            stream.read_to_end(&mut sink),
        )
        .await;
    }
    server.kill().await;
}

/// A free loopback port.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port()
}

/// The value of the sample `name{labels}` in Prometheus text, 0 if absent.
fn sample(text: &str, name: &str, labels: &[(&str, &str)]) -> f64 {
    text.lines()
        .filter(|line| line.starts_with(name) && !line.starts_with('#'))
        .filter(|line| {
            labels
                .iter()
                .all(|(key, value)| line.contains(&format!("{key}=\"{value}\"")))
        })
        .filter_map(|line| line.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

#[tokio::test(flavor = "multi_thread")]
async fn metrics_count_moves_calls_and_refusals() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = ChildServer::start_with(
        dir.path(),
        &[
            "--metrics-listen",
            "127.0.0.1:0",
            "--no-rate-limits=false",
            "--actions-per-second=1",
            "--actions-burst=2",
        ],
    )
    .await;
    let metrics = server.side_address("Prometheus metrics").await;
    let mut client = connect(server.addr).await;
    let players = new_game(&mut client, "asalto").await;
    // Two setups, then acting calls past the burst of two are refused.
    let mut refusals = 0;
    for _ in 0..4 {
        let resigned = client
            .resign(authed(
                pb::ResignRequest {
                    game_id: players[0].game.clone(),
                },
                "not a token of this game",
            ))
            .await;
        assert!(resigned.is_err());
        let setup = client
            .submit_setup(authed(
                pb::SubmitSetupRequest {
                    game_id: players[1].game.clone(),
                    random: true,
                    ..Default::default()
                },
                &players[1].token,
            ))
            .await;
        if let Err(status) = setup
            && status.code() == tonic::Code::ResourceExhausted
        {
            refusals += 1;
        }
    }
    assert!(refusals > 0, "the rate limit was met");
    let text = scrape(metrics).await;
    assert!(text.contains("trinchera_build_info{"), "{text}");
    let refused = sample(
        &text,
        "trinchera_refusals_total",
        &[("limit", "--actions-per-second")],
    );
    assert_eq!(refused, f64::from(refusals), "{text}");
    let unauthenticated = sample(
        &text,
        "trinchera_requests_total",
        &[("rpc", "Resign"), ("code", "UNAUTHENTICATED")],
    );
    assert_eq!(unauthenticated, 4.0, "{text}");
    assert!(
        sample(&text, "trinchera_store_commit_batch_size_count", &[]) >= 3.0,
        "{text}"
    );
    assert!(
        text.contains("trinchera_request_duration_seconds_bucket"),
        "{text}"
    );
    assert!(text.contains("trinchera_connections"), "{text}");
    server.kill().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn metrics_count_committed_moves_by_ruleset() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = ChildServer::start_with(dir.path(), &["--metrics-listen", "127.0.0.1:0"]).await;
    let metrics = server.side_address("Prometheus metrics").await;
    let mut client = connect(server.addr).await;
    play(&mut client, 5).await;
    let text = scrape(metrics).await;
    let moves = sample(
        &text,
        "trinchera_moves_committed_total",
        &[("ruleset", "tanques")],
    );
    assert_eq!(moves, 5.0, "{text}");
    let made = sample(
        &text,
        "trinchera_requests_total",
        &[("rpc", "MakeMove"), ("code", "OK")],
    );
    assert_eq!(made, 5.0, "{text}");
    server.kill().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn json_logs_carry_request_ids_and_never_a_token() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = ChildServer::spawn(
        dir.path(),
        "info",
        &[
            "--log-format",
            "json",
            "--log-filter",
            "info,trinchera_service=debug",
        ],
    )
    .ready()
    .await;
    let mut client = connect(server.addr).await;
    let players = play(&mut client, 2).await;
    let mut request = tonic::Request::new(pb::GetViewRequest {
        game_id: players[0].game.clone(),
    });
    request
        .metadata_mut()
        .insert("x-request-id", "test-request-42".parse().expect("ascii"));
    let viewed = client.get_view(request).await.expect("a view");
    assert_eq!(
        viewed
            .metadata()
            .get("x-request-id")
            .map(|v| v.to_str().ok()),
        Some(Some("test-request-42")),
        "the request id comes back"
    );
    let generated = client
        .get_view(pb::GetViewRequest {
            game_id: players[0].game.clone(),
        })
        .await
        .expect("a view");
    assert!(
        generated.metadata().get("x-request-id").is_some(),
        "one is made"
    );
    // A guessed token: refused, and logged at warn with the request id as a field of its
    // own (so that it shows at the default level too, where calls have no span).
    let mut guessed = authed(
        pb::GetViewRequest {
            game_id: players[0].game.clone(),
        },
        "tr1_0123456789abcdef0123456789abcdef0123456789abcdef",
    );
    guessed
        .metadata_mut()
        .insert("x-request-id", "test-request-43".parse().expect("ascii"));
    let refused = client.get_view(guessed).await.expect_err("a guessed token");
    assert_eq!(refused.code(), tonic::Code::Unauthenticated);
    // The refusal's line, and the call lines before it (a call is logged as it ends).
    let lines = eventually("the refusal and the tagged call are logged", async || {
        let lines = server.logs().lines();
        let logged = |words: [&str; 2]| {
            lines
                .iter()
                .any(|line| words.iter().all(|word| line.contains(word)))
        };
        let both =
            logged(["test-request-43", "refused"]) && logged(["test-request-42", "\"call\""]);
        both.then_some(lines)
    })
    .await;
    let mut calls = Vec::new();
    for line in &lines {
        let value: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|error| panic!("not JSON ({error}): {line}"));
        assert!(
            value.get("timestamp").is_some() && value.get("level").is_some(),
            "{line}"
        );
        for player in &players {
            assert!(!line.contains(&player.token), "a token in the logs: {line}");
        }
        if value.get("message").and_then(|m| m.as_str()) == Some("call") {
            calls.push(value);
        }
    }
    let warned = lines
        .iter()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .find(|line| line["message"] == "refused" && line["request_id"] == "test-request-43")
        .unwrap_or_else(|| panic!("no refusal with the request id: {lines:?}"));
    assert_eq!(warned["level"], "WARN");
    assert_eq!(warned["rpc"], "GetView");
    assert_eq!(warned["peer"], "127.0.0.1");
    let created = lines
        .iter()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .find(|line| line["message"] == "game created")
        .expect("a game created");
    assert_eq!(created["level"], "INFO");
    assert!(
        created["request_id"]
            .as_str()
            .is_some_and(|id| !id.is_empty())
    );
    let tagged = calls
        .iter()
        .find(|call| call["span"]["request_id"] == "test-request-42")
        .unwrap_or_else(|| panic!("no call line with the request id: {calls:?}"));
    assert_eq!(tagged["span"]["method"], "GetView");
    assert_eq!(tagged["span"]["game_id"], players[0].game.as_str());
    assert_eq!(tagged["span"]["peer"], "127.0.0.1");
    assert!(tagged.get("duration_ms").is_some() && tagged.get("code").is_some());
    assert!(
        calls
            .iter()
            .any(|call| call["span"]["method"] == "MakeMove")
    );
    server.kill().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn sigterm_drains_ends_streams_and_loses_no_acknowledged_move() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The drain time ends the health watch below, which never ends by itself; it is long
    // enough for the game's watch to end first even on a loaded machine.
    let server = ChildServer::start_with(dir.path(), &["--drain-secs", "8"]).await;
    let addr = server.addr;
    let mut client = connect(addr).await;
    let players = play(&mut client, 4).await;
    let version = spectator_view(&mut client, &players[0].game).await.version;
    let mut stream = client
        .watch_game(pb::WatchGameRequest {
            game_id: players[0].game.clone(),
            after_version: Some(version),
            ..Default::default()
        })
        .await
        .expect("watches")
        .into_inner();
    let channel = Channel::from_shared(format!("http://{addr}"))
        .expect("uri")
        .connect()
        .await
        .expect("connects");
    let mut health = tonic_health::pb::health_client::HealthClient::new(channel);
    let mut statuses = health
        .watch(tonic_health::pb::HealthCheckRequest {
            service: String::new(),
        })
        .await
        .expect("health watch")
        .into_inner();
    let first = statuses.message().await.expect("a status").expect("one");
    assert_eq!(
        first.status,
        tonic_health::pb::health_check_response::ServingStatus::Serving as i32
    );
    // A player moves as fast as the server answers, across the signal: the last move
    // acknowledged, and the refusal that ends the loop.
    let busy = new_game(&mut client, "frente").await;
    random_setups(&mut client, &busy).await;
    let set_up = spectator_view(&mut client, &busy[0].game).await.version;
    let mover = {
        let (mut client, busy) = (client.clone(), busy.clone());
        tokio::spawn(async move {
            let (mut rng, mut acknowledged) = (rng(9), 0);
            loop {
                match try_play_random_move(&mut client, &busy, &mut rng).await {
                    Ok(Some(reply)) => acknowledged = reply.view.expect("a view").version,
                    Ok(None) => return (acknowledged, None),
                    Err(status) => return (acknowledged, Some(status)),
                }
            }
        })
    };
    // The signal comes once the player has moved twice: a move is sent only once the one
    // before was acknowledged.
    eventually("the busy game moves twice", async || {
        let now = spectator_view(&mut client, &busy[0].game).await.version;
        (now >= set_up + 2).then_some(())
    })
    .await;
    server.signal("TERM");
    let next = within("the health status changes", statuses.message())
        .await
        .expect("a status")
        .expect("one");
    assert_eq!(
        next.status,
        tonic_health::pb::health_check_response::ServingStatus::NotServing as i32
    );
    let ended = within("the watch ends", stream.message())
        .await
        .expect_err("with a status");
    assert_eq!(ended.code(), tonic::Code::Unavailable, "{ended:?}");
    assert!(ended.message().contains("after_version"), "{ended:?}");
    let (acknowledged, refusal) = within("the mover is refused once the drain starts", mover)
        .await
        .expect("the mover");
    let refusal = refusal.expect("the game outlasted the moves before the signal");
    // A call that reached the server while it drained is refused with UNAVAILABLE; one
    // sent after the server's GOAWAY never reached it, and the client's transport says
    // so (CANCELLED, "connection closed"). Either way it was not made, and may be sent
    // again to a server that runs.
    assert!(
        matches!(
            refusal.code(),
            tonic::Code::Unavailable | tonic::Code::Cancelled
        ),
        "{refusal:?}"
    );
    assert!(
        acknowledged > set_up,
        "moves were acknowledged before the signal"
    );
    // The health watch above stays open: the drain time ends it.
    let logs = server.logs().clone();
    let status = server.exit().await;
    assert!(status.success(), "exit 0: {status:?}");
    let faults: Vec<String> = logs
        .lines()
        .into_iter()
        .filter(|line| line.contains("ERROR"))
        .collect();
    assert!(
        faults.is_empty(),
        "a clean start and stop logs no error: {faults:?}"
    );
    let server = ChildServer::start(dir.path()).await;
    let mut client = connect(server.addr).await;
    let after = spectator_view(&mut client, &players[0].game).await;
    assert_eq!(after.version, version, "every acknowledged move is kept");
    // The move in flight at the signal was refused or made; none acknowledged was lost.
    let kept = spectator_view(&mut client, &busy[0].game).await.version;
    assert!(
        (acknowledged..=acknowledged + 1).contains(&kept),
        "acknowledged {acknowledged}, kept {kept}"
    );
    server.kill().await;
}

#[test]
fn the_binary_layers_file_environment_and_flags_and_names_its_versions() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("trinchera.toml");
    std::fs::write(
        &file,
        "[limits]\nmax_open_games = 7\nmax_open_games_per_peer = 5\n\n[log]\nformat = \"json\"\n",
    )
    .expect("written");
    let file = file.to_str().expect("utf-8");
    let run = |env: &[(&str, &str)], args: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_trinchera-server"))
            .args(args)
            .env_clear()
            .envs(env.iter().copied())
            .output()
            .expect("runs");
        let text = String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr);
        (output.status.code(), text)
    };
    // The file by TRINCHERA_CONFIG, a key of it beaten by the environment, that one by a flag.
    let env = [
        ("TRINCHERA_CONFIG", file),
        ("TRINCHERA_MAX_OPEN_GAMES", "8"),
        ("TRINCHERA_MAX_OPEN_GAMES_PER_PEER", "6"),
    ];
    let (code, printed) = run(&env, &["--print-config", "--max-open-games-per-peer", "4"]);
    assert_eq!(code, Some(0), "{printed}");
    for (source, line) in [
        (format!("# from: {file} line 6"), "format = \"json\""),
        (
            "# from: environment variable TRINCHERA_MAX_OPEN_GAMES".to_owned(),
            "max_open_games = 8",
        ),
        (
            "# from: flag --max-open-games-per-peer".to_owned(),
            "max_open_games_per_peer = 4",
        ),
    ] {
        assert!(
            printed.contains(&format!("{source}\n{line}\n")),
            "{source} / {line}:\n{printed}"
        );
    }
    // --config names a file too; a key it does not know is an error naming file and line.
    std::fs::write(
        dir.path().join("bad.toml"),
        "[log]\nformat = \"json\"\nbogus = 1\n",
    )
    .expect("written");
    let bad = dir.path().join("bad.toml");
    let (code, words) = run(
        &[],
        &["--config", bad.to_str().expect("utf-8"), "--check-config"],
    );
    assert_eq!(code, Some(2), "{words}");
    assert!(
        words.contains("bad.toml line 3: unknown key log.bogus"),
        "{words}"
    );
    // --version names the API and the storage layout this build writes.
    let (code, version) = run(&[], &["--version"]);
    assert_eq!(code, Some(0));
    assert!(
        version.contains("API trinchera.v1") && version.contains("storage layout"),
        "{version}"
    );
}

#[tokio::test]
async fn the_printed_defaults_are_the_shipped_config_file() {
    let binary = env!("CARGO_BIN_EXE_trinchera-server");
    let printed = std::process::Command::new(binary)
        .arg("--print-config")
        .env_clear()
        .output()
        .expect("runs");
    assert!(printed.status.success());
    let shipped =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/trinchera.toml");
    let shipped = std::fs::read_to_string(&shipped).expect("deploy/trinchera.toml");
    assert_eq!(
        String::from_utf8_lossy(&printed.stdout),
        shipped,
        "deploy/trinchera.toml is `trinchera-server --print-config` with no settings \
         (regenerate it: env -i target/debug/trinchera-server --print-config > deploy/trinchera.toml)"
    );
    let check = |args: &[&str]| {
        std::process::Command::new(binary)
            .arg("--check-config")
            .args(args)
            .env_clear()
            .output()
            .expect("runs")
    };
    assert_eq!(check(&[]).status.code(), Some(0));
    let bad = check(&["--max-open-games", "many"]);
    assert_eq!(bad.status.code(), Some(2));
    let words = String::from_utf8_lossy(&bad.stderr);
    assert!(
        words.contains("flag --max-open-games (key limits.max_open_games)"),
        "{words}"
    );
}

/// An HTTP/1.1 connection of a test, with everything read from it so far.
struct Http1 {
    tcp: tokio::net::TcpStream,
    answer: Vec<u8>,
}

impl Http1 {
    /// Sends one request (`head` ends with its headers) with `body` to `addr`.
    async fn send(addr: std::net::SocketAddr, head: &str, body: &[u8]) -> Http1 {
        let mut tcp = tokio::net::TcpStream::connect(addr)
            .await
            .expect("connects");
        let mut request = head.as_bytes().to_vec();
        request.extend_from_slice(body);
        tcp.write_all(&request).await.expect("sends");
        Http1 {
            tcp,
            answer: Vec::new(),
        }
    }

    /// Reads until `enough` says so of the whole answer, or the server closes.
    async fn read_until(&mut self, enough: impl Fn(&[u8]) -> bool) {
        let mut buffer = [0u8; 4096];
        while !enough(&self.answer) {
            let read = within("more of the answer", self.tcp.read(&mut buffer))
                .await
                .expect("reads");
            if read == 0 {
                break;
            }
            self.answer.extend_from_slice(&buffer[..read]);
        }
    }
}

/// Sends one HTTP/1.1 request (`head` ends with its headers) with `body` to `addr` and
/// reads the answer until `enough` says so or the server closes.
async fn http1(
    addr: std::net::SocketAddr,
    head: &str,
    body: &[u8],
    enough: impl Fn(&[u8]) -> bool,
) -> Vec<u8> {
    let mut connection = Http1::send(addr, head, body).await;
    connection.read_until(enough).await;
    connection.answer
}

/// A gRPC-web request of `path` with the framed `message`, over HTTP/1.1.
fn grpc_web_head(path: &str, origin: &str, length: usize) -> String {
    format!(
        "POST {path} HTTP/1.1\r\nHost: test\r\nOrigin: {origin}\r\n\
         Content-Type: application/grpc-web+proto\r\nX-Grpc-Web: 1\r\n\
         Content-Length: {length}\r\n\r\n"
    )
}

/// `message` in a gRPC frame.
fn framed(message: &impl prost::Message) -> Vec<u8> {
    let encoded = message.encode_to_vec();
    let mut frame = vec![0];
    frame.extend((encoded.len() as u32).to_be_bytes());
    frame.extend(encoded);
    frame
}

#[tokio::test(flavor = "multi_thread")]
async fn grpc_web_answers_browsers_over_http1_streams_included() {
    let dir = tempfile::tempdir().expect("temp dir");
    let origin = "https://play.example.org";
    let server =
        ChildServer::start_with(dir.path(), &["--grpc-web", "--cors-origin", origin]).await;
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    // The browser's preflight.
    let preflight = http1(
        server.addr,
        &format!(
            "OPTIONS /trinchera.v1.GameService/ListRulesets HTTP/1.1\r\nHost: test\r\n\
             Origin: {origin}\r\nAccess-Control-Request-Method: POST\r\n\
             Access-Control-Request-Headers: content-type,x-grpc-web\r\nContent-Length: 0\r\n\r\n"
        ),
        b"",
        |answer| text(answer).contains("\r\n\r\n"),
    )
    .await;
    let preflight = text(&preflight).to_ascii_lowercase();
    assert!(preflight.starts_with("http/1.1 200"), "{preflight}");
    assert!(
        preflight.contains(&format!("access-control-allow-origin: {origin}")),
        "{preflight}"
    );
    // A unary call.
    let body = framed(&pb::ListRulesetsRequest {});
    let path = "/trinchera.v1.GameService/ListRulesets";
    let answer = http1(
        server.addr,
        &grpc_web_head(path, origin, body.len()),
        &body,
        |answer| text(answer).contains("grpc-status:0"),
    )
    .await;
    let words = text(&answer);
    assert!(
        words.contains("frente") && words.contains("grpc-status:0"),
        "{words}"
    );
    // A server stream: a game's watch over gRPC-web sends its snapshot at once, then each
    // move as it is made.
    let mut client = connect(server.addr).await;
    let players = play(&mut client, 1).await;
    let body = framed(&pb::WatchGameRequest {
        game_id: players[0].game.clone(),
        after_version: None,
        ..Default::default()
    });
    let path = "/trinchera.v1.GameService/WatchGame";
    let mut watch = Http1::send(server.addr, &grpc_web_head(path, origin, body.len()), &body).await;
    watch
        .read_until(|answer| text(answer).contains("tanques"))
        .await;
    assert!(
        text(&watch.answer).contains("tanques"),
        "the snapshot arrives: {}",
        text(&watch.answer)
    );
    let snapshot = watch.answer.len();
    let mut moves = rng(11);
    for _ in 0..2 {
        let made = play_random_move(&mut client, &players, &mut moves)
            .await
            .expect("the game goes on");
        let notation = made.event.expect("an event").notation;
        assert!(!notation.is_empty());
        let seen = watch.answer.len();
        watch
            .read_until(|answer| text(&answer[seen..]).contains(&notation))
            .await;
        assert!(
            text(&watch.answer[seen..]).contains(&notation),
            "the move {notation} arrives on the stream"
        );
    }
    assert!(watch.answer.len() > snapshot);
    server.kill().await;
}

/// gRPC-web is off unless asked for: a browser's HTTP/1.1 call gets no answer of the API,
/// while gRPC over HTTP/2 is served as ever.
#[tokio::test(flavor = "multi_thread")]
async fn grpc_web_is_off_by_default() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = ChildServer::start(dir.path()).await;
    let body = framed(&pb::ListRulesetsRequest {});
    let path = "/trinchera.v1.GameService/ListRulesets";
    let answer = http1(
        server.addr,
        &grpc_web_head(path, "https://play.example.org", body.len()),
        &body,
        |answer| !answer.is_empty(),
    )
    .await;
    let words = String::from_utf8_lossy(&answer);
    assert!(
        !words.contains("frente") && !words.contains("grpc-status:0"),
        "{words}"
    );
    let mut client = connect(server.addr).await;
    let rulesets = client
        .list_rulesets(pb::ListRulesetsRequest {})
        .await
        .expect("gRPC is served");
    assert!(!rulesets.into_inner().rulesets.is_empty());
    server.kill().await;
}

/// `--web`: the browser client on the gRPC port. GET and HEAD fetch its files (the index
/// for the app's own pages, gzip when taken, a 304 for a file the browser has), while
/// gRPC and gRPC-web (POSTs) are served as ever; a bundle that is not there is refused at
/// start and by --check-config, with how to build one.
#[tokio::test(flavor = "multi_thread")]
async fn the_browser_client_is_served_beside_grpc() {
    let dir = tempfile::tempdir().expect("temp dir");
    let site = dir.path().join("site");
    std::fs::create_dir(&site).expect("made");
    std::fs::write(site.join("index.html"), "<html>Trinchera</html>").expect("written");
    let wasm = b"\0asm-not-really";
    std::fs::write(site.join("trinchera-gui_bg.wasm"), wasm).expect("written");
    let gzipped = {
        use std::io::Write as _;
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(wasm).expect("compresses");
        encoder.finish().expect("compresses")
    };
    std::fs::write(site.join("trinchera-gui_bg.wasm.gz"), &gzipped).expect("written");
    // A link to a file outside the bundle's directory is not served.
    let outside = dir.path().join("secret.txt");
    std::fs::write(&outside, "not for the web").expect("written");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&outside, site.join("leak.txt")).expect("linked");
    let root = site.to_str().expect("utf-8");
    let server =
        ChildServer::start_with(&dir.path().join("data"), &["--web", "--web-root", root]).await;
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    let get = |path: &str, extra: &str| {
        format!("GET {path} HTTP/1.1\r\nHost: test\r\n{extra}Connection: close\r\n\r\n")
    };
    let page = text(&http1(server.addr, &get("/?game=7", ""), b"", |_| false).await);
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("content-type: text/html"), "{page}");
    assert!(page.ends_with("<html>Trinchera</html>"), "{page}");
    assert!(
        page.contains("content-security-policy: frame-ancestors 'none'")
            && page.contains("x-frame-options: DENY"),
        "no other site may frame the page: {page}"
    );
    let leak = text(&http1(server.addr, &get("/leak.txt", ""), b"", |_| false).await);
    assert!(leak.starts_with("HTTP/1.1 404"), "{leak}");
    let wasm = http1(
        server.addr,
        &get("/trinchera-gui_bg.wasm", "Accept-Encoding: gzip, br\r\n"),
        b"",
        |_| false,
    )
    .await;
    assert!(wasm.ends_with(&gzipped), "{}", text(&wasm));
    let wasm = text(&wasm);
    assert!(wasm.contains("content-type: application/wasm"), "{wasm}");
    assert!(wasm.contains("content-encoding: gzip"), "{wasm}");
    let etag = wasm
        .lines()
        .find_map(|line| line.strip_prefix("etag: "))
        .expect("an ETag")
        .to_owned();
    let cached = text(
        &http1(
            server.addr,
            &get(
                "/trinchera-gui_bg.wasm",
                &format!("Accept-Encoding: gzip\r\nIf-None-Match: {etag}\r\n"),
            ),
            b"",
            |_| false,
        )
        .await,
    );
    assert!(cached.starts_with("HTTP/1.1 304"), "{cached}");
    // gRPC-web, which the page speaks, is on with --web; gRPC over HTTP/2 as ever.
    let body = framed(&pb::ListRulesetsRequest {});
    let path = "/trinchera.v1.GameService/ListRulesets";
    let answer = http1(
        server.addr,
        &grpc_web_head(path, "https://play.example.org", body.len()),
        &body,
        |answer| text(answer).contains("grpc-status:0"),
    )
    .await;
    assert!(text(&answer).contains("frente"), "{}", text(&answer));
    let mut client = connect(server.addr).await;
    play(&mut client, 1).await;
    server.kill().await;

    // A bundle that is not there: refused, saying how to build one.
    let (code, words) = server_command(&["--check-config", "--web", "--web-root", "/nowhere"]);
    assert_eq!(code, Some(2), "{words}");
    assert!(
        words.contains("/nowhere") && words.contains("client-gui/web/build.sh"),
        "{words}"
    );
}
