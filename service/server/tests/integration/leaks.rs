//! Hidden information stays hidden: views, events and histories during play never show a
//! kind that the receiver may not know.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use tonic::Status;
use trinchera_proto::v1 as pb;
use trinchera_rules::army::spec::Mobility;
use trinchera_rules::army::{Castillos, Clasico, Frente, Variant};
use trinchera_service::Limits;

use crate::harness::{
    Client, Player, TestServer, authed, replay, rng, scaled, spectator_view, try_random_setups,
    view_of, within,
};

/// Each piece's owner, kind and whether it is revealed, by id.
type Truth = HashMap<u32, (i32, String, bool)>;

/// What each piece really is, from its owners' views (owners always see their own pieces).
fn truth<'a>(owners: impl IntoIterator<Item = &'a pb::GameView>) -> Truth {
    let mut truth = HashMap::new();
    for view in owners {
        let seat = view.viewer_seat.expect("an owner's view");
        for piece in view.pieces.iter().chain(&view.captured) {
            if piece.owner == seat {
                assert!(!piece.kind.is_empty(), "owners see their pieces' kinds");
                truth.insert(piece.id, (piece.owner, piece.kind.clone(), piece.revealed));
            }
        }
    }
    truth
}

/// Checks one receiver's view: kinds of others' pieces only when revealed and true.
fn check_view(view: &pb::GameView, receiver: Option<i32>, truth: &Truth) {
    for piece in view.pieces.iter().chain(&view.captured) {
        let Some((owner, kind, revealed)) = truth.get(&piece.id) else {
            panic!(
                "version {} shows piece {}, which no owner has",
                view.version, piece.id
            );
        };
        assert_eq!(piece.owner, *owner);
        assert_eq!(
            piece.revealed, *revealed,
            "everyone agrees on what is revealed"
        );
        if Some(piece.owner) != receiver {
            if *revealed {
                assert_eq!(&piece.kind, kind, "a revealed kind is shown truthfully");
            } else {
                assert!(
                    piece.kind.is_empty(),
                    "piece {} of seat {} leaked its kind {kind} to {receiver:?}",
                    piece.id,
                    piece.owner
                );
            }
        }
    }
    if view.to_move != receiver || receiver.is_none() {
        assert!(
            view.legal_moves.is_empty(),
            "only the mover gets legal moves"
        );
    }
}

/// Kinds named by events must belong to pieces revealed by then.
fn check_events(events: &[pb::Event], truth: &Truth) {
    for event in events {
        for effect in &event.effects {
            let named = match &effect.effect {
                Some(pb::effect::Effect::Battle(battle)) => vec![
                    (battle.attacker_id, &battle.attacker_kind),
                    (battle.defender_id, &battle.defender_kind),
                ],
                Some(pb::effect::Effect::Reveal(reveal)) => vec![(reveal.piece_id, &reveal.kind)],
                _ => Vec::new(),
            };
            for (id, kind) in named {
                let Some((_, real, revealed)) = truth.get(&id) else {
                    panic!(
                        "event {} names piece {id}, which no owner has",
                        event.version
                    );
                };
                assert!(
                    *revealed,
                    "an event named the kind of unrevealed piece {id}"
                );
                assert_eq!(kind, real);
            }
        }
    }
}

/// A past position for `receiver`: a piece still hidden now showed no kind then, a kind
/// shown is the true one, and nobody got legal moves.
fn check_past_view(view: &pb::GameView, receiver: Option<i32>, truth: &Truth) {
    assert!(
        view.legal_moves.is_empty(),
        "past positions carry no legal moves"
    );
    for piece in view.pieces.iter().chain(&view.captured) {
        let (owner, kind, revealed) = &truth[&piece.id];
        assert_eq!(piece.owner, *owner);
        if Some(piece.owner) != receiver && !revealed {
            assert!(
                piece.kind.is_empty() && !piece.revealed,
                "version {}: piece {} of seat {} showed its kind {kind} to {receiver:?}",
                view.version,
                piece.id,
                piece.owner
            );
        }
        assert!(piece.kind.is_empty() || &piece.kind == kind);
    }
}

