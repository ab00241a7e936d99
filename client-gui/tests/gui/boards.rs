//! Every hosted board drawn from its `ListRulesets` description, its landmarks found by the
//! accessible labels of their cells.

use std::collections::HashMap;

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use trinchera_client::Names;
use trinchera_gui::board::{BoardModel, Scene, Selection, board_ui};
use trinchera_proto::v1 as pb;

use crate::harness::{Server, Window};

/// The board of `ruleset`, empty, as `viewer` sees it.
fn model(ruleset: &pb::Ruleset, viewer: Option<i32>) -> BoardModel {
    let names = Names::new(ruleset);
    let scene = Scene {
        names: &names,
        pieces: &[],
        viewer,
        status: None,
        zone: None,
        look: Default::default(),
    };
    BoardModel::new(trinchera_client::Lang::En, scene, &HashMap::new())
}

/// The labels of the board of `ruleset` drawn for `viewer`.
fn labels(ruleset: &pb::Ruleset, viewer: Option<i32>) -> Vec<String> {
    let model = model(ruleset, viewer);
    let mut harness = Harness::new_ui_state(
        move |ui, selection: &mut Selection| {
            board_ui(ui, &model, selection);
        },
        Selection::default(),
    );
    harness.run();
    harness
        .query_all_by(|node| node.label().is_some_and(|l| l.contains(", ")))
        .filter_map(|node| node.accesskit_node().label())
        .collect()
}

/// `word` labels some cell of the board.
fn has(labels: &[String], word: &str) -> bool {
    labels.iter().any(|l| l.contains(word))
}

#[test]
fn every_board_shape_is_drawn_with_its_landmarks() {
    let server = Server::start();
    let window = Window::lobby(&server);
    let rulesets = window.app().rulesets.clone();
    let by_id: HashMap<&str, &pb::Ruleset> = rulesets.iter().map(|r| (r.id.as_str(), r)).collect();
    for (id, shape, landmarks) in [
        ("frente", pb::BoardShape::Square, &["lake"][..]),
        ("clasico", pb::BoardShape::Square, &["lake"][..]),
        (
            "castillos",
            pb::BoardShape::Square,
            &["castle", "trench"][..],
        ),
        ("asalto", pb::BoardShape::Cross, &["fortress"][..]),
        ("tacticas", pb::BoardShape::Cross, &["fortress"][..]),
        (
            "tanques",
            pb::BoardShape::Hex,
            &["swamp", "urban", "entry of Rojo", "entry of Azul"][..],
        ),
    ] {
        let ruleset = by_id.get(id).unwrap_or_else(|| panic!("{id} is hosted"));
        let board = ruleset.board.as_ref().expect("a board");
        assert_eq!(board.shape(), shape, "{id}");
        let drawn = labels(ruleset, Some(0));
        assert_eq!(
            drawn.len(),
            board.cells.len(),
            "{id}: one labelled rect per cell"
        );
        for landmark in landmarks {
            assert!(has(&drawn, landmark), "{id}: no cell labelled {landmark}");
        }
        // Seat 1 sees the same cells, turned.
        assert_eq!(labels(ruleset, Some(1)).len(), drawn.len(), "{id}");
    }
    let marked = |id: &str| {
        by_id[id]
            .board
            .iter()
            .flat_map(|b| &b.links)
            .any(|l| l.kind() == pb::LinkKind::Marked)
    };
    assert!(marked("tacticas") && !marked("asalto"));
}

#[test]
fn tanques_hexes_carry_their_letters_and_rows_their_numbers_at_both_ends() {
    let server = Server::start();
    let window = Window::lobby(&server);
    let tanques = window
        .app()
        .rulesets
        .iter()
        .find(|r| r.id == "tanques")
        .expect("tanques is hosted")
        .clone();
    let names = Names::new(&tanques);
    for viewer in [Some(0), Some(1)] {
        let model = model(&tanques, viewer);
        // "g5" reads off its hex ("g") and either end of its row ("5").
        for cell in &model.cells {
            let label = names.label(Some(&cell.cell));
            let letters = label.trim_end_matches(|c: char| c.is_ascii_digit());
            assert_eq!(cell.caption.as_deref(), Some(letters), "{label}");
            let row = model
                .rows
                .iter()
                .find(|r| label.ends_with(&r.text) && label.len() == letters.len() + r.text.len())
                .unwrap_or_else(|| panic!("no row label for {label}"));
            let column = model.geometry.spot(cell.cell.x, cell.cell.y).column;
            assert!(row.first <= column && column <= row.last, "{label}");
        }
        assert_eq!(model.rows.len(), 11);
        assert!(model.rows.iter().all(|r| r.first < r.last));
    }
}

#[test]
fn every_piece_name_is_whole_on_its_tile_in_either_look() {
    let server = Server::start();
    let window = Window::lobby(&server);
    for ruleset in window
        .app()
        .rulesets
        .iter()
        .filter(|r| r.board.as_ref().map(pb::Board::shape) == Some(pb::BoardShape::Square))
    {
        let names = Names::new(ruleset);
        let zone = names.zone(0).expect("seat 0 sets up");
        let pieces: Vec<pb::Piece> = ruleset
            .piece_kinds
            .iter()
            .zip(&zone.cells)
            .map(|(kind, cell)| pb::Piece {
                cell: Some(*cell),
                owner: 0,
                kind: kind.id.clone(),
                ..Default::default()
            })
            .collect();
        for names_on_tiles in [false, true] {
            let scene = Scene {
                names: &names,
                pieces: &pieces,
                viewer: Some(0),
                status: None,
                zone: None,
                look: trinchera_gui::board::Look {
                    flipped: false,
                    names: names_on_tiles,
                },
            };
            let model = BoardModel::new(trinchera_client::Lang::En, scene, &HashMap::new());
            // The board's room beside the panel of a 1280×800 window.
            let mut harness = Harness::builder()
                .with_size(eframe::egui::vec2(890.0, 760.0))
                .build_ui_state(
                    move |ui, selection: &mut Selection| {
                        board_ui(ui, &model, selection);
                    },
                    Selection::default(),
                );
            harness.run();
            // Every text drawn whole (a cut one keeps its whole text, and says it is cut).
            let texts: Vec<(String, eframe::egui::Rect)> = harness
                .output()
                .shapes
                .iter()
                .filter_map(|clipped| match &clipped.shape {
                    eframe::egui::Shape::Text(text) if !text.galley.elided => Some((
                        text.galley.text().replace('\n', " "),
                        text.galley.rect.translate(text.pos.to_vec2()),
                    )),
                    _ => None,
                })
                .collect();
            for (kind, piece) in ruleset.piece_kinds.iter().zip(&pieces) {
                let label = names.label(piece.cell.as_ref());
                let prefix = format!("{label}, ");
                let cell = harness
                    .get_by(move |node| node.label().is_some_and(|l| l.starts_with(&prefix)))
                    .rect();
                let (_, drawn) = texts
                    .iter()
                    .find(|(text, _)| *text == kind.name)
                    .unwrap_or_else(|| {
                        panic!(
                            "{}: {} is not whole on its tile: {texts:?}",
                            ruleset.id, kind.name
                        )
                    });
                assert!(
                    cell.contains_rect(*drawn),
                    "{}: {} at {drawn:?} spills out of {cell:?}",
                    ruleset.id,
                    kind.name
                );
            }
        }
    }
}
