//! Conversions between the wire types of `trinchera.v1` and a game's values: checked on the
//! way in (a [`Refusal`] names what is wrong), total on the way out.

pub mod changes;

use trinchera_proto::v1 as pb;
use trinchera_rules::{
    Action, BattleResult, BoardShape, Cell, Description, Effect, EndReason, Facing, LinkKind,
    Outcome, PieceView, Placement, RemovalCause, Seat, Status, TankAction, TankPhase, Terrain,
};
use trinchera_store::GamePhase;
use trinchera_store::Speed;

use self::changes::Changes;
use crate::ReplayOpening;
use crate::bots::BotLevel;
use crate::clock::{Lapse, TimeControl};
use crate::refusal::{Reason, Refusal};
use crate::{EventKind, GameEvent, History, Reveal, Snapshot, Table, control_of};
use trinchera_store::GameId;
use trinchera_store::records::SummaryRecord;

fn seat_number(seat: Seat) -> i32 {
    seat.index() as i32
}

/// A seat number from a request.
pub fn seat_from(number: i32) -> Result<Seat, Refusal> {
    usize::try_from(number)
        .ok()
        .and_then(Seat::from_index)
        .ok_or_else(|| {
            Refusal::invalid(
                Reason::BadRequest,
                format!("seat {number} does not exist: seats are 0 and 1"),
            )
        })
}

/// A cell for the wire.
pub fn cell(cell: Cell) -> pb::Cell {
    pb::Cell {
        x: i32::from(cell.x),
        y: i32::from(cell.y),
    }
}

/// A cell from a request; coordinates far outside any board are refused here, the rest by
/// the rules.
pub fn cell_from(cell: Option<&pb::Cell>, what: &str) -> Result<Cell, Refusal> {
    let cell =
        cell.ok_or_else(|| Refusal::invalid(Reason::BadRequest, format!("{what} is required")))?;
    match (i8::try_from(cell.x), i8::try_from(cell.y)) {
        (Ok(x), Ok(y)) => Ok(Cell::new(x, y)),
        _ => Err(Refusal::invalid(
            Reason::OffBoard,
            format!("({}, {}) is not on the board", cell.x, cell.y),
        )),
    }
}

fn facing(facing: Facing) -> pb::Facing {
    match facing {
        Facing::E => pb::Facing::E,
        Facing::NE => pb::Facing::Ne,
        Facing::NW => pb::Facing::Nw,
        Facing::W => pb::Facing::W,
        Facing::SW => pb::Facing::Sw,
        Facing::SE => pb::Facing::Se,
    }
}

fn facing_from(number: i32) -> Result<Facing, Refusal> {
    match pb::Facing::try_from(number) {
        Ok(pb::Facing::E) => Ok(Facing::E),
        Ok(pb::Facing::Ne) => Ok(Facing::NE),
        Ok(pb::Facing::Nw) => Ok(Facing::NW),
        Ok(pb::Facing::W) => Ok(Facing::W),
        Ok(pb::Facing::Sw) => Ok(Facing::SW),
        Ok(pb::Facing::Se) => Ok(Facing::SE),
        Ok(pb::Facing::Unspecified) | Err(_) => Err(Refusal::invalid(
            Reason::BadRequest,
            "a facing is required: E, NE, NW, W, SW or SE",
        )),
    }
}

fn tank_action(action: TankAction) -> pb::TankAction {
    match action {
        TankAction::Forward => pb::TankAction::Forward,
        TankAction::TurnLeft => pb::TankAction::TurnLeft,
        TankAction::TurnRight => pb::TankAction::TurnRight,
    }
}

fn tank_action_from(number: i32) -> Result<TankAction, Refusal> {
    match pb::TankAction::try_from(number) {
        Ok(pb::TankAction::Forward) => Ok(TankAction::Forward),
        Ok(pb::TankAction::TurnLeft) => Ok(TankAction::TurnLeft),
        Ok(pb::TankAction::TurnRight) => Ok(TankAction::TurnRight),
        Ok(pb::TankAction::Unspecified) | Err(_) => Err(Refusal::invalid(
            Reason::BadRequest,
            "each maneuver action must be forward, turn left or turn right",
        )),
    }
}

