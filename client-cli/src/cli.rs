//! The command line: global options and one subcommand per task.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use trinchera_proto::v1 as pb;

/// Help text after the command list: exit codes, environment, files.
const AFTER_HELP: &str = "\
Exit codes:
  0  success (verify: the game was fair)
  1  local failure: a file could not be read or written, a malformed history file,
     a game that is not over yet and so cannot be verified
  2  usage error: bad arguments, a setup file with a syntax error, no token for the game
  3  the server refused the request (its message is printed; with --json the document
     {\"error\": {...}} on stdout carries the gRPC status and the ErrorInfo reason)
  4  no server answered at --server, or the connection broke
  5  verify: the game was NOT fair

Environment:
  TRINCHERA_SERVER      server address (--server)
  TRINCHERA_TOKEN       player or account token (--token)
  TRINCHERA_CONFIG_DIR  where tokens are kept instead of the platform config directory
  NO_COLOR              no colours even on a terminal

Tokens: `new` and `join` store the seat's token in games.json of the config directory
(~/.config/trinchera/ on Linux), readable only by you (mode 0600); later commands find it
by game id (when you hold both seats of a game, --as picks one). Tokens are printed
only by `new` and `join` with --json.

Accounts: `register NAME` or `login NAME` keeps the account's session for the server in
the same file. Signed in, `new` and `join` take seats for the account (under its name),
and a game with no seat token here acts with the account's token, so a game begun on
another machine or client goes on here (`games --mine` lists them). `logout` ends the
session. Passwords are asked on the terminal without echo, or read with --password-stdin;
never give one as an argument.

Quick start, two terminals:
  A$ trinchera play frente               # creates a game and prints its id
  B$ trinchera play --join GAME_ID       # the second player joins it
Against the server's bot:  trinchera play frente --bot easy";

/// Play, script and audit Trinchera games from a terminal.
///
/// A thin client of a Trinchera server: the server knows the rules, lists the legal moves
/// and keeps the games; this program draws boards, keeps your tokens and checks fairness.
/// Every command takes --json for scripts (one JSON document per command; `watch` prints
/// one JSON object per line), in the proto3 JSON mapping with the .proto field names.
#[derive(Debug, Parser)]
#[command(name = "trinchera", version, after_long_help = AFTER_HELP)]
pub struct Cli {
    /// The server's address.
    #[arg(
        long,
        global = true,
        env = "TRINCHERA_SERVER",
        default_value = "http://127.0.0.1:50051"
    )]
    pub server: String,

    /// PEM certificates of a private CA to trust for an https:// server, besides the
    /// system's root certificates.
    #[arg(long, global = true, env = "TRINCHERA_TLS_CA", value_name = "PATH")]
    pub tls_ca: Option<std::path::PathBuf>,

    /// Machine-readable output: one JSON document on stdout (errors too, as {"error": ...}).
    #[arg(long, global = true)]
    pub json: bool,

    /// Act with this token instead of the one stored for the game: a seat's player token,
    /// or an account's token (`tra1_…`, which also acts for `new`, `join`, `whoami`,
    /// `token` and `games --mine` in place of the signed-in account's).
    #[arg(long, global = true, env = "TRINCHERA_TOKEN", hide_env_values = true)]
    pub token: Option<String>,

    /// Act as this seat when this machine holds both seats of the game (otherwise the seat
    /// to move, or the one still to set up, is chosen).
    #[arg(long = "as", global = true, value_name = "SEAT", value_parser = clap::value_parser!(i32).range(0..=1))]
    pub as_seat: Option<i32>,

    /// Draw boards from seat 0's side even when you play seat 1 (seat 1 otherwise sees the
    /// board turned by 180°, its own pieces at the bottom).
    #[arg(long, global = true)]
    pub no_flip: bool,

    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the rulesets the server hosts, or describe one with its board drawn.
    Rulesets {
        /// Describe one ruleset.
        #[command(subcommand)]
        show: Option<RulesetsCommand>,
    },
    /// Describe a ruleset with its board drawn: `rulesets show ID` in fewer words.
    Rules {
        /// The ruleset id, e.g. frente.
        id: String,
    },
    /// Create a game and take a seat in it; prints the game id to give your opponent.
    New(NewArgs),
    /// Take the free seat of a game waiting for a player.
    Join {
        /// The game id.
        game: String,
        /// Your display name as a guest (signed in, you play under your account's name).
        #[arg(long)]
        name: Option<String>,
    },
    /// List games, newest first.
    ///
    /// `[yours: seat N]` marks your seats (those taken from this machine and those of the
    /// signed-in account), `[account]` players with an account; the others are guests, or
    /// the server's bots, which say so.
    Games(GamesArgs),
    /// Create an account on the server and sign in with it.
    ///
    /// Your games then follow you to every machine and client where you sign in. Asks for
    /// the password twice on a terminal (it is not shown); scripts give it with
    /// --password-stdin.
    Register {
        /// The account's name: 1 to 32 characters, unique on the server regardless of case.
        name: String,
        /// How the password is given.
        #[command(flatten)]
        password: PasswordArgs,
    },
    /// Sign in to your account on the server.
    ///
    /// From then on every command acts for it here: `new` and `join` take seats for the
    /// account, and games begun elsewhere go on here. Asks for the password on a terminal
    /// (it is not shown); scripts give it with --password-stdin.
    Login {
        /// The account's name (any case).
        name: String,
        /// How the password is given.
        #[command(flatten)]
        password: PasswordArgs,
    },
    /// Sign out: end this machine's session on the server and forget it here.
    ///
    /// When the server does not answer, the session is forgotten here all the same, with a
    /// warning. Seat tokens of games taken from here stay, as a guest's do.
    Logout,
    /// Say which account this machine is signed in with on the server, and its session.
    Whoami,
    /// Your account's personal tokens, for scripts and bots: create, list, revoke.
    Token {
        /// What to do with them.
        #[command(subcommand)]
        command: TokenCommand,
    },
    /// Submit your secret setup: random, or a layout file of your setup zone.
    ///
    /// The layout file has one line per row of your setup zone: the row number, then one
    /// piece code (PieceKind.code, either case) per cell of the zone in that row, from your
    /// left as you see the board (seat 1 sees it turned); `.` leaves a cell empty. A file
    /// written for the other seat reads row by row from your side.
    /// Rows may come in any order; lines starting with `#` are comments. Example (frente,
    /// seat 0, first of four rows):
    ///
    ///     4  S S R T C . ...
    ///
    /// `--template` prints a complete random layout to edit. Only the syntax is checked
    /// locally; the server checks the rules and lists every problem at once.
    Setup {
        /// The game id.
        game: String,
        /// How to set up.
        #[command(flatten)]
        how: SetupHow,
    },
    /// Draw the board as you see it, with the turn, phase, result and last event.
    ///
    /// Your pieces are in upper case, the opponent's in lower case, `?` is a piece whose
    /// kind you do not know; the legend under the board explains the terrain marks.
    Show {
        /// The game id.
        game: String,
    },
    /// List your legal moves in notation (empty when it is not your turn), grouped by the
    /// piece or tank that makes them; a maneuver shows where it ends (`→ e5 NE`).
    Moves {
        /// The game id.
        game: String,
        /// Only the moves of the piece or tank on this cell (`moves 7 c1`).
        cell: Option<String>,
    },
    /// Play one move in notation, e.g. `a4-a5`, `d5xd3xf3`, `enter f1 NE`, `end`.
    Move {
        /// The game id.
        game: String,
        /// The move; words may be given as separate arguments (`move G enter f1 NE`).
        #[arg(required = true, num_args = 1.., trailing_var_arg = true, allow_hyphen_values = true)]
        notation: Vec<String>,
        /// Play it only if the game is at this version (safe retries, explicit races);
        /// put it before the game id, since everything after the move is the move.
        #[arg(long)]
        expect_version: Option<u64>,
    },
    /// Give up: the other seat wins. Asks first on a terminal (`y` or `yes` resigns).
    Resign {
        /// The game id.
        game: String,
        /// Resign without asking: needed where there is nobody to ask (standard input not
        /// a terminal, as in scripts, or --json).
        #[arg(long, short = 'y')]
        yes: bool,
    },
    /// Follow a game live until it ends: redraws on a terminal, one line per event
    /// otherwise (one JSON object per line with --json).
    Watch {
        /// The game id.
        game: String,
        /// Start after this version instead of with a snapshot of the present.
        #[arg(long)]
        after: Option<u64>,
    },
    /// Every event of a game; after the end also the revealed setups and dice seed. With
    /// --json also the position after every event: the file `verify --history` checks and
    /// the desktop client replays.
    History {
        /// The game id.
        game: String,
    },
    /// Check a finished game: re-derive the setup commitments and every die roll and say
    /// plainly whether the game was fair (exit code 5 when it was not).
    Verify {
        /// The game id.
        #[arg(required_unless_present = "history", conflicts_with = "history")]
        game: Option<String>,
        /// Check a saved `history --json` file instead of asking the server.
        #[arg(long, value_name = "FILE")]
        history: Option<PathBuf>,
    },
    /// Play interactively: create or join a game, set up, then move at the prompt until
    /// the game ends. Type `help` at the prompt for the commands.
    Play(PlayArgs),
    /// Measure a running server: G concurrent games of random legal moves (both seats
    /// simulated, games restarted as they end) against the health-check baseline.
    ///
    /// Prints moves/s, MakeMove latency percentiles, health-check req/s and latency at the
    /// same concurrency, their ratio, the server's RSS before and after and its and this
    /// client's CPU per move (when the server runs on this machine), and errors by status
    /// code, which must be zero (exit code 1
    /// otherwise). A progress line goes to stderr. `--watchers N` adds N spectator streams
    /// over the active games and reports their fan-out latency; `--pace D` moves each game
    /// about every D, as people do; `--curve 128,1000,10000` measures several sizes and
    /// prints a row each; `--fill N` instead creates N stored games of realistic length (to
    /// measure start-up and memory on a big data directory).
    ///
    /// Start the server with `trinchera-server --no-rate-limits`: its default rate limits
    /// are meant for people, and a load tool on one address meets them at once.
    Bench(trinchera_bench::BenchArgs),
    /// Bot against bot: plays GAMES games between two bot levels through the server (seats
    /// alternated) and prints level A's wins, draws and losses per seat and in all with a
    /// 95% interval, the average length and each level's time per move.
    ///
    /// Start the server with `trinchera-server --bot-delay-ms 0` so that the time per move
    /// is the bots' thinking (plus the commit), not their pause for human eyes.
    Arena(ArenaArgs),
    /// Print a shell completion script, e.g. `trinchera completions bash > ~/.local/share/bash-completion/completions/trinchera`.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

/// `games`.
#[derive(Debug, Args)]
pub struct GamesArgs {
    /// Only games in this phase.
    #[arg(long, value_enum)]
    pub phase: Option<PhaseArg>,
    /// Only games of this ruleset.
    #[arg(long)]
    pub ruleset: Option<String>,
    /// Only your account's games (sign in first), those begun on other machines too.
    #[arg(long, conflicts_with = "player")]
    pub mine: bool,
    /// Only the games of the account with this name.
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,
    /// At most this many games.
    #[arg(long, default_value_t = 50)]
    pub limit: usize,
}

/// How `register` and `login` get the password: asked on the terminal, never as an argument.
#[derive(Debug, Args)]
pub struct PasswordArgs {
    /// Read the password from the first line of standard input instead of asking on the
    /// terminal (for scripts: `trinchera login NAME --password-stdin < file`).
    #[arg(long)]
    pub password_stdin: bool,
}

/// `token`.
#[derive(Debug, Subcommand)]
pub enum TokenCommand {
    /// Make a personal token, printed once.
    ///
    /// The token is printed alone on standard output (`> bot.token` keeps it); the server
    /// keeps only a hash of it, so keep it somewhere safe. It acts for the account like a
    /// session, within its scopes.
    Create {
        /// What it may do: play (create, join and play games, manage tokens) or bot (play
        /// as a bot account, for programs that play); repeat the option for both.
        #[arg(long = "scope", value_enum, required = true, value_name = "SCOPE")]
        scopes: Vec<ScopeArg>,
        /// What to call it, e.g. "my bot": 1 to 64 characters.
        #[arg(long)]
        label: String,
        /// Days until it stops working, 1 to 3650 (without it: never).
        #[arg(long, value_name = "DAYS", value_parser = clap::value_parser!(u32).range(1..=3650))]
        expires_days: Option<u32>,
    },
    /// List the account's working tokens (sessions and personal tokens) without their
    /// secrets: id, label, kind, scopes, when made, when they run out.
    List,
    /// Revoke one of the account's tokens by its id (see `token list`): it stops working at
    /// once.
    Revoke {
        /// The token's id: 16 hex digits.
        id: String,
    },
}

/// Token scopes for `token create --scope`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ScopeArg {
    /// Create, join and play games; manage the account's tokens.
    Play,
    /// Play as a bot account.
    Bot,
}

