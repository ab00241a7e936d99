//! The only place that talks to the server: the network worker (a tokio runtime on its own
//! thread on a desktop, the page's event loop in a browser: [`crate::platform`]) runs every
//! call and the `WatchGame` stream, and hands each result back over a channel, waking the
//! UI with `request_repaint`. The UI never waits on the network.
//!
//! The worker holds the account session this window acts with (read from the token store
//! when it connects, checked with `WhoAmI`, changed by its own sign-ins and sign-outs), so
//! a window acts as what it shows even when another client signs in on the same machine.
//! Signed in, it creates and joins games with the session's token and acts in a game with
//! the seat's own token when this machine holds one, else with the session's
//! ([`trinchera_client::Hands`]). A session the server no longer takes is reported once
//! per call as [`Reply::SessionEnded`].

use std::sync::mpsc;
use std::time::Duration;

use eframe::egui;
use tokio::sync::mpsc as tokio_mpsc;
use trinchera_client::accounts::is_account_token;
use trinchera_client::{ClientError, Code, GameRecord, Hands, Server, Session, Store, Trust};
use trinchera_client::{SignedIn, authed};
use trinchera_proto::v1 as pb;

use crate::account::{Entry, Password, SESSION_LABEL, SessionCheck};
use crate::failure::Failure;
use crate::platform::{self, Task, spawn};

/// How long to wait before resuming a watch stream that broke.
const RESUME_AFTER: Duration = Duration::from_secs(2);
/// How often a connected server is asked whether it still serves, so that a server gone
/// away shows without waiting for a click.
const PROBE_EVERY: Duration = Duration::from_secs(2);

/// Something the UI asks for.
#[derive(Clone, Debug)]
pub enum Request {
    /// Connect to the server at this (normalized) address and list its rulesets.
    Connect(String),
    /// A page of games, and the unfinished games of the player (the account's from the
    /// server, the seats held on this machine).
    Games(pb::ListGamesRequest),
    /// Create a game and open it.
    Create(pb::CreateGameRequest),
    /// Take the free seat of a game and open it.
    Join {
        /// The game.
        game: String,
        /// The player's display name.
        name: String,
    },
    /// Open a game: as a player if this machine holds one of its seats (and `spectate` is
    /// off), else as a spectator; then follow it live.
    Open {
        /// The game.
        game: String,
        /// Watch even if a seat is held here.
        spectate: bool,
    },
    /// A setup made by the server for the seat, around the pieces of `keep`, not submitted.
    Suggest {
        /// The game.
        game: String,
        /// The seat's token.
        token: String,
        /// The pieces placed that stay where they are.
        keep: Vec<pb::Placement>,
    },
    /// Submit a setup.
    Setup {
        /// The seat's token.
        token: String,
        /// The setup.
        request: pb::SubmitSetupRequest,
    },
    /// Play an action.
    Move {
        /// The seat's token.
        token: String,
        /// The action, conditional on the version the player saw.
        request: pb::MakeMoveRequest,
    },
    /// Resign.
    Resign {
        /// The game.
        game: String,
        /// The seat's token.
        token: String,
    },
    /// Stop following the open game.
    Leave,
    /// Sign in to an account, or make one and sign in; the session is kept in the token
    /// store.
    SignIn {
        /// Into an existing account or a new one.
        entry: Entry,
        /// The account's name.
        name: String,
        /// Its password.
        password: Password,
    },
    /// End the session on the server (when it answers) and forget it here.
    SignOut,
    /// Every event of a game with the position after each, to step through: as the seat
    /// held here saw it (a spectator's view otherwise), everything once it is over.
    Replay {
        /// The game.
        game: String,
        /// The seat whose side to replay, if this machine holds it (else any held here).
        seat: Option<i32>,
        /// Whether the game is open live behind the replay.
        live: bool,
    },
}

