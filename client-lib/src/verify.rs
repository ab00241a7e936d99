//! Fairness checks of a finished game, from its history, its ruleset description and the
//! commitments this machine saw while the game was played (api.md "Fairness you can
//! verify", rules.md "Dice you can verify", docs/tanques-dice.md).

use std::collections::{BTreeMap, HashMap};

use sha2::{Digest, Sha256};
use trinchera_proto::v1 as pb;

use crate::lang::Lang;
use crate::names::Names;
use crate::store::GameRecord;
use crate::tr;

/// What a verification starts from.
#[derive(Clone, Copy, Debug)]
pub struct Evidence<'a> {
    /// The game's history with the fairness reveal.
    pub history: &'a pb::GetHistoryResponse,
    /// The ruleset's description (labels, zones, kinds).
    pub ruleset: &'a pb::Ruleset,
    /// The commitments recorded on this machine during play, if it followed the game.
    pub seen: Option<&'a GameRecord>,
    /// The language of the report.
    pub lang: Lang,
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
    pub commitments_from: String,
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
    let (history, lang) = (evidence.history, evidence.lang);
    let Some(reveal) = &history.reveal else {
        return Err(tr!(
            lang,
            "the game is not over yet: the server reveals setups and dice only after the end",
            "la partida no ha terminado: el servidor revela colocaciones y dados solo al final"
        ));
    };
    let view = history.view.clone().unwrap_or_default();
    let names = Names::new(evidence.ruleset);
    let mut report = Report {
        commitments_from: if evidence.seen.is_some() {
            tr!(
                lang,
                "the views this machine saw during play",
                "las vistas que este equipo recibió durante la partida"
            )
        } else {
            tr!(
                lang,
                "the final view only (this machine did not follow the game)",
                "solo la vista final (este equipo no siguió la partida)"
            )
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
        check_setup(
            &mut report,
            lang,
            &names,
            setup,
            published_setup(setup.seat),
        );
    }
    for zone in evidence.ruleset.setup_zones.iter().filter(|z| z.hidden) {
        if !reveal.setups.iter().any(|s| s.seat == zone.seat) {
            let seat = names.seat(zone.seat);
            report.check(
                tr!(
                    lang,
                    "the setup of {seat} is revealed",
                    "se revela la colocación de {seat}"
                ),
                false,
                tr!(
                    lang,
                    "the history reveals no setup for a seat that set up in secret",
                    "el historial no revela la colocación de un bando que colocó en secreto"
                ),
            );
        }
    }
    check_identities(&mut report, lang, &names, history, &view, &reveal.setups);
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
            lang,
            history,
            &reveal.dice_seed,
            published,
            final_dice,
        );
    }
    if report.checks.is_empty() {
        report.check(
            tr!(lang, "nothing was hidden", "nada estaba oculto"),
            true,
            tr!(
                lang,
                "no secret setups and no dice: every move was public",
                "sin colocaciones secretas ni dados: cada jugada fue pública"
            ),
        );
    }
    Ok(report)
}

fn check_setup(
    report: &mut Report,
    lang: Lang,
    names: &Names<'_>,
    setup: &pb::SetupReveal,
    published: Option<String>,
) {
    let seat = names.seat(setup.seat);
    let recomputed = canonical(names, &setup.placements);
    let count = setup.placements.len();
    report.check(
        tr!(
            lang,
            "the setup of {seat} matches its canonical text",
            "la colocación de {seat} coincide con su texto canónico"
        ),
        recomputed == setup.canonical_setup,
        if recomputed == setup.canonical_setup {
            tr!(lang, "{count} pieces", "{count} piezas")
        } else {
            tr!(
                lang,
                "the placements do not spell the revealed text",
                "las piezas no corresponden al texto revelado"
            )
        },
    );
    let opened = hex::decode(&setup.salt)
        .map(|salt| sha256_hex(&[&salt, setup.canonical_setup.as_bytes()]))
        .unwrap_or_default();
    let (digest, committed) = (short(&opened), short(&setup.commitment));
    report.check(
        tr!(
            lang,
            "the setup of {seat} opens its commitment",
            "la colocación de {seat} abre su compromiso"
        ),
        opened == setup.commitment,
        if opened == setup.commitment {
            format!("SHA-256(salt || setup) = {digest}")
        } else {
            tr!(
                lang,
                "SHA-256(salt || setup) = {digest} but the commitment is {committed}",
                "SHA-256(sal || colocación) = {digest} pero el compromiso es {committed}"
            )
        },
    );
    let name = tr!(
        lang,
        "the commitment of {seat} is the one published during play",
        "el compromiso de {seat} es el publicado durante la partida"
    );
    match published {
        Some(published) => {
            let shown = short(&published);
            report.check(
                name,
                published == setup.commitment,
                tr!(lang, "published {shown}", "publicado {shown}"),
            );
        }
        None => report.check(
            name,
            false,
            tr!(
                lang,
                "no commitment was published for this seat",
                "no se publicó ningún compromiso de este bando"
            ),
        ),
    }
    check_zone(report, lang, names, setup);
}

