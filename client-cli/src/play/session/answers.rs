//! The answers to what the player types: commands, moves (and why one was refused), the
//! resignation, the setup.

use trinchera_client::setup_file::Submit;
use trinchera_client::status::turn;
use trinchera_client::{ClientError, Code, Lang};
use trinchera_proto::v1 as pb;

use super::{Ask, Session};
use crate::cli::SetupHow;
use crate::commands::{self, SetupPlan};
use crate::error::CliError;
use crate::render;
use crate::words;

/// Prompt help while playing.
const MOVE_HELP: &str = "\
Type a move in notation (e.g. a4-a5, d5xd3xf3, enter f1 NE, end), or:
  moves (or ?)   list your legal moves, by piece
  moves CELL     the legal moves of the piece or tank on CELL (e.g. moves c1)
  board          draw the board again
  resign         give up (asks first)
  quit           leave; the game goes on (trinchera play --resume GAME)
  help           this text
Tab completes a move or command; a second Tab lists what it could be. What the opponent
does is told as it happens.";

/// The `ErrorInfo` reasons of refusals that mean the game moved on under the player.
const STALE_REASONS: [&str; 3] = ["GAME_OVER", "NOT_YOUR_TURN", "WRONG_PHASE"];

/// Why the server refused a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    /// The game moved on since the player's view (a version conflict, a game over, the
    /// turn gone): the view is brought up to date.
    Stale,
    /// The move itself is wrong.
    Move,
}

impl Refusal {
    fn of(status: Code, reason: Option<&str>) -> Refusal {
        let stale = status == Code::Aborted
            || (status == Code::FailedPrecondition
                && reason.is_some_and(|reason| STALE_REASONS.contains(&reason)));
        if stale { Refusal::Stale } else { Refusal::Move }
    }
}