/// An action for the wire.
pub fn action(action: &Action) -> pb::Move {
    use pb::r#move::Action as A;
    let action = match action {
        Action::Step { from, to } => A::Step(pb::Step {
            from: Some(cell(*from)),
            to: Some(cell(*to)),
        }),
        Action::Jump { from, landings } => A::Jump(pb::Jump {
            from: Some(cell(*from)),
            landings: landings.iter().copied().map(cell).collect(),
        }),
        Action::Huff { officer } => A::Huff(pb::Huff {
            officer: Some(cell(*officer)),
        }),
        Action::Enter {
            cell: at,
            facing: f,
        } => A::Enter(pb::Enter {
            cell: Some(cell(*at)),
            facing: facing(*f) as i32,
        }),
        Action::Maneuver { cell: at, actions } => A::Maneuver(pb::Maneuver {
            cell: Some(cell(*at)),
            actions: actions.iter().map(|a| tank_action(*a) as i32).collect(),
        }),
        Action::Attack {
            target,
            attackers,
            advance,
            casualty,
        } => A::Attack(pb::Attack {
            target: Some(cell(*target)),
            attackers: attackers.iter().copied().map(cell).collect(),
            advance: advance.map(cell),
            casualty: casualty.map(cell),
        }),
        Action::EndPhase => A::EndPhase(pb::EndPhase {}),
    };
    pb::Move {
        action: Some(action),
    }
}

/// An action from a request.
pub fn action_from(mv: &pb::Move) -> Result<Action, Refusal> {
    use pb::r#move::Action as A;
    let cells = |cells: &[pb::Cell], what: &str| -> Result<Vec<Cell>, Refusal> {
        cells.iter().map(|c| cell_from(Some(c), what)).collect()
    };
    Ok(match &mv.action {
        None => {
            return Err(Refusal::invalid(
                Reason::BadRequest,
                "the move is empty: set one action",
            ));
        }
        Some(A::Step(step)) => Action::Step {
            from: cell_from(step.from.as_ref(), "step.from")?,
            to: cell_from(step.to.as_ref(), "step.to")?,
        },
        Some(A::Jump(jump)) => {
            if jump.landings.is_empty() || jump.landings.len() > 32 {
                return Err(Refusal::invalid(
                    Reason::BadRequest,
                    "a jump needs 1 to 32 landings",
                ));
            }
            Action::Jump {
                from: cell_from(jump.from.as_ref(), "jump.from")?,
                landings: cells(&jump.landings, "jump.landings")?,
            }
        }
        Some(A::Huff(huff)) => Action::Huff {
            officer: cell_from(huff.officer.as_ref(), "huff.officer")?,
        },
        Some(A::Enter(enter)) => Action::Enter {
            cell: cell_from(enter.cell.as_ref(), "enter.cell")?,
            facing: facing_from(enter.facing)?,
        },
        Some(A::Maneuver(maneuver)) => {
            if maneuver.actions.is_empty() || maneuver.actions.len() > 8 {
                return Err(Refusal::invalid(
                    Reason::BadRequest,
                    "a maneuver needs 1 to 8 actions",
                ));
            }
            Action::Maneuver {
                cell: cell_from(maneuver.cell.as_ref(), "maneuver.cell")?,
                actions: maneuver
                    .actions
                    .iter()
                    .map(|&a| tank_action_from(a))
                    .collect::<Result<_, _>>()?,
            }
        }
        Some(A::Attack(attack)) => {
            if attack.attackers.is_empty() || attack.attackers.len() > 6 {
                return Err(Refusal::invalid(
                    Reason::BadRequest,
                    "an attack needs 1 to 6 attackers",
                ));
            }
            Action::Attack {
                target: cell_from(attack.target.as_ref(), "attack.target")?,
                attackers: cells(&attack.attackers, "attack.attackers")?,
                advance: attack
                    .advance
                    .as_ref()
                    .map(|c| cell_from(Some(c), "attack.advance"))
                    .transpose()?,
                casualty: attack
                    .casualty
                    .as_ref()
                    .map(|c| cell_from(Some(c), "attack.casualty"))
                    .transpose()?,
            }
        }
        Some(A::EndPhase(_)) => Action::EndPhase,
    })
}