impl ScopeArg {
    /// The scope on the wire.
    pub fn scope(self) -> pb::TokenScope {
        match self {
            ScopeArg::Play => pb::TokenScope::Play,
            ScopeArg::Bot => pb::TokenScope::Bot,
        }
    }
}

/// `rulesets show`.
#[derive(Debug, Subcommand)]
pub enum RulesetsCommand {
    /// Describe a ruleset: seats, pieces, setup zones, notation, and its board.
    Show {
        /// The ruleset id, e.g. frente.
        id: String,
    },
}

/// `new`.
#[derive(Debug, Args)]
pub struct NewArgs {
    /// The ruleset id (see `trinchera rulesets`).
    pub ruleset: String,
    /// Your seat: 0 moves first.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(i32).range(0..=1))]
    pub seat: i32,
    /// Your display name as a guest (signed in, you play under your account's name).
    #[arg(long)]
    pub name: Option<String>,
    /// The game's display name (default: the ruleset's name).
    #[arg(long)]
    pub game_name: Option<String>,
    /// Let the server play the other seat at this level: random, easy or hard (the
    /// server lists its levels in `trinchera rulesets show ID`).
    #[arg(long, value_name = "LEVEL")]
    pub bot: Option<String>,
    /// A ruleset option as KEY=VALUE. No hosted ruleset defines options yet, so any
    /// option is refused with a usage error.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// The time control.
    #[command(flatten)]
    pub clock: ClockArgs,
}

