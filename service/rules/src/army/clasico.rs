//! `clasico`: the classic rules, seed 002.

use std::sync::LazyLock;

use super::spec::{KindSpec, Mobility, Spec, VariantData, by_rank};
use super::{Variant, lakes};
use crate::describe::KindId;
use crate::effect::BattleResult;

/// The classic game: 40 pieces a side on 10×10; the Explorador runs and attacks at range;
/// the Minador defuses bombs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clasico;

const ESPIA: KindId = KindId(0);
const MINADOR: KindId = KindId(2);
const MARISCAL: KindId = KindId(9);
const BOMBA: KindId = KindId(10);
const BANDERA: KindId = KindId(11);

static DATA: VariantData = VariantData {
    id: "clasico",
    name: "Clásico",
    summary: "The classic hidden-army game on a 10x10 board with two lakes. Capture the enemy \
              Bandera or leave the enemy without a move. Higher rank wins a battle; the Espía \
              beats the Mariscal when she attacks; only a Minador survives attacking a Bomba. \
              An Explorador runs any distance in a line and may attack at the end of it.",
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
            "beats the Mariscal when she attacks it",
        ),
        KindSpec {
            mobility: Mobility::Long {
                attack_at_range: true,
            },
            ..KindSpec::ranked(
                "explorador",
                "Explorador",
                'X',
                2,
                8,
                "moves any number of empty squares in a line and may attack at the end; a long move reveals it",
            )
        },
        KindSpec::ranked("minador", "Minador", 'N', 3, 5, "defuses bombs"),
        KindSpec::ranked("sargento", "Sargento", 'R', 4, 4, ""),
        KindSpec::ranked("teniente", "Teniente", 'T', 5, 4, ""),
        KindSpec::ranked("capitan", "Capitán", 'C', 6, 4, ""),
        KindSpec::ranked("comandante", "Comandante", 'D', 7, 3, ""),
        KindSpec::ranked("coronel", "Coronel", 'O', 8, 2, ""),
        KindSpec::ranked("general", "General", 'G', 9, 1, ""),
        KindSpec::ranked(
            "mariscal",
            "Mariscal",
            'M',
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
                "never moves; kills every attacker but a Minador",
            )
        },
        KindSpec {
            rank: None,
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
    ],
    repetition_limit: 3,
    battle,
};

fn battle(attacker: KindId, defender: KindId) -> BattleResult {
    let rank = |kind: KindId| DATA.kinds[kind.index()].rank;
    match (attacker, defender) {
        (_, BANDERA) => BattleResult::AttackerWins,
        (MINADOR, BOMBA) => BattleResult::AttackerWins,
        (_, BOMBA) => BattleResult::DefenderWins,
        (ESPIA, MARISCAL) => BattleResult::AttackerWins,
        _ => by_rank(rank(attacker), rank(defender)),
    }
}

impl Variant for Clasico {
    #[inline]
    fn spec() -> &'static Spec {
        static SPEC: LazyLock<Spec> = LazyLock::new(|| Spec::new(&DATA));
        &SPEC
    }
}