/// Placements from a request.
pub fn placements_from(placements: &[pb::Placement]) -> Result<Vec<Placement>, Refusal> {
    placements
        .iter()
        .map(|p| {
            Ok(Placement {
                cell: cell_from(p.cell.as_ref(), "placement.cell")?,
                kind: p.kind.clone(),
            })
        })
        .collect()
}

/// A placement for the wire.
pub fn placement(placement: &Placement) -> pb::Placement {
    pb::Placement {
        cell: Some(cell(placement.cell)),
        kind: placement.kind.clone(),
    }
}

/// A phase for the wire.
pub fn phase(phase: GamePhase) -> pb::Phase {
    match phase {
        GamePhase::Waiting => pb::Phase::Waiting,
        GamePhase::Setup => pb::Phase::Setup,
        GamePhase::Playing => pb::Phase::Playing,
        GamePhase::Finished => pb::Phase::Finished,
    }
}

/// A phase from the wire (`UNSPECIFIED` is no phase, handled by the caller).
pub fn phase_from(phase: pb::Phase) -> GamePhase {
    match phase {
        pb::Phase::Waiting | pb::Phase::Unspecified => GamePhase::Waiting,
        pb::Phase::Setup => GamePhase::Setup,
        pb::Phase::Playing => GamePhase::Playing,
        pb::Phase::Finished => GamePhase::Finished,
    }
}

/// A result for the wire.
pub fn outcome(outcome: Outcome) -> pb::Result {
    pb::Result {
        winner: outcome.winner.map(seat_number),
        draw: outcome.is_draw(),
        reason: outcome.reason.code().to_owned(),
    }
}

fn terrain(terrain: Terrain) -> (pb::Terrain, Option<i32>) {
    match terrain {
        Terrain::Open => (pb::Terrain::Open, None),
        Terrain::Lake => (pb::Terrain::Lake, None),
        Terrain::Castle => (pb::Terrain::Castle, None),
        Terrain::Trench => (pb::Terrain::Trench, None),
        Terrain::Swamp => (pb::Terrain::Swamp, None),
        Terrain::Urban => (pb::Terrain::Urban, None),
        Terrain::Entry(seat) => (pb::Terrain::Entry, Some(seat_number(seat))),
        Terrain::Fortress => (pb::Terrain::Fortress, None),
    }
}