/// A game's time control: none (the default), a live clock or a correspondence deadline.
#[derive(Clone, Debug, Default, Args)]
pub struct ClockArgs {
    /// A live clock per seat: MINUTES+SECONDS, initial time and increment per turn
    /// (e.g. `10+5`). A seat whose clock runs out loses.
    #[arg(long, value_name = "MIN+SEC", value_parser = parse_clock, conflicts_with = "days")]
    pub clock: Option<(u32, u32)>,
    /// A correspondence deadline: DAYS for every turn (1 to 30).
    #[arg(long, value_name = "DAYS", value_parser = clap::value_parser!(u32).range(1..=30))]
    pub days: Option<u32>,
}

impl ClockArgs {
    /// The time control for CreateGame (`None`: no clock).
    pub fn time_control(&self) -> Option<pb::TimeControl> {
        use pb::time_control::Control;
        let control = match (self.clock, self.days) {
            (Some((minutes, seconds)), _) => Control::Live(pb::LiveControl {
                initial_seconds: minutes * 60,
                increment_seconds: seconds,
            }),
            (None, Some(days)) => Control::Correspondence(pb::CorrespondenceControl {
                days_per_move: days,
            }),
            (None, None) => return None,
        };
        Some(pb::TimeControl {
            control: Some(control),
        })
    }
}

