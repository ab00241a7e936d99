//! Starting real servers (in-process or as a child process) and driving games through the
//! generated client.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tempfile::TempDir;
use tokio::io::{AsyncBufReadExt, BufReader, Lines};
use tokio::process::ChildStderr;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::transport::Channel;
use tonic::{Code, Request, Status};
use trinchera_game::GameState;
use trinchera_game::wire;
use trinchera_proto::v1 as pb;
use trinchera_proto::v1::account_service_client::AccountServiceClient;
use trinchera_proto::v1::game_service_client::GameServiceClient;
use trinchera_rules::{Seat, Viewer};
use trinchera_service::{Games, Limits, NetConfig, ServeOptions};
use trinchera_store::GameId;
use trinchera_store::records::EventRecord;
use trinchera_store::{ListQuery, MemoryStore, Store, StoreError};
use trinchera_store_postgres::PostgresStore;
use trinchera_store_postgres::scratch::ScratchSchema;
use trinchera_store_sled::{SledOptions, SledStore};

/// The generated client.
pub type Client = GameServiceClient<Channel>;

/// The generated client of the account service.
pub type AccountClient = AccountServiceClient<Channel>;

/// The password of every account the tests register.
pub const PASSWORD: &str = "correct horse";

/// A server running in this process on a free loopback port.
pub struct TestServer {
    pub addr: SocketAddr,
    pub dir: PathBuf,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
    _temp: Option<TempDir>,
}

impl TestServer {
    /// A server on a fresh temporary data directory, with [`Limits::for_tests`].
    pub async fn start() -> TestServer {
        TestServer::start_with(Limits::for_tests()).await
    }

    /// A server on a fresh temporary data directory with `limits`.
    pub async fn start_with(limits: Limits) -> TestServer {
        let temp = tempfile::tempdir().expect("temp dir");
        let dir = temp.path().to_owned();
        TestServer::start_in(&dir, Some(temp), limits).await
    }

    /// A server on a fresh temporary data directory with the transport limits `net`.
    pub async fn start_net(net: NetConfig) -> TestServer {
        let temp = tempfile::tempdir().expect("temp dir");
        let dir = temp.path().to_owned();
        TestServer::start_in_with(&dir, Some(temp), Limits::for_tests(), net).await
    }

    /// A server on `dir`, which `temp` (if any) keeps alive.
    pub async fn start_in(dir: &Path, temp: Option<TempDir>, limits: Limits) -> TestServer {
        TestServer::start_in_with(dir, temp, limits, NetConfig::default()).await
    }

    /// A server on `dir`, which `temp` (if any) keeps alive, with `limits` and the
    /// transport limits `net`.
    pub async fn start_in_with(
        dir: &Path,
        temp: Option<TempDir>,
        limits: Limits,
        net: NetConfig,
    ) -> TestServer {
        let games = Games::new(store_of(dir).await, limits)
            .await
            .expect("games");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("address");
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            trinchera_service::run(listener, games, ServeOptions::plain(net), async {
                let _ = stopped.await;
            })
            .await
            .expect("server ran");
        });
        TestServer {
            addr,
            dir: dir.to_owned(),
            stop: Some(stop),
            task: Some(task),
            _temp: temp,
        }
    }

    /// A client connected to this server.
    pub async fn client(&self) -> Client {
        connect(self.addr).await
    }

    /// Stops gracefully and returns the data directory's keeper.
    pub async fn stop(mut self) -> Option<TempDir> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            task.await.expect("server task");
        }
        self._temp.take()
    }
}

/// Where the servers of the tests keep their games: `TRINCHERA_TEST_STORE` names it (the
/// binary has no memory store: its servers stay on sled with `memory`).
#[derive(Clone, Copy, Debug)]
enum Backend {
    /// sled in the server's directory (the default).
    Sled,
    /// Memory (`memory`).
    Memory,
    /// A schema of the PostgreSQL database `TRINCHERA_TEST_POSTGRES` names (`postgres`).
    Postgres,
}