/// Checks every view, the last event and the histories of both seats and a spectator.
pub async fn assert_no_leaks(client: &mut Client, players: &[Player; 2]) {
    let views = [
        view_of(client, &players[0]).await,
        view_of(client, &players[1]).await,
    ];
    if views[0].phase == pb::Phase::Finished as i32 {
        return;
    }
    let truth = truth(&views);
    let spectator = spectator_view(client, &players[0].game).await;
    check_view(&views[0], Some(0), &truth);
    check_view(&views[1], Some(1), &truth);
    check_view(&spectator, None, &truth);
    for view in views.iter().chain([&spectator]) {
        check_events(view.last_event.as_slice(), &truth);
    }
    // Past positions now and then: each asks the server to replay the whole game.
    let positions = views[0].version % 97 < 8;
    for player in players {
        let history = client
            .get_history(authed(
                pb::GetHistoryRequest {
                    game_id: player.game.clone(),
                    positions,
                    ..Default::default()
                },
                &player.token,
            ))
            .await
            .expect("history")
            .into_inner();
        assert!(history.reveal.is_none(), "no reveal before the end");
        check_events(&history.events, &truth);
        let page = Limits::for_tests().history_page;
        assert_eq!(
            history.positions.len(),
            if positions {
                history.events.len().min(page)
            } else {
                0
            }
        );
        // A past position shows at most what is revealed now (knowledge only grows).
        for position in &history.positions {
            check_past_view(position, Some(player.seat), &truth);
        }
    }
}

// ------------------------------------------------------------------------------------------
// Hundreds of games: everything any receiver gets during play, checked after the end.

/// Who received a response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Receiver {
    /// The player in this seat.
    Seat(i32),
    /// A spectator.
    Spectator,
    /// Anybody: listings.
    Anyone,
}

impl Receiver {
    fn seat(self) -> Option<i32> {
        match self {
            Receiver::Seat(seat) => Some(seat),
            Receiver::Spectator | Receiver::Anyone => None,
        }
    }
}

/// Everything one game delivered to anybody before it ended.
#[derive(Default)]
struct Delivered {
    /// Every response, error message and stream message, encoded.
    bytes: Vec<(Receiver, Vec<u8>)>,
    /// Every view inside them.
    views: Vec<(Receiver, pb::GameView)>,
    /// Every event inside them.
    events: Vec<pb::Event>,
    /// Each owner's own view, by version: what is true.
    owners: BTreeMap<u64, [Option<pb::GameView>; 2]>,
}

impl Delivered {
    fn message(&mut self, to: Receiver, message: &impl prost::Message) {
        self.bytes.push((to, message.encode_to_vec()));
    }

    /// Records `view` if the game was still on (after the end, everything is public).
    fn view(&mut self, to: Receiver, view: &pb::GameView) {
        if finished(view) {
            return;
        }
        self.events.extend(view.last_event.clone());
        if let Receiver::Seat(seat) = to {
            self.owners.entry(view.version).or_default()[seat as usize] = Some(view.clone());
        }
        self.views.push((to, view.clone()));
    }

    fn refusal(&mut self, to: Receiver, status: &Status) {
        let mut bytes = status.message().as_bytes().to_vec();
        bytes.extend_from_slice(status.details());
        self.bytes.push((to, bytes));
    }

    /// What is true at `version`, if both owners' views of it were delivered.
    fn truth(&self, version: u64) -> Option<Truth> {
        match self.owners.get(&version)? {
            [Some(first), Some(second)] => Some(truth([first, second])),
            _ => None,
        }
    }
}

/// The words that name each piece kind of a ruleset (id and name), lowercase.
fn kind_words(ruleset: &pb::Ruleset) -> HashMap<String, [String; 2]> {
    ruleset
        .piece_kinds
        .iter()
        .map(|kind| (kind.id.clone(), [kind.id.clone(), kind.name.to_lowercase()]))
        .collect()
}

/// The kinds of an army ruleset that move more than one square: the rules name them in
/// refusals of any long move ("only the General moves more than one square at a time"),
/// whatever stands at the end of it.
fn long_movers(ruleset: &str) -> Vec<&'static str> {
    let spec = match ruleset {
        "frente" => Frente::spec(),
        "clasico" => Clasico::spec(),
        "castillos" => Castillos::spec(),
        _ => return Vec::new(),
    };
    spec.data
        .kinds
        .iter()
        .filter(|kind| matches!(kind.mobility, Mobility::Long { .. }))
        .map(|kind| kind.id)
        .collect()
}