/// What came back.
#[derive(Clone, Debug)]
pub enum Reply {
    /// Connected; the hosted rulesets.
    Connected {
        /// The address.
        url: String,
        /// Every hosted ruleset.
        rulesets: Vec<pb::Ruleset>,
        /// The session kept for the server, checked.
        session: SessionCheck,
    },
    /// No server answered, or the connected one stopped answering.
    Unreachable {
        /// The address tried.
        url: String,
        /// What the transport said.
        detail: String,
    },
    /// A page of games, and the unfinished games of the player.
    Games {
        /// The page.
        games: Vec<pb::GameSummary>,
        /// The signed-in account's unfinished games, newest first (none for a guest).
        account: Vec<pb::GameSummary>,
        /// Game id and ruleset of every unfinished game with a token here.
        here: Vec<(String, String)>,
    },
    /// A game is open.
    Opened {
        /// The seat held here, `None` for a spectator.
        seat: Option<i32>,
        /// The seat's token.
        token: Option<String>,
        /// The game now.
        view: pb::GameView,
        /// Every event so far, as this viewer may know it.
        history: Vec<pb::Event>,
    },
    /// A message of the open game's live stream.
    Watched(pb::WatchGameResponse),
    /// The live stream broke, with what the transport said; resuming.
    StreamLost(String),
    /// An action was accepted.
    Accepted(pb::GameView),
    /// A setup was refused with these problems.
    SetupRefused(Vec<String>),
    /// A setup the server made for the seat, to adjust and submit.
    Suggested(Vec<pb::Placement>),
    /// A request was refused or failed.
    Failed(Failure),
    /// Signed in (or registered and signed in) as this account.
    SignedIn(String),
    /// A sign-in or registration was refused.
    SignInRefused(Failure),
    /// Signed out: the session is forgotten here.
    SignedOut,
    /// The server no longer takes the session (signed out elsewhere, revoked, expired, the
    /// account disabled): sign in again.
    SessionEnded(Failure),
    /// A game's history with its positions, and the commitments this machine saw.
    Replay {
        /// The history.
        history: Box<pb::GetHistoryResponse>,
        /// What this machine recorded of the game while it was played.
        seen: Option<GameRecord>,
        /// Whether the game is open live behind the replay.
        live: bool,
    },
}

/// The UI's handle on the network thread.
#[derive(Debug)]
pub struct Backend {
    requests: tokio_mpsc::UnboundedSender<Request>,
    replies: mpsc::Receiver<Reply>,
}

impl Backend {
    /// Starts the network worker; `ctx` is woken after every reply.
    pub fn start(ctx: egui::Context, store: Store, trust: Trust) -> Backend {
        let (requests, mut inbox) = tokio_mpsc::unbounded_channel();
        let (outbox, replies) = mpsc::channel();
        let out = Outbox { tx: outbox, ctx };
        let mut worker = Worker {
            out: out.clone(),
            store,
            trust,
            server: None,
            account: None,
            watch: None,
            probe: None,
        };
        platform::start_worker(
            move || async move {
                while let Some(request) = inbox.recv().await {
                    worker.handle(request).await;
                }
            },
            move |error| out.send(Reply::Failed(Failure::NoRuntime(error))),
        );
        Backend { requests, replies }
    }

    /// Asks for `request`; the reply comes through [`Backend::poll`].
    pub fn send(&self, request: Request) {
        // A closed channel means the network thread is gone; the UI shows no reply.
        let _ = self.requests.send(request);
    }

    /// The replies that arrived since the last call.
    pub fn poll(&self) -> Vec<Reply> {
        self.replies.try_iter().collect()
    }
}

/// Sends replies and wakes the UI.
#[derive(Clone, Debug)]
struct Outbox {
    tx: mpsc::Sender<Reply>,
    ctx: egui::Context,
}

impl Outbox {
    fn send(&self, reply: Reply) {
        let _ = self.tx.send(reply);
        self.ctx.request_repaint();
    }

    /// Reports a failed call: a lost server as such (the app reconnects), else the refusal.
    fn fail(&self, error: &ClientError) {
        self.send(match error {
            ClientError::Unreachable { url, detail } => Reply::Unreachable {
                url: url.clone(),
                detail: detail.clone(),
            },
            _ => Reply::Failed(Failure::of(error)),
        });
    }