/// The backend `TRINCHERA_TEST_STORE` asks for.
fn backend() -> Backend {
    match std::env::var("TRINCHERA_TEST_STORE").as_deref() {
        Err(_) | Ok("sled") => Backend::Sled,
        Ok("memory") => Backend::Memory,
        Ok("postgres") => Backend::Postgres,
        Ok(other) => panic!("TRINCHERA_TEST_STORE={other}: sled, memory or postgres"),
    }
}

/// The store of `dir` for an in-process server, which a restart on the same `dir` finds
/// again: sled in the directory, or (with `TRINCHERA_TEST_STORE`) a memory store or a
/// PostgreSQL schema of its own. Schemas are left in the test database.
pub async fn store_of(dir: &Path) -> Arc<dyn Store> {
    static MEMORY: Mutex<BTreeMap<PathBuf, MemoryStore>> = Mutex::new(BTreeMap::new());
    match backend() {
        Backend::Sled => Arc::new(open_store(dir).await),
        Backend::Memory => {
            let mut stores = MEMORY.lock().expect("stores");
            Arc::new(stores.entry(dir.to_owned()).or_default().reopen())
        }
        Backend::Postgres => {
            let url = postgres_url_of(dir);
            Arc::new(PostgresStore::open(&url).await.expect("opens"))
        }
    }
}

/// The arguments that name `dir`'s store to an offline command (`export`, `accounts`):
/// `--data-dir dir`, and with `TRINCHERA_TEST_STORE=postgres` its schema's `--store` too.
pub fn offline_store_args(dir: &Path) -> Vec<String> {
    let mut args = vec!["--data-dir".to_owned(), dir.display().to_string()];
    if matches!(backend(), Backend::Postgres) {
        args.extend(["--store".to_owned(), postgres_url_of(dir)]);
    }
    args
}

/// The URL of `dir`'s own PostgreSQL schema (with `TRINCHERA_TEST_STORE=postgres`), made
/// at its first use and found again by every later server on `dir`, in this process or a
/// child. The schema is made on a thread of its own, so that synchronous callers and
/// either kind of test runtime may ask.
fn postgres_url_of(dir: &Path) -> String {
    static POSTGRES: Mutex<BTreeMap<PathBuf, String>> = Mutex::new(BTreeMap::new());
    let mut schemas = POSTGRES.lock().expect("schemas");
    schemas
        .entry(dir.to_owned())
        .or_insert_with(|| {
            std::thread::spawn(|| {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("a runtime");
                runtime
                    .block_on(ScratchSchema::create())
                    .expect("TRINCHERA_TEST_STORE=postgres needs TRINCHERA_TEST_POSTGRES")
                    .url()
            })
            .join()
            .expect("the schema is made")
        })
        .clone()
}

/// The sled store in `dir`, once the previous server in this process has released it (its
/// connections and streams may hold it for a moment after it stopped).
pub async fn open_store(dir: &Path) -> SledStore {
    eventually(
        "the store is released and opens",
        async || match SledStore::open(dir, SledOptions::default()) {
            Ok(store) => Some(store),
            Err(StoreError::Locked(_)) => None,
            Err(error) => panic!("cannot open the store: {error}"),
        },
    )
    .await
}

/// A client of the server at `addr`.
pub async fn connect(addr: SocketAddr) -> Client {
    GameServiceClient::new(channel(addr).await)
}

/// A channel to the server at `addr`.
async fn channel(addr: SocketAddr) -> Channel {
    Channel::from_shared(format!("http://{addr}"))
        .expect("uri")
        .connect()
        .await
        .expect("connects")
}

/// An account-service client of the server at `addr`.
pub async fn account_client(addr: SocketAddr) -> AccountClient {
    AccountServiceClient::new(channel(addr).await)
}

/// Registers `name` (with [`PASSWORD`]) through `accounts`: its session token.
pub async fn register(accounts: &mut AccountClient, name: &str) -> String {
    accounts
        .register(pb::RegisterRequest {
            name: name.into(),
            password: PASSWORD.into(),
            label: "tests".into(),
        })
        .await
        .expect("registered")
        .into_inner()
        .token
}

/// A personal token of the account `token` acts for, with `scope`, `label` and
/// `expires_in_days` (0: never).
pub async fn create_token(
    accounts: &mut AccountClient,
    token: &str,
    scope: pb::TokenScope,
    label: &str,
    expires_in_days: u32,
) -> pb::CreateTokenResponse {
    accounts
        .create_token(authed(
            pb::CreateTokenRequest {
                scopes: vec![scope as i32],
                label: label.into(),
                expires_in_days,
            },
            token,
        ))
        .await
        .expect("made")
        .into_inner()
}