impl Session<'_> {
    /// Answers a line typed at the prompt; `false` if the player leaves.
    pub(super) async fn answer(&mut self, ask: Ask, line: &str) -> Result<bool, CliError> {
        match ask {
            Ask::Confirm => {
                self.confirming = false;
                if commands::confirmed(line) {
                    self.resign().await?;
                } else {
                    self.say("You play on.");
                }
                Ok(true)
            }
            Ask::Setup => self.set_up(line).await,
            Ask::Move | Ask::Wait(_) => self.command(ask, line).await,
        }
    }

    /// A command or a move at the move prompt (or a terminal's prompt while waiting).
    pub(super) async fn command(&mut self, ask: Ask, line: &str) -> Result<bool, CliError> {
        let my_turn = ask == Ask::Move;
        match line {
            "" => {}
            "help" => self.say(MOVE_HELP),
            "quit" | "exit" => return Ok(false),
            "board" | "show" => {
                let text = self.board();
                self.say(&text);
            }
            "resign" => self.confirming = true,
            "?" | "moves" if my_turn => {
                let text = self.moves(None);
                self.say(&text);
            }
            line if my_turn && line.starts_with("moves ") => {
                let text = match commands::cell_named(&self.names(), &line["moves ".len()..]) {
                    Ok(cell) => self.moves(Some(cell)),
                    Err(error) => error.to_string(),
                };
                self.say(&text);
            }
            notation if my_turn => self.play(notation).await?,
            _ => {
                let text = format!(
                    "Not now. {}. (`help` lists what you can do meanwhile.)",
                    turn(Lang::En, &self.names(), &self.view)
                );
                self.say(&text);
            }
        }
        Ok(true)
    }

    /// The player's legal moves (`only` those from that cell) in the board's order as drawn.
    fn moves(&self, only: Option<pb::Cell>) -> String {
        let flipped = render::flipped(self.ctx.no_flip, Some(&self.view));
        commands::moves_text(&self.names(), &self.view, only, flipped)
    }

    /// Plays `notation`; a refusal is told, and a game that moved on is brought up to date.
    pub(super) async fn play(&mut self, notation: &str) -> Result<(), CliError> {
        let played = commands::play_move(
            self.ctx,
            &self.game,
            &self.token,
            notation,
            Some(self.view.version),
        )
        .await;
        match played {
            Ok(reply) => {
                if let Some(event) = &reply.event {
                    let text = words::event(Lang::En, &self.names(), reply.view.as_ref(), event);
                    self.say(&text);
                    self.seen = event.version;
                    self.told = event.version;
                }
                if let Some(view) = reply.view {
                    self.set_view(view);
                }
            }
            Err(CliError::Client(ClientError::Refused {
                status,
                reason,
                message,
                ..
            })) => match Refusal::of(status, reason.as_deref()) {
                Refusal::Stale => {
                    self.say(&format!(
                        "Your move was not played: {message}. Here is what happened:"
                    ));
                    self.reopen().await?;
                }
                Refusal::Move => {
                    self.say(&format!(
                        "Refused: {message} (`moves` lists the legal ones)"
                    ));
                }
            },
            Err(error) => return Err(error),
        }
        Ok(())
    }

    pub(super) async fn resign(&mut self) -> Result<(), CliError> {
        let server = self.ctx.server().await?;
        match server.resign(&self.game, &self.token).await {
            Ok(reply) => {
                self.say("You resigned.");
                if let Some(view) = reply.view {
                    // The last event is the resignation just told.
                    self.told = view.version;
                    self.set_view(view);
                }
            }
            // The game ended first: its events tell how.
            Err(ClientError::Refused { message, .. }) => {
                self.say(&format!("Not resigned: {message}."));
                self.reopen().await?;
            }
            Err(error) => return Err(error.into()),
        }
        Ok(())
    }

    /// Answers the setup prompt; `false` if the player leaves.
    pub(super) async fn set_up(&mut self, answer: &str) -> Result<bool, CliError> {
        let how = |random, file: Option<&str>, template| SetupHow {
            random,
            file: file.map(Into::into),
            template,
        };
        let how = match answer.split_once(' ') {
            _ if answer == "random" => how(true, None, false),
            _ if answer == "template" => how(false, None, true),
            Some(("template", path)) => {
                let path = path.trim();
                let plan = commands::setup_plan(
                    &self.game,
                    &self.ruleset,
                    self.seat,
                    &how(false, None, true),
                    Submit::Prompt,
                );
                let text = match plan {
                    Ok(SetupPlan::Template(text)) => match std::fs::write(path, text) {
                        Ok(()) => {
                            format!("Wrote a layout to {path}: edit it, then answer `file {path}`.")
                        }
                        Err(e) => format!("Cannot write {path}: {e}"),
                    },
                    Ok(SetupPlan::Submit(_)) => return Ok(true),
                    Err(error) => error.to_string(),
                };
                self.say(&text);
                return Ok(true);
            }
            Some(("file", path)) => how(false, Some(path.trim()), false),
            _ if answer == "quit" || answer == "exit" => return Ok(false),
            _ => {
                self.say("Answer `random`, `file PATH`, `template [PATH]` or `quit`.");
                return Ok(true);
            }
        };
        let request = match commands::setup_plan(
            &self.game,
            &self.ruleset,
            self.seat,
            &how,
            Submit::Prompt,
        ) {
            Ok(SetupPlan::Submit(request)) => request,
            Ok(SetupPlan::Template(text)) => {
                self.say(&text);
                return Ok(true);
            }
            Err(error @ (CliError::Usage(_) | CliError::Client(ClientError::File { .. }))) => {
                self.say(&error.to_string());
                return Ok(true);
            }
            Err(error) => return Err(error),
        };
        let server = self.ctx.server().await?;
        match server.setup(request, &self.token).await {
            // The stream tells the setup and what follows.
            Ok(reply) => {
                if let Some(view) = reply.view {
                    self.set_view(view);
                }
            }
            Err(ClientError::Refused { message, .. }) => {
                self.say(&format!("Refused: {message}"));
            }
            Err(error) => return Err(error.into()),
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::{Code, Refusal};

    #[test]
    fn a_game_that_moved_on_is_told_apart_from_a_wrong_move() {
        assert_eq!(
            Refusal::of(Code::Aborted, Some("VERSION_MISMATCH")),
            Refusal::Stale
        );
        for reason in ["GAME_OVER", "NOT_YOUR_TURN", "WRONG_PHASE"] {
            assert_eq!(
                Refusal::of(Code::FailedPrecondition, Some(reason)),
                Refusal::Stale
            );
        }
        assert_eq!(
            Refusal::of(Code::FailedPrecondition, Some("ILLEGAL_MOVE")),
            Refusal::Move
        );
        assert_eq!(
            Refusal::of(Code::InvalidArgument, Some("BAD_NOTATION")),
            Refusal::Move
        );
    }
}