    /// Reports a call made with `token` that failed: an account's token that the server no
    /// longer takes ends the session; anything else as [`Outbox::fail`].
    fn fail_with(&self, error: &ClientError, token: Option<&str>) {
        if token.is_some_and(is_account_token) && error.ends_session() {
            self.send(Reply::SessionEnded(Failure::of(error)));
        } else {
            self.fail(error);
        }
    }
}

/// What the transport said of a lost server; the whole error otherwise.
fn detail(error: &ClientError) -> String {
    match error {
        ClientError::Unreachable { detail, .. } => detail.clone(),
        _ => error.to_string(),
    }
}

/// The network thread's state.
struct Worker {
    out: Outbox,
    store: Store,
    /// What to trust of an https:// server.
    trust: Trust,
    server: Option<(String, Server)>,
    /// The session this window acts with on the server, if signed in.
    account: Option<Session>,
    watch: Option<Task>,
    probe: Option<Task>,
}

impl Worker {
    async fn handle(&mut self, request: Request) {
        if let Request::Connect(url) = request {
            self.connect(url).await;
            return;
        }
        let Some((url, server)) = self.server.clone() else {
            self.out.send(Reply::Failed(Failure::NotConnected));
            return;
        };
        let out = self.out.clone();
        let store = self.store.clone();
        // The session's token: it seats the account in new games and acts where no seat's
        // own token is held.
        let account = self.account.as_ref().map(|session| session.token.clone());
        match request {
            Request::Connect(_) => {}
            Request::Games(filter) => {
                spawn(async move {
                    let listed = async {
                        let page = server.list(filter).await?;
                        let yours = match &account {
                            Some(token) => account_games(&server, token).await?,
                            None => Vec::new(),
                        };
                        let here = unfinished(&server, &store, &url).await?;
                        Ok::<_, ClientError>((page.games, yours, here))
                    };
                    match listed.await {
                        Ok((games, account, here)) => out.send(Reply::Games {
                            games,
                            account,
                            here,
                        }),
                        Err(error) => out.fail_with(&error, account.as_deref()),
                    }
                });
            }
            Request::Create(create) => {
                let created = async {
                    let r = server.create(authed(create, account.as_deref())?).await?;
                    let view = r.view.ok_or(ClientError::Missing("view"))?;
                    keep_token(&store, &url, &view, r.seat, &r.player_token)?;
                    open(&server, &self.hands(&view.game_id)?, &view.game_id).await
                };
                let reply = created.await;
                self.opened(reply);
            }
            Request::Join { game, name } => {
                let join = pb::JoinGameRequest {
                    game_id: game,
                    player_name: name,
                };
                // Opened like any game, so the joiner's own "joined" is among the events.
                let joined = async {
                    let r = server.join(authed(join, account.as_deref())?).await?;
                    let view = r.view.ok_or(ClientError::Missing("view"))?;
                    keep_token(&store, &url, &view, r.seat, &r.player_token)?;
                    open(&server, &self.hands(&view.game_id)?, &view.game_id).await
                };
                let reply = joined.await;
                self.opened(reply);
            }
            Request::Open { game, spectate } => {
                let reply = async {
                    let hands = if spectate {
                        Hands::default()
                    } else {
                        self.hands(&game)?
                    };
                    open(&server, &hands, &game).await
                }
                .await;
                self.opened(reply);
            }
            Request::Suggest { game, token, keep } => {
                spawn(async move {
                    match server.suggest_setup(&game, &token, keep).await {
                        Ok(placements) => out.send(Reply::Suggested(placements)),
                        Err(error) => out.fail_with(&error, Some(&token)),
                    }
                });
            }
            Request::Setup { token, request } => {
                spawn(async move {
                    match server.setup(request, &token).await {
                        Ok(reply) => out.send(Reply::Accepted(reply.view.unwrap_or_default())),
                        Err(ClientError::Refused {
                            status: Code::InvalidArgument,
                            message,
                            ..
                        }) => out.send(Reply::SetupRefused(problems(&message))),
                        Err(error) => out.fail_with(&error, Some(&token)),
                    }
                });
            }
            Request::Move { token, request } => {
                spawn(async move {
                    match server.play(request, &token).await {
                        Ok(reply) => out.send(Reply::Accepted(reply.view.unwrap_or_default())),
                        Err(error) => out.fail_with(&error, Some(&token)),
                    }
                });
            }
            Request::Resign { game, token } => {
                spawn(async move {
                    match server.resign(&game, &token).await {
                        Ok(reply) => out.send(Reply::Accepted(reply.view.unwrap_or_default())),
                        Err(error) => out.fail_with(&error, Some(&token)),
                    }
                });
            }
            Request::Leave => self.stop_watching(),
            Request::Replay { game, seat, live } => {
                let hands = self.hands(&game);
                spawn(async move {
                    let mut token = None;
                    let reply = async {
                        let hands = hands?;
                        // A seat held here, else the account's: its side is the one this
                        // player may replay.
                        token = hands
                            .token(seat)
                            .or_else(|| hands.seats.values().next().map(String::as_str))
                            .map(str::to_owned);
                        let history = server.history(&game, token.as_deref(), true).await?;
                        Ok::<_, ClientError>((history, store.game(&url, &game)?))
                    };
                    match reply.await {
                        Ok((history, seen)) => out.send(Reply::Replay {
                            history: Box::new(history),
                            seen,
                            live,
                        }),
                        Err(error) => out.fail_with(&error, token.as_deref()),
                    }
                });
            }
            Request::SignIn {
                entry,
                name,
                password,
            } => self.sign_in(&server, &url, entry, &name, &password).await,
            Request::SignOut => self.sign_out(&server, &url).await,
        }
    }