/// A client whose connections come from `local`, a loopback address other than 127.0.0.1,
/// so that a test can play a second client address.
pub async fn connect_from(addr: SocketAddr, local: std::net::IpAddr) -> Client {
    let channel = Channel::from_shared(format!("http://{addr}"))
        .expect("uri")
        .local_address(Some(local))
        .connect()
        .await
        .expect("connects");
    GameServiceClient::new(channel)
}

/// Whether the heavy reliability suites were asked for (`TRINCHERA_HEAVY=1`).
pub fn heavy() -> bool {
    std::env::var_os("TRINCHERA_HEAVY").is_some_and(|value| value != "0" && !value.is_empty())
}

/// `light` in the default run, `heavy` with `TRINCHERA_HEAVY=1`.
pub fn scaled(light: usize, heavy_count: usize) -> usize {
    if heavy() { heavy_count } else { light }
}

/// How long a test waits for something the server is to do before it fails: generous,
/// since CI runs the suites on two cores shared with builds and other suites; only a hang
/// runs it out.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// How often [`eventually`] asks again.
const POLL: Duration = Duration::from_millis(20);

/// What `check` answers once it answers `Some`, asked again every [`POLL`] for at most
/// [`PATIENCE`]; panics saying that `what` never happened.
pub async fn eventually<T>(what: &str, mut check: impl AsyncFnMut() -> Option<T>) -> T {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        if let Some(found) = check().await {
            return found;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "never happened within {PATIENCE:?}: {what}"
        );
        tokio::time::sleep(POLL).await;
    }
}

/// What `event` gives, awaited for at most [`PATIENCE`]; panics saying that `what` never
/// happened.
pub async fn within<T>(what: &str, event: impl Future<Output = T>) -> T {
    tokio::time::timeout(PATIENCE, event)
        .await
        .unwrap_or_else(|_| panic!("never happened within {PATIENCE:?}: {what}"))
}

/// Everything a child server wrote to stderr so far, one entry per line.
#[derive(Clone, Default)]
pub struct Logs(Arc<Mutex<Vec<String>>>);

impl Logs {
    /// A copy of the lines so far.
    pub fn lines(&self) -> Vec<String> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The lines so far, once one of them contains `text`.
    pub async fn wait_for(&self, text: &str) -> Vec<String> {
        eventually(&format!("a log line with {text:?}"), async || {
            let lines = self.lines();
            lines
                .iter()
                .any(|line| line.contains(text))
                .then_some(lines)
        })
        .await
    }

    fn push(&self, line: String) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).push(line);
    }
}

/// The `trinchera-server` binary running as a child process.
pub struct ChildServer {
    pub addr: SocketAddr,
    child: tokio::process::Child,
    logs: Logs,
}

/// A `trinchera-server` process that has been started but may not be ready yet.
pub struct Starting {
    child: tokio::process::Child,
    lines: Lines<BufReader<ChildStderr>>,
    logs: Logs,
}

impl Starting {
    /// Waits until the server listens, then keeps collecting its stderr.
    pub async fn ready(self) -> ChildServer {
        let Starting {
            child,
            mut lines,
            logs,
        } = self;
        let addr = within("the server is ready", async {
            while let Some(line) = lines.next_line().await.expect("reads stderr") {
                logs.push(line.clone());
                if !line.contains("trinchera-server ready") {
                    continue;
                }
                // Text logs say address=IP:PORT, JSON logs "address":"IP:PORT".
                if let Some(rest) = line.split("address=").nth(1) {
                    let addr = rest.split_whitespace().next().expect("address");
                    return addr.parse::<SocketAddr>().expect("socket address");
                }
                if let Some(rest) = line.split("\"address\":\"").nth(1) {
                    let addr = rest.split('"').next().expect("address");
                    return addr.parse::<SocketAddr>().expect("socket address");
                }
            }
            panic!(
                "the server exited before it was ready:\n{}",
                logs.lines().join("\n")
            );
        })
        .await;
        // Keep draining stderr so that the child never blocks on a full pipe.
        let collected = logs.clone();
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                collected.push(line);
            }
        });
        ChildServer { addr, child, logs }
    }

    /// Kills the process with SIGKILL, whatever it was doing (it may be opening the store);
    /// tells whether it had already said it was ready.
    pub async fn kill(mut self) -> bool {
        self.child.start_kill().expect("kill");
        self.child.wait().await.expect("reaped");
        while let Ok(Some(line)) = self.lines.next_line().await {
            self.logs.push(line);
        }
        self.logs
            .lines()
            .iter()
            .any(|line| line.contains("trinchera-server ready"))
    }
}