/// A ruleset description for the wire.
pub fn ruleset(description: &Description) -> pb::Ruleset {
    let board = &description.board;
    pb::Ruleset {
        id: description.id.to_owned(),
        name: description.name.to_owned(),
        description: description.summary.to_owned(),
        seats: description
            .seats
            .iter()
            .map(|(seat, info)| pb::SeatInfo {
                seat: seat_number(seat),
                name: info.name.to_owned(),
                role: info.role.to_owned(),
            })
            .collect(),
        board: Some(pb::Board {
            shape: match board.shape {
                BoardShape::Square => pb::BoardShape::Square,
                BoardShape::Hex => pb::BoardShape::Hex,
                BoardShape::Cross => pb::BoardShape::Cross,
            } as i32,
            width: i32::from(board.width),
            height: i32::from(board.height),
            cells: board
                .cells
                .iter()
                .map(|info| {
                    let (terrain, entry_seat) = terrain(info.terrain);
                    pb::CellInfo {
                        cell: Some(cell(info.cell)),
                        label: info.label.clone(),
                        terrain: terrain as i32,
                        entry_seat,
                    }
                })
                .collect(),
            links: board
                .links
                .iter()
                .map(|link| pb::Link {
                    a: Some(cell(link.a)),
                    b: Some(cell(link.b)),
                    kind: match link.kind {
                        LinkKind::Orthogonal => pb::LinkKind::Orthogonal,
                        LinkKind::Diagonal => pb::LinkKind::Diagonal,
                        LinkKind::Marked => pb::LinkKind::Marked,
                    } as i32,
                })
                .collect(),
        }),
        piece_kinds: description
            .kinds
            .iter()
            .map(|kind| pb::PieceKind {
                id: kind.id.to_owned(),
                name: kind.name.to_owned(),
                code: kind.code.to_string(),
                rank: kind.rank.map(i32::from),
                count: i32::from(kind.count),
                movable: kind.movable,
                seat: kind.seat.map(seat_number),
                note: kind.note.to_owned(),
            })
            .collect(),
        setup_zones: description
            .setup_zones
            .iter()
            .map(|zone| pb::SetupZone {
                seat: seat_number(zone.seat),
                cells: zone.cells.iter().copied().map(cell).collect(),
                hidden: zone.hidden,
                pieces: zone
                    .pieces
                    .iter()
                    .map(|&(kind, count)| pb::PieceCount {
                        kind: description.kind(kind).id.to_owned(),
                        count: i32::from(count),
                    })
                    .collect(),
            })
            .collect(),
        notation_help: description.notation_help.to_owned(),
        bot_levels: BotLevel::ALL
            .iter()
            .map(|level| pb::BotLevel {
                name: level.name().to_owned(),
                description: level.description().to_owned(),
            })
            .collect(),
    }
}

fn piece(description: &Description, piece: &PieceView) -> pb::Piece {
    pb::Piece {
        id: piece.id.0,
        cell: piece.cell.map(cell),
        owner: seat_number(piece.owner),
        kind: piece
            .kind
            .map(|kind| description.kind(kind).id.to_owned())
            .unwrap_or_default(),
        revealed: piece.revealed,
        moved: piece.moved,
        facing: piece.facing.map(|f| facing(f) as i32),
    }
}

fn tank_phase(phase: TankPhase) -> pb::TankPhase {
    match phase {
        TankPhase::Movement => pb::TankPhase::Movement,
        TankPhase::Attack => pb::TankPhase::Attack,
        TankPhase::Final => pb::TankPhase::Final,
    }
}

fn status(status: &Status) -> Option<pb::game_view::Status> {
    use pb::game_view::Status as S;
    match status {
        Status::Setup => None,
        Status::Army(army) => Some(S::Stratego(pb::StrategoStatus {
            turns_without_battle: army.turns_without_battle,
            turn_limit: army.turn_limit,
            castles: army
                .castle_turns
                .iter()
                .map(|&(at, turns)| pb::CastleCount {
                    cell: Some(cell(at)),
                    turns: i32::from(turns),
                })
                .collect(),
        })),
        Status::Asalto(asalto) => Some(S::Asalto(pb::AsaltoStatus {
            huffable: asalto.huffable.iter().copied().map(cell).collect(),
            turns_without_progress: asalto.turns_without_progress,
            turn_limit: asalto.turn_limit,
        })),
        Status::Tanques(tanks) => Some(S::Tanks(pb::TanksStatus {
            round: i32::from(tanks.round),
            phase: tank_phase(tanks.phase) as i32,
            maneuvers_left: i32::from(tanks.maneuvers_left),
            control: tanks
                .control
                .iter()
                .map(|&(at, seat)| pb::UrbanControl {
                    cell: Some(cell(at)),
                    seat: seat.map(seat_number),
                })
                .collect(),
            maneuvered: tanks.maneuvered.iter().copied().map(cell).collect(),
            attacked: tanks.attacked.iter().copied().map(cell).collect(),
            dice_commitment: tanks.dice_commitment.clone(),
            rolls: tanks.rolls,
            final_turns_without_attack: i32::from(tanks.final_turns_without_attack),
        })),
    }
}