    /// What may act for this window in `game`: the seats' own tokens held here, and the
    /// session this window acts with.
    fn hands(&self, game: &str) -> Result<Hands, ClientError> {
        let url = self.server.as_ref().map_or("", |(url, _)| url);
        Ok(Hands {
            account: self.account.clone(),
            ..self.store.hands(url, game)?
        })
    }

    /// Signs in (`entry`) and keeps the session for `url`.
    async fn sign_in(
        &mut self,
        server: &Server,
        url: &str,
        entry: Entry,
        name: &str,
        password: &Password,
    ) {
        let signed = match entry {
            Entry::SignIn => server.login(name, &password.0, SESSION_LABEL).await,
            Entry::Register => server.register(name, &password.0, SESSION_LABEL).await,
        };
        let kept = signed.and_then(|SignedIn { session, .. }| {
            self.store.sign_in(url, session.clone())?;
            Ok(session)
        });
        match kept {
            Ok(session) => {
                self.out.send(Reply::SignedIn(session.name.clone()));
                self.account = Some(session);
            }
            Err(error) if error.is_unreachable() => self.out.fail(&error),
            Err(error) => self.out.send(Reply::SignInRefused(Failure::of(&error))),
        }
    }

    /// Ends the session on the server and forgets it here; a server that does not answer
    /// (or no longer takes the session) does not keep it here.
    async fn sign_out(&mut self, server: &Server, url: &str) {
        if let Some(session) = self.account.take() {
            // Forgotten here whatever the server says: the session runs out there by itself.
            let _ = server.logout(&session.token).await;
            if let Err(error) = forget(&self.store, url, &session) {
                self.out.send(Reply::Failed(Failure::of(&error)));
            }
        }
        self.out.send(Reply::SignedOut);
    }

    async fn connect(&mut self, url: String) {
        self.stop_watching();
        if let Some(probe) = self.probe.take() {
            probe.abort();
        }
        self.server = None;
        self.account = None;
        let connected = async {
            let server = Server::connect(&url, &self.trust).await?;
            let rulesets = server.rulesets().await?.rulesets;
            let (account, session) = checked(&server, &self.store, &url).await?;
            Ok::<_, ClientError>((server, rulesets, account, session))
        }
        .await;
        match connected {
            Ok((server, rulesets, account, session)) => {
                self.server = Some((url.clone(), server.clone()));
                self.account = account;
                let out = self.out.clone();
                self.out.send(Reply::Connected {
                    url: url.clone(),
                    rulesets,
                    session,
                });
                self.probe = Some(spawn(probe(server, out, url)));
            }
            Err(error) => self.out.send(Reply::Unreachable {
                url,
                detail: detail(&error),
            }),
        }
    }

