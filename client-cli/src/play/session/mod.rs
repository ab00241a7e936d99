//! One game at the prompt: the view kept current by a `WatchGame` stream that stays open
//! the whole time, events told the moment they arrive (while the player types too), the
//! board drawn once a turn, the clock counted down in the [`prompt`], and every line typed
//! answered ([`answers`]).

mod answers;
mod prompt;

use std::time::{Duration, Instant};

use trinchera_client::status::setting_up;
use trinchera_client::{ClientError, Lang, Names, Watch};
use trinchera_proto::v1 as pb;

use super::console::{Console, Typed};
use crate::context::Ctx;
use crate::error::CliError;
use crate::words;

/// How to answer the setup prompt.
const SETUP_HELP: &str = "Set up your pieces: `random`, `file PATH`, `template` (prints a \
                          layout to edit) or `template PATH` (writes it to a file).";

/// Times in a row a stream may break before the server counts as gone.
const STREAM_RETRIES: u32 = 3;

/// The pause before a broken stream is opened again.
const STREAM_RETRY_PAUSE: Duration = Duration::from_millis(500);

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
    /// The round (tanques; 0 in other games) of the player's turn whose board was drawn,
    /// while that turn lasts: a turn of several actions gets one board.
    drawn_turn: Option<i32>,
    /// What the prompt asked for last, at which version (to notice a change).
    asked: Option<(Ask, u64)>,
    /// Whether the player is asked to confirm a resignation.
    confirming: bool,
    /// Whether the low-time warning was given for the running turn.
    warned: bool,
    /// Times in a row the stream broke without a message since.
    breaks: u32,
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
            drawn_turn: None,
            asked: None,
            confirming: false,
            warned: false,
            breaks: 0,
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
        if ask != Ask::Move && ask != Ask::Confirm {
            self.drawn_turn = None;
        }
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
            Ask::Wait(_) => self.say(&format!("Waiting for {opponent} to move.")),
        }
    }

    /// Whether the board is to be drawn now: when the player's turn comes (with the
    /// opponent's moves in it), once when play starts, and at the end. The player's own
    /// actions within a turn (a tanques turn has many) are told as lines, not boards.
    fn board_due(&self, ask: Ask) -> bool {
        if self.drawn == Some(self.view.version) {
            return false;
        }
        // A reply may bring the view before the stream brings its events (a setup): the
        // board waits for them, so that it follows them rather than repeating them.
        let caught_up = self.seen >= self.view.version;
        match self.view.phase() {
            pb::Phase::Playing => {
                let turn_starts = ask == Ask::Move && self.drawn_turn != Some(self.round());
                caught_up && (turn_starts || !self.drawn_playing)
            }
            pb::Phase::Finished => true,
            _ => false,
        }
    }

    fn show_board(&mut self) {
        let text = self.board();
        self.say(&text);
        self.drawn = Some(self.view.version);
        self.drawn_playing |= self.view.phase() == pb::Phase::Playing;
        if self.view.to_move == Some(self.seat) {
            self.drawn_turn = Some(self.round());
        }
    }

    /// The tanques round, 0 in games without rounds: a round that begins while the player
    /// moves on (the opponent's turn passed for want of anything to do) is a turn of its
    /// own.
    fn round(&self) -> i32 {
        match &self.view.status {
            Some(pb::game_view::Status::Tanks(tanks)) => tanks.round,
            _ => 0,
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
            Ok(None) | Err(ClientError::Unreachable { .. }) => return self.mend().await,
            Err(error) => return Err(error.into()),
        };
        self.breaks = 0;
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

    /// Opens a broken stream again after a pause, until it breaks [`STREAM_RETRIES`] times
    /// in a row without a message: then the server counts as gone.
    async fn mend(&mut self) -> Result<(), CliError> {
        loop {
            if self.breaks >= STREAM_RETRIES {
                return Err(ClientError::Unreachable {
                    url: self.ctx.url.clone(),
                    detail: "the game's event stream keeps breaking".into(),
                }
                .into());
            }
            self.breaks += 1;
            tokio::time::sleep(STREAM_RETRY_PAUSE).await;
            match self.reopen().await {
                Err(CliError::Client(ClientError::Unreachable { .. })) => {}
                opened => return opened,
            }
        }
    }

    /// Opens the stream again after the last event seen: what happened meanwhile comes
    /// first, then live events.
    async fn reopen(&mut self) -> Result<(), CliError> {
        let server = self.ctx.server().await?;
        self.stream = server
            .watch(&self.game, Some(&self.token), Some(self.seen))
            .await?;
        Ok(())
    }
}
