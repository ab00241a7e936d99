//! `play`: the interactive loop for a person at a terminal (or anything writing to its
//! standard input): create or join, set up, then show the board and prompt for moves until
//! the game ends. The opponent's moves arrive over a watch stream while waiting.

use trinchera_proto::v1 as pb;

use crate::cli::{NewArgs, PlayArgs, SetupHow};
use crate::commands::{self, SetupPlan};
use crate::context::Ctx;
use crate::error::CliError;
use crate::prompt::{self, Input};
use crate::words;
use trinchera_client::{ClientError, Lang, Names};

/// Prompt help while playing.
const MOVE_HELP: &str = "\
Type a move in notation (e.g. a4-a5, d5xd3xf3, enter f1 NE, end), or:
  moves (or ?)   list your legal moves, by piece
  moves CELL     the legal moves of the piece or tank on CELL (e.g. moves c1)
  board          draw the board again
  resign         give up (asks first)
  quit           leave; the game goes on (trinchera play --resume GAME)
  help           this text";

/// The game being played.
struct Session<'a> {
    ctx: &'a Ctx,
    game: String,
    token: String,
    seat: i32,
    ruleset: pb::Ruleset,
    view: pb::GameView,
    /// The last version whose event was shown to the player.
    shown: u64,
    /// The last version whose event was told as a sentence (then the board leaves out its
    /// "Last:" line, which would say it again).
    told: u64,
}

/// `play`.
pub async fn play(ctx: &Ctx, args: &PlayArgs) -> Result<(), CliError> {
    if ctx.json {
        return Err(CliError::Usage(
            "play is interactive; scripts use new, join, setup, moves and move with --json".into(),
        ));
    }
    let (game, token) = if let Some(ruleset) = &args.ruleset {
        let created = commands::new_game(
            ctx,
            &NewArgs {
                ruleset: ruleset.clone(),
                seat: args.seat,
                name: args.name.clone(),
                game_name: None,
                bot: args.bot.clone(),
                options: vec![],
                clock: args.clock.clone(),
            },
        )
        .await?;
        (created.game_id, created.player_token)
    } else if let Some(game) = &args.join {
        let joined = commands::join_game(ctx, game, args.name.as_deref()).await?;
        (joined.game_id, joined.player_token)
    } else {
        let game = args.resume.clone().unwrap_or_default();
        let token = ctx.token(&game).await?;
        (game, token)
    };
    let server = ctx.server().await?;
    let view = server.view(&game, Some(&token)).await?;
    let ruleset = server.ruleset(&view.ruleset).await?;
    let seat = view
        .viewer_seat
        .ok_or_else(|| CliError::Usage("the token does not hold a seat of this game".into()))?;
    let names = Names::new(&ruleset);
    println!(
        "Game {game} ({}): you play {} (seat {seat}). Type `help` at a prompt for commands.",
        ruleset.name,
        names.seat(seat)
    );
    let mut session = Session {
        ctx,
        game,
        token,
        seat,
        shown: view.version,
        told: 0,
        ruleset,
        view,
    };
    let mut input = Input::new();
    let game = session.game.clone();
    tokio::select! {
        played = session.run(&mut input) => {
            if let Err(CliError::Client(ClientError::Unreachable { .. })) = played {
                // The game goes on at the server; say how to get back to it.
                eprintln!("{}", leaving(&game));
            }
            played
        }
        // Ctrl-C leaves like `quit`, with the way back.
        _ = tokio::signal::ctrl_c() => {
            println!();
            println!("{}", leaving(&game));
            Ok(())
        }
    }
}

/// What a player who leaves a running game reads.
fn leaving(game: &str) -> String {
    format!("Leaving; the game goes on. Come back with `trinchera play --resume {game}`.")
}