impl ChildServer {
    /// Starts the binary on `dir` and a free port; waits until it is ready.
    pub async fn start(dir: &Path) -> ChildServer {
        ChildServer::start_with(dir, &[]).await
    }

    /// Starts the binary on `dir` and a free port with the extra arguments `args`; waits
    /// until it is ready.
    pub async fn start_with(dir: &Path, args: &[&str]) -> ChildServer {
        ChildServer::spawn(dir, "info", args).ready().await
    }

    /// Starts the binary on `dir` and a free port with the log filter `log` (`RUST_LOG`)
    /// and the extra arguments `args`; does not wait for it.
    pub fn spawn(dir: &Path, log: &str, args: &[&str]) -> Starting {
        let binary = tokio::process::Command::new(env!("CARGO_BIN_EXE_trinchera-server"));
        ChildServer::spawn_as(binary, dir, log, args)
    }

    /// [`ChildServer::start_with`], with the server's soft open-files limit set to `fds`
    /// (`ulimit -n` in a shell that then becomes the server).
    pub async fn start_with_fd_limit(dir: &Path, fds: u64, args: &[&str]) -> ChildServer {
        let mut shell = tokio::process::Command::new("sh");
        shell
            .arg("-c")
            .arg(format!("ulimit -n {fds} && exec \"$0\" \"$@\""))
            .arg(env!("CARGO_BIN_EXE_trinchera-server"));
        ChildServer::spawn_as(shell, dir, "info", args)
            .ready()
            .await
    }

    /// Runs `command` (which becomes the server) with the server's arguments: its games in
    /// `dir`, or with `TRINCHERA_TEST_STORE=postgres` in `dir`'s own PostgreSQL schema
    /// (unless `args` name a store themselves).
    fn spawn_as(
        mut command: tokio::process::Command,
        dir: &Path,
        log: &str,
        args: &[&str],
    ) -> Starting {
        command
            .args(["--listen", "127.0.0.1:0", "--no-rate-limits", "--data-dir"])
            .arg(dir);
        if matches!(backend(), Backend::Postgres) && !args.contains(&"--store") {
            command.args(["--store", &postgres_url_of(dir)]);
        }
        let mut child = command
            .args(args)
            .env("RUST_LOG", log)
            .env("NO_COLOR", "1")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("server binary starts");
        let stderr = child.stderr.take().expect("stderr");
        Starting {
            child,
            lines: BufReader::new(stderr).lines(),
            logs: Logs::default(),
        }
    }

    /// The address of the side listener `what` ("admin service", "Prometheus metrics"),
    /// once the server has logged it.
    pub async fn side_address(&self, what: &str) -> SocketAddr {
        let heading = format!("{what} listening");
        let lines = self.logs.wait_for(&heading).await;
        lines
            .iter()
            .filter(|line| line.contains(&heading))
            .find_map(|line| {
                line.split("address=")
                    .nth(1)?
                    .split_whitespace()
                    .next()?
                    .parse()
                    .ok()
            })
            .unwrap_or_else(|| panic!("the server did not say where its {what} listens"))
    }

    /// What the server logged so far.
    pub fn logs(&self) -> &Logs {
        &self.logs
    }

    /// The server process's resident memory, in KiB (from `/proc`).
    pub fn rss_kib(&self) -> u64 {
        let pid = self.child.id().expect("running");
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmRSS:"))
            .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmRSS")
    }

    /// Kills the process with SIGKILL: no shutdown, no final flush.
    pub async fn kill(mut self) {
        self.child.start_kill().expect("kill");
        self.child.wait().await.expect("reaped");
    }

