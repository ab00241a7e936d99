//! Starting real servers (in-process or as a child process) and driving games through the
//! generated client.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tempfile::TempDir;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::transport::Channel;
use tonic::{Code, Request, Status};
use trinchera_proto::v1 as pb;
use trinchera_proto::v1::game_service_client::GameServiceClient;
use trinchera_service::store::{SledOptions, SledStore};
use trinchera_service::{Games, Limits};

/// The generated client.
pub type Client = GameServiceClient<Channel>;

/// A server running in this process on a free loopback port.
pub struct TestServer {
    pub addr: SocketAddr,
    pub dir: PathBuf,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
    _temp: Option<TempDir>,
}

impl TestServer {
    /// A server on a fresh temporary data directory.
    pub async fn start() -> TestServer {
        let temp = tempfile::tempdir().expect("temp dir");
        let dir = temp.path().to_owned();
        TestServer::start_in(&dir, Some(temp), Limits::default()).await
    }

    /// A server on a fresh temporary data directory with `limits`.
    pub async fn start_with(limits: Limits) -> TestServer {
        let temp = tempfile::tempdir().expect("temp dir");
        let dir = temp.path().to_owned();
        TestServer::start_in(&dir, Some(temp), limits).await
    }

    /// A server on `dir`, which `temp` (if any) keeps alive.
    pub async fn start_in(dir: &Path, temp: Option<TempDir>, limits: Limits) -> TestServer {
        let mut attempts = 0;
        let store = loop {
            // The previous server in this process may still be releasing the directory.
            match SledStore::open(dir, SledOptions::default()) {
                Ok(store) => break store,
                Err(error) if attempts < 50 => {
                    attempts += 1;
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    let _ = error;
                }
                Err(error) => panic!("cannot open the store: {error}"),
            }
        };
        let games = Games::new(Arc::new(store), limits).expect("games");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("address");
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            trinchera_service::run(listener, games, async {
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

/// A client of the server at `addr`.
pub async fn connect(addr: SocketAddr) -> Client {
    let channel = Channel::from_shared(format!("http://{addr}"))
        .expect("uri")
        .connect()
        .await
        .expect("connects");
    GameServiceClient::new(channel)
}

/// The `trinchera-server` binary running as a child process.
pub struct ChildServer {
    pub addr: SocketAddr,
    child: tokio::process::Child,
}

impl ChildServer {
    /// Starts the binary on `dir` and a free port; waits until it is ready.
    pub async fn start(dir: &Path) -> ChildServer {
        let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_trinchera-server"))
            .args(["--listen", "127.0.0.1:0", "--data-dir"])
            .arg(dir)
            .env("RUST_LOG", "info")
            .env("NO_COLOR", "1")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("server binary starts");
        let stderr = child.stderr.take().expect("stderr");
        let mut lines = BufReader::new(stderr).lines();
        let addr = tokio::time::timeout(Duration::from_secs(30), async {
            while let Some(line) = lines.next_line().await.expect("reads stderr") {
                if let Some(rest) = line.split("address=").nth(1) {
                    let addr = rest.split_whitespace().next().expect("address");
                    return addr.parse::<SocketAddr>().expect("socket address");
                }
            }
            panic!("the server exited before it was ready");
        })
        .await
        .expect("server ready in time");
        // Keep draining stderr so that the child never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        ChildServer { addr, child }
    }

    /// Kills the process with SIGKILL: no shutdown, no final flush.
    pub async fn kill(mut self) {
        self.child.start_kill().expect("kill");
        self.child.wait().await.expect("reaped");
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
    let created = client
        .create_game(pb::CreateGameRequest {
            ruleset: ruleset.into(),
            player_name: "Ana".into(),
            ..Default::default()
        })
        .await
        .expect("created")
        .into_inner();
    let joined = client
        .join_game(pb::JoinGameRequest {
            game_id: created.game_id.clone(),
            player_name: "Beto".into(),
        })
        .await
        .expect("joined")
        .into_inner();
    assert_eq!((created.seat, joined.seat), (0, 1));
    [
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
    ]
}

/// Submits random setups for every seat that needs one.
pub async fn random_setups(client: &mut Client, players: &[Player; 2]) {
    let view = view_of(client, &players[0]).await;
    for player in players {
        let ready = view
            .players
            .iter()
            .any(|p| p.seat == player.seat && p.setup_done);
        if !ready {
            client
                .submit_setup(authed(
                    pb::SubmitSetupRequest {
                        game_id: player.game.clone(),
                        random: true,
                        ..Default::default()
                    },
                    &player.token,
                ))
                .await
                .expect("setup accepted");
        }
    }
}

/// The game as `player` sees it.
pub async fn view_of(client: &mut Client, player: &Player) -> pb::GameView {
    client
        .get_view(authed(
            pb::GetViewRequest {
                game_id: player.game.clone(),
            },
            &player.token,
        ))
        .await
        .expect("view")
        .into_inner()
        .view
        .expect("view present")
}

/// The game as a spectator sees it.
pub async fn spectator_view(client: &mut Client, game: &str) -> pb::GameView {
    client
        .get_view(pb::GetViewRequest {
            game_id: game.into(),
        })
        .await
        .expect("view")
        .into_inner()
        .view
        .expect("view present")
}

/// Plays one random legal move for the seat to move; returns the response, or `None` if
/// the game is over.
pub async fn play_random_move(
    client: &mut Client,
    players: &[Player; 2],
    rng: &mut ChaCha8Rng,
) -> Option<pb::MakeMoveResponse> {
    let spectator = spectator_view(client, &players[0].game).await;
    let to_move = spectator.to_move?;
    let player = &players[to_move as usize];
    let view = view_of(client, player).await;
    assert!(!view.legal_moves.is_empty(), "the mover has legal moves");
    let choice = &view.legal_moves[rng.random_range(0..view.legal_moves.len())];
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
            },
            &player.token,
        ))
        .await
        .expect("a listed move is accepted")
        .into_inner();
    Some(response)
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