    fn opened(&mut self, reply: Result<Opened, ClientError>) {
        match reply {
            Ok((seat, token, view, history)) => self.follow(seat, token, view, history),
            Err(error) => {
                let account = self.account.as_ref().map(|session| session.token.as_str());
                self.out.fail_with(&error, account);
            }
        }
    }

    /// Reports the open game and follows it live from its version.
    fn follow(
        &mut self,
        seat: Option<i32>,
        token: Option<String>,
        view: pb::GameView,
        history: Vec<pb::Event>,
    ) {
        self.stop_watching();
        let Some((url, server)) = self.server.clone() else {
            return;
        };
        let game = view.game_id.clone();
        let after = view.version;
        self.out.send(Reply::Opened {
            seat,
            token: token.clone(),
            view,
            history,
        });
        let out = self.out.clone();
        let store = self.store.clone();
        self.watch = Some(spawn(async move {
            watch(server, out, store, url, game, token, after).await;
        }));
    }

    fn stop_watching(&mut self) {
        if let Some(task) = self.watch.take() {
            task.abort();
        }
    }
}

/// An open game: the seat and token held here (none for a spectator), the view, the
/// history so far.
type Opened = (Option<i32>, Option<String>, pb::GameView, Vec<pb::Event>);

/// The game `game` as a player of what `hands` holds (a seat's token, else the account's
/// session, which the server knows the seat of), or as a spectator.
async fn open(server: &Server, hands: &Hands, game: &str) -> Result<Opened, ClientError> {
    let tokens = &hands.seats;
    let public = server.view(game, None).await?;
    let seat = match tokens.len() {
        0 => None,
        1 => tokens.keys().next().copied(),
        // Both seats are held here: the one awaited, else the one still setting up.
        _ => public
            .to_move
            .or_else(|| {
                public
                    .players
                    .iter()
                    .find(|p| !p.setup_done)
                    .map(|p| p.seat)
            })
            .or(Some(0)),
    };
    let token = hands.token(seat);
    let history = server.history(game, token, false).await?;
    let view = history.view.ok_or(ClientError::Missing("view"))?;
    // An account's view says its seat; an account without one in the game is a spectator.
    let seat = view.viewer_seat;
    let token = token.filter(|_| seat.is_some()).map(str::to_owned);
    Ok((seat, token, view, history.events))
}

/// The session kept for `url`, checked with the server: the one to act with, and what became
/// of it. A session the server no longer takes is forgotten here. A store that cannot be
/// read keeps no session (the lobby's listing says what is wrong with it).
async fn checked(
    server: &Server,
    store: &Store,
    url: &str,
) -> Result<(Option<Session>, SessionCheck), ClientError> {
    let Ok(Some(session)) = store.signed_in(url) else {
        return Ok((None, SessionCheck::None));
    };
    match server.who_am_i(&session.token).await {
        Err(error) if error.ends_session() => {
            forget(store, url, &session)?;
            let why = Failure::of(&error);
            let name = session.name;
            Ok((None, SessionCheck::Ended { name, why }))
        }
        Err(error) if error.is_unreachable() => Err(error),
        // Anything else (a server that predates accounts, say) shows at its first use.
        Ok(_) | Err(_) => {
            let name = session.name.clone();
            Ok((Some(session), SessionCheck::Working(name)))
        }
    }
}

/// Forgets `session` of `url` in the store, unless another has taken its place there (a
/// sign-in from the CLI meanwhile).
fn forget(store: &Store, url: &str, session: &Session) -> Result<(), ClientError> {
    if store
        .signed_in(url)?
        .is_some_and(|kept| kept.token == session.token)
    {
        store.sign_out(url)?;
    }
    Ok(())
}

/// The unfinished games of the account of `token`, newest first.
async fn account_games(server: &Server, token: &str) -> Result<Vec<pb::GameSummary>, ClientError> {
    let mine = pb::ListGamesRequest {
        player: "mine".to_owned(),
        page_size: 100,
        ..pb::ListGamesRequest::default()
    };
    let page = server.list(authed(mine, Some(token))?).await?;
    let mut games = page.games;
    games.retain(|game| game.phase() != pb::Phase::Finished);
    Ok(games)
}