/// Reads `MINUTES+SECONDS`, e.g. `10+5` (`3` alone: no increment).
fn parse_clock(text: &str) -> Result<(u32, u32), String> {
    let (minutes, seconds) = text.split_once('+').unwrap_or((text, "0"));
    let number = |part: &str, what: &str| {
        part.trim()
            .parse::<u32>()
            .map_err(|_| format!("{what} must be a whole number in MIN+SEC, e.g. 10+5"))
    };
    let minutes = number(minutes, "the minutes")?;
    let seconds = number(seconds, "the increment")?;
    if minutes == 0 || minutes > 180 || seconds > 180 {
        return Err("the clock is 1 to 180 minutes plus 0 to 180 seconds, e.g. 10+5".into());
    }
    Ok((minutes, seconds))
}

/// `arena`.
#[derive(Debug, Args)]
pub struct ArenaArgs {
    /// The ruleset id.
    #[arg(long, default_value = "frente")]
    pub ruleset: String,
    /// Level A (see `trinchera rulesets show ID` for the levels).
    #[arg(long, default_value = "hard")]
    pub a: String,
    /// Level B.
    #[arg(long, default_value = "random")]
    pub b: String,
    /// Games to play; A takes seat 0 in the even ones, seat 1 in the odd ones.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Games played at the same time.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub parallel: u32,
}

/// `play`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("target").required(true).args(["ruleset", "join", "resume"]))]
pub struct PlayArgs {
    /// Create a new game of this ruleset.
    pub ruleset: Option<String>,
    /// Join this game instead.
    #[arg(long, value_name = "GAME")]
    pub join: Option<String>,
    /// Go on with a game you already have a seat in.
    #[arg(long, value_name = "GAME")]
    pub resume: Option<String>,
    /// Your seat when creating: 0 moves first.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(i32).range(0..=1))]
    pub seat: i32,
    /// Your display name as a guest (signed in, you play under your account's name).
    #[arg(long)]
    pub name: Option<String>,
    /// When creating: let the server play the other seat at this level: random, easy or
    /// hard.
    #[arg(long, value_name = "LEVEL")]
    pub bot: Option<String>,
    /// When creating: the time control.
    #[command(flatten)]
    pub clock: ClockArgs,
}

/// How `setup` places the pieces.
#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
pub struct SetupHow {
    /// Let the server make a random legal setup.
    #[arg(long)]
    pub random: bool,
    /// Read the layout from this file (`-` for standard input).
    #[arg(long, value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Print a random layout of your zone to edit, without submitting anything.
    #[arg(long)]
    pub template: bool,
}

/// Game phases for `games --phase`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PhaseArg {
    /// Waiting for a player.
    Waiting,
    /// Waiting for setups.
    Setup,
    /// Being played.
    Playing,
    /// Over.
    Finished,
}