    /// Sends the process signal `signal` (`TERM`, `HUP`, ...) with kill(1).
    pub fn signal(&self, signal: &str) {
        let pid = self.child.id().expect("running");
        let sent = std::process::Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(pid.to_string())
            .status()
            .expect("kill runs");
        assert!(sent.success(), "kill -{signal} {pid}");
    }

    /// Waits until the process exits; its exit status.
    pub async fn exit(mut self) -> std::process::ExitStatus {
        within("the server exits", self.child.wait())
            .await
            .expect("reaped")
    }
}

/// `message` acting for the holder of `token`.
pub fn authed<T>(message: T, token: &str) -> Request<T> {
    let mut request = Request::new(message);
    request.metadata_mut().insert(
        "authorization",
        format!("Bearer {token}").parse().expect("ascii token"),
    );
    request
}

/// A seat of a game with its token.
#[derive(Clone, Debug)]
pub struct Player {
    pub game: String,
    pub seat: i32,
    pub token: String,
}

/// Creates a game of `ruleset` (creator in seat 0) and joins seat 1.
pub async fn new_game(client: &mut Client, ruleset: &str) -> [Player; 2] {
    try_new_game(client, ruleset)
        .await
        .expect("created and joined")
}

/// [`new_game`], passing on a refusal or a transport failure.
pub async fn try_new_game(client: &mut Client, ruleset: &str) -> Result<[Player; 2], Status> {
    let request = pb::CreateGameRequest {
        ruleset: ruleset.into(),
        ..Default::default()
    };
    try_new_game_with(client, request).await
}

/// Creates the game `request` asks for (Ana in seat 0, unless it says otherwise) and
/// joins seat 1 as Beto.
pub async fn try_new_game_with(
    client: &mut Client,
    request: pb::CreateGameRequest,
) -> Result<[Player; 2], Status> {
    let mut request = request;
    if request.player_name.is_empty() {
        request.player_name = "Ana".into();
    }
    let created = client.create_game(request).await?.into_inner();
    let joined = client
        .join_game(pb::JoinGameRequest {
            game_id: created.game_id.clone(),
            player_name: "Beto".into(),
        })
        .await?
        .into_inner();
    assert_eq!((created.seat, joined.seat), (0, 1));
    Ok([
        Player {
            game: created.game_id.clone(),
            seat: 0,
            token: created.player_token,
        },
        Player {
            game: created.game_id,
            seat: 1,
            token: joined.player_token,
        },
    ])
}

/// Submits random setups for every seat that needs one.
pub async fn random_setups(client: &mut Client, players: &[Player; 2]) {
    try_random_setups(client, players)
        .await
        .expect("setup accepted");
}

/// [`random_setups`], passing on a refusal or a transport failure; returns the responses.
pub async fn try_random_setups(
    client: &mut Client,
    players: &[Player; 2],
) -> Result<Vec<pb::SubmitSetupResponse>, Status> {
    let view = try_view_of(client, &players[0]).await?;
    let mut responses = Vec::new();
    for player in players {
        let ready = view
            .players
            .iter()
            .any(|p| p.seat == player.seat && p.setup_done);
        if !ready {
            let response = client
                .submit_setup(authed(
                    pb::SubmitSetupRequest {
                        game_id: player.game.clone(),
                        random: true,
                        ..Default::default()
                    },
                    &player.token,
                ))
                .await?;
            responses.push(response.into_inner());
        }
    }
    Ok(responses)
}

/// The first page of the finished games' listing.
pub async fn finished_games(client: &mut Client) -> pb::ListGamesResponse {
    client
        .list_games(pb::ListGamesRequest {
            phase: pb::Phase::Finished as i32,
            ..Default::default()
        })
        .await
        .expect("a listing")
        .into_inner()
}

/// The game as `player` sees it.
pub async fn view_of(client: &mut Client, player: &Player) -> pb::GameView {
    try_view_of(client, player).await.expect("view")
}

/// [`view_of`], passing on a refusal or a transport failure.
pub async fn try_view_of(client: &mut Client, player: &Player) -> Result<pb::GameView, Status> {
    let response = client
        .get_view(authed(
            pb::GetViewRequest {
                game_id: player.game.clone(),
            },
            &player.token,
        ))
        .await?;
    Ok(response.into_inner().view.expect("view present"))
}

