//! One game at the prompt: the view kept current by a `WatchGame` stream that stays open
//! the whole time, events told the moment they arrive (while the player types too), the
//! board drawn once a turn, the clock counted down, and every line typed answered.

use std::time::{Duration, Instant};

use trinchera_client::status::{setting_up, turn};
use trinchera_client::words::clock_face;
use trinchera_client::{ClientError, Code, Lang, Names, Watch, clock};
use trinchera_proto::v1 as pb;

use super::console::{Console, Typed};
use crate::cli::SetupHow;
use crate::commands::{self, SetupPlan};
use crate::context::Ctx;
use crate::error::CliError;
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

/// How to answer the setup prompt.
const SETUP_HELP: &str = "Set up your pieces: `random`, `file PATH`, `template` (prints a \
                          layout to edit) or `template PATH` (writes it to a file).";

/// The commands of the move prompt (see [`MOVE_HELP`]), for Tab.
const MOVE_COMMANDS: [&str; 7] = ["moves", "board", "resign", "quit", "help", "show", "exit"];

/// The answers of the setup prompt, for Tab.
const SETUP_WORDS: [&str; 5] = ["random", "file ", "template", "template ", "quit"];

/// Times a broken stream is opened again before the server counts as gone.
const STREAM_RETRIES: u32 = 3;

/// The pause before a broken stream is opened again.
const STREAM_RETRY_PAUSE: Duration = Duration::from_millis(500);

/// The `ErrorInfo` reasons of refusals that mean the game moved on under the player.
const STALE_REASONS: [&str; 3] = ["GAME_OVER", "NOT_YOUR_TURN", "WRONG_PHASE"];

/// How a session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The game is over.
    Over,
    /// The player left it running.
    Left,
}

/// What the prompt asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ask {
    /// The player's setup.
    Setup,
    /// The player's move.
    Move,
    /// Whether to resign.
    Confirm,
    /// Nothing: the opponent (or a second player) is awaited in this phase.
    Wait(pb::Phase),
}

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

/// The game being played.
pub struct Session<'a> {
    ctx: &'a Ctx,
    game: String,
    token: String,
    seat: i32,
    ruleset: pb::Ruleset,
    view: pb::GameView,
    /// When `view` arrived: a running clock counts down from here.
    view_at: Instant,
    /// The live stream of the game's events.
    stream: Watch,
    /// The version of the last event taken from the stream or a reply.
    seen: u64,
    /// The version of the last event told in words (the board leaves out its "Last:").
    told: u64,
    /// The version of the last board drawn.
    drawn: Option<u64>,
    /// Whether a board of the game in play has been drawn yet.
    drawn_playing: bool,
    /// What the prompt asked for last, at which version (to notice a change).
    asked: Option<(Ask, u64)>,
    /// Whether the player is asked to confirm a resignation.
    confirming: bool,
    /// Whether the low-time warning was given for the running turn.
    warned: bool,
    console: Console,
}

