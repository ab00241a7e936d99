//! What every command works with: the global options, the server connection (made on first
//! use), the token store with the account signed in, which token acts, and the output
//! style.

use std::io::IsTerminal;

use tokio::sync::OnceCell;
use trinchera_proto::v1 as pb;

use crate::cli::Cli;
use crate::error::CliError;
use crate::render::{self, Drawing, Style};
use crate::words;
use trinchera_client::accounts::is_account_token;
use trinchera_client::json::{self, Proto};
use trinchera_client::{Names, Server, Session, Store, Trust, normalize_url};

/// A command's surroundings.
#[derive(Debug)]
pub struct Ctx {
    /// The server address.
    pub url: String,
    /// What to trust of an https:// server.
    pub trust: Trust,
    /// Machine output.
    pub json: bool,
    /// Colours.
    pub style: Style,
    /// Whether standard output is a terminal (the screen may be redrawn).
    pub terminal: bool,
    /// Local tokens and commitments.
    pub store: Store,
    /// `--token`.
    token: Option<String>,
    /// `--as`.
    as_seat: Option<i32>,
    /// `--no-flip`.
    pub no_flip: bool,
    server: OnceCell<Server>,
}

impl Ctx {
    /// The context of the parsed command line.
    pub fn new(cli: &Cli) -> Result<Ctx, CliError> {
        let terminal = std::io::stdout().is_terminal();
        Ok(Ctx {
            url: normalize_url(&cli.server),
            trust: Trust {
                ca: cli.tls_ca.clone(),
            },
            json: cli.json,
            style: if cli.json {
                Style::plain()
            } else {
                Style::detect()
            },
            terminal: terminal && !cli.json,
            store: Store::open()?,
            token: cli.token.clone().filter(|t| !t.is_empty()),
            as_seat: cli.as_seat,
            no_flip: cli.no_flip,
            server: OnceCell::new(),
        })
    }

    /// The server, connected on first use.
    pub async fn server(&self) -> Result<&Server, CliError> {
        Ok(self
            .server
            .get_or_try_init(|| Server::connect(&self.url, &self.trust))
            .await?)
    }

    /// The account signed in on the server from here, if any.
    pub fn session(&self) -> Result<Option<Session>, CliError> {
        Ok(self.store.signed_in(&self.url)?)
    }

    /// The token that acts for an account: `--token`, else the signed-in session's.
    pub fn optional_account_token(&self) -> Result<Option<String>, CliError> {
        if let Some(token) = &self.token {
            return Ok(Some(token.clone()));
        }
        Ok(self.session()?.map(|session| session.token))
    }

    /// [`Ctx::optional_account_token`], or a usage error saying how to sign in.
    pub fn account_token(&self) -> Result<String, CliError> {
        self.optional_account_token()?
            .ok_or_else(|| self.not_signed_in())
    }

    /// The token that takes a seat in `new` and `join` for the account: an account's
    /// `--token`, else the signed-in session's; `None` for a guest (a seat's `--token` acts
    /// in its own game only).
    pub fn seating_token(&self) -> Result<Option<String>, CliError> {
        match &self.token {
            Some(token) if is_account_token(token) => Ok(Some(token.clone())),
            _ => Ok(self.session()?.map(|session| session.token)),
        }
    }

    /// Nobody is signed in here: how to.
    pub fn not_signed_in(&self) -> CliError {
        CliError::Usage(format!(
            "not signed in on {}: `trinchera login NAME` signs in, `trinchera register NAME` \
             makes an account",
            self.url
        ))
    }

    /// The token to act in `game` with: `--token`, else a stored seat token, else the
    /// signed-in account's.
    pub async fn token(&self, game: &str) -> Result<String, CliError> {
        match self.optional_token(game).await? {
            Some(token) => Ok(token),
            None => Err(self.no_seat(game).await),
        }
    }