/// Panics if `message` names any of `kinds`.
fn assert_names_none(message: &str, kinds: &[&String], words: &HashMap<String, [String; 2]>) {
    let message = message.to_lowercase();
    for kind in kinds {
        for word in &words[*kind] {
            assert!(
                !message.contains(word.as_str()),
                "a refusal names the hidden kind {kind}: {message:?}"
            );
        }
    }
}

/// One game played by two players, watched by both and a spectator, recording what each
/// receives; probes the rules with refused calls now and then.
struct Table {
    client: Client,
    rng: ChaCha8Rng,
    ruleset: pb::Ruleset,
    players: [Player; 2],
    delivered: Delivered,
    /// Refusals checked against the kinds they could have named.
    refusals: usize,
    /// Calls of [`Table::histories_and_listing`] so far.
    histories: u32,
}

impl Table {
    async fn view(&mut self, to: Receiver) -> pb::GameView {
        let game = self.players[0].game.clone();
        let request = pb::GetViewRequest { game_id: game };
        let response = match to {
            Receiver::Seat(seat) => {
                let token = &self.players[seat as usize].token;
                self.client.get_view(authed(request, token)).await
            }
            Receiver::Spectator | Receiver::Anyone => self.client.get_view(request).await,
        }
        .expect("view")
        .into_inner();
        let view = response.view.clone().expect("view");
        if !finished(&view) {
            self.delivered.message(to, &response);
            self.delivered.view(to, &view);
        }
        view
    }

    /// `action` sent for `from` (a seat, or a spectator without token); it must be refused.
    async fn refused(&mut self, from: Receiver, action: pb::Move) -> Status {
        let request = pb::MakeMoveRequest {
            game_id: self.players[0].game.clone(),
            action: Some(pb::make_move_request::Action::Move(action)),
            expected_version: None,
            ..Default::default()
        };
        let result = match from {
            Receiver::Seat(seat) => {
                let token = &self.players[seat as usize].token;
                self.client.make_move(authed(request, token)).await
            }
            Receiver::Spectator | Receiver::Anyone => self.client.make_move(request).await,
        };
        let status = result.expect_err("an unlisted action or an intruder is refused");
        self.delivered.refusal(from, &status);
        self.refusals += 1;
        status
    }