impl<'a> Session<'a> {
    /// The session of the player holding `token` in `game`, following the game from `view`.
    pub async fn start(
        ctx: &'a Ctx,
        token: String,
        view: pb::GameView,
        ruleset: pb::Ruleset,
        seat: i32,
    ) -> Result<Session<'a>, CliError> {
        let game = view.game_id.clone();
        let stream = ctx
            .server()
            .await?
            .watch(&game, Some(&token), Some(view.version))
            .await?;
        ctx.remember(&view);
        Ok(Session {
            ctx,
            game,
            token,
            seat,
            ruleset,
            seen: view.version,
            told: 0,
            view,
            view_at: Instant::now(),
            stream,
            drawn: None,
            drawn_playing: false,
            asked: None,
            confirming: false,
            warned: false,
            console: Console::new(),
        })
    }

    /// Plays until the game ends or the player leaves.
    pub async fn run(&mut self) -> Result<Ending, CliError> {
        loop {
            if self.view.phase() == pb::Phase::Finished {
                self.tell_end();
                return Ok(Ending::Over);
            }
            let ask = self.ask();
            self.settle(ask);
            let live = self.console.live();
            let prompt = self.prompt(ask, live);
            self.console.set_prompt(&prompt);
            // Off a terminal a line is taken only when asked for (the rest wait for their
            // prompt); a terminal's prompt takes commands at any time.
            let reads = live || !matches!(ask, Ask::Wait(_));
            let tick = self.tick();
            tokio::select! {
                // Events first: a line is answered against the game as it stands.
                biased;
                message = self.stream.message() => self.receive(message).await?,
                typed = self.console.typed(reads) => match typed {
                    Typed::Line(line) => {
                        if !self.answer(ask, &line).await? {
                            return Ok(Ending::Left);
                        }
                    }
                    Typed::Leave => return Ok(Ending::Left),
                },
                () = tokio::time::sleep(tick.unwrap_or_default()), if tick.is_some() => {}
            }
        }
    }

    fn names(&self) -> Names<'_> {
        Names::new(&self.ruleset)
    }

    fn say(&mut self, text: &str) {
        self.console.say(text);
    }

    fn set_view(&mut self, view: pb::GameView) {
        self.ctx.remember(&view);
        self.view = view;
        self.view_at = Instant::now();
    }

    /// Milliseconds since the view arrived.
    fn elapsed_ms(&self) -> u64 {
        u64::try_from(self.view_at.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn ask(&self) -> Ask {
        if self.confirming {
            return Ask::Confirm;
        }
        match self.view.phase() {
            pb::Phase::Setup if setting_up(&self.names(), &self.view) => Ask::Setup,
            pb::Phase::Playing if self.view.to_move == Some(self.seat) => Ask::Move,
            phase => Ask::Wait(phase),
        }
    }

    /// What a change of the game shows: the board once a turn, what the prompt now asks
    /// for, the words Tab completes, the low-time warning.
    fn settle(&mut self, ask: Ask) {
        if self.board_due(ask) {
            self.show_board();
        }
        let version = self.view.version;
        let before = self.asked.map(|(ask, _)| ask);
        if self.asked != Some((ask, version)) {
            self.asked = Some((ask, version));
            self.console.complete(self.words(ask));
        }
        if before != Some(ask) {
            self.entered(ask, before);
        }
        self.warn_low();
    }

    /// What the player reads when the prompt starts asking for `ask`.
    fn entered(&mut self, ask: Ask, before: Option<Ask>) {
        let opponent = self.names().seat(1 - self.seat);
        match ask {
            Ask::Setup => self.say(SETUP_HELP),
            Ask::Move => {
                // What was typed for another prompt is not a move the player has weighed.
                if before.is_some() && self.console.drop_typed() {
                    self.say(
                        "(What you typed while waiting was dropped: look at the board, then \
                         type your move.)",
                    );
                }
            }
            Ask::Confirm => {}
            Ask::Wait(pb::Phase::Waiting) => {
                let text = format!(
                    "Waiting for an opponent: they run `trinchera play --join {}`.",
                    self.game
                );
                self.say(&text);
            }
            Ask::Wait(pb::Phase::Setup) => self.say(&format!("Waiting for {opponent} to set up.")),
            Ask::Wait(_) => self.say(&format!("Waiting for {opponent}...")),
        }
    }

    /// What Tab completes while the prompt asks for `ask`.
    fn words(&self, ask: Ask) -> Vec<String> {
        let words: Vec<&str> = match ask {
            Ask::Setup => SETUP_WORDS.to_vec(),
            Ask::Move => {
                return self
                    .view
                    .legal_moves
                    .iter()
                    .map(|m| m.notation.clone())
                    .chain(MOVE_COMMANDS.map(String::from))
                    .collect();
            }
            Ask::Confirm => vec!["yes", "no"],
            Ask::Wait(_) => MOVE_COMMANDS.to_vec(),
        };
        words.into_iter().map(String::from).collect()
    }

    /// The prompt's text; on a terminal with the running clock or limit.
    fn prompt(&self, ask: Ask, live: bool) -> String {
        let clock = live
            .then(|| self.clock_note())
            .flatten()
            .map(|note| format!(" [{note}]"))
            .unwrap_or_default();
        match ask {
            Ask::Setup => format!("Set up{clock}: "),
            Ask::Move => format!("Your move{clock}: "),
            Ask::Confirm => "Really resign? (yes/no): ".to_owned(),
            Ask::Wait(_) => format!("(waiting{clock}) > "),
        }
    }

    /// The clock that runs now, as the prompt shows it: the player's own time, the
    /// opponent's with its name, or the setup or first-move limit.
    fn clock_note(&self) -> Option<String> {
        let clock = self.view.clock.as_ref()?;
        let elapsed = self.elapsed_ms();
        if let Some(seat) = clock::ticking(clock) {
            let left = clock::time_left(clock, elapsed);
            let face = clock_face(left.get(usize::try_from(seat).ok()?).copied()?);
            return Some(if seat == self.seat {
                face
            } else {
                format!("{} {face}", self.names().seat(seat))
            });
        }
        let (lapse, left) = clock::deadline(clock, elapsed)?;
        let face = clock_face(left);
        Some(match lapse {
            pb::Lapse::RandomSetup => format!("setups due in {face}"),
            _ => format!("first move due in {face}"),
        })
    }

    /// When the prompt's clock next changes its face (or the player's own clock matters
    /// for the low-time warning); `None` when nothing runs.
    fn tick(&self) -> Option<Duration> {
        let clock = self.view.clock.as_ref()?;
        let elapsed = self.elapsed_ms();
        let live = self.console.live();
        let left = match clock::ticking(clock) {
            Some(seat) if live || seat == self.seat => {
                let left = clock::time_left(clock, elapsed);
                left.get(usize::try_from(seat).ok()?).copied()?
            }
            Some(_) => return None,
            None if live => clock::deadline(clock, elapsed)?.1,
            None => return None,
        };
        if left == 0 {
            // At zero the server decides; its event ends the wait.
            return None;
        }
        // The face shows whole steps: it changes once `left` drops below the current one.
        Some(Duration::from_millis(left % clock::refresh_ms(left) + 1))
    }

    /// Warns once a turn when the player's own time runs low.
    fn warn_low(&mut self) {
        let Some(clock) = &self.view.clock else {
            return;
        };
        if clock::ticking(clock) != Some(self.seat) {
            self.warned = false;
            return;
        }
        let left = clock::time_left(clock, self.elapsed_ms());
        if !self.warned && clock::is_low(clock, &left, self.seat) {
            self.warned = true;
            let face = left
                .get(usize::try_from(self.seat).unwrap_or_default())
                .map(|&ms| clock_face(ms))
                .unwrap_or_default();
            let text = format!("{} {face} left.", clock::low_warning(Lang::En));
            self.say(&text);
        }
    }

    /// Whether the board is to be drawn now: when the player's turn comes (with the
    /// opponent's moves in it), once when play starts, and at the end.
    fn board_due(&self, ask: Ask) -> bool {
        if self.drawn == Some(self.view.version) {
            return false;
        }
        // A reply may bring the view before the stream brings its events (a setup): the
        // board waits for them, so that it follows them rather than repeating them.
        let caught_up = self.seen >= self.view.version;
        match self.view.phase() {
            pb::Phase::Playing => caught_up && (ask == Ask::Move || !self.drawn_playing),
            pb::Phase::Finished => true,
            _ => false,
        }
    }

    fn show_board(&mut self) {
        let text = self.board();
        self.say(&text);
        self.drawn = Some(self.view.version);
        self.drawn_playing |= self.view.phase() == pb::Phase::Playing;
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

    /// The final board, what the result means for the player, and the way to check it.
    fn tell_end(&mut self) {
        if self.board_due(Ask::Wait(pb::Phase::Finished)) {
            self.show_board();
        }
        let verdict = match &self.view.result {
            Some(result) if result.draw => "It is a draw.",
            Some(pb::Result {
                winner: Some(winner),
                ..
            }) if *winner == self.seat => "You win.",
            Some(pb::Result {
                winner: Some(_), ..
            }) => "You lose.",
            _ => "Nobody wins.",
        };
        let text = format!(
            "{verdict} The game is over: `trinchera verify {}` checks that it was fair.",
            self.game
        );
        self.say(&text);
    }

    /// A message of the stream, or its end: events are told, the view follows.
    async fn receive(
        &mut self,
        message: Result<Option<pb::WatchGameResponse>, ClientError>,
    ) -> Result<(), CliError> {
        let message = match message {
            Ok(Some(message)) => message,
            // The stream broke or ended before the game did (a server restart, say).
            Ok(None) | Err(ClientError::Unreachable { .. }) => return self.reopen().await,
            Err(error) => return Err(error.into()),
        };
        if message.version <= self.seen {
            // Already known from the reply to the player's own move.
            return Ok(());
        }
        self.seen = message.version;
        if let Some(event) = &message.event {
            let text = words::event(Lang::En, &self.names(), message.view.as_ref(), event);
            self.say(&text);
            self.told = message.version;
        }
        if let Some(view) = message.view {
            self.set_view(view);
        }
        Ok(())
    }

    /// Opens the stream again after the last event seen: what happened meanwhile comes
    /// first, then live events.
    async fn reopen(&mut self) -> Result<(), CliError> {
        let server = self.ctx.server().await?;
        let mut tries = 0;
        loop {
            match server
                .watch(&self.game, Some(&self.token), Some(self.seen))
                .await
            {
                Ok(stream) => {
                    self.stream = stream;
                    return Ok(());
                }
                Err(error) if error.is_unreachable() && tries < STREAM_RETRIES => {
                    tries += 1;
                    tokio::time::sleep(STREAM_RETRY_PAUSE).await;
                }
                Err(error) => return Err(error.into()),
            }
        }
    }

    /// Answers a line typed at the prompt; `false` if the player leaves.
    async fn answer(&mut self, ask: Ask, line: &str) -> Result<bool, CliError> {
        match ask {
            Ask::Confirm => {
                self.confirming = false;
                if line == "yes" {
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
    async fn command(&mut self, ask: Ask, line: &str) -> Result<bool, CliError> {
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
                let text = commands::moves_text(&self.names(), &self.view, None);
                self.say(&text);
            }
            line if my_turn && line.starts_with("moves ") => {
                let text = match commands::cell_named(&self.names(), &line["moves ".len()..]) {
                    Ok(cell) => commands::moves_text(&self.names(), &self.view, Some(cell)),
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

    /// Plays `notation`; a refusal is told, and a game that moved on is brought up to date.
    async fn play(&mut self, notation: &str) -> Result<(), CliError> {
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

    async fn resign(&mut self) -> Result<(), CliError> {
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
    async fn set_up(&mut self, answer: &str) -> Result<bool, CliError> {
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
        let request = match commands::setup_plan(&self.game, &self.ruleset, self.seat, &how) {
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
