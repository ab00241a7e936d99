//! Hidden information stays hidden: views, events and histories during play never show a
//! kind that the receiver may not know.

use std::collections::HashMap;

use trinchera_proto::v1 as pb;

use crate::harness::{Client, Player, authed, spectator_view, view_of};

/// What each piece really is, from its owner's view (owners always see their own pieces).
fn truth(views: &[pb::GameView; 2]) -> HashMap<u32, (i32, String, bool)> {
    let mut truth = HashMap::new();
    for (seat, view) in views.iter().enumerate() {
        for piece in view.pieces.iter().chain(&view.captured) {
            if piece.owner == seat as i32 {
                assert!(!piece.kind.is_empty(), "owners see their pieces' kinds");
                truth.insert(piece.id, (piece.owner, piece.kind.clone(), piece.revealed));
            }
        }
    }
    truth
}

/// Checks one receiver's view: kinds of others' pieces only when revealed and true.
fn check_view(
    view: &pb::GameView,
    receiver: Option<i32>,
    truth: &HashMap<u32, (i32, String, bool)>,
) {
    for piece in view.pieces.iter().chain(&view.captured) {
        let (owner, kind, revealed) = &truth[&piece.id];
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
fn check_events(events: &[pb::Event], truth: &HashMap<u32, (i32, String, bool)>) {
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
                let (_, real, revealed) = &truth[&id];
                assert!(
                    *revealed,
                    "an event named the kind of unrevealed piece {id}"
                );
                assert_eq!(kind, real);
            }
        }
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
    for player in players {
        let history = client
            .get_history(authed(
                pb::GetHistoryRequest {
                    game_id: player.game.clone(),
                },
                &player.token,
            ))
            .await
            .expect("history")
            .into_inner();
        assert!(history.reveal.is_none(), "no reveal before the end");
        check_events(&history.events, &truth);
    }
}