    /// Refused calls: the other seat and a spectator send the mover's move, and in games
    /// with hidden pieces the mover sends unlisted moves that touch hidden enemy pieces.
    /// No refusal may name the kind of a piece its receiver cannot see.
    async fn probe(&mut self, mover: i32, legal: &[pb::LegalMove]) {
        let words = kind_words(&self.ruleset);
        let all_kinds: Vec<&String> = words.keys().collect();
        let hidden_kinds = self.ruleset.setup_zones.iter().any(|zone| zone.hidden);
        let listed = legal[self.rng.random_range(0..legal.len())]
            .r#move
            .clone()
            .expect("a move");
        for from in [Receiver::Seat(1 - mover), Receiver::Spectator] {
            let status = self.refused(from, listed.clone()).await;
            if hidden_kinds {
                assert_names_none(status.message(), &all_kinds, &words);
            }
        }
        if !hidden_kinds {
            return;
        }
        let views = [
            self.view(Receiver::Seat(0)).await,
            self.view(Receiver::Seat(1)).await,
        ];
        let truth = truth(&views);
        let own = &views[mover as usize];
        let cell_of = |piece: &pb::Piece| piece.cell.expect("on the board");
        let enemies: Vec<&pb::Piece> = own
            .pieces
            .iter()
            .filter(|p| p.owner != mover && !p.revealed)
            .collect();
        let mine: Vec<&pb::Piece> = own.pieces.iter().filter(|p| p.owner == mover).collect();
        if enemies.is_empty() || mine.is_empty() {
            return;
        }
        for _ in 0..3 {
            let enemy = enemies[self.rng.random_range(0..enemies.len())];
            let piece = mine[self.rng.random_range(0..mine.len())];
            // Own piece onto a hidden enemy anywhere, or the hidden enemy moved one square.
            let (from, to) = if self.rng.random_bool(0.5) {
                (cell_of(piece), cell_of(enemy))
            } else {
                let at = cell_of(enemy);
                (
                    at,
                    pb::Cell {
                        x: at.x,
                        y: at.y + 1,
                    },
                )
            };
            let action = pb::Move {
                action: Some(pb::r#move::Action::Step(pb::Step {
                    from: Some(from),
                    to: Some(to),
                })),
            };
            if legal.iter().any(|l| l.r#move.as_ref() == Some(&action)) {
                continue;
            }
            let status = self.refused(Receiver::Seat(mover), action).await;
            let at = |cell: pb::Cell| own.pieces.iter().find(|p| p.cell == Some(cell));
            let own_kind = at(from).filter(|p| p.owner == mover).map(|p| &p.kind);
            let generic = long_movers(&self.ruleset.id);
            let hidden: Vec<&String> = [from, to]
                .into_iter()
                .filter_map(at)
                .filter(|p| p.owner != mover && !p.revealed)
                .map(|p| &truth[&p.id].1)
                .filter(|kind| Some(*kind) != own_kind && !generic.contains(&kind.as_str()))
                .collect();
            assert_names_none(status.message(), &hidden, &words);
        }
    }

    /// Histories of both seats and a spectator, and a listing: no reveal before the end.
    /// Past positions come with the 1st, 2nd, 4th, 8th… call: each is a replay of the whole
    /// game, so asking every time would make a long game's checks quadratic.
    async fn histories_and_listing(&mut self) {
        self.histories += 1;
        let positions = self.histories.is_power_of_two();
        for to in [Receiver::Seat(0), Receiver::Seat(1), Receiver::Spectator] {
            let request = pb::GetHistoryRequest {
                game_id: self.players[0].game.clone(),
                positions,
                ..Default::default()
            };
            let response = match to.seat() {
                Some(seat) => {
                    let token = &self.players[seat as usize].token;
                    self.client.get_history(authed(request, token)).await
                }
                None => self.client.get_history(request).await,
            }
            .expect("history")
            .into_inner();
            assert!(response.reveal.is_none(), "no reveal before the end");
            self.delivered.message(to, &response);
            self.delivered
                .events
                .extend(response.events.iter().cloned());
            self.delivered
                .view(to, response.view.as_ref().expect("view"));
            let expected = if positions {
                response.events.len().min(Limits::for_tests().history_page)
            } else {
                0
            };
            assert_eq!(response.positions.len(), expected);
            for position in &response.positions {
                assert_nameless(position);
                self.delivered.view(to, position);
            }
            if positions {
                self.replay(to, &response.events).await;
            }
        }
        let listing = self
            .client
            .list_games(pb::ListGamesRequest {
                ruleset: self.ruleset.id.clone(),
                ..Default::default()
            })
            .await
            .expect("list")
            .into_inner();
        if self.ruleset.setup_zones.iter().any(|zone| zone.hidden) {
            let words = kind_words(&self.ruleset);
            let text = format!("{listing:?}");
            assert_names_none(&text, &words.keys().collect::<Vec<_>>(), &words);
        }
        self.delivered.message(Receiver::Anyone, &listing);
    }
}

impl Table {
    /// A whole ReplayGame stream for `to`: the same events as its history, every position
    /// checked like a view, names only in the start.
    async fn replay(&mut self, to: Receiver, events: &[pb::Event]) {
        let token = to
            .seat()
            .map(|seat| self.players[seat as usize].token.clone());
        let game = self.players[0].game.clone();
        let (start, steps) = replay(&mut self.client, &game, token.as_deref(), None)
            .await
            .expect("replay");
        assert!(start.reveal.is_none(), "no reveal before the end");
        self.delivered.message(to, &start);
        self.delivered.view(to, start.view.as_ref().expect("view"));
        let replayed: Vec<&pb::Event> = steps.iter().filter_map(|s| s.event.as_ref()).collect();
        assert_eq!(
            replayed,
            events.iter().collect::<Vec<_>>(),
            "replay and history agree"
        );
        for step in &steps {
            let position = step.position.as_ref().expect("position");
            assert_nameless(position);
            self.delivered.message(to, step);
            self.delivered.view(to, position);
        }
    }
}