/// Asks the server every [`PROBE_EVERY`] whether it still serves; reports it unreachable
/// once it does not answer, and stops.
async fn probe(server: Server, out: Outbox, url: String) {
    loop {
        platform::sleep(PROBE_EVERY).await;
        if let Err(error) = server.health().await
            && error.is_unreachable()
        {
            out.send(Reply::Unreachable {
                url,
                detail: detail(&error),
            });
            return;
        }
    }
}

/// The unfinished games this machine holds a seat of, by id with their ruleset. A game
/// seen finished is marked so in the store and never asked about again; a game the server
/// no longer has is left out; one it would not tell about stays in.
async fn unfinished(
    server: &Server,
    store: &Store,
    url: &str,
) -> Result<Vec<(String, String)>, ClientError> {
    let mut mine = Vec::new();
    for (id, record) in store.games(url)? {
        if record.tokens.is_empty() || record.finished {
            continue;
        }
        match server.view(&id, None).await {
            Ok(view) if view.phase() == pb::Phase::Finished => store.remember_view(url, &view)?,
            Err(ClientError::Refused {
                status: Code::NotFound,
                ..
            }) => {}
            Err(error) if error.is_unreachable() => return Err(error),
            // Unfinished as far as this machine knows.
            Ok(_) | Err(_) => mine.push((id, record.ruleset)),
        }
    }
    // Game ids are numbers: 2 before 10.
    mine.sort_by(|(a, _), (b, _)| (a.len(), a).cmp(&(b.len(), b)));
    Ok(mine)
}

/// Records a new seat's token in the shared store (the CLI can continue the game).
fn keep_token(
    store: &Store,
    url: &str,
    view: &pb::GameView,
    seat: i32,
    token: &str,
) -> Result<(), ClientError> {
    store.update(url, &view.game_id, |record| {
        record.tokens.insert(seat, token.to_owned());
        record.ruleset.clone_from(&view.ruleset);
        record.remember(view);
        true
    })
}

/// Follows `game` after version `after` until it ends, resuming after breaks.
async fn watch(
    server: Server,
    out: Outbox,
    store: Store,
    url: String,
    game: String,
    token: Option<String>,
    mut after: u64,
) {
    loop {
        let ended = match server.watch(&game, token.as_deref(), Some(after)).await {
            Ok(mut stream) => loop {
                match stream.message().await {
                    Ok(Some(message)) => {
                        after = message.version;
                        let finished = message
                            .view
                            .as_ref()
                            .is_some_and(|v| v.phase() == pb::Phase::Finished);
                        if let Some(view) = &message.view {
                            // The commitments seen during play, for `trinchera verify`.
                            let _ = store.remember_view(&url, view);
                        }
                        out.send(Reply::Watched(message));
                        if finished {
                            break true;
                        }
                    }
                    Ok(None) => break false,
                    Err(error) if error.is_unreachable() => {
                        out.send(Reply::StreamLost(detail(&error)));
                        break false;
                    }
                    Err(error) => {
                        out.fail_with(&error, token.as_deref());
                        break true;
                    }
                }
            },
            Err(error) if error.is_unreachable() => {
                out.send(Reply::StreamLost(detail(&error)));
                false
            }
            Err(error) => {
                out.fail_with(&error, token.as_deref());
                true
            }
        };
        if ended {
            return;
        }
        platform::sleep(RESUME_AFTER).await;
    }
}

/// The problems of a refused setup: the server lists them after "invalid setup:", joined by
/// semicolons.
fn problems(message: &str) -> Vec<String> {
    let list = message
        .split_once(": ")
        .filter(|(head, _)| head.contains("setup"))
        .map_or(message, |(_, list)| list);
    list.split("; ").map(str::to_owned).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn setup_problems_are_split() {
        assert_eq!(
            super::problems("invalid setup: a1 is outside your zone; 2 Bomba missing"),
            ["a1 is outside your zone", "2 Bomba missing"]
        );
        assert_eq!(super::problems("game over"), ["game over"]);
    }
}
