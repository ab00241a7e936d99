//! `rulesets` and `rulesets show`: what the server hosts, and one ruleset described with
//! its board drawn (and tanques' combat table).

use trinchera_client::Names;
use trinchera_client::verify::attacker_wins;
use trinchera_proto::v1 as pb;

use crate::context::Ctx;
use crate::error::CliError;
use crate::render::{self, Drawing, Paint};
use crate::table;

/// The combat table's columns: one to four or more attackers.
const ATTACKER_COLUMNS: [i32; 4] = [1, 2, 3, 4];

/// `rulesets`: every hosted ruleset in one line each, in aligned columns.
pub async fn rulesets(ctx: &Ctx) -> Result<(), CliError> {
    let list = ctx.server().await?.rulesets().await?;
    if ctx.json {
        return ctx.print_message(&list);
    }
    let rows: Vec<[String; 4]> = list
        .rulesets
        .iter()
        .map(|ruleset| {
            let seats: Vec<&str> = ruleset.seats.iter().map(|s| s.name.as_str()).collect();
            [
                ruleset.id.clone(),
                ruleset.name.clone(),
                board_size(ruleset),
                seats.join(" vs "),
            ]
        })
        .collect();
    for [ruleset, title, board, seats] in table::padded(&rows) {
        // Padded before painting: escape codes take no columns.
        println!(
            "{}  {title}  {board}  {seats}",
            ctx.style.paint(&ruleset, Paint::Bold)
        );
    }
    println!("\n`trinchera rulesets show ID` describes one and draws its board.");
    Ok(())
}

/// "square 10×10", "hex, 91 hexes", "cross, 33 points".
fn board_size(ruleset: &pb::Ruleset) -> String {
    let Some(board) = &ruleset.board else {
        return String::new();
    };
    match board.shape() {
        pb::BoardShape::Hex => format!("hex, {} hexes", board.cells.len()),
        pb::BoardShape::Cross => format!("cross, {} points", board.cells.len()),
        pb::BoardShape::Square | pb::BoardShape::Unspecified => {
            format!("square {}×{}", board.width, board.height)
        }
    }
}

/// `rulesets show ID`: the full description with the empty board and setup zones.
pub async fn ruleset_show(ctx: &Ctx, id: &str) -> Result<(), CliError> {
    let ruleset = ctx.server().await?.ruleset(id).await?;
    if ctx.json {
        return ctx.print_message(&ruleset);
    }
    let names = Names::new(&ruleset);
    let style = ctx.style;
    println!(
        "{}",
        style.paint(&format!("{} ({})", ruleset.name, ruleset.id), Paint::Bold)
    );
    println!("{}\n", ruleset.description);
    for seat in &ruleset.seats {
        println!(
            "Seat {}: {} — {}",
            seat.seat,
            style.paint(&seat.name, Paint::Seat(seat.seat)),
            seat.role
        );
    }
    println!();
    let drawing = Drawing {
        names: &names,
        view: None,
        no_flip: true,
    };
    print!("{}", render::board(&drawing, style));
    println!("\nPieces (code, name, rank, count, moves):");
    for kind in &ruleset.piece_kinds {
        let owner = kind
            .seat
            .map(|seat| format!(" [{}]", names.seat(seat)))
            .unwrap_or_default();
        println!(
            "  {:<2} {:<24} {:>5} ×{:<2} {}{owner}{}",
            kind.code,
            kind.name,
            kind.rank
                .map(|r| r.to_string())
                .unwrap_or_else(|| "-".into()),
            kind.count,
            if kind.movable { "moves" } else { "immovable" },
            if kind.note.is_empty() {
                String::new()
            } else {
                format!(" — {}", kind.note)
            }
        );
    }
    for zone in &ruleset.setup_zones {
        println!("\n{}", zone_sentence(&names, zone));
    }
    if ruleset.setup_zones.is_empty() {
        println!("\nNo setup: play starts when both seats are taken.");
    }
    // The one ruleset on hexes is the one whose attacks roll a die (as the GUI decides).
    if ruleset.board.as_ref().map(pb::Board::shape) == Some(pb::BoardShape::Hex) {
        print!("\n{}", combat_table());
    }
    println!("\nNotation: {}", ruleset.notation_help);
    Ok(())
}

/// A setup zone in words, without a verb to agree with a plural seat name: "Setup of
/// Oficiales: 2 pieces on any of the 9 cells marked 1, in the open."
fn zone_sentence(names: &Names<'_>, zone: &pb::SetupZone) -> String {
    let pieces: i32 = zone.pieces.iter().map(|count| count.count).sum();
    let how = if zone.hidden {
        "in secret"
    } else {
        "in the open"
    };
    format!(
        "Setup of {}: {pieces} pieces on any of the {} cells marked {}, {how}.",
        names.seat(zone.seat),
        zone.cells.len(),
        zone.seat
    )
}

/// Tanques' combat table: the die rolls that destroy the target, by number of attackers.
fn combat_table() -> String {
    let mut text = String::from(
        "Combat table: each attack rolls one die; the target is destroyed on the rolls \
         marked X.\n  attackers  die 1  2  3  4  5  6\n",
    );
    for column in ATTACKER_COLUMNS {
        let attackers = if column == ATTACKER_COLUMNS[3] {
            format!("{column}+")
        } else {
            column.to_string()
        };
        let marks: Vec<&str> = (1..=6)
            .map(|roll| {
                if attacker_wins(column, roll) {
                    "X"
                } else {
                    "."
                }
            })
            .collect();
        text.push_str(&format!("  {attackers:<9}      {}\n", marks.join("  ")));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::combat_table;

    #[test]
    fn the_combat_table_is_the_rule_books() {
        let table = combat_table();
        // rules.md: one attacker needs 5 or 6, four or more need 2 to 6.
        assert!(
            table.contains("  1              .  .  .  .  X  X\n"),
            "{table}"
        );
        assert!(
            table.contains("  4+             .  X  X  X  X  X\n"),
            "{table}"
        );
    }
}