/// A replay's position carries no names: the reply sends them once.
fn assert_nameless(position: &pb::GameView) {
    assert!(
        position.name.is_empty(),
        "a position without the game's name"
    );
    assert!(
        position.players.iter().all(|player| player.name.is_empty()),
        "a position without the players' names"
    );
}

/// Collects a watch stream until it ends with the game.
fn watch(
    mut client: Client,
    request: tonic::Request<pb::WatchGameRequest>,
) -> tokio::task::JoinHandle<Vec<pb::WatchGameResponse>> {
    tokio::spawn(async move {
        let mut stream = client
            .watch_game(request)
            .await
            .expect("watch")
            .into_inner();
        let mut messages = Vec::new();
        while let Some(message) = stream.message().await.expect("a message") {
            messages.push(message);
        }
        messages
    })
}

/// Plays one game of `ruleset` (to the end if `full`, else resigned after a few moves),
/// then checks everything delivered during play.
async fn leak_free_game(client: Client, ruleset: pb::Ruleset, seed: u64, full: bool) -> Played {
    let mut client = client;
    let mut delivered = Delivered::default();
    let created = client
        .create_game(pb::CreateGameRequest {
            ruleset: ruleset.id.clone(),
            player_name: "Ana".into(),
            ..Default::default()
        })
        .await
        .expect("created")
        .into_inner();
    delivered.message(Receiver::Seat(0), &created);
    delivered.view(Receiver::Seat(0), created.view.as_ref().expect("view"));
    let game = created.game_id.clone();
    let watch_request = |token: Option<&str>| {
        let request = pb::WatchGameRequest {
            game_id: game.clone(),
            after_version: None,
            ..Default::default()
        };
        match token {
            Some(token) => authed(request, token),
            None => tonic::Request::new(request),
        }
    };
    let mut watchers = vec![
        (
            Receiver::Spectator,
            watch(client.clone(), watch_request(None)),
        ),
        (
            Receiver::Seat(0),
            watch(client.clone(), watch_request(Some(&created.player_token))),
        ),
    ];
    let joined = client
        .join_game(pb::JoinGameRequest {
            game_id: game.clone(),
            player_name: "Beto".into(),
        })
        .await
        .expect("joined")
        .into_inner();
    delivered.message(Receiver::Seat(1), &joined);
    delivered.view(Receiver::Seat(1), joined.view.as_ref().expect("view"));
    watchers.push((
        Receiver::Seat(1),
        watch(client.clone(), watch_request(Some(&joined.player_token))),
    ));
    let players = [
        Player {
            game: game.clone(),
            seat: 0,
            token: created.player_token,
        },
        Player {
            game: game.clone(),
            seat: 1,
            token: joined.player_token,
        },
    ];
    for response in try_random_setups(&mut client, &players)
        .await
        .expect("setups")
    {
        let view = response.view.clone().expect("view");
        let seat = view.viewer_seat.expect("a player's view");
        delivered.message(Receiver::Seat(seat), &response);
        delivered.view(Receiver::Seat(seat), &view);
    }
    let mut table = Table {
        client,
        rng: rng(seed),
        ruleset,
        players,
        delivered,
        refusals: 0,
        histories: 0,
    };
    let limit = if full {
        usize::MAX
    } else {
        table.rng.random_range(0..30)
    };
    let mut moves = 0;
    let mut start = None;
    loop {
        let spectator = table.view(Receiver::Spectator).await;
        let Some(mover) = spectator.to_move else {
            break;
        };
        let own = table.view(Receiver::Seat(mover)).await;
        start.get_or_insert(own.version);
        if moves == limit {
            let seat = table.rng.random_range(0..2);
            let request = pb::ResignRequest {
                game_id: game.clone(),
            };
            let token = table.players[seat].token.clone();
            table
                .client
                .resign(authed(request, &token))
                .await
                .expect("resigns");
            break;
        }
        if table.rng.random_ratio(1, 5) {
            table.probe(mover, &own.legal_moves).await;
        }
        if table.rng.random_ratio(1, 10) {
            table.histories_and_listing().await;
        }
        let choice = &own.legal_moves[table.rng.random_range(0..own.legal_moves.len())];
        let request = pb::MakeMoveRequest {
            game_id: game.clone(),
            action: Some(pb::make_move_request::Action::Notation(
                choice.notation.clone(),
            )),
            expected_version: Some(own.version),
            ..Default::default()
        };
        let token = table.players[mover as usize].token.clone();
        let response = table
            .client
            .make_move(authed(request, &token))
            .await
            .expect("a listed move")
            .into_inner();
        let view = response.view.as_ref().expect("view");
        if view.phase != pb::Phase::Finished as i32 {
            table.delivered.message(Receiver::Seat(mover), &response);
            table.delivered.events.extend(response.event.clone());
            table.delivered.view(Receiver::Seat(mover), view);
        }
        moves += 1;
    }
    let Table {
        mut client,
        ruleset,
        mut delivered,
        refusals,
        ..
    } = table;
    for (to, watcher) in watchers {
        let messages = within("the stream ends with the game", watcher)
            .await
            .expect("watched");
        let last = messages.last().expect("messages");
        assert_eq!(
            last.view.as_ref().map(|v| v.phase),
            Some(pb::Phase::Finished as i32)
        );
        for message in messages
            .iter()
            .filter(|m| !m.view.as_ref().is_some_and(finished))
        {
            delivered.message(to, message);
            delivered.events.extend(message.event.clone());
            delivered.view(to, message.view.as_ref().expect("view"));
        }
    }
    // After the end: the secrets, and whether anything before it showed them.
    let history = client
        .get_history(pb::GetHistoryRequest {
            game_id: game,
            positions: false,
            ..Default::default()
        })
        .await
        .expect("history")
        .into_inner();
    let reveal = history.reveal.expect("the reveal after the end");
    let seed = hex::decode(&reveal.dice_seed).expect("a hex seed");
    assert_eq!(seed.len(), 32);
    let mut secrets: Vec<(Option<i32>, Vec<u8>)> = vec![
        (None, seed.clone()),
        (None, reveal.dice_seed.as_bytes().to_vec()),
        (None, reveal.dice_seed.to_uppercase().into_bytes()),
    ];
    for setup in &reveal.setups {
        let salt = hex::decode(&setup.salt).expect("a hex salt");
        for secret in [
            salt,
            setup.salt.clone().into_bytes(),
            setup.canonical_setup.clone().into_bytes(),
        ] {
            secrets.push((Some(setup.seat), secret));
        }
    }
    // The checks below take seconds of CPU for whole games in debug builds: off the
    // runtime's workers, so that the in-process server and the connections' keep-alive
    // pings are served meanwhile (two games judged at once used to starve both workers
    // past the 20 s ping timeout, and the server closed the connection).
    let starts = tokio::task::block_in_place(|| judge(&ruleset, &delivered, &secrets, start));
    Played { starts, refusals }
}

