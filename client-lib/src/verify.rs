//! Fairness checks of a finished game, from its history, its ruleset description and the
//! commitments this machine saw while the game was played (api.md "Fairness you can
//! verify", rules.md "Dice you can verify", docs/tanques-dice.md).

use std::collections::{BTreeMap, HashMap};

use sha2::{Digest, Sha256};
use trinchera_proto::v1 as pb;

use crate::names::Names;
use crate::store::GameRecord;

/// What a verification starts from.
#[derive(Clone, Copy, Debug)]
pub struct Evidence<'a> {
    /// The game's history with the fairness reveal.
    pub history: &'a pb::GetHistoryResponse,
    /// The ruleset's description (labels, zones, kinds).
    pub ruleset: &'a pb::Ruleset,
    /// The commitments recorded on this machine during play, if it followed the game.
    pub seen: Option<&'a GameRecord>,
}

/// One check and its outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// What was checked.
    pub name: String,
    /// Whether it held.
    pub ok: bool,
    /// Details: what was compared, or what differed.
    pub detail: String,
}

/// Every check made.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// In the order made.
    pub checks: Vec<Check>,
    /// Where the published commitments came from.
    pub commitments_from: &'static str,
}

impl Report {
    /// Whether every check held.
    pub fn fair(&self) -> bool {
        self.checks.iter().all(|check| check.ok)
    }

    /// "fair" or "NOT fair: <reasons>".
    pub fn verdict(&self) -> String {
        if self.fair() {
            return "fair".to_owned();
        }
        let reasons: Vec<String> = self
            .checks
            .iter()
            .filter(|check| !check.ok)
            .map(|check| format!("{} ({})", check.name, check.detail))
            .collect();
        format!("NOT fair: {}", reasons.join("; "))
    }

    fn check(&mut self, name: impl Into<String>, ok: bool, detail: impl Into<String>) {
        self.checks.push(Check {
            name: name.into(),
            ok,
            detail: detail.into(),
        });
    }
}

/// Lowercase hex of SHA-256 of the concatenated `parts`.
fn sha256_hex(parts: &[&[u8]]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part);
    }
    hex::encode(hasher.finalize())
}

/// Roll `k` of the dice of `seed`: the first byte below 252 of SHA-256(seed ‖ k as u64
/// big-endian), rehashing while there is none; `1 + b mod 6`.
pub fn roll(seed: &[u8], k: u64) -> i32 {
    let mut hasher = Sha256::new();
    hasher.update(seed);
    hasher.update(k.to_be_bytes());
    let mut hash = hasher.finalize();
    loop {
        if let Some(b) = hash.iter().find(|b| **b < 252) {
            return 1 + i32::from(*b % 6);
        }
        hash = Sha256::digest(hash);
    }
}

/// Whether the attacker wins with die `roll` in table column `column` (rules.md: a roll of
/// at least 5, 4, 3, 2 with 1, 2, 3, 4+ attackers).
pub fn attacker_wins(column: i32, roll: i32) -> bool {
    roll >= 6 - column
}

