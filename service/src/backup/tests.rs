//! Exports and imports over memory stores: a round trip keeps every log, summary, token and
//! down time; a cut, corrupted, reordered or foreign input is refused by its line and
//! writes nothing; --merge skips what the store has.

use std::sync::Arc;

use trinchera_rules::Seat;

use super::{Exporter, ImportError, ImportReport, Mode, Progress, import};
use crate::games::{Answer, Games, Intent, Limits, MoveInput, NewGame, SetupRequest, Who};
use crate::ids::{GameId, TokenHash};
use crate::store::{ListQuery, MemoryStore, Store};
use crate::timing::{Downtime, TimeControl};

/// A store with three games: one waiting, one being played, one resigned.
async fn played() -> MemoryStore {
    let store = MemoryStore::new();
    store.record_downtime(1_000).await.expect("first start");
    let games = Games::new(Arc::new(store.reopen()), Limits::default())
        .await
        .expect("games");
    let mut ids = Vec::new();
    for (ruleset, control) in [
        ("clasico", TimeControl::Untimed),
        ("tanques", TimeControl::Untimed),
        ("asalto", TimeControl::Untimed),
    ] {
        let new = NewGame {
            ruleset: ruleset.into(),
            seat: Seat::First,
            name: format!("a {ruleset} game"),
            player: "Ana".into(),
            bot: None,
            creator_bot: None,
            control,
        };
        let (id, created) = games.create(None, new).await.expect("created");
        ids.push((id, created.token.expect("a token")));
    }
    for (index, (id, creator)) in ids.iter().enumerate().skip(1) {
        let joined = games
            .act(
                *id,
                Who::Client(None),
                Intent::Join { name: "Bea".into() },
                None,
                Answer::View,
            )
            .await
            .expect("joined");
        let tokens = [creator.clone(), joined.token.expect("a token")];
        for token in &tokens {
            let setup = Intent::Setup(SetupRequest::Made);
            let _ = games
                .act(*id, Who::Client(Some(token)), setup, None, Answer::View)
                .await;
        }
        for token in tokens.iter().cycle().take(4) {
            let seen = games.view(*id, Some(token)).await.expect("view");
            if let Some(legal) = seen.legal.first() {
                let action = MoveInput::Action(legal.action.clone());
                games
                    .act(
                        *id,
                        Who::Client(Some(token)),
                        Intent::Move(action),
                        None,
                        Answer::View,
                    )
                    .await
                    .expect("a legal move");
            }
        }
        if index == 2 {
            games
                .act(
                    *id,
                    Who::Client(Some(&tokens[1])),
                    Intent::Resign,
                    None,
                    Answer::View,
                )
                .await
                .expect("resigned");
        }
    }
    games.close().await.expect("closed");
    store
}

/// The export of `store`, as text.
async fn exported(store: &MemoryStore) -> String {
    let mut exporter = Exporter::new(Arc::new(store.reopen()), 9_000, false);
    let mut text = String::new();
    while let Some(line) = exporter.next_line().await.expect("reads") {
        text.push_str(&line.to_json());
        text.push('\n');
    }
    text
}

async fn import_text(
    store: &MemoryStore,
    text: &str,
    mode: Mode,
) -> Result<ImportReport, ImportError> {
    import(store, text.as_bytes(), mode, &mut Progress::shown(false)).await
}

async fn games_of(store: &MemoryStore) -> Vec<GameId> {
    let all = ListQuery {
        limit: 100,
        ..ListQuery::default()
    };
    let listed = store.list(&all).await.expect("lists");
    listed.into_iter().map(|(id, _)| id).collect()
}

#[tokio::test]
async fn a_round_trip_keeps_every_log_summary_token_and_down_time() {
    let source = played().await;
    let text = exported(&source).await;
    assert_eq!(text.lines().count(), 5, "{text}");
    let target = MemoryStore::new();
    let report = import_text(&target, &text, Mode::Empty)
        .await
        .expect("imports");
    assert_eq!(
        (report.imported, report.skipped, report.finished),
        (3, 0, 1)
    );
    let ids = games_of(&source).await;
    assert_eq!(games_of(&target).await, ids);
    for id in ids {
        assert_eq!(
            target.log(id).await.expect("reads"),
            source.log(id).await.expect("reads")
        );
        assert_eq!(
            target.summary(id).await.expect("reads"),
            source.summary(id).await.expect("reads"),
            "game {id}"
        );
    }
    let token_of_game = |log: Vec<crate::records::EventRecord>| {
        log.iter()
            .find_map(|record| match &record.entry {
                Some(crate::records::Entry::Joined(joined)) => Some(TokenHash(
                    joined.token_hash.as_slice().try_into().expect("32 bytes"),
                )),
                _ => None,
            })
            .expect("a joined seat")
    };
    let game = games_of(&source).await[0];
    let token = token_of_game(source.log(game).await.expect("reads"));
    assert_eq!(target.token_owner(&token).await.expect("reads"), Some(game));
    assert_eq!(
        target.lifetime().await.expect("reads"),
        source.lifetime().await.expect("reads")
    );
    assert_eq!(
        exported(&target).await,
        text,
        "an export of the import is the export"
    );
    let (log, summary) = (
        source.log(game).await.expect("reads"),
        source.summary(game).await.expect("reads"),
    );
    let creation = crate::store::Append {
        version: 1,
        record: &log[0],
        summary: summary.as_ref(),
        token: None,
        lease: None,
    };
    assert!(
        target.create(creation).await.expect("reads") > game,
        "new games get new ids"
    );
}