/// Whether a view carries the players' and the game's names: a replay sends them once, not
/// in every position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Names {
    Sent,
    Omitted,
}

fn players(table: &Table, description: &Description, names: Names) -> Vec<pb::Player> {
    table
        .seats
        .iter()
        .map(|(seat, card)| pb::Player {
            seat: seat_number(seat),
            name: match names {
                Names::Sent => card.name.clone(),
                Names::Omitted => String::new(),
            },
            joined: card.joined,
            setup_done: card.commitment.is_some() || description.setup_zone(seat).is_none(),
            setup_commitment: card.commitment.clone().unwrap_or_default(),
            bot: card
                .bot
                .map(|level| level.name().to_owned())
                .unwrap_or_default(),
            kind: player_kind(card.joined, card.bot.is_some(), card.account.is_some()) as i32,
        })
        .collect()
}

/// Who holds a seat: taken or not, by a bot, by an account.
fn player_kind(joined: bool, bot: bool, account: bool) -> pb::PlayerKind {
    match (joined, bot, account) {
        (false, _, _) => pb::PlayerKind::Unspecified,
        (true, true, _) => pb::PlayerKind::Bot,
        (true, false, true) => pb::PlayerKind::Account,
        (true, false, false) => pb::PlayerKind::Guest,
    }
}

/// The view one caller gets.
pub fn game_view(snapshot: &Snapshot) -> pb::GameView {
    let projection = &snapshot.projection;
    view(
        snapshot,
        Names::Sent,
        &projection.pieces,
        &projection.captured,
    )
}

/// The view of a watcher with `piece_changes_only`: whole but for the pieces, of which it
/// carries `changes`.
pub fn game_view_changes(snapshot: &Snapshot, changes: &Changes) -> pb::GameView {
    view(snapshot, Names::Sent, &changes.pieces, &changes.captured)
}

/// A position of a replay: the view without the names, which the reply carries once.
pub fn position(snapshot: &Snapshot) -> pb::GameView {
    let projection = &snapshot.projection;
    view(
        snapshot,
        Names::Omitted,
        &projection.pieces,
        &projection.captured,
    )
}

fn view(
    snapshot: &Snapshot,
    names: Names,
    pieces: &[PieceView],
    captured: &[PieceView],
) -> pb::GameView {
    let description = snapshot.description;
    pb::GameView {
        game_id: snapshot.id.to_string(),
        ruleset: description.id.to_owned(),
        version: snapshot.version,
        phase: phase(snapshot.phase) as i32,
        viewer_seat: snapshot.viewer.seat().map(seat_number),
        to_move: snapshot
            .projection
            .to_move
            .map(seat_number)
            .filter(|_| snapshot.phase == GamePhase::Playing),
        players: players(&snapshot.table, description, names),
        pieces: pieces.iter().map(|p| piece(description, p)).collect(),
        captured: captured.iter().map(|p| piece(description, p)).collect(),
        legal_moves: snapshot
            .legal
            .iter()
            .map(|legal| pb::LegalMove {
                r#move: Some(action(&legal.action)),
                notation: legal.notation.clone(),
            })
            .collect(),
        result: snapshot.outcome.map(outcome),
        status: status(&snapshot.projection.status),
        last_event: snapshot.last_event.as_ref().map(|e| event(e, description)),
        name: match names {
            Names::Sent => snapshot.table.name.clone(),
            Names::Omitted => String::new(),
        },
        clock: clock(snapshot),
    }
}

