//! Exports and imports over memory stores: a round trip keeps every log, summary, token and
//! down time; a cut, corrupted, reordered or foreign input is refused by its line and
//! writes nothing; --merge skips what the store has.

use std::sync::Arc;
use trinchera_store::Downtime;

use trinchera_rules::Seat;

use super::{Exporter, GameLine, ImportError, ImportReport, Line, Mode, Names, Progress, import};
use crate::games::{Answer, Caller, Games, Intent, Limits, MoveInput, NewGame, SetupRequest, Who};
use trinchera_game::clock::TimeControl;
use trinchera_store::records::{AccountRecord, AccountTokenRecord, Entry, Joined};
use trinchera_store::{AccountId, GameId, TokenHash};
use trinchera_store::{ListQuery, MemoryStore, Store};
use trinchera_store_sled::{SledOptions, SledStore};

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
            account: None,
        };
        let (id, created) = games.create(None, new).await.expect("created");
        ids.push((id, created.token.expect("a token")));
    }
    for (index, (id, creator)) in ids.iter().enumerate().skip(1) {
        let joined = games
            .act(
                *id,
                Who::Client(Caller::NOBODY),
                Intent::Join {
                    name: "Bea".into(),
                    account: None,
                },
                None,
                Answer::View,
            )
            .await
            .expect("joined");
        let tokens = [creator.clone(), joined.token.expect("a token")];
        for token in &tokens {
            let setup = Intent::Setup(SetupRequest::Made);
            let _ = games
                .act(
                    *id,
                    Who::Client(Caller::seat(token)),
                    setup,
                    None,
                    Answer::View,
                )
                .await;
        }
        for token in tokens.iter().cycle().take(4) {
            let seen = games.view(*id, Caller::seat(token)).await.expect("view");
            if let Some(legal) = seen.legal.first() {
                let action = MoveInput::Action(legal.action.clone());
                games
                    .act(
                        *id,
                        Who::Client(Caller::seat(token)),
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
                    Who::Client(Caller::seat(&tokens[1])),
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
    exported_from(Arc::new(store.reopen())).await
}

/// The export of any store, as text.
async fn exported_from(store: Arc<dyn Store>) -> String {
    let mut exporter = Exporter::new(store, 9_000, false);
    let mut text = String::new();
    while let Some(line) = exporter.next_line().await.expect("reads") {
        text.push_str(&line.to_json());
        text.push('\n');
    }
    text
}

async fn import_text(
    store: &dyn Store,
    text: &str,
    mode: Mode,
) -> Result<ImportReport, ImportError> {
    let limits = Limits::default();
    let names = Names {
        game: limits.max_game_name,
        player: limits.max_player_name,
    };
    import(
        store,
        text.as_bytes(),
        mode,
        names,
        &mut Progress::shown(false),
    )
    .await
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
    let token_of_game = |log: Vec<trinchera_store::records::EventRecord>| {
        log.iter()
            .find_map(|record| match &record.entry {
                Some(trinchera_store::records::Entry::Joined(joined)) => Some(TokenHash(
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
    let creation = trinchera_store::Append {
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
    let newer = lines[0].replace("\"format\":2", "\"format\":3");
    let from_the_future = joined(&[&newer, lines[1], lines[2], lines[3], lines[4]]);
    let missing = joined(&[lines[0], lines[1], lines[3], lines[4]]);
    for (input, expected) in [
        (half_a_line.to_owned(), "line 4: not a line of an export"),
        (cut_at_a_break, "ends after line 4 without its end line"),
        (corrupted, illegal_at.as_str()),
        (twice, "line 3: game"),
        (headless, "line 1: expected the header line first"),
        (from_the_future, "line 1: export format 3 is newer"),
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

/// An export of one game: `line` (a game line) under id `id`, with fresh tokens, changed by
/// `change`.
fn one_game(header: &str, line: &str, id: u64, change: impl FnOnce(&mut GameLine)) -> String {
    let Ok(Line::Game(mut game)) = serde_json::from_str(line) else {
        panic!("a game line: {line}");
    };
    game.id = id;
    for (seat, record) in game.events.iter_mut().enumerate() {
        let joined = match &mut record.entry {
            Some(Entry::Created(created)) => created.creator.as_mut(),
            Some(Entry::Joined(joined)) => Some(joined),
            _ => None,
        };
        if let Some(joined) = joined {
            joined.token_hash = TokenHash::of(&format!("{id} {seat}")).0.to_vec();
        }
    }
    change(&mut game);
    let game = Line::Game(game).to_json();
    format!("{header}\n{game}\n{{\"end\":{{\"games\":1}}}}\n")
}

/// The seats' joins of a game line, in order.
fn joins(game: &mut GameLine) -> Vec<&mut Joined> {
    game.events
        .iter_mut()
        .filter_map(|record| match &mut record.entry {
            Some(Entry::Created(created)) => created.creator.as_mut(),
            Some(Entry::Joined(joined)) => Some(joined),
            _ => None,
        })
        .collect()
}

fn game_name(game: &mut GameLine) -> &mut String {
    match &mut game.events[0].entry {
        Some(Entry::Created(created)) => &mut created.name,
        _ => panic!("a log starts with its creation"),
    }
}

#[tokio::test]
async fn hostile_imports_are_refused_and_leave_a_sled_store_as_it_was() {
    let text = exported(&played().await).await;
    let lines: Vec<&str> = text.lines().collect();
    let dir = tempfile::tempdir().expect("temp dir");
    let open = || Arc::new(SledStore::open(dir.path(), SledOptions::default()).expect("opens"));
    let store = open();
    import_text(store.as_ref(), &text, Mode::Empty)
        .await
        .expect("imports");
    let before = exported_from(store.clone()).await;
    let played = lines[2];
    let fine = one_game(lines[0], played, 10, |_| {});
    let out_of_range = |id| one_game(lines[0], played, id, |_| {});
    let renamed =
        |name: String| one_game(lines[0], played, 11, move |game| *game_name(game) = name);
    let player = |name: &'static str| {
        one_game(lines[0], played, 12, move |game| {
            joins(game)[1].name = name.into();
        })
    };
    let shared_token = one_game(lines[0], played, 13, |game| {
        let first = joins(game)[0].token_hash.clone();
        joins(game)[1].token_hash = first;
    });
    let fake_bot = one_game(lines[0], played, 14, |game| {
        joins(game)[1].bot = "easy".into();
    });
    let huge_line = renamed("x".repeat(super::MAX_LINE_BYTES));
    for (input, expected) in [
        (
            out_of_range(u64::MAX),
            "line 2: game id 18446744073709551615 is out of range",
        ),
        (
            out_of_range(i64::MAX as u64),
            "is out of range: ids run from 1 to 1099511627776",
        ),
        (out_of_range(GameId::MAX.0 + 1), "is out of range"),
        (out_of_range(0), "line 2: game id 0 is out of range"),
        (
            renamed("n".repeat(10_000_000)),
            "the game name may be at most 64 characters",
        ),
        (
            renamed("Ana\u{7}".into()),
            "control, invisible or direction-changing",
        ),
        (renamed(" Ana".into()), "is not as the server stores names"),
        (
            player("Ana\u{202E}lli"),
            "the player name may not contain control",
        ),
        (
            player("Bot (hard)"),
            "that is how the server's bots are named",
        ),
        (shared_token, "line 2: game 13 gives both seats one token"),
        (fake_bot, "a bot of level easy plays as \"Bot (easy)\""),
        (huge_line, "line 2: longer than an import reads (16.8 MB)"),
    ] {
        let error = import_text(store.as_ref(), &input, Mode::Merge)
            .await
            .expect_err(expected)
            .to_string();
        assert!(error.contains(expected), "{error} (expected {expected})");
        assert_eq!(exported_from(store.clone()).await, before, "{expected}");
    }
    import_text(store.as_ref(), &fine, Mode::Merge)
        .await
        .expect("the same game under a free id and its own tokens is fine");
    let after = exported_from(store.clone()).await;
    store.close().await.expect("closes");
    drop(store);
    assert_eq!(exported_from(open()).await, after, "reopens as it was");
}

/// A store with an account (Ana, with a personal token) who plays a game against a guest.
async fn with_an_account() -> (MemoryStore, AccountId, TokenHash) {
    use argon2::password_hash::PasswordHasher;
    let store = MemoryStore::new();
    let password = argon2::Argon2::default()
        .hash_password_with_salt(b"correct horse", &[7; 16])
        .expect("hashed")
        .to_string();
    let ana = AccountRecord {
        name: "Ana".into(),
        folded: "ana".into(),
        password,
        created_ms: 5,
        disabled: false,
        deleted_ms: 0,
    };
    let id = store
        .create_account(&ana, 0)
        .await
        .expect("created")
        .expect("free");
    let token = TokenHash::of("tra1_ana");
    let record = AccountTokenRecord {
        account: id.0,
        scopes: 1,
        label: "cli".into(),
        created_ms: 6,
        expires_ms: 0,
        session: false,
    };
    store
        .put_account_token(&token, &record)
        .await
        .expect("stored");
    let games = Games::new(Arc::new(store.reopen()), Limits::default())
        .await
        .expect("games");
    let new = NewGame {
        ruleset: "frente".into(),
        seat: Seat::First,
        name: String::new(),
        player: "Ana".into(),
        bot: None,
        creator_bot: None,
        control: TimeControl::Untimed,
        account: Some(id),
    };
    let (game, _) = games.create(None, new).await.expect("created");
    games
        .act(
            game,
            Who::Client(Caller::NOBODY),
            Intent::Join {
                name: "Bea".into(),
                account: None,
            },
            None,
            Answer::View,
        )
        .await
        .expect("joined");
    games.close().await.expect("closed");
    (store, id, token)
}

#[tokio::test]
async fn accounts_travel_with_their_games_and_tokens() {
    let (source, ana, token) = with_an_account().await;
    let text = exported(&source).await;
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(
        lines[1].starts_with("{\"account\":{\"id\":1,\"name\":\"Ana\""),
        "{text}"
    );
    assert!(lines[3].contains("\"accounts\":1"), "{text}");
    let target = MemoryStore::new();
    let report = import_text(&target, &text, Mode::Empty)
        .await
        .expect("imports");
    assert_eq!((report.accounts, report.imported), (1, 1));
    assert_eq!(
        target.account(ana).await.expect("reads"),
        source.account(ana).await.expect("reads")
    );
    assert_eq!(
        target
            .account_named("ana")
            .await
            .expect("reads")
            .map(|(id, _)| id),
        Some(ana)
    );
    assert_eq!(
        target
            .account_token(&token)
            .await
            .expect("reads")
            .map(|t| t.account),
        Some(ana.0)
    );
    let mine = ListQuery {
        player: Some(ana),
        limit: 10,
        ..ListQuery::default()
    };
    assert_eq!(target.list(&mine).await.expect("lists").len(), 1);
    assert_eq!(
        exported(&target).await,
        text,
        "an export of the import is the export"
    );
    // Merging again skips the account and its game.
    let report = import_text(&target, &text, Mode::Merge)
        .await
        .expect("merges");
    assert_eq!((report.skipped_accounts, report.skipped), (1, 1));
}

#[tokio::test]
async fn account_lines_are_checked_before_anything_is_written() {
    let (source, _, _) = with_an_account().await;
    let text = exported(&source).await;
    let lines: Vec<&str> = text.lines().collect();
    let joined = |lines: &[&str]| lines.join("\n") + "\n";
    let no_account_end = lines[3].replace("\"accounts\":1", "\"accounts\":0");
    let orphan = joined(&[lines[0], lines[2], &no_account_end]);
    let guests_only = lines[2].replacen(",\"account\":1", "", 1);
    assert_ne!(
        guests_only, lines[2],
        "the creator's seat names the account"
    );
    let late = joined(&[lines[0], &guests_only, lines[1], lines[3]]);
    let plain = lines[1].replacen("\"password\":\"$argon2id", "\"password\":\"plain", 1);
    let plain = joined(&[lines[0], &plain, lines[2], lines[3]]);
    let miscounted = joined(&[lines[0], lines[1], lines[2], &no_account_end]);
    let shouting = lines[1].replacen("\"folded\":\"ana\"", "\"folded\":\"ANA\"", 1);
    let shouting = joined(&[lines[0], &shouting, lines[2], lines[3]]);
    for (input, expected) in [
        (orphan, "line 2: game 1 names account 1, which neither"),
        (late, "line 3: an account line after a game line"),
        (
            plain,
            "line 2: account 1: its password is not an argon2 hash",
        ),
        (miscounted, "line 4: the end line counts 0 accounts, but 1"),
        (shouting, "line 2: account 1: its folded name"),
    ] {
        let target = MemoryStore::new();
        let error = import_text(&target, &input, Mode::Empty)
            .await
            .expect_err(expected)
            .to_string();
        assert!(error.contains(expected), "{error} (expected {expected})");
        assert!(target.account(AccountId(1)).await.expect("reads").is_none());
        assert!(
            games_of(&target).await.is_empty(),
            "{expected}: nothing written"
        );
    }
    // Into a store where another account holds the name.
    let target = MemoryStore::new();
    let mut other = source
        .account(AccountId(1))
        .await
        .expect("reads")
        .expect("an account");
    other.name = "ANA".into();
    target
        .restore_account(AccountId(9), &other, &[])
        .await
        .expect("restored");
    let error = import_text(&target, &text, Mode::Merge)
        .await
        .expect_err("a name held")
        .to_string();
    assert!(
        error.contains("line 2: account 1's name \"Ana\" is account 9's"),
        "{error}"
    );
}