/// The revealed setup is a legal placement: every piece in the seat's zone, one per cell,
/// and exactly the zone's counts.
fn check_zone(report: &mut Report, lang: Lang, names: &Names<'_>, setup: &pb::SetupReveal) {
    let seat = names.seat(setup.seat);
    let name = tr!(
        lang,
        "the setup of {seat} follows the ruleset",
        "la colocación de {seat} cumple el reglamento"
    );
    let Some(zone) = names
        .ruleset
        .setup_zones
        .iter()
        .find(|z| z.seat == setup.seat)
    else {
        report.check(
            name,
            false,
            tr!(
                lang,
                "this seat has no setup zone",
                "este bando no tiene zona de colocación"
            ),
        );
        return;
    };
    let mut problems = Vec::new();
    let mut used = std::collections::HashSet::new();
    for placement in &setup.placements {
        let cell = placement.cell.unwrap_or_default();
        let at = names.label(Some(&cell));
        if !zone.cells.contains(&cell) {
            problems.push(tr!(
                lang,
                "{at} is outside the zone",
                "{at} está fuera de la zona"
            ));
        }
        if !used.insert((cell.x, cell.y)) {
            problems.push(tr!(lang, "two pieces on {at}", "dos piezas en {at}"));
        }
    }
    let mut counts: BTreeMap<&str, i32> = BTreeMap::new();
    for placement in &setup.placements {
        *counts.entry(placement.kind.as_str()).or_default() += 1;
    }
    for wanted in &zone.pieces {
        let got = counts.remove(wanted.kind.as_str()).unwrap_or(0);
        if got != wanted.count {
            let (kind, count) = (names.kind_name(&wanted.kind), wanted.count);
            problems.push(tr!(
                lang,
                "{got} {kind} instead of {count}",
                "{got} {kind} en vez de {count}"
            ));
        }
    }
    for (kind, got) in counts {
        let kind = names.kind_name(kind);
        problems.push(tr!(
            lang,
            "{got} {kind} the ruleset does not give",
            "{got} {kind} que el reglamento no da"
        ));
    }
    report.check(
        name,
        problems.is_empty(),
        if problems.is_empty() {
            tr!(
                lang,
                "every piece in the zone, the exact counts",
                "cada pieza en la zona, en las cantidades justas"
            )
        } else {
            problems.join(", ")
        },
    );
}