/// The game as a spectator sees it.
pub async fn spectator_view(client: &mut Client, game: &str) -> pb::GameView {
    try_spectator_view(client, game).await.expect("view")
}

/// [`spectator_view`], passing on a refusal or a transport failure.
pub async fn try_spectator_view(client: &mut Client, game: &str) -> Result<pb::GameView, Status> {
    let response = client
        .get_view(pb::GetViewRequest {
            game_id: game.into(),
        })
        .await?;
    Ok(response.into_inner().view.expect("view present"))
}

/// Plays one random legal move for the seat to move; returns the response, or `None` if
/// the game is over.
pub async fn play_random_move(
    client: &mut Client,
    players: &[Player; 2],
    rng: &mut ChaCha8Rng,
) -> Option<pb::MakeMoveResponse> {
    try_play_random_move(client, players, rng)
        .await
        .expect("a listed move is accepted")
}

/// [`play_random_move`], passing on a refusal or a transport failure.
pub async fn try_play_random_move(
    client: &mut Client,
    players: &[Player; 2],
    rng: &mut ChaCha8Rng,
) -> Result<Option<pb::MakeMoveResponse>, Status> {
    try_play_move_among(client, players, rng, |_| true).await
}

/// Plays one random listed move that attacks nothing (no `x` in its notation) if there is
/// one, so that twenty moves cannot end a game by chance; `None` if the game is over.
pub async fn play_quiet_move(
    client: &mut Client,
    players: &[Player; 2],
    rng: &mut ChaCha8Rng,
) -> Option<pb::MakeMoveResponse> {
    try_play_move_among(client, players, rng, |legal| !legal.notation.contains('x'))
        .await
        .expect("a listed move is accepted")
}

