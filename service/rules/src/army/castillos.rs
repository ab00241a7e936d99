//! `castillos`: the 24-piece variant with castles and trenches, seed 001.

use std::sync::LazyLock;

use super::Variant;
use super::spec::{KindSpec, Mobility, Spec, VariantData, by_rank};
use crate::cell::Cell;
use crate::describe::KindId;
use crate::effect::BattleResult;

/// The castles-and-trenches variant: 24 pieces a side on 8×10, granadas that move, a
/// General that runs, castles that hold a piece at most three turns, trenches that
/// protect their occupant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Castillos;

const BOMBA: KindId = KindId(1);
const GRANADA: KindId = KindId(2);
const DESACTIVADOR: KindId = KindId(3);

static DATA: VariantData = VariantData {
    id: "castillos",
    name: "Castillos y Trincheras",
    summary: "A 24-piece hidden-army game on an 8x10 board with lakes, castles and trenches. \
              Capture the enemy Bandera. Higher rank wins; Bombas and moving Granadas kill \
              their attackers except the Desactivador; a Granada attacking beats all but the \
              Desactivador. A piece in a trench cannot be attacked; a piece that ends its \
              owner's third turn in a castle is removed. The General runs in straight lines.",
    width: 8,
    height: 10,
    lakes: &[
        Cell::new(2, 4),
        Cell::new(2, 5),
        Cell::new(5, 4),
        Cell::new(5, 5),
    ],
    castles: &[Cell::new(3, 4), Cell::new(4, 5)],
    trenches: &[
        Cell::new(0, 5),
        Cell::new(3, 5),
        Cell::new(4, 4),
        Cell::new(7, 4),
    ],
    kinds: &[
        KindSpec {
            mobility: Mobility::Immovable,
            is_flag: true,
            ..KindSpec::ranked(
                "bandera",
                "Bandera",
                'F',
                0,
                1,
                "never moves; capturing it wins",
            )
        },
        KindSpec {
            mobility: Mobility::Immovable,
            ..KindSpec::ranked(
                "bomba",
                "Bomba",
                'B',
                1,
                2,
                "never moves; kills every attacker but a Desactivador (a Granada falls with it)",
            )
        },
        KindSpec::ranked(
            "granada",
            "Granada",
            'K',
            2,
            2,
            "moves; kills its attackers but a Desactivador; attacking, beats all but a Desactivador",
        ),
        KindSpec::ranked(
            "desactivador",
            "Desactivador de minas",
            'D',
            3,
            4,
            "defuses bombs and granadas",
        ),
        KindSpec::ranked("soldado", "Soldado", 'S', 4, 3, ""),
        KindSpec::ranked("sargento", "Sargento", 'R', 5, 2, ""),
        KindSpec::ranked("teniente", "Teniente", 'T', 6, 2, ""),
        KindSpec::ranked("capitan", "Capitán", 'C', 7, 2, ""),
        KindSpec::ranked("mayor", "Mayor", 'Y', 8, 2, ""),
        KindSpec::ranked("coronel", "Coronel", 'O', 9, 2, ""),
        KindSpec {
            mobility: Mobility::Long {
                attack_at_range: false,
            },
            ..KindSpec::ranked(
                "general",
                "General",
                'G',
                10,
                1,
                "moves any number of empty squares in a line; a long move reveals it and cannot attack",
            )
        },
        KindSpec::ranked(
            "mariscal",
            "Mariscal",
            'M',
            14,
            1,
            "beats every piece but bombs and granadas",
        ),
    ],
    repetition_limit: 5,
    battle,
};

/// rules.md 1.4, "first rule that applies".
fn battle(attacker: KindId, defender: KindId) -> BattleResult {
    let rank = |kind: KindId| DATA.kinds[kind.index()].rank;
    let explosive = |kind: KindId| kind == BOMBA || kind == GRANADA;
    match (attacker, defender) {
        (DESACTIVADOR, d) if explosive(d) => BattleResult::AttackerWins,
        (GRANADA, d) if explosive(d) => BattleResult::BothFall,
        (_, d) if explosive(d) => BattleResult::DefenderWins,
        (GRANADA, DESACTIVADOR) => BattleResult::DefenderWins,
        (GRANADA, _) => BattleResult::AttackerWins,
        // Rule 5 (the Mariscal) is rule 6 with rank 14 once rules 2-4 are applied.
        _ => by_rank(rank(attacker), rank(defender)),
    }
}

impl Variant for Castillos {
    #[inline]
    fn spec() -> &'static Spec {
        static SPEC: LazyLock<Spec> = LazyLock::new(|| Spec::new(&DATA));
        &SPEC
    }
}