/// Checks everything `delivered` during a game of `ruleset` against the `secrets` shown
/// after its end and against the owners' truth at each version; returns what each piece
/// was at version `start`, in games with hidden setups.
fn judge(
    ruleset: &pb::Ruleset,
    delivered: &Delivered,
    secrets: &[(Option<i32>, Vec<u8>)],
    start: Option<u64>,
) -> Vec<(i32, u32, String)> {
    for (to, bytes) in &delivered.bytes {
        for (owner, secret) in secrets {
            if owner.is_some() && *owner == to.seat() {
                continue;
            }
            assert!(
                !bytes.windows(secret.len()).any(|w| w == secret.as_slice()),
                "{}: a response to {to:?} during play holds a secret of {owner:?}",
                ruleset.id
            );
        }
    }
    // Every view and event delivered during play against the owners' truth at its version.
    // Only the creation comes before both seats can see their own pieces; then a kind
    // shown to anybody but its owner must be a revealed one.
    for (to, view) in &delivered.views {
        match delivered.truth(view.version) {
            Some(truth) => check_view(view, to.seat(), &truth),
            None => {
                assert_eq!(
                    view.version, 1,
                    "{}: both owners saw every version",
                    ruleset.id
                );
                for piece in view.pieces.iter().filter(|p| Some(p.owner) != to.seat()) {
                    assert!(
                        piece.kind.is_empty() || piece.revealed,
                        "{piece:?} to {to:?}"
                    );
                }
            }
        }
    }
    for event in &delivered.events {
        let truth = delivered.truth(event.version).unwrap_or_default();
        check_events(std::slice::from_ref(event), &truth);
    }
    let hidden = ruleset.setup_zones.iter().any(|zone| zone.hidden);
    match start.and_then(|version| delivered.truth(version)) {
        Some(truth) if hidden => truth
            .into_iter()
            .map(|(id, (owner, kind, _))| (owner, id, kind))
            .collect(),
        _ => Vec::new(),
    }
}

