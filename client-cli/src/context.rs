//! What every command works with: the global options, the server connection (made on first
//! use), the token store and the output style.

use std::io::IsTerminal;

use tokio::sync::OnceCell;
use trinchera_proto::v1 as pb;

use crate::cli::Cli;
use crate::error::CliError;
use crate::render::{self, Drawing, Style};
use crate::words;
use trinchera_client::Names;
use trinchera_client::Store;
use trinchera_client::json::{self, Proto};
use trinchera_client::{Server, Trust, normalize_url};

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

    /// The token to act in `game` with: `--token`, else the stored one.
    pub async fn token(&self, game: &str) -> Result<String, CliError> {
        if let Some(token) = self.optional_token(game).await? {
            return Ok(token);
        }
        // A game that does not exist is said so, as everywhere else.
        let view = self.server().await?.view(game, None).await?;
        let message = if view.players.iter().any(|p| !p.joined) {
            format!(
                "you have no seat in game {game} on this machine: `trinchera join {game}` \
                 takes the free seat, or pass --token / TRINCHERA_TOKEN"
            )
        } else {
            format!(
                "you have no seat in game {game} on this machine and both its seats are \
                 taken: pass a player's --token / TRINCHERA_TOKEN to act for it, or \
                 `trinchera watch {game}` to follow the game"
            )
        };
        Err(CliError::Usage(message))
    }

    /// The token for `game` if there is one (commands that spectators may use too). When
    /// this machine holds both seats, `--as` decides, else the seat to move, the only one
    /// still to set up, or (after the end) seat 0.
    pub async fn optional_token(&self, game: &str) -> Result<Option<String>, CliError> {
        if let Some(token) = &self.token {
            return Ok(Some(token.clone()));
        }
        let tokens = self
            .store
            .game(&self.url, game)?
            .map(|record| record.tokens)
            .unwrap_or_default();
        if let Some(seat) = self.as_seat {
            return match tokens.get(&seat) {
                Some(token) => Ok(Some(token.clone())),
                None => Err(CliError::Usage(format!(
                    "this machine holds no token for seat {seat} of game {game}"
                ))),
            };
        }
        if tokens.len() < 2 {
            return Ok(tokens.into_values().next());
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
        Ok(tokens.get(&seat).cloned())
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