fn effect(effect: &Effect, description: &Description) -> pb::Effect {
    use pb::effect::Effect as E;
    let kind = |kind: trinchera_rules::KindId| description.kind(kind).id.to_owned();
    let effect = match effect {
        Effect::Battle {
            at,
            attacker,
            defender,
            result,
        } => E::Battle(pb::Battle {
            at: Some(cell(*at)),
            attacker_id: attacker.0.0,
            attacker_kind: kind(attacker.1),
            defender_id: defender.0.0,
            defender_kind: kind(defender.1),
            result: match result {
                BattleResult::AttackerWins => pb::BattleResult::AttackerWins,
                BattleResult::DefenderWins => pb::BattleResult::DefenderWins,
                BattleResult::BothFall => pb::BattleResult::BothFall,
            } as i32,
        }),
        Effect::Revealed { piece, kind: k } => E::Reveal(pb::Reveal {
            piece_id: piece.0,
            kind: kind(*k),
        }),
        Effect::Removed { piece, at, cause } => E::Removal(pb::Removal {
            piece_id: piece.0,
            at: Some(cell(*at)),
            cause: match cause {
                RemovalCause::Castle => pb::RemovalCause::Castle,
                RemovalCause::Jumped => pb::RemovalCause::Jumped,
                RemovalCause::Huffed => pb::RemovalCause::Huffed,
                RemovalCause::Destroyed => pb::RemovalCause::Destroyed,
            } as i32,
        }),
        Effect::Dice {
            index,
            roll,
            column,
            attacker_wins,
        } => E::Dice(pb::DiceRoll {
            index: *index,
            roll: i32::from(*roll),
            column: i32::from(*column),
            attacker_wins: *attacker_wins,
        }),
        Effect::ControlChanged { at, seat } => E::Control(pb::ControlChange {
            at: Some(cell(*at)),
            seat: seat_number(*seat),
        }),
        Effect::PhaseChanged { seat, round, phase } => E::Phase(pb::PhaseChange {
            seat: seat_number(*seat),
            round: i32::from(*round),
            phase: tank_phase(*phase) as i32,
        }),
        Effect::Passed { seat } => E::Pass(pb::Pass {
            seat: seat_number(*seat),
        }),
        Effect::Ended(end) => E::Result(outcome(*end)),
    };
    pb::Effect {
        effect: Some(effect),
    }
}

/// An event for the wire. Events carry nothing secret (setups are never part of one).
pub fn event(event: &GameEvent, description: &Description) -> pb::Event {
    let (kind, mv, notation, effects) = match &event.kind {
        EventKind::Created => (pb::EventType::Created, None, String::new(), Vec::new()),
        EventKind::Joined => (pb::EventType::Joined, None, String::new(), Vec::new()),
        EventKind::SetupSubmitted => (
            pb::EventType::SetupSubmitted,
            None,
            String::new(),
            Vec::new(),
        ),
        EventKind::Move { action: a, played } => (
            pb::EventType::Move,
            Some(action(a)),
            played.notation.clone(),
            played
                .effects
                .iter()
                .map(|e| effect(e, description))
                .collect(),
        ),
        EventKind::Resigned(end) => ended(pb::EventType::Resigned, *end),
        EventKind::Aborted => ended(pb::EventType::Aborted, Outcome::ABORTED),
        EventKind::TimedOut(end) => ended(pb::EventType::TimeForfeit, *end),
        EventKind::Claimed(end) => ended(pb::EventType::Abandoned, *end),
    };
    pb::Event {
        version: event.version,
        r#type: kind as i32,
        seat: Some(seat_number(event.seat)),
        r#move: mv,
        notation,
        effects,
        started: event.started,
    }
}

/// The parts of an event that ended the game with `end`.
fn ended(
    kind: pb::EventType,
    end: Outcome,
) -> (pb::EventType, Option<pb::Move>, String, Vec<pb::Effect>) {
    let result = pb::Effect {
        effect: Some(pb::effect::Effect::Result(outcome(end))),
    };
    (kind, None, String::new(), vec![result])
}

/// A time control for the wire (`None`: no clock).
pub fn time_control(control: TimeControl) -> Option<pb::TimeControl> {
    let secs = |d: std::time::Duration| d.as_secs() as u32;
    let control = match control {
        TimeControl::Untimed => return None,
        TimeControl::Live { initial, increment } => {
            pb::time_control::Control::Live(pb::LiveControl {
                initial_seconds: secs(initial),
                increment_seconds: secs(increment),
            })
        }
        TimeControl::Correspondence { per_move } => {
            pb::time_control::Control::Correspondence(pb::CorrespondenceControl {
                days_per_move: secs(per_move) / 86_400,
            })
        }
    };
    Some(pb::TimeControl {
        control: Some(control),
    })
}