/// What a game of [`leak_free_game`] reports.
struct Played {
    /// What each piece id was at the start, by owner, in games with hidden setups.
    starts: Vec<(i32, u32, String)>,
    /// Refused calls whose messages were checked.
    refusals: usize,
}

fn finished(view: &pb::GameView) -> bool {
    view.phase == pb::Phase::Finished as i32
}

#[tokio::test(flavor = "multi_thread")]
async fn hundreds_of_games_leak_nothing() {
    let games = scaled(60, 400);
    let started = std::time::Instant::now();
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let rulesets = client
        .list_rulesets(pb::ListRulesetsRequest {})
        .await
        .expect("rulesets")
        .into_inner()
        .rulesets;
    // Short games of every ruleset, and whole games of the shorter rulesets (of all of
    // them in the heavy run).
    let mut plan: Vec<(pb::Ruleset, bool)> = (0..games)
        .map(|index| (rulesets[index % rulesets.len()].clone(), false))
        .collect();
    for ruleset in &rulesets {
        let long = ruleset.setup_zones.iter().any(|zone| zone.hidden);
        if !long || crate::harness::heavy() {
            plan.push((ruleset.clone(), true));
        }
    }
    let plan = Arc::new(Mutex::new(plan.into_iter().enumerate().collect::<Vec<_>>()));
    let mut workers = Vec::new();
    for _ in 0..4 {
        let plan = Arc::clone(&plan);
        let client = server.client().await;
        workers.push(tokio::spawn(async move {
            let (mut starts, mut refusals) = (Vec::new(), 0);
            loop {
                let next = plan.lock().unwrap_or_else(|e| e.into_inner()).pop();
                let Some((index, (ruleset, full))) = next else {
                    return (starts, refusals);
                };
                let id = ruleset.id.clone();
                let played = leak_free_game(client.clone(), ruleset, index as u64, full).await;
                refusals += played.refusals;
                for (owner, piece, kind) in played.starts {
                    starts.push((id.clone(), owner, piece, kind));
                }
            }
        }));
    }
    // Piece ids tell nothing about kinds: over many games, an id is many kinds.
    let mut kinds_by_id: BTreeMap<(String, i32, u32), Vec<String>> = BTreeMap::new();
    let mut refusals = 0;
    for worker in workers {
        let (starts, refused) = worker.await.expect("worker");
        refusals += refused;
        for (ruleset, owner, piece, kind) in starts {
            kinds_by_id
                .entry((ruleset, owner, piece))
                .or_default()
                .push(kind);
        }
    }
    assert!(
        refusals >= games,
        "only {refusals} refused calls were checked"
    );
    let mut judged = 0;
    for ((ruleset, owner, piece), kinds) in &kinds_by_id {
        if kinds.len() >= 8 {
            judged += 1;
            assert!(
                kinds.iter().any(|kind| kind != &kinds[0]),
                "{ruleset}: piece {piece} of seat {owner} was a {} in each of {} games",
                kinds[0],
                kinds.len()
            );
        }
    }
    assert!(
        judged > 0,
        "enough games with hidden setups to judge piece ids"
    );
    eprintln!(
        "leaks: {} games ({games} short), {refusals} refusals, in {:.1?}: nothing leaked",
        games + rulesets.len(),
        started.elapsed()
    );
}