/// The canonical setup text of `placements`: `label=kind` in reading order (row, then
/// column), joined by single spaces.
pub fn canonical(names: &Names<'_>, placements: &[pb::Placement]) -> String {
    let mut sorted: Vec<&pb::Placement> = placements.iter().collect();
    sorted.sort_by_key(|p| p.cell.map(|c| (c.y, c.x)));
    sorted
        .iter()
        .map(|p| format!("{}={}", names.label(p.cell.as_ref()), p.kind))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Checks the game; `Err` when it cannot be checked (not over yet).
pub fn verify(evidence: Evidence<'_>) -> Result<Report, String> {
    let history = evidence.history;
    let Some(reveal) = &history.reveal else {
        return Err(
            "the game is not over yet: the server reveals setups and dice only after the end"
                .to_owned(),
        );
    };
    let view = history.view.clone().unwrap_or_default();
    let names = Names::new(evidence.ruleset);
    let mut report = Report {
        commitments_from: if evidence.seen.is_some() {
            "the views this machine saw during play"
        } else {
            "the final view only (this machine did not follow the game)"
        },
        ..Report::default()
    };
    let published_setup = |seat: i32| -> Option<String> {
        match evidence.seen {
            Some(seen) => seen.setup_commitments.get(&seat).cloned(),
            None => view
                .players
                .iter()
                .find(|p| p.seat == seat && !p.setup_commitment.is_empty())
                .map(|p| p.setup_commitment.clone()),
        }
    };
    for setup in &reveal.setups {
        check_setup(&mut report, &names, setup, published_setup(setup.seat));
    }
    for zone in evidence.ruleset.setup_zones.iter().filter(|z| z.hidden) {
        if !reveal.setups.iter().any(|s| s.seat == zone.seat) {
            report.check(
                format!("the setup of {} is revealed", names.seat(zone.seat)),
                false,
                "the history reveals no setup for a seat that set up in secret",
            );
        }
    }
    check_identities(&mut report, &names, history, &view, &reveal.setups);
    let final_dice = match &view.status {
        Some(pb::game_view::Status::Tanks(tanks)) => Some(tanks),
        _ => None,
    };
    let has_dice = final_dice.is_some_and(|t| !t.dice_commitment.is_empty())
        || dice_effects(history).next().is_some();
    if has_dice {
        let published = match evidence.seen {
            Some(seen) => seen.dice_commitment.clone(),
            None => final_dice.map(|t| t.dice_commitment.clone()),
        };
        check_dice(
            &mut report,
            history,
            &reveal.dice_seed,
            published,
            final_dice,
        );
    }
    if report.checks.is_empty() {
        report.check(
            "nothing was hidden",
            true,
            "no secret setups and no dice: every move was public",
        );
    }
    Ok(report)
}

fn check_setup(
    report: &mut Report,
    names: &Names<'_>,
    setup: &pb::SetupReveal,
    published: Option<String>,
) {
    let seat = names.seat(setup.seat);
    let recomputed = canonical(names, &setup.placements);
    report.check(
        format!("the setup of {seat} matches its canonical text"),
        recomputed == setup.canonical_setup,
        if recomputed == setup.canonical_setup {
            format!("{} pieces", setup.placements.len())
        } else {
            "the placements do not spell the revealed text".to_owned()
        },
    );
    let opened = hex::decode(&setup.salt)
        .map(|salt| sha256_hex(&[&salt, setup.canonical_setup.as_bytes()]))
        .unwrap_or_default();
    report.check(
        format!("the setup of {seat} opens its commitment"),
        opened == setup.commitment,
        if opened == setup.commitment {
            format!("SHA-256(salt ‖ setup) = {}", short(&opened))
        } else {
            format!(
                "SHA-256(salt ‖ setup) = {} but the commitment is {}",
                short(&opened),
                short(&setup.commitment)
            )
        },
    );
    match published {
        Some(published) => report.check(
            format!("the commitment of {seat} is the one published during play"),
            published == setup.commitment,
            format!("published {}", short(&published)),
        ),
        None => report.check(
            format!("the commitment of {seat} is the one published during play"),
            false,
            "no commitment was published for this seat",
        ),
    }
    check_zone(report, names, setup);
}

/// The revealed setup is a legal placement: every piece in the seat's zone, one per cell,
/// and exactly the zone's counts.
fn check_zone(report: &mut Report, names: &Names<'_>, setup: &pb::SetupReveal) {
    let seat = names.seat(setup.seat);
    let Some(zone) = names
        .ruleset
        .setup_zones
        .iter()
        .find(|z| z.seat == setup.seat)
    else {
        report.check(
            format!("the setup of {seat} follows the ruleset"),
            false,
            "this seat has no setup zone",
        );
        return;
    };
    let mut problems = Vec::new();
    let mut used = std::collections::HashSet::new();
    for placement in &setup.placements {
        let cell = placement.cell.unwrap_or_default();
        if !zone.cells.contains(&cell) {
            problems.push(format!("{} is outside the zone", names.label(Some(&cell))));
        }
        if !used.insert((cell.x, cell.y)) {
            problems.push(format!("two pieces on {}", names.label(Some(&cell))));
        }
    }
    let mut counts: BTreeMap<&str, i32> = BTreeMap::new();
    for placement in &setup.placements {
        *counts.entry(placement.kind.as_str()).or_default() += 1;
    }
    for wanted in &zone.pieces {
        let got = counts.remove(wanted.kind.as_str()).unwrap_or(0);
        if got != wanted.count {
            problems.push(format!(
                "{got} {} instead of {}",
                names.kind_name(&wanted.kind),
                wanted.count
            ));
        }
    }
    for (kind, got) in counts {
        problems.push(format!(
            "{got} {} the ruleset does not give",
            names.kind_name(kind)
        ));
    }
    report.check(
        format!("the setup of {seat} follows the ruleset"),
        problems.is_empty(),
        if problems.is_empty() {
            "every piece in the zone, the exact counts".to_owned()
        } else {
            problems.join(", ")
        },
    );
}

/// Battles, reveals and the final position name the kinds the revealed setups gave.
fn check_identities(
    report: &mut Report,
    names: &Names<'_>,
    history: &pb::GetHistoryResponse,
    view: &pb::GameView,
    setups: &[pb::SetupReveal],
) {
    if setups.is_empty() {
        return;
    }
    // Starting order: seat 0's pieces, then seat 1's; the final view holds every piece.
    let mut per_seat = [0u32; 2];
    for piece in view.pieces.iter().chain(&view.captured) {
        if let Some(count) = per_seat.get_mut(piece.owner as usize) {
            *count += 1;
        }
    }
    let mut kinds: HashMap<u32, &str> = HashMap::new();
    for setup in setups {
        let offset: u32 = per_seat.iter().take(setup.seat.max(0) as usize).sum();
        for (index, placement) in setup.placements.iter().enumerate() {
            kinds.insert(offset + index as u32, &placement.kind);
        }
    }
    let mut problems = Vec::new();
    let mut compared = 0;
    let mut compare = |id: u32, kind: &str, what: String| {
        if let Some(expected) = kinds.get(&id) {
            compared += 1;
            if *expected != kind {
                problems.push(format!(
                    "{what}: {} where the setup had {}",
                    names.kind_name(kind),
                    names.kind_name(expected)
                ));
            }
        }
    };
    for event in &history.events {
        for effect in event.effects.iter().filter_map(|e| e.effect.as_ref()) {
            match effect {
                pb::effect::Effect::Battle(b) => {
                    let at = names.label(b.at.as_ref());
                    compare(
                        b.attacker_id,
                        &b.attacker_kind,
                        format!("attacker on {at} (version {})", event.version),
                    );
                    compare(
                        b.defender_id,
                        &b.defender_kind,
                        format!("defender on {at} (version {})", event.version),
                    );
                }
                pb::effect::Effect::Reveal(r) => {
                    compare(
                        r.piece_id,
                        &r.kind,
                        format!("piece revealed at version {}", event.version),
                    );
                }
                _ => {}
            }
        }
    }
    for piece in view.pieces.iter().chain(&view.captured) {
        if !piece.kind.is_empty() {
            compare(
                piece.id,
                &piece.kind,
                format!("piece {} at the end", piece.id),
            );
        }
    }
    let detail = if problems.is_empty() {
        format!("{compared} identities compared")
    } else {
        problems.join(", ")
    };
    report.check(
        "battles and the final position match the revealed setups",
        problems.is_empty(),
        detail,
    );
}

fn dice_effects(
    history: &pb::GetHistoryResponse,
) -> impl Iterator<Item = (&pb::Event, &pb::DiceRoll)> {
    history.events.iter().flat_map(|event| {
        event
            .effects
            .iter()
            .filter_map(move |effect| match &effect.effect {
                Some(pb::effect::Effect::Dice(dice)) => Some((event, dice)),
                _ => None,
            })
    })
}

fn check_dice(
    report: &mut Report,
    history: &pb::GetHistoryResponse,
    seed_hex: &str,
    published: Option<String>,
    final_status: Option<&pb::TanksStatus>,
) {
    let seed = hex::decode(seed_hex).unwrap_or_default();
    let opened = sha256_hex(&[&seed]);
    match published {
        Some(published) => report.check(
            "the dice seed opens the published dice commitment",
            seed.len() == 32 && opened == published,
            if seed.len() != 32 {
                format!("the revealed seed {seed_hex:?} is not 32 bytes of hex")
            } else if opened == published {
                format!("SHA-256(seed) = {}", short(&opened))
            } else {
                format!(
                    "SHA-256(seed) = {} but {} was published",
                    short(&opened),
                    short(&published)
                )
            },
        ),
        None => report.check(
            "the dice seed opens the published dice commitment",
            false,
            "no dice commitment was published",
        ),
    }
    let mut problems = Vec::new();
    let mut count = 0u64;
    for (event, dice) in dice_effects(history) {
        let k = count;
        count += 1;
        if u64::from(dice.index) != k {
            problems.push(format!("roll {k} is numbered {}", dice.index));
        }
        let derived = roll(&seed, u64::from(dice.index));
        if dice.roll != derived {
            problems.push(format!(
                "roll {} shows {} but the seed gives {derived}",
                dice.index, dice.roll
            ));
        }
        if let Some(pb::r#move::Action::Attack(attack)) =
            event.r#move.as_ref().and_then(|m| m.action.as_ref())
        {
            let column = attack.attackers.len().min(4) as i32;
            if dice.column != column {
                problems.push(format!(
                    "roll {} used column {} with {} attacker(s)",
                    dice.index,
                    dice.column,
                    attack.attackers.len()
                ));
            }
        }
        if !(1..=4).contains(&dice.column)
            || dice.attacker_wins != attacker_wins(dice.column, dice.roll)
        {
            problems.push(format!(
                "roll {} ({} in column {}) was read as {}",
                dice.index,
                dice.roll,
                dice.column,
                if dice.attacker_wins {
                    "a hit"
                } else {
                    "a miss"
                }
            ));
        }
    }
    if let Some(status) = final_status
        && u64::from(status.rolls) != count
    {
        problems.push(format!(
            "the game counts {} rolls, the history shows {count}",
            status.rolls
        ));
    }
    report.check(
        "every die roll is re-derived from the seed and read off the table",
        problems.is_empty(),
        if problems.is_empty() {
            format!("{count} roll(s)")
        } else {
            problems.join(", ")
        },
    );
}

/// The first 16 hex digits of a digest, for messages.
fn short(hex: &str) -> String {
    if hex.len() > 16 {
        format!("{}…", &hex[..16])
    } else if hex.is_empty() {
        "(none)".to_owned()
    } else {
        hex.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rolls_match_the_documented_test_vector() {
        let seed: Vec<u8> = (0..32).collect();
        assert_eq!(
            sha256_hex(&[&seed]),
            "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
        );
        let rolls: Vec<i32> = (0..20).map(|k| roll(&seed, k)).collect();
        assert_eq!(
            rolls,
            [2, 1, 2, 3, 5, 3, 5, 4, 4, 1, 3, 5, 4, 1, 1, 1, 6, 2, 4, 6]
        );
        assert_eq!(roll(&seed, 58), 4, "byte 253 is skipped");
        assert_eq!(roll(&seed, 716), 5, "byte 252 is skipped");
    }

    #[test]
    fn the_attack_table() {
        let wins: Vec<Vec<bool>> = (1..=4)
            .map(|column| (1..=6).map(|roll| attacker_wins(column, roll)).collect())
            .collect();
        assert_eq!(wins[0], [false, false, false, false, true, true]);
        assert_eq!(wins[1], [false, false, false, true, true, true]);
        assert_eq!(wins[2], [false, false, true, true, true, true]);
        assert_eq!(wins[3], [false, true, true, true, true, true]);
    }
}