#[tokio::test]
async fn a_cut_or_corrupted_export_names_its_line_and_writes_nothing() {
    let text = exported(&played().await).await;
    let lines: Vec<&str> = text.lines().collect();
    let joined = |lines: &[&str]| lines.join("\n") + "\n";
    let half_a_line = &text[..text.len() - lines[4].len() - lines[3].len() / 2 - 2];
    let cut_at_a_break = joined(&lines[..4]);
    let moved = (1..4)
        .find(|&i| lines[i].contains("\"move\":\""))
        .expect("a move");
    let mut corrupted: Vec<String> = lines.iter().map(|line| line.to_string()).collect();
    corrupted[moved] = corrupted[moved].replacen("\"move\":\"", "\"move\":\"z", 1);
    let corrupted = corrupted.join("\n") + "\n";
    let illegal_at = format!("line {}: game", moved + 1);
    let twice = joined(&[lines[0], lines[1], lines[1], lines[2], lines[3], lines[4]]);
    let headless = joined(&lines[1..]);
    let newer = lines[0].replace("\"format\":1", "\"format\":2");
    let from_the_future = joined(&[&newer, lines[1], lines[2], lines[3], lines[4]]);
    let missing = joined(&[lines[0], lines[1], lines[3], lines[4]]);
    for (input, expected) in [
        (half_a_line.to_owned(), "line 4: not a line of an export"),
        (cut_at_a_break, "ends after line 4 without its end line"),
        (corrupted, illegal_at.as_str()),
        (twice, "line 3: game"),
        (headless, "line 1: expected the header line first"),
        (from_the_future, "line 1: export format 2 is newer"),
        (missing, "line 4: the end line counts 3 games, but 2"),
    ] {
        let target = MemoryStore::new();
        let error = import_text(&target, &input, Mode::Empty)
            .await
            .expect_err(expected)
            .to_string();
        assert!(error.contains(expected), "{error} (expected {expected})");
        assert!(
            games_of(&target).await.is_empty(),
            "{expected}: nothing written"
        );
        assert_eq!(
            target.lifetime().await.expect("reads").downtime,
            Downtime::default()
        );
    }
}

#[tokio::test]
async fn only_merge_imports_into_a_store_with_games_and_it_skips_what_it_has() {
    let source = played().await;
    let text = exported(&source).await;
    let target = MemoryStore::new();
    let lines: Vec<&str> = text.lines().collect();
    let first_game = format!("{}\n{}\n{{\"end\":{{\"games\":1}}}}\n", lines[0], lines[1]);
    import_text(&target, &first_game, Mode::Empty)
        .await
        .expect("one game");
    let error = import_text(&target, &text, Mode::Empty)
        .await
        .expect_err("refused");
    assert!(matches!(error, ImportError::NotEmpty { .. }), "{error}");
    assert!(error.to_string().contains("--merge"), "{error}");
    let report = import_text(&target, &text, Mode::Merge)
        .await
        .expect("merges");
    assert_eq!((report.imported, report.skipped), (2, 1));
    assert_eq!(games_of(&target).await, games_of(&source).await);
}

#[tokio::test]
async fn a_game_under_a_second_id_is_refused_by_its_tokens() {
    let text = exported(&played().await).await;
    let lines: Vec<&str> = text.lines().collect();
    let game = lines[1];
    let id = game
        .split("\"id\":")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .expect("a game line names its id");
    let copy = game.replacen(&format!("\"id\":{id}"), "\"id\":99", 1);
    let input = format!(
        "{}\n{game}\n{copy}\n{{\"end\":{{\"games\":2}}}}\n",
        lines[0]
    );
    let error = import_text(&MemoryStore::new(), &input, Mode::Empty)
        .await
        .expect_err("refused")
        .to_string();
    assert!(
        error.contains("line 3: game 99 holds a seat token of game"),
        "{error}"
    );
}
