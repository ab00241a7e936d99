//! A real server in this process (port 0, temporary data directory) and the real
//! `trinchera` binary run against it, one config directory per simulated user.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;
use tempfile::TempDir;
use trinchera_service::{Limits, LocalServer};

/// A server on its own thread and runtime, on a fresh temporary data directory.
pub struct Server {
    pub url: String,
    _server: LocalServer,
    _data: TempDir,
}

impl Server {
    /// Starts a server on 127.0.0.1 and a free port.
    pub fn start() -> Server {
        let data = tempfile::tempdir().expect("temp dir");
        let address = "127.0.0.1:0".parse().expect("address");
        let server = LocalServer::start_with_store(sled(data.path()), address, Limits::for_tests())
            .expect("server");
        Server {
            url: server.url(),
            _server: server,
            _data: data,
        }
    }
}

/// What a run of the binary left.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Stdout as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {self:?}"))
    }
}

/// A person with their own config directory, talking to one server.
pub struct User {
    pub url: String,
    config: TempDir,
}

impl User {
    /// A new user of `server`.
    pub fn new(server: &Server) -> User {
        User::of(&server.url)
    }

    /// A new user of the server at `url`.
    pub fn of(url: &str) -> User {
        User {
            url: url.to_owned(),
            config: tempfile::tempdir().expect("temp dir"),
        }
    }

    /// A user that lives as long as the test (for one-off commands in tables).
    pub fn leak(server: &Server) -> &'static User {
        Box::leak(Box::new(User::new(server)))
    }

    /// Where this user's tokens live.
    pub fn config_dir(&self) -> &Path {
        self.config.path()
    }

    /// A command for the binary with this user's environment.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_trinchera"));
        command
            .arg("--server")
            .arg(&self.url)
            .args(args)
            .env("TRINCHERA_CONFIG_DIR", self.config.path())
            .env("NO_COLOR", "1")
            .env_remove("TRINCHERA_SERVER")
            .env_remove("TRINCHERA_TOKEN")
            .env_remove("TRINCHERA_TLS_CA")
            .stdin(Stdio::null());
        command
    }

    /// Runs the binary with `args` and `stdin`.
    pub fn run_with_input(&self, args: &[&str], stdin: &str) -> Run {
        self.start_with_input(args, stdin).finish()
    }

    /// Starts the binary with `args` and `stdin`, collecting its output as it comes.
    pub fn start_with_input(&self, args: &[&str], stdin: &str) -> Running {
        let mut child = self
            .command(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(stdin.as_bytes())
            .expect("writes stdin");
        let (stdout, stderr) = (
            collect(child.stdout.take().expect("stdout")),
            collect(child.stderr.take().expect("stderr")),
        );
        Running {
            child,
            stdout,
            stderr,
        }
    }

    /// Runs the binary with `args`.
    pub fn run(&self, args: &[&str]) -> Run {
        let output = self.command(args).output().expect("the binary runs");
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    /// Runs `--json args`, asserts success and returns the document.
    pub fn json(&self, args: &[&str]) -> Value {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        let run = self.run(&all);
        assert_eq!(run.code, 0, "{args:?} failed: {run:?}");
        run.json()
    }

    /// The first legal move of this user's seat in `game` (acting with `token` if given).
    pub fn first_move(&self, game: &str, token: Option<&str>) -> String {
        let mut args = vec!["moves", game];
        if let Some(token) = token {
            args.splice(0..0, ["--token", token]);
        }
        self.json(&args)["legal_moves"][0]["notation"]
            .as_str()
            .expect("a move")
            .to_owned()
    }

    /// Runs `args`, asserts success and returns stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        let run = self.run(args);
        assert_eq!(run.code, 0, "{args:?} failed: {run:?}");
        run.stdout
    }
}

/// A game between two users: `players[seat]`.
pub struct Game {
    pub id: String,
    pub players: [User; 2],
}

impl Game {
    /// Creates a game of `ruleset` by a first user (seat 0) and joins a second (seat 1).
    pub fn start(server: &Server, ruleset: &str) -> Game {
        let players = [User::new(server), User::new(server)];
        let created = players[0].json(&["new", ruleset, "--name", "Ana"]);
        let id = created["game_id"].as_str().expect("game id").to_owned();
        let joined = players[1].json(&["join", &id, "--name", "Beto"]);
        assert_eq!(joined["seat"], 1);
        Game { id, players }
    }