/// Longest live initial time, in seconds (3 hours).
const MAX_INITIAL_SECONDS: u32 = 3 * 60 * 60;
/// Largest live increment, in seconds.
const MAX_INCREMENT_SECONDS: u32 = 180;
/// Longest correspondence deadline, in days.
const MAX_DAYS: u32 = 30;

/// A time control from a request, checked.
pub fn time_control_from(control: Option<&pb::TimeControl>) -> Result<TimeControl, Refusal> {
    use std::time::Duration;
    let invalid = |message: String| Err(Refusal::invalid(Reason::BadRequest, message));
    match control.and_then(|c| c.control.as_ref()) {
        None => Ok(TimeControl::Untimed),
        Some(pb::time_control::Control::Live(live)) => {
            if !(1..=MAX_INITIAL_SECONDS).contains(&live.initial_seconds) {
                return invalid(format!(
                    "a live clock's initial time must be 1 to {MAX_INITIAL_SECONDS} seconds"
                ));
            }
            if live.increment_seconds > MAX_INCREMENT_SECONDS {
                return invalid(format!(
                    "a live clock's increment may be at most {MAX_INCREMENT_SECONDS} seconds"
                ));
            }
            Ok(TimeControl::Live {
                initial: Duration::from_secs(live.initial_seconds.into()),
                increment: Duration::from_secs(live.increment_seconds.into()),
            })
        }
        Some(pb::time_control::Control::Correspondence(days)) => {
            if !(1..=MAX_DAYS).contains(&days.days_per_move) {
                return invalid(format!(
                    "a correspondence deadline must be 1 to {MAX_DAYS} days a move"
                ));
            }
            Ok(TimeControl::Correspondence {
                per_move: Duration::from_secs(u64::from(days.days_per_move) * 86_400),
            })
        }
    }
}

/// A speed class for the wire.
pub fn speed(speed: Speed) -> pb::Speed {
    match speed {
        Speed::Untimed => pb::Speed::Untimed,
        Speed::Bullet => pb::Speed::Bullet,
        Speed::Blitz => pb::Speed::Blitz,
        Speed::Rapid => pb::Speed::Rapid,
        Speed::Classical => pb::Speed::Classical,
        Speed::Correspondence => pb::Speed::Correspondence,
    }
}

/// A speed class from a request (`UNSPECIFIED`: any).
pub fn speed_from(number: i32) -> Result<Option<Speed>, Refusal> {
    match pb::Speed::try_from(number) {
        Ok(pb::Speed::Unspecified) => Ok(None),
        Ok(_) => Ok(Speed::from_number(number)),
        Err(_) => Err(Refusal::invalid(
            Reason::BadRequest,
            format!("unknown speed {number}"),
        )),
    }
}

/// The clocks of a view for the wire, at the view's instant; `None` without time control.
fn clock(snapshot: &Snapshot) -> Option<pb::Clock> {
    let clocks = &snapshot.clocks;
    let control = time_control(clocks.control())?;
    let now = snapshot.at_ms;
    let deadline = clocks.next_deadline();
    Some(pb::Clock {
        control: Some(control),
        speed: speed(clocks.control().speed()) as i32,
        remaining_ms: Seat::BOTH
            .iter()
            .map(|&seat| clocks.remaining(seat, now).unwrap_or_default())
            .collect(),
        running: clocks.running().map(|(seat, _)| seat_number(seat)),
        server_time_ms: now,
        deadline_ms: deadline.map(|(at, _)| at),
        lapse: match deadline.map(|(_, lapse)| lapse) {
            None => pb::Lapse::Unspecified,
            Some(Lapse::Setup(_)) => pb::Lapse::RandomSetup,
            Some(Lapse::FirstMove(_)) => pb::Lapse::Abort,
            Some(Lapse::Flag(_)) => pb::Lapse::TimeForfeit,
        } as i32,
    })
}

