//! The board as a whole: cells labelled in words, and clicks known before it is drawn.

use std::collections::HashMap;

use trinchera_client::Names;
use trinchera_proto::v1 as pb;

use super::*;
use crate::i18n::Lang;

fn ruleset() -> pb::Ruleset {
    let cells = (0..2)
        .flat_map(|y| {
            (0..2).map(move |x| pb::CellInfo {
                cell: Some(pb::Cell { x, y }),
                label: format!("{}{}", (b'a' + x as u8) as char, y + 1),
                terrain: if (x, y) == (1, 1) {
                    pb::Terrain::Lake as i32
                } else {
                    pb::Terrain::Open as i32
                },
                entry_seat: None,
            })
        })
        .collect();
    pb::Ruleset {
        seats: vec![
            pb::SeatInfo {
                seat: 0,
                name: "Rojo".into(),
                ..Default::default()
            },
            pb::SeatInfo {
                seat: 1,
                name: "Azul".into(),
                ..Default::default()
            },
        ],
        board: Some(pb::Board {
            shape: pb::BoardShape::Square as i32,
            width: 2,
            height: 2,
            cells,
            links: vec![],
        }),
        piece_kinds: vec![pb::PieceKind {
            id: "capitan".into(),
            name: "Capitán".into(),
            code: "C".into(),
            rank: Some(6),
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// The cells' labels in `lang` of the board of `ruleset` with `pieces`, seen by seat 0.
fn labels(lang: Lang, ruleset: &pb::Ruleset, pieces: &[pb::Piece]) -> Vec<String> {
    let names = Names::new(ruleset);
    let scene = Scene {
        names: &names,
        pieces,
        viewer: Some(0),
        status: None,
        zone: None,
        look: Default::default(),
    };
    let model = BoardModel::new(lang, scene, &HashMap::new());
    model.cells.into_iter().map(|c| c.label).collect()
}

#[test]
fn labels_say_whose_piece_and_what_terrain() {
    let ruleset = ruleset();
    let pieces = [
        pb::Piece {
            cell: Some(pb::Cell { x: 0, y: 0 }),
            owner: 0,
            kind: "capitan".into(),
            ..Default::default()
        },
        pb::Piece {
            cell: Some(pb::Cell { x: 1, y: 0 }),
            owner: 1,
            moved: true,
            ..Default::default()
        },
    ];
    assert_eq!(
        labels(Lang::En, &ruleset, &pieces),
        [
            "a1, your Capitán",
            "b1, Azul's hidden piece (moved)",
            "a2, empty",
            "b2, lake",
        ]
    );
    assert_eq!(
        labels(Lang::Es, &ruleset, &pieces),
        [
            "a1, tu Capitán",
            "b1, pieza oculta de Azul (movida)",
            "a2, vacía",
            "b2, lago",
        ]
    );
}

#[test]
fn an_own_piece_the_opponent_knows_says_so_in_a_hidden_army_game() {
    let mut ruleset = ruleset();
    let pieces = [pb::Piece {
        cell: Some(pb::Cell { x: 0, y: 0 }),
        owner: 0,
        kind: "capitan".into(),
        revealed: true,
        ..Default::default()
    }];
    assert_eq!(labels(Lang::En, &ruleset, &pieces)[0], "a1, your Capitán");
    ruleset.setup_zones = vec![pb::SetupZone {
        seat: 0,
        hidden: true,
        ..Default::default()
    }];
    assert_eq!(
        labels(Lang::En, &ruleset, &pieces)[0],
        "a1, your Capitán, known to your opponent"
    );
}

#[test]
fn every_cell_is_a_labelled_button_and_a_click_is_known_before_the_board_is_drawn() {
    let ruleset = ruleset();
    let names = Names::new(&ruleset);
    let scene = Scene {
        names: &names,
        pieces: &[],
        viewer: Some(1),
        status: None,
        zone: None,
        look: Default::default(),
    };
    let marks = HashMap::from([((1, 0), Mark::Target)]);
    let model = BoardModel::new(Lang::En, scene, &marks);
    let cells = ruleset.board.clone().expect("a board").cells;
    let mut harness = egui_kittest::Harness::new_ui_state(
        |ui, seen: &mut Vec<Option<pb::Cell>>| {
            // As a screen asks, before it draws the board.
            seen.push(clicked(ui.ctx(), &cells));
            board_ui(ui, &model, &mut Selection::default());
        },
        Vec::new(),
    );
    harness.run();
    use egui_kittest::kittest::Queryable as _;
    assert!(harness.query_by_label("b1, empty, may be picked").is_some());
    harness.get_by_label("a2, empty").click();
    harness.step();
    assert_eq!(harness.state().last(), Some(&Some(pb::Cell { x: 0, y: 1 })));
    harness.step();
    assert_eq!(harness.state().last(), Some(&None), "one click, once");
}