    /// Neither this machine nor its account holds a seat in `game`: what to do instead. A
    /// game that does not exist is said so, as everywhere else.
    pub async fn no_seat(&self, game: &str) -> CliError {
        let view = match self.server().await {
            Ok(server) => server.view(game, None).await,
            Err(error) => return error,
        };
        let view = match view {
            Ok(view) => view,
            Err(error) => return error.into(),
        };
        let nor = match self.session() {
            Ok(Some(session)) => format!(", nor does your account {}", session.name),
            _ => String::new(),
        };
        let message = if view.players.iter().any(|p| !p.joined) {
            format!(
                "you have no seat in game {game} on this machine{nor}: `trinchera join {game}` \
                 takes the free seat, or pass --token / TRINCHERA_TOKEN"
            )
        } else {
            format!(
                "you have no seat in game {game} on this machine{nor} and both its seats are \
                 taken: pass a player's --token / TRINCHERA_TOKEN to act for it, or \
                 `trinchera watch {game}` to follow the game"
            )
        };
        CliError::Usage(message)
    }

    /// The token for `game` if there is one (commands that spectators may use too): a seat
    /// token held here, else the signed-in account's. When this machine holds both seats,
    /// `--as` decides, else the seat to move, the only one still to set up, or (after the
    /// end) seat 0.
    pub async fn optional_token(&self, game: &str) -> Result<Option<String>, CliError> {
        if let Some(token) = &self.token {
            return Ok(Some(token.clone()));
        }
        let hands = self.store.hands(&self.url, game)?;
        if let Some(seat) = self.as_seat {
            if let Some(token) = hands.seats.get(&seat) {
                return Ok(Some(token.clone()));
            }
            let Some(account) = &hands.account else {
                return Err(CliError::Usage(format!(
                    "this machine holds no token for seat {seat} of game {game}"
                )));
            };
            // The account holds one seat at most: the one asked for?
            let view = self
                .server()
                .await?
                .view(game, Some(&account.token))
                .await?;
            if view.viewer_seat != Some(seat) {
                return Err(CliError::Usage(format!(
                    "this machine holds no token for seat {seat} of game {game}, and your \
                     account {} does not play it",
                    account.name
                )));
            }
            return Ok(Some(account.token.clone()));
        }
        if hands.seats.len() < 2 {
            return Ok(hands.token(None).map(str::to_owned));
        }
        let view = self.server().await?.view(game, None).await?;
        let pending: Vec<i32> = view
            .players
            .iter()
            .filter(|p| !p.setup_done)
            .map(|p| p.seat)
            .collect();
        let seat = match (view.to_move, pending.as_slice()) {
            (Some(seat), _) => seat,
            (None, [seat]) => *seat,
            // After the end everything is public: either seat sees the same.
            _ if view.phase() == pb::Phase::Finished => 0,
            _ => {
                return Err(CliError::Usage(format!(
                    "this machine holds both seats of game {game}: say which with --as 0 or --as 1"
                )));
            }
        };
        Ok(hands.token(Some(seat)).map(str::to_owned))
    }

    /// The error of a command, told with the way back when the server refused the
    /// signed-in session's token (signed out elsewhere, revoked, expired).
    pub fn explain(&self, error: CliError) -> CliError {
        let ended = matches!(error.refusal(), Some((_, Some("BAD_TOKEN"))));
        if !ended || self.token.is_some() {
            return error;
        }
        match (self.session(), error) {
            (Ok(Some(session)), CliError::Client(refusal)) => CliError::SessionEnded {
                name: session.name,
                refusal,
            },
            (_, error) => error,
        }
    }

    /// Records the commitments of `view`; a failure only warns (the command still works).
    pub fn remember(&self, view: &pb::GameView) {
        if let Err(error) = self.store.remember_view(&self.url, view) {
            eprintln!("warning: cannot record the game's commitments: {error}");
        }
    }

    /// Prints one JSON document.
    pub fn print_json(&self, value: &serde_json::Value) -> Result<(), CliError> {
        let text = serde_json::to_string_pretty(value)
            .map_err(|e| CliError::Local(format!("cannot write JSON: {e}")))?;
        println!("{text}");
        Ok(())
    }

    /// Prints `message` as JSON.
    pub fn print_message<M: Proto>(&self, message: &M) -> Result<(), CliError> {
        self.print_json(&json::to_json(message).map_err(CliError::Local)?)
    }

    /// The board and status lines of `view`.
    pub fn draw(&self, ruleset: &pb::Ruleset, view: &pb::GameView) -> String {
        let names = Names::new(ruleset);
        let drawing = Drawing {
            names: &names,
            view: Some(view),
            no_flip: self.no_flip,
        };
        format!(
            "{}\n{}",
            render::board(&drawing, self.style),
            words::status(&names, view, self.style)
        )
    }
}