/// A listing summary for the wire.
pub fn summary(id: GameId, summary: &SummaryRecord) -> pb::GameSummary {
    let finished = summary.phase == GamePhase::Finished.number();
    pb::GameSummary {
        game_id: id.to_string(),
        ruleset: summary.ruleset.clone(),
        name: summary.name.clone(),
        phase: summary.phase,
        players: summary
            .players
            .iter()
            .enumerate()
            .map(|(seat, name)| {
                let bot = summary.bots.get(seat).cloned().unwrap_or_default();
                let account = summary.accounts.get(seat).is_some_and(|&id| id != 0);
                pb::Player {
                    seat: seat as i32,
                    name: name.clone(),
                    joined: !name.is_empty(),
                    kind: player_kind(!name.is_empty(), !bot.is_empty(), account) as i32,
                    bot,
                    ..pb::Player::default()
                }
            })
            .collect(),
        result: finished.then(|| pb::Result {
            winner: summary.winner.map(|w| w as i32),
            draw: summary.winner.is_none() && summary.reason != EndReason::Aborted.code(),
            reason: summary.reason.clone(),
        }),
        time_control: time_control(control_of(summary.time_control.as_ref())),
        speed: Speed::from_number(summary.speed).map_or(pb::Speed::Untimed, speed) as i32,
    }
}

/// A history for the wire: every event, the reveal once over, the caller's view.
pub fn history(history: &History) -> pb::GetHistoryResponse {
    let description = history.now.description;
    pb::GetHistoryResponse {
        events: history
            .events
            .iter()
            .map(|e| event(e, description))
            .collect(),
        reveal: history.reveal.as_ref().map(reveal),
        ruleset: description.id.to_owned(),
        view: Some(game_view(&history.now)),
        positions: history.positions.iter().map(position).collect(),
        next_positions_after: history.next_positions_after,
    }
}

/// The first message of a replay.
pub fn replay_start(opening: &ReplayOpening) -> pb::ReplayGameResponse {
    let snapshot = &opening.now;
    pb::ReplayGameResponse {
        item: Some(pb::replay_game_response::Item::Start(pb::ReplayStart {
            ruleset: snapshot.description.id.to_owned(),
            name: snapshot.table.name.clone(),
            players: players(&snapshot.table, snapshot.description, Names::Sent),
            view: Some(game_view(snapshot)),
            reveal: opening.reveal.as_ref().map(reveal),
            steps: opening.steps,
        })),
    }
}

/// One step of a replay: `event` and the game after it.
pub fn replay_step(event: &GameEvent, snapshot: &Snapshot) -> pb::ReplayGameResponse {
    pb::ReplayGameResponse {
        item: Some(pb::replay_game_response::Item::Step(pb::ReplayStep {
            event: Some(self::event(event, snapshot.description)),
            position: Some(position(snapshot)),
        })),
    }
}

fn reveal(reveal: &Reveal) -> pb::FairnessReveal {
    pb::FairnessReveal {
        setups: reveal
            .setups
            .iter()
            .map(|setup| pb::SetupReveal {
                seat: seat_number(setup.seat),
                salt: hex::encode(setup.salt),
                canonical_setup: setup.canonical.clone(),
                commitment: setup.commitment.clone(),
                placements: setup.placements.iter().map(placement).collect(),
            })
            .collect(),
        dice_seed: hex::encode(reveal.seed.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listed_seat_says_which_bot_plays_it() {
        let record = SummaryRecord {
            ruleset: "frente".into(),
            phase: GamePhase::Playing.number(),
            players: vec!["Ana".into(), "Bot (easy)".into()],
            bots: vec![String::new(), "easy".into()],
            ..SummaryRecord::default()
        };
        let listed = summary(GameId(3), &record);
        let bots: Vec<&str> = listed.players.iter().map(|p| p.bot.as_str()).collect();
        assert_eq!(bots, ["", "easy"]);
    }
}
