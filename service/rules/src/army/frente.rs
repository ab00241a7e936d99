//! `frente`: Combate en el Frente (Yetem), seed 000.

use std::sync::LazyLock;

use super::spec::{KindSpec, Mobility, Spec, VariantData, by_rank};
use super::{Variant, lakes};
use crate::describe::KindId;
use crate::effect::BattleResult;

/// Combate en el Frente: 40 pieces a side on 10×10; the Soldado runs but cannot attack on
/// the run; the Cabo Armero defuses bombs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Frente;

const ESPIA: KindId = KindId(0);
const CABO_ARMERO: KindId = KindId(2);
const TENIENTE_GENERAL: KindId = KindId(9);
const BOMBA: KindId = KindId(10);
const ESTANDARTE: KindId = KindId(11);

static DATA: VariantData = VariantData {
    id: "frente",
    name: "Combate en el Frente",
    summary: "Yetem's hidden-army game on a 10x10 board with two lakes. Capture the enemy \
              Estandarte. Higher rank wins a battle; the Espía beats the Teniente General when \
              she attacks; only a Cabo Armero survives attacking a Bomba. A Soldado may run \
              any distance in a line (revealing itself) but cannot attack on the run.",
    width: 10,
    height: 10,
    lakes: &lakes::CENTRE_10X10,
    castles: &[],
    trenches: &[],
    kinds: &[
        KindSpec::ranked(
            "espia",
            "Espía",
            'E',
            1,
            1,
            "beats the Teniente General when she attacks it",
        ),
        KindSpec {
            mobility: Mobility::Long {
                attack_at_range: false,
            },
            ..KindSpec::ranked(
                "soldado",
                "Soldado",
                'S',
                2,
                8,
                "moves any number of empty squares in a line; a long move reveals it and cannot attack",
            )
        },
        KindSpec::ranked("cabo_armero", "Cabo Armero", 'A', 3, 5, "defuses bombs"),
        KindSpec::ranked("sargento", "Sargento", 'R', 4, 4, ""),
        KindSpec::ranked("teniente", "Teniente", 'T', 5, 4, ""),
        KindSpec::ranked("capitan", "Capitán", 'C', 6, 4, ""),
        KindSpec::ranked("mayor", "Mayor", 'M', 7, 3, ""),
        KindSpec::ranked("coronel", "Coronel", 'O', 8, 2, ""),
        KindSpec::ranked("general", "General", 'G', 9, 1, ""),
        KindSpec::ranked(
            "teniente_general",
            "Teniente General",
            'L',
            10,
            1,
            "highest rank; falls to the Espía when she attacks",
        ),
        KindSpec {
            rank: None,
            mobility: Mobility::Immovable,
            ..KindSpec::ranked(
                "bomba",
                "Bomba",
                'B',
                0,
                6,
                "never moves; kills every attacker but a Cabo Armero",
            )
        },
        KindSpec {
            rank: None,
            mobility: Mobility::Immovable,
            is_flag: true,
            ..KindSpec::ranked(
                "estandarte",
                "Estandarte",
                'F',
                0,
                1,
                "never moves; capturing it wins",
            )
        },
    ],
    repetition_limit: 3,
    battle,
};

fn battle(attacker: KindId, defender: KindId) -> BattleResult {
    let rank = |kind: KindId| DATA.kinds[kind.index()].rank;
    match (attacker, defender) {
        (_, ESTANDARTE) => BattleResult::AttackerWins,
        (CABO_ARMERO, BOMBA) => BattleResult::AttackerWins,
        (_, BOMBA) => BattleResult::DefenderWins,
        (ESPIA, TENIENTE_GENERAL) => BattleResult::AttackerWins,
        _ => by_rank(rank(attacker), rank(defender)),
    }
}

impl Variant for Frente {
    #[inline]
    fn spec() -> &'static Spec {
        static SPEC: LazyLock<Spec> = LazyLock::new(|| Spec::new(&DATA));
        &SPEC
    }
}