    /// A game of `ruleset` between two new users, set up at random and ready to play.
    pub fn ready(server: &Server, ruleset: &str) -> Game {
        let game = Game::start(server, ruleset);
        game.random_setups();
        game
    }

    /// Random setups for every seat that sets up.
    pub fn random_setups(&self) {
        for player in &self.players {
            let view = player.json(&["show", &self.id]);
            let seat = view["view"]["viewer_seat"].as_i64().expect("seat");
            let done = view["view"]["players"][seat as usize]["setup_done"] == true;
            if !done {
                player.json(&["setup", &self.id, "--random"]);
            }
        }
    }
}

/// A file with `text` in a fresh directory (kept alive by the returned guard).
pub fn file_with(text: &str) -> (TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("file.txt");
    std::fs::write(&path, text).expect("writes");
    (dir, path)
}

/// A small deterministic generator for move choices.
pub struct Lcg(pub u64);

impl Lcg {
    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// How long a program under test may take before it counts as hung: a bound on a hang, not
/// a speed check.
const HANG: Duration = Duration::from_secs(120);

/// Reads `out` on a thread; the text so far is in the returned buffer.
fn collect(out: impl std::io::Read + Send + 'static) -> Arc<Mutex<(String, bool)>> {
    let text = Arc::new(Mutex::new((String::new(), false)));
    let sink = Arc::clone(&text);
    std::thread::spawn(move || {
        let mut out = out;
        let mut buffer = [0_u8; 4096];
        while let Ok(read) = out.read(&mut buffer) {
            if read == 0 {
                break;
            }
            let chunk = String::from_utf8_lossy(&buffer[..read]).into_owned();
            sink.lock().expect("lock").0.push_str(&chunk);
        }
        sink.lock().expect("lock").1 = true;
    });
    text
}

/// The whole text of `collected` once its stream has ended.
fn finished(collected: &Mutex<(String, bool)>) -> String {
    let start = Instant::now();
    while !collected.lock().expect("lock").1 {
        assert!(start.elapsed() < HANG, "the output never ended");
        std::thread::sleep(Duration::from_millis(20));
    }
    collected.lock().expect("lock").0.clone()
}

/// Waits for `child` to end, failing the test (with the output so far) if it hangs.
fn wait_bounded(child: &mut Child, output: &Mutex<(String, bool)>) -> ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("waits") {
            return status;
        }
        if start.elapsed() > HANG {
            let _ = child.kill();
            panic!(
                "the program hung; its output:\n{}",
                output.lock().expect("lock").0
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits until `collected` holds `wanted` `times` times, failing the test (with the output
/// so far) if it never does.
fn wait_for_output(collected: &Mutex<(String, bool)>, wanted: &str, times: usize) {
    let start = Instant::now();
    loop {
        let output = collected.lock().expect("lock").0.clone();
        if output.matches(wanted).count() >= times {
            return;
        }
        assert!(
            start.elapsed() < HANG,
            "no {wanted:?} ({times} times) in:\n{output}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The binary running with its input given, its output collected as it comes.
pub struct Running {
    child: Child,
    stdout: Arc<Mutex<(String, bool)>>,
    stderr: Arc<Mutex<(String, bool)>>,
}

impl Running {
    /// Waits until its standard output holds `wanted`.
    pub fn wait_for(&self, wanted: &str) {
        wait_for_output(&self.stdout, wanted, 1);
    }

    /// Waits for it to end; its exit code and all it printed.
    pub fn finish(mut self) -> Run {
        let status = wait_bounded(&mut self.child, &self.stdout);
        Run {
            code: status.code().unwrap_or(-1),
            stdout: finished(&self.stdout),
            stderr: finished(&self.stderr),
        }
    }
}

/// `trinchera …` on a real terminal (util-linux `script` gives it one): typed into and
/// read as a person would.
pub struct Terminal {
    child: Child,
    keys: ChildStdin,
    output: Arc<Mutex<(String, bool)>>,
}

impl Terminal {
    /// `user` runs `trinchera play ARGS` (words without spaces) with `env` set.
    pub fn play(user: &User, args: &[&str], env: &[(&str, &str)]) -> Terminal {
        let mut all = vec!["play"];
        all.extend_from_slice(args);
        Terminal::run(user, &all, env)
    }

    /// `user` runs `trinchera ARGS` (words without spaces) with `env` set.
    pub fn run(user: &User, args: &[&str], env: &[(&str, &str)]) -> Terminal {
        assert!(
            Command::new("script").arg("--version").output().is_ok(),
            "the terminal tests need `script` from util-linux"
        );
        let command = format!(
            "{} --server {} {}",
            env!("CARGO_BIN_EXE_trinchera"),
            user.url,
            args.join(" ")
        );
        let mut child = Command::new("script")
            .args(["-qfec", &command, "/dev/null"])
            .env("TRINCHERA_CONFIG_DIR", user.config_dir())
            .env("NO_COLOR", "1")
            .env("TERM", "xterm")
            .env_remove("TRINCHERA_SERVER")
            .env_remove("TRINCHERA_TOKEN")
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("script starts");
        let keys = child.stdin.take().expect("stdin");
        let output = collect(child.stdout.take().expect("stdout"));
        Terminal {
            child,
            keys,
            output,
        }
    }

    /// Everything printed so far.
    pub fn output(&self) -> String {
        self.output.lock().expect("lock").0.clone()
    }

    /// Waits until the output holds `wanted` `times` times.
    pub fn wait_for_times(&self, wanted: &str, times: usize) {
        wait_for_output(&self.output, wanted, times);
    }

    /// Waits until the output holds `wanted`.
    pub fn wait_for(&self, wanted: &str) {
        self.wait_for_times(wanted, 1);
    }

    /// Types `keys` (`\n` is Enter, `\t` Tab).
    pub fn type_keys(&mut self, keys: &str) {
        self.keys.write_all(keys.as_bytes()).expect("types");
        self.keys.flush().expect("types");
    }

    /// Waits for `play` to end by itself; its exit status and all it printed.
    pub fn ended(mut self) -> (ExitStatus, String) {
        let status = wait_bounded(&mut self.child, &self.output);
        (status, finished(&self.output))
    }
}

/// A server speaking TLS with a self-signed certificate for localhost, and the
/// certificate's file (a client trusts it as its CA).
pub struct TlsServer {
    pub url: String,
    pub ca: PathBuf,
    _server: LocalServer,
    _files: TempDir,
}

impl TlsServer {
    /// Starts one on 127.0.0.1 and a free port; its URL names localhost.
    pub fn start() -> TlsServer {
        let files = tempfile::tempdir().expect("temp dir");
        let names = vec!["localhost".to_owned(), "127.0.0.1".to_owned()];
        let made = rcgen::generate_simple_self_signed(names).expect("a certificate");
        let (cert, key) = (files.path().join("cert.pem"), files.path().join("key.pem"));
        std::fs::write(&cert, made.cert.pem()).expect("written");
        std::fs::write(&key, made.signing_key.serialize_pem()).expect("written");
        let tls = trinchera_service::Tls::load(trinchera_service::TlsFiles {
            cert: cert.clone(),
            key,
            client_ca: None,
        })
        .expect("TLS files");
        let options = trinchera_service::ServeOptions {
            tls: Some(std::sync::Arc::new(tls)),
            ..trinchera_service::ServeOptions::plain(Default::default())
        };
        let store = trinchera_store::MemoryStore::new();
        let address = "127.0.0.1:0".parse().expect("address");
        let server = LocalServer::start_serving(
            std::sync::Arc::new(store),
            address,
            Limits::for_tests(),
            options,
        )
        .expect("server");
        TlsServer {
            url: format!("https://localhost:{}", server.address().port()),
            ca: cert,
            _server: server,
            _files: files,
        }
    }
}

/// The server's store: sled in `dir`, as the server binary keeps its games by default.
fn sled(dir: &std::path::Path) -> std::sync::Arc<dyn trinchera_store::Store> {
    let store = trinchera_store_sled::SledStore::open(dir, Default::default()).expect("a store");
    std::sync::Arc::new(store)
}