/// Plays one random listed move of the seat to move, among those `preferred` keeps if any.
async fn try_play_move_among(
    client: &mut Client,
    players: &[Player; 2],
    rng: &mut ChaCha8Rng,
    preferred: impl Fn(&pb::LegalMove) -> bool,
) -> Result<Option<pb::MakeMoveResponse>, Status> {
    let spectator = try_spectator_view(client, &players[0].game).await?;
    let Some(to_move) = spectator.to_move else {
        return Ok(None);
    };
    let player = &players[to_move as usize];
    let view = try_view_of(client, player).await?;
    assert!(!view.legal_moves.is_empty(), "the mover has legal moves");
    let mut candidates: Vec<&pb::LegalMove> = view
        .legal_moves
        .iter()
        .filter(|legal| preferred(legal))
        .collect();
    if candidates.is_empty() {
        candidates = view.legal_moves.iter().collect();
    }
    let choice = candidates[rng.random_range(0..candidates.len())];
    // Alternate the two forms of a move.
    let action = if rng.random_bool(0.5) {
        pb::make_move_request::Action::Move(choice.r#move.clone().expect("move"))
    } else {
        pb::make_move_request::Action::Notation(choice.notation.clone())
    };
    let response = client
        .make_move(authed(
            pb::MakeMoveRequest {
                game_id: player.game.clone(),
                action: Some(action),
                expected_version: Some(view.version),
                ..Default::default()
            },
            &player.token,
        ))
        .await?;
    Ok(Some(response.into_inner()))
}

/// The history of `game` as a spectator gets it, with every position (page after page);
/// checks that its versions run 1, 2, ... without a gap and end at its view's version.
pub async fn gapless_history(client: &mut Client, game: &str) -> pb::GetHistoryResponse {
    let mut history = history_page(client, game, 0).await;
    while let Some(after) = history.next_positions_after {
        let page = history_page(client, game, after).await;
        assert_eq!(
            page.events, history.events,
            "game {game} changed between pages"
        );
        history.positions.extend(page.positions);
        history.next_positions_after = page.next_positions_after;
    }
    let versions: Vec<u64> = history.events.iter().map(|e| e.version).collect();
    let positions: Vec<u64> = history.positions.iter().map(|p| p.version).collect();
    assert_eq!(
        positions, versions,
        "a position after every event of game {game}"
    );
    let last = versions.len() as u64;
    assert_eq!(versions, (1..=last).collect::<Vec<_>>(), "game {game}");
    let view = history.view.as_ref().expect("view");
    assert_eq!(view.version, last, "game {game}");
    history
}

/// One page of `game`'s history with positions after `after`, as a spectator gets it.
async fn history_page(client: &mut Client, game: &str, after: u64) -> pb::GetHistoryResponse {
    client
        .get_history(pb::GetHistoryRequest {
            game_id: game.into(),
            positions: true,
            positions_after: after,
        })
        .await
        .unwrap_or_else(|status| panic!("game {game} does not load: {status:?}"))
        .into_inner()
}

/// A whole replay of `game` (ReplayGame, with `token` if given): its start, then every step.
pub async fn replay(
    client: &mut Client,
    game: &str,
    token: Option<&str>,
    after_version: Option<u64>,
) -> Result<(pb::ReplayStart, Vec<pb::ReplayStep>), Status> {
    let request = pb::ReplayGameRequest {
        game_id: game.into(),
        after_version,
    };
    let request = match token {
        Some(token) => authed(request, token),
        None => Request::new(request),
    };
    let mut stream = client.replay_game(request).await?.into_inner();
    let mut start = None;
    let mut steps = Vec::new();
    while let Some(message) = stream.message().await? {
        match message.item.expect("an item") {
            pb::replay_game_response::Item::Start(opening) => {
                assert!(
                    start.is_none() && steps.is_empty(),
                    "the start comes first, once"
                );
                start = Some(opening);
            }
            pb::replay_game_response::Item::Step(step) => steps.push(step),
        }
    }
    let start = start.expect("a start");
    assert_eq!(
        start.steps,
        steps.len() as u64,
        "as many steps as announced"
    );
    Ok((start, steps))
}

/// A game read straight from a store: its log and the state replayed from it.
pub struct Stored {
    /// The log, oldest first.
    pub log: Vec<EventRecord>,
    /// The game replayed from the log.
    pub state: GameState,
}

impl Stored {
    /// What seat 0, seat 1 and a spectator see of the replayed game, as the server sends it.
    pub fn views(&self) -> [pb::GameView; 3] {
        [
            Viewer::Player(Seat::First),
            Viewer::Player(Seat::Second),
            Viewer::Spectator,
        ]
        .map(|viewer| wire::game_view(&self.state.snapshot(viewer)))
    }
}

/// Every game of `store` (no server may have it open), each replayed from its log. Checks
/// that every listed game's log replays and that its listing summary, written in the same
/// batches as the log, is the replayed game's summary.
pub async fn stored_games(store: Arc<dyn Store>) -> BTreeMap<GameId, Stored> {
    let mut games = BTreeMap::new();
    let every = ListQuery {
        limit: usize::MAX,
        ..ListQuery::default()
    };
    for (id, summary) in store.list(&every).await.expect("readable summaries") {
        let log = store.log(id).await.expect("a readable log");
        let state = GameState::replay(id, &log, |_, _| {})
            .unwrap_or_else(|error| panic!("game {id} does not replay: {error}"));
        assert_eq!(
            state.summary(summary.since_ms),
            summary,
            "game {id}: the listing agrees with the log"
        );
        games.insert(id, Stored { log, state });
    }
    store.close().await.expect("the store closes");
    games
}

/// A deterministic RNG for a test.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// Asserts that `result` failed with `code` and the machine-readable `reason`.
pub fn assert_refused<T: std::fmt::Debug>(result: Result<T, Status>, code: Code, reason: &str) {
    let status = result.expect_err("refused");
    assert_eq!(status.code(), code, "{status:?}");
    use tonic_types::StatusExt;
    let info = status
        .get_details_error_info()
        .expect("an ErrorInfo in the details");
    assert_eq!(info.reason, reason, "{status:?}");
    assert!(!status.message().is_empty());
}

/// The Prometheus text at `http://addr/metrics`.
pub async fn scrape(addr: SocketAddr) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut tcp = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    tcp.write_all(b"GET /metrics HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        .await
        .expect("asks");
    let mut text = String::new();
    tcp.read_to_string(&mut text).await.expect("reads");
    text
}