/// Battles, reveals and the final position name the kinds the revealed setups gave.
fn check_identities(
    report: &mut Report,
    lang: Lang,
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
                let (shown, set) = (names.kind_name(kind), names.kind_name(expected));
                problems.push(tr!(
                    lang,
                    "{what}: {shown} where the setup had {set}",
                    "{what}: {shown} donde la colocación tenía {set}"
                ));
            }
        }
    };
    for event in &history.events {
        for effect in event.effects.iter().filter_map(|e| e.effect.as_ref()) {
            match effect {
                pb::effect::Effect::Battle(b) => {
                    let (at, version) = (names.label(b.at.as_ref()), event.version);
                    compare(
                        b.attacker_id,
                        &b.attacker_kind,
                        tr!(
                            lang,
                            "attacker on {at} (version {version})",
                            "atacante en {at} (versión {version})"
                        ),
                    );
                    compare(
                        b.defender_id,
                        &b.defender_kind,
                        tr!(
                            lang,
                            "defender on {at} (version {version})",
                            "defensor en {at} (versión {version})"
                        ),
                    );
                }
                pb::effect::Effect::Reveal(r) => {
                    let version = event.version;
                    compare(
                        r.piece_id,
                        &r.kind,
                        tr!(
                            lang,
                            "piece revealed at version {version}",
                            "pieza revelada en la versión {version}"
                        ),
                    );
                }
                _ => {}
            }
        }
    }
    for piece in view.pieces.iter().chain(&view.captured) {
        if !piece.kind.is_empty() {
            let id = piece.id;
            compare(
                piece.id,
                &piece.kind,
                tr!(lang, "piece {id} at the end", "pieza {id} al final"),
            );
        }
    }
    let detail = if problems.is_empty() {
        tr!(
            lang,
            "{compared} identities compared",
            "{compared} identidades comparadas"
        )
    } else {
        problems.join(", ")
    };
    report.check(
        tr!(
            lang,
            "battles and the final position match the revealed setups",
            "los combates y la posición final cuadran con las colocaciones reveladas"
        ),
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
    lang: Lang,
    history: &pb::GetHistoryResponse,
    seed_hex: &str,
    published: Option<String>,
    final_status: Option<&pb::TanksStatus>,
) {
    let seed = hex::decode(seed_hex).unwrap_or_default();
    let opened = sha256_hex(&[&seed]);
    let name = tr!(
        lang,
        "the dice seed opens the published dice commitment",
        "la semilla de los dados abre el compromiso de dados publicado"
    );
    match published {
        Some(published) => {
            let (digest, shown) = (short(&opened), short(&published));
            report.check(
                name,
                seed.len() == 32 && opened == published,
                if seed.len() != 32 {
                    tr!(
                        lang,
                        "the revealed seed {seed_hex:?} is not 32 bytes of hex",
                        "la semilla revelada {seed_hex:?} no son 32 bytes en hexadecimal"
                    )
                } else if opened == published {
                    format!("SHA-256(seed) = {digest}")
                } else {
                    tr!(
                        lang,
                        "SHA-256(seed) = {digest} but {shown} was published",
                        "SHA-256(semilla) = {digest} pero se publicó {shown}"
                    )
                },
            );
        }
        None => report.check(
            name,
            false,
            tr!(
                lang,
                "no dice commitment was published",
                "no se publicó ningún compromiso de dados"
            ),
        ),
    }
    let mut problems = Vec::new();
    let mut count = 0u64;
    for (event, dice) in dice_effects(history) {
        let k = count;
        count += 1;
        let (index, rolled, column) = (dice.index, dice.roll, dice.column);
        // Players count dice from 1 (as the events tell them); the derivation's k from 0.
        let die = k + 1;
        if u64::from(index) != k {
            problems.push(tr!(
                lang,
                "die {die} carries k = {index}, not {k}",
                "el dado {die} lleva k = {index}, no {k}"
            ));
        }
        let derived = roll(&seed, u64::from(index));
        if rolled != derived {
            problems.push(tr!(
                lang,
                "die {die} (k = {index}) shows {rolled} but the seed gives {derived}",
                "el dado {die} (k = {index}) muestra {rolled} pero la semilla da {derived}"
            ));
        }
        if let Some(pb::r#move::Action::Attack(attack)) =
            event.r#move.as_ref().and_then(|m| m.action.as_ref())
        {
            let attackers = attack.attackers.len();
            if column != attackers.min(4) as i32 {
                problems.push(tr!(
                    lang,
                    "die {die} used column {column} with {attackers} attacker(s)",
                    "el dado {die} usó la columna {column} con {attackers} atacante(s)"
                ));
            }
        }
        if !(1..=4).contains(&dice.column)
            || dice.attacker_wins != attacker_wins(dice.column, dice.roll)
        {
            let read = if dice.attacker_wins {
                lang.pick("a hit", "un impacto")
            } else {
                lang.pick("a miss", "un fallo")
            };
            problems.push(tr!(
                lang,
                "die {die} ({rolled} in column {column}) was read as {read}",
                "el dado {die} ({rolled} en la columna {column}) se leyó como {read}"
            ));
        }
    }
    if let Some(status) = final_status
        && u64::from(status.rolls) != count
    {
        let rolls = status.rolls;
        problems.push(tr!(
            lang,
            "the game counts {rolls} rolls, the history shows {count}",
            "la partida cuenta {rolls} tiradas, el historial muestra {count}"
        ));
    }
    report.check(
        tr!(
            lang,
            "every die roll is re-derived from the seed and read off the table",
            "cada tirada se deriva de la semilla y se lee en la tabla"
        ),
        problems.is_empty(),
        if problems.is_empty() {
            tr!(lang, "{count} roll(s)", "{count} tirada(s)")
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