impl Session<'_> {
    async fn run(&mut self, input: &mut Input) -> Result<(), CliError> {
        loop {
            self.ctx.remember(&self.view);
            if self.view.version > self.shown {
                // Events the player has not seen yet (a bot's reply to a move, say).
                let target = self.view.version;
                self.follow(|_, version| version >= target).await?;
            }
            let names = Names::new(&self.ruleset);
            let carry_on = match self.view.phase() {
                pb::Phase::Waiting => {
                    println!(
                        "Waiting for an opponent: they run `trinchera play --join {}`.",
                        self.game
                    );
                    self.wait().await?;
                    true
                }
                pb::Phase::Setup if !self.my_setup_done() => self.set_up(input).await?,
                pb::Phase::Setup => {
                    println!("Waiting for {} to set up.", names.seat(1 - self.seat));
                    self.wait().await?;
                    true
                }
                pb::Phase::Playing if self.view.to_move == Some(self.seat) => {
                    print!("{}", self.board());
                    self.take_turn(input).await?
                }
                pb::Phase::Playing => {
                    print!("{}", self.board());
                    println!("Waiting for {}...", names.seat(1 - self.seat));
                    self.wait().await?;
                    input.waited();
                    true
                }
                pb::Phase::Finished | pb::Phase::Unspecified => {
                    print!("{}", self.board());
                    println!(
                        "The game is over. `trinchera verify {}` checks that it was fair.",
                        self.game
                    );
                    return Ok(());
                }
            };
            if !carry_on {
                println!("{}", leaving(&self.game));
                return Ok(());
            }
        }
    }

    /// The board and status lines, without the last event when it was just told.
    fn board(&self) -> String {
        let told = self
            .view
            .last_event
            .as_ref()
            .is_some_and(|event| event.version <= self.told);
        if !told {
            return self.ctx.draw(&self.ruleset, &self.view);
        }
        let view = pb::GameView {
            last_event: None,
            ..self.view.clone()
        };
        self.ctx.draw(&self.ruleset, &view)
    }

    fn my_setup_done(&self) -> bool {
        self.view
            .players
            .iter()
            .any(|p| p.seat == self.seat && p.setup_done)
    }

    /// Waits until something concerns the player: the phase changes, their turn comes,
    /// or the game ends.
    async fn wait(&mut self) -> Result<(), CliError> {
        let (phase, seat) = (self.view.phase(), self.seat);
        self.follow(|view, _| view.phase() != phase || view.to_move == Some(seat))
            .await
    }

    /// Prints the events after the last one shown until `done` says so of a view and its
    /// version (or the game ends).
    async fn follow(&mut self, done: impl Fn(&pb::GameView, u64) -> bool) -> Result<(), CliError> {
        let server = self.ctx.server().await?;
        let mut stream = server
            .watch(&self.game, Some(&self.token), Some(self.shown))
            .await?;
        let names = Names::new(&self.ruleset);
        while let Some(message) = stream.message().await? {
            let Some(view) = message.view else { continue };
            if let Some(event) = &message.event {
                println!("{}", words::event(Lang::En, &names, Some(&view), event));
                self.told = message.version;
            }
            self.shown = message.version;
            self.view = view;
            if done(&self.view, message.version) || self.view.phase() == pb::Phase::Finished {
                return Ok(());
            }
        }
        // The stream ended (the server is shutting down): take a fresh look.
        self.view = server.view(&self.game, Some(&self.token)).await?;
        self.shown = self.view.version;
        Ok(())
    }

    /// Asks for a setup until one is accepted; `false` if the player leaves.
    async fn set_up(&mut self, input: &mut Input) -> Result<bool, CliError> {
        input.complete(
            ["random", "file ", "template", "template ", "quit"]
                .map(String::from)
                .to_vec(),
        );
        loop {
            let Some(answer) = input
                .ask(
                    "Set up: `random`, `file PATH`, `template` (prints a layout to edit) or \
                     `template PATH` (writes it to a file): ",
                )
                .await?
            else {
                return Ok(false);
            };
            let how = match answer.split_once(' ') {
                _ if answer == "random" => SetupHow {
                    random: true,
                    file: None,
                    template: false,
                },
                _ if answer == "template" => SetupHow {
                    random: false,
                    file: None,
                    template: true,
                },
                Some(("template", path)) => {
                    let how = SetupHow {
                        random: false,
                        file: None,
                        template: true,
                    };
                    let path = path.trim();
                    match commands::setup_plan(&self.game, &self.ruleset, self.seat, &how) {
                        Ok(SetupPlan::Template(text)) => match std::fs::write(path, text) {
                            Ok(()) => println!(
                                "Wrote a layout to {path}: edit it, then answer `file {path}`."
                            ),
                            Err(e) => println!("Cannot write {path}: {e}"),
                        },
                        Ok(SetupPlan::Submit(_)) => {}
                        Err(error) => println!("{error}"),
                    }
                    continue;
                }
                Some(("file", path)) => SetupHow {
                    random: false,
                    file: Some(path.trim().into()),
                    template: false,
                },
                _ if answer == "quit" => return Ok(false),
                _ => {
                    println!("Answer `random`, `file PATH`, `template [PATH]` or `quit`.");
                    continue;
                }
            };
            let request = match commands::setup_plan(&self.game, &self.ruleset, self.seat, &how) {
                Ok(SetupPlan::Submit(request)) => request,
                Ok(SetupPlan::Template(text)) => {
                    print!("{text}");
                    continue;
                }
                Err(error @ (CliError::Usage(_) | CliError::Client(ClientError::File { .. }))) => {
                    println!("{error}");
                    continue;
                }
                Err(error) => return Err(error),
            };
            let server = self.ctx.server().await?;
            match server.setup(request, &self.token).await {
                Ok(reply) => {
                    self.view = reply.view.unwrap_or_default();
                    print!("{}", self.board());
                    return Ok(true);
                }
                Err(ClientError::Refused { message, .. }) => println!("Refused: {message}"),
                Err(error) => return Err(error.into()),
            }
        }
    }

    /// Prompts until a move is played; `false` if the player leaves.
    async fn take_turn(&mut self, input: &mut Input) -> Result<bool, CliError> {
        let names = Names::new(&self.ruleset);
        input.complete(prompt::move_words(&self.view));
        loop {
            let Some(line) = input.ask("Your move: ").await? else {
                return Ok(false);
            };
            match line.as_str() {
                "" => continue,
                "help" => println!("{MOVE_HELP}"),
                "?" | "moves" => print!("{}", commands::moves_text(&names, &self.view, None)),
                line if line.starts_with("moves ") => {
                    match commands::cell_named(&names, &line["moves ".len()..]) {
                        Ok(cell) => {
                            print!("{}", commands::moves_text(&names, &self.view, Some(cell)));
                        }
                        Err(error) => println!("{error}"),
                    }
                }
                "board" | "show" => print!("{}", self.board()),
                "quit" | "exit" => return Ok(false),
                "resign" => {
                    let sure = input.ask("Really resign? (yes/no): ").await?;
                    if sure.as_deref() == Some("yes") {
                        let server = self.ctx.server().await?;
                        let reply = server.resign(&self.game, &self.token).await?;
                        self.view = reply.view.unwrap_or_default();
                        return Ok(true);
                    }
                }
                notation => {
                    match commands::play_move(
                        self.ctx,
                        &self.game,
                        &self.token,
                        notation,
                        Some(self.view.version),
                    )
                    .await
                    {
                        Ok(reply) => {
                            if let Some(event) = &reply.event {
                                println!(
                                    "{}",
                                    words::event(Lang::En, &names, reply.view.as_ref(), event)
                                );
                                self.shown = event.version;
                                self.told = event.version;
                            }
                            self.view = reply.view.unwrap_or_default();
                            return Ok(true);
                        }
                        Err(CliError::Client(ClientError::Refused { message, .. })) => {
                            println!("Refused: {message} (`moves` lists the legal ones)");
                        }
                        Err(error) => return Err(error),
                    }
                }
            }
        }
    }
}
