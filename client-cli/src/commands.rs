//! One function per command (except `play`, `arena` and `rulesets`, in modules of their
//! own; `bench` prints what the load client of `trinchera-bench` found).

use std::io::{IsTerminal, Read, Write};
use std::path::Path;

use trinchera_proto::v1 as pb;

use crate::cli::{GamesArgs, NewArgs, PhaseArg, SetupHow};
use crate::context::Ctx;
use crate::error::{CliError, Unjoinable};
use crate::render::{self, Paint};
use crate::table;
use crate::words;
use trinchera_client::setup_file::{Submit, Zone};
use trinchera_client::verify::{self, Evidence};
use trinchera_client::{ClientError, Geometry, Lang, Names, Session, authed};
use trinchera_client::{actions, json};

/// Stores the token of a seat just taken.
fn keep_token(
    ctx: &Ctx,
    game: &str,
    seat: i32,
    token: &str,
    ruleset: &str,
) -> Result<(), CliError> {
    ctx.store.update(&ctx.url, game, |record| {
        record.tokens.insert(seat, token.to_owned());
        record.ruleset = ruleset.to_owned();
        true
    })?;
    Ok(())
}

/// What a player should do next, for people.
fn next_steps(ruleset: &pb::Ruleset, view: &pb::GameView) -> String {
    let names = Names::new(ruleset);
    let game = &view.game_id;
    let me = view.viewer_seat.unwrap_or(0);
    let mine = view.players.iter().find(|p| p.seat == me);
    match view.phase() {
        pb::Phase::Waiting => {
            format!("Waiting for an opponent. They join with:\n  trinchera join {game}")
        }
        pb::Phase::Setup if mine.is_some_and(|p| !p.setup_done) => format!(
            "Set up your pieces:\n  trinchera setup {game} --random\n  \
             trinchera setup {game} --template > army.txt   (edit it, then)\n  \
             trinchera setup {game} --file army.txt"
        ),
        pb::Phase::Setup => format!("Waiting for {} to set up.", names.seat(1 - me)),
        pb::Phase::Playing if view.to_move == Some(me) => format!(
            "Your turn: trinchera moves {game} lists your moves; trinchera move {game} MOVE plays one."
        ),
        pb::Phase::Playing => format!(
            "To move: {}. trinchera watch {game} follows the game.",
            names.seat(1 - me)
        ),
        pb::Phase::Finished | pb::Phase::Unspecified => {
            format!("The game is over. trinchera verify {game} checks that it was fair.")
        }
    }
}

/// Refuses ruleset options: no hosted ruleset defines any yet.
fn check_options(ruleset: &str, options: &[String]) -> Result<(), CliError> {
    match options.first() {
        None => Ok(()),
        Some(option) => {
            let key = option.split('=').next().unwrap_or_default();
            Err(CliError::Usage(format!(
                "ruleset {ruleset} has no option {key:?} (no ruleset defines options yet)"
            )))
        }
    }
}

/// `new`: creates a game and keeps the token.
pub async fn new_game(ctx: &Ctx, args: &NewArgs) -> Result<pb::CreateGameResponse, CliError> {
    check_options(&args.ruleset, &args.options)?;
    let server = ctx.server().await?;
    let account = seating_token(ctx, args.name.as_deref())?;
    let request = pb::CreateGameRequest {
        ruleset: args.ruleset.clone(),
        seat: Some(args.seat),
        name: args.game_name.clone().unwrap_or_default(),
        player_name: args.name.clone().unwrap_or_default(),
        bot: args.bot.clone().unwrap_or_default(),
        time_control: args.clock.time_control(),
        creator_bot: String::new(),
    };
    let created = server.create(authed(request, account.as_deref())?).await?;
    keep_token(
        ctx,
        &created.game_id,
        created.seat,
        &created.player_token,
        &args.ruleset,
    )?;
    if let Some(view) = &created.view {
        ctx.remember(view);
    }
    Ok(created)
}

/// The token that takes a seat for the account in `new` and `join` (`None`: as a guest),
/// with a warning when a guest's display `name` is given in vain.
fn seating_token(ctx: &Ctx, name: Option<&str>) -> Result<Option<String>, CliError> {
    let token = ctx.seating_token()?;
    if token.is_some() && name.is_some() {
        eprintln!("warning: signed in, you play under your account's name; --name is a guest's");
    }
    Ok(token)
}

/// `new`, printed.
pub async fn new(ctx: &Ctx, args: &NewArgs) -> Result<(), CliError> {
    let created = new_game(ctx, args).await?;
    if ctx.json {
        return ctx.print_message(&created);
    }
    let ruleset = ctx.server().await?.ruleset(&args.ruleset).await?;
    let view = created.view.clone().unwrap_or_default();
    seated_message(ctx, &ruleset, &view, "Created");
    if let Some(level) = &args.bot {
        let bot = view.players.iter().find(|p| p.seat != created.seat);
        if bot.is_some_and(|p| p.bot.is_empty()) {
            eprintln!(
                "warning: this server did not take the bot request ({level}); the other seat waits for a player"
            );
        }
    }
    Ok(())
}

/// "Created game X of frente: you play Rojo (seat 0)." and the next steps.
fn seated_message(ctx: &Ctx, ruleset: &pb::Ruleset, view: &pb::GameView, verb: &str) {
    let names = Names::new(ruleset);
    let seat = view.viewer_seat.unwrap_or(0);
    println!(
        "{verb} game {} ({}): you play {} (seat {seat}).",
        ctx.style.paint(&view.game_id, Paint::Bold),
        ruleset.id,
        ctx.style.paint(&names.seat(seat), Paint::Seat(seat)),
    );
    if let Some(bot) = view.players.iter().find(|p| !p.bot.is_empty()) {
        let seat = words::seat_holder(Lang::En, &names, &view.players, bot.seat);
        println!("The server plays {seat}.");
    }
    println!("{}", next_steps(ruleset, view));
}

/// `join`: takes the free seat and keeps the token.
pub async fn join_game(
    ctx: &Ctx,
    game: &str,
    name: Option<&str>,
) -> Result<pb::JoinGameResponse, CliError> {
    let account = seating_token(ctx, name)?;
    let request = pb::JoinGameRequest {
        game_id: game.to_owned(),
        player_name: name.unwrap_or_default().to_owned(),
    };
    let joined = ctx
        .server()
        .await?
        .join(authed(request, account.as_deref())?)
        .await;
    let joined = match joined {
        Ok(joined) => joined,
        Err(refusal @ ClientError::Refused { .. }) => {
            return Err(unjoinable(ctx, game, refusal).await);
        }
        Err(error) => return Err(error.into()),
    };
    let ruleset = joined
        .view
        .as_ref()
        .map(|v| v.ruleset.clone())
        .unwrap_or_default();
    keep_token(
        ctx,
        &joined.game_id,
        joined.seat,
        &joined.player_token,
        &ruleset,
    )?;
    if let Some(view) = &joined.view {
        ctx.remember(view);
    }
    Ok(joined)
}

/// The server's `refusal` to seat the player in `game`, told as what to do instead when
/// the game is over or has no free seat (as a spectator sees it).
async fn unjoinable(ctx: &Ctx, game: &str, refusal: ClientError) -> CliError {
    let view = match ctx.server().await {
        Ok(server) => server.view(game, None).await.ok(),
        Err(_) => None,
    };
    let Some(view) = view else {
        return refusal.into();
    };
    let game = game.to_owned();
    let session = ctx.session().ok().flatten();
    let mine = ctx
        .store
        .game(&ctx.url, &game)
        .ok()
        .flatten()
        .is_some_and(|record| !record.tokens.is_empty())
        || !account_seats(&view.players, session.as_ref()).is_empty();
    let why = if view.phase() == pb::Phase::Finished {
        Unjoinable::Over { game }
    } else if view.players.iter().any(|p| !p.joined) {
        return refusal.into();
    } else if mine {
        Unjoinable::Yours { game }
    } else {
        Unjoinable::Full { game }
    };
    CliError::Unjoinable { why, refusal }
}

/// `join`, printed.
pub async fn join(ctx: &Ctx, game: &str, name: Option<&str>) -> Result<(), CliError> {
    let joined = join_game(ctx, game, name).await?;
    if ctx.json {
        return ctx.print_message(&joined);
    }
    let view = joined.view.unwrap_or_default();
    let ruleset = ctx.server().await?.ruleset(&view.ruleset).await?;
    seated_message(ctx, &ruleset, &view, "Joined");
    Ok(())
}

/// `games`: every game, or those of an account (`--mine`: the signed-in one's, from the
/// server, so games begun elsewhere are listed too).
pub async fn games(ctx: &Ctx, args: &GamesArgs) -> Result<(), CliError> {
    let server = ctx.server().await?;
    let phase = match args.phase {
        None => pb::Phase::Unspecified,
        Some(PhaseArg::Waiting) => pb::Phase::Waiting,
        Some(PhaseArg::Setup) => pb::Phase::Setup,
        Some(PhaseArg::Playing) => pb::Phase::Playing,
        Some(PhaseArg::Finished) => pb::Phase::Finished,
    };
    let (player, token) = match (&args.player, args.mine) {
        (_, true) => ("mine".to_owned(), Some(ctx.account_token()?)),
        (Some(name), false) => (name.clone(), None),
        (None, false) => (String::new(), None),
    };
    let limit = args.limit;
    let mut all = pb::ListGamesResponse::default();
    loop {
        let request = pb::ListGamesRequest {
            phase: phase as i32,
            ruleset: args.ruleset.clone().unwrap_or_default(),
            page_size: (limit - all.games.len()).clamp(1, 100) as i32,
            page_token: all.next_page_token.clone(),
            player: player.clone(),
            ..Default::default()
        };
        let page = server.list(authed(request, token.as_deref())?).await?;
        all.games.extend(page.games);
        all.next_page_token = page.next_page_token;
        if all.next_page_token.is_empty() || all.games.len() >= limit {
            break;
        }
    }
    all.games.truncate(limit);
    if ctx.json {
        return ctx.print_message(&all);
    }
    if all.games.is_empty() {
        println!("No games.");
        return Ok(());
    }
    let mine = ctx.store.games(&ctx.url)?;
    let session = ctx.session()?;
    let rulesets = server.rulesets().await?.rulesets;
    let rows: Vec<[String; 7]> = all
        .games
        .iter()
        .map(|game| {
            let mut seats = mine
                .get(&game.game_id)
                .map(|record| record.tokens.keys().copied().collect())
                .unwrap_or_else(Vec::new);
            seats.extend(account_seats(&game.players, session.as_ref()));
            seats.sort_unstable();
            seats.dedup();
            let yours = if seats.is_empty() {
                String::new()
            } else {
                let seats: Vec<String> = seats.iter().map(i32::to_string).collect();
                format!("[yours: seat {}]", seats.join(" and "))
            };
            listed_game(game, &rulesets, yours)
        })
        .collect();
    for row in table::padded(&rows) {
        println!("{}", row.join("  ").trim_end());
    }
    if !all.next_page_token.is_empty() {
        println!("(more: raise --limit)");
    }
    Ok(())
}

/// The seats among `players` that the signed-in account holds.
fn account_seats(players: &[pb::Player], session: Option<&Session>) -> Vec<i32> {
    let Some(session) = session else {
        return Vec::new();
    };
    players
        .iter()
        .filter(|p| p.kind() == pb::PlayerKind::Account && p.name == session.name)
        .map(|p| p.seat)
        .collect()
}

/// A row of `games`: id, ruleset, phase, who plays, the game's name, `yours` (the seats
/// held here), and the result of a finished game.
fn listed_game(game: &pb::GameSummary, rulesets: &[pb::Ruleset], yours: String) -> [String; 7] {
    let unknown = pb::Ruleset::default();
    let ruleset = rulesets
        .iter()
        .find(|ruleset| ruleset.id == game.ruleset)
        .unwrap_or(&unknown);
    let names = Names::new(ruleset);
    let players: Vec<String> = [0, 1]
        .map(|seat| words::listed_seat(&names, &game.players, seat))
        .into();
    let result = game
        .result
        .as_ref()
        .filter(|_| game.phase() == pb::Phase::Finished)
        .map(|result| words::result(Lang::En, &names, result))
        .unwrap_or_default();
    [
        game.game_id.clone(),
        game.ruleset.clone(),
        words::phase(Lang::En, game.phase()).to_owned(),
        players.join(" vs "),
        game.name.clone(),
        yours,
        result,
    ]
}

/// The game as the caller sees it, with its ruleset; commitments recorded.
pub async fn view_with_ruleset(
    ctx: &Ctx,
    game: &str,
    token: Option<&str>,
) -> Result<(pb::GameView, pb::Ruleset), CliError> {
    let server = ctx.server().await?;
    let view = server.view(game, token).await?;
    ctx.remember(&view);
    let ruleset = server.ruleset(&view.ruleset).await?;
    Ok((view, ruleset))
}

/// Reads a setup file (`-`: standard input).
fn read_layout(path: &Path) -> Result<String, CliError> {
    if path == Path::new("-") {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| CliError::file("cannot read", "standard input", e))?;
        return Ok(text);
    }
    std::fs::read_to_string(path).map_err(|e| CliError::file("cannot read", path, e))
}

/// What `setup` does: submit a request, or print a template to edit.
#[derive(Debug)]
pub enum SetupPlan {
    /// Submit this.
    Submit(pb::SubmitSetupRequest),
    /// Print this layout.
    Template(String),
}

/// The plan of `how` for the caller's seat; a template says to submit it as `submit` does.
pub fn setup_plan(
    game: &str,
    ruleset: &pb::Ruleset,
    seat: i32,
    how: &SetupHow,
    submit: Submit<'_>,
) -> Result<SetupPlan, CliError> {
    let names = Names::new(ruleset);
    let zone = Zone::of(&names, seat).ok_or_else(|| {
        CliError::Usage(format!(
            "{} places no pieces in {}: there is nothing to set up",
            names.seat(seat),
            ruleset.id
        ))
    })?;
    if how.random {
        return Ok(SetupPlan::Submit(pb::SubmitSetupRequest {
            game_id: game.to_owned(),
            placements: vec![],
            random: true,
        }));
    }
    if let Some(path) = &how.file {
        let text = read_layout(path)?;
        let placements = zone
            .read(&text)
            .map_err(|e| CliError::Usage(format!("{}: {e}", path.display())))?;
        return Ok(SetupPlan::Submit(pb::SubmitSetupRequest {
            game_id: game.to_owned(),
            placements,
            random: false,
        }));
    }
    Ok(SetupPlan::Template(
        zone.write_submitted(&zone.shuffled(template_seed()), submit),
    ))
}

/// A seed for template shuffles: the process's random hasher keys.
fn template_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    hasher.finish() | 1
}

/// `setup`.
pub async fn setup(ctx: &Ctx, game: &str, how: &SetupHow) -> Result<(), CliError> {
    let token = ctx.token(game).await?;
    let (view, ruleset) = view_with_ruleset(ctx, game, Some(&token)).await?;
    let Some(seat) = view.viewer_seat else {
        return Err(ctx.no_seat(game).await);
    };
    let request = match setup_plan(game, &ruleset, seat, how, Submit::Command(Some(game)))? {
        SetupPlan::Submit(request) => request,
        SetupPlan::Template(text) if ctx.json => {
            return ctx.print_json(&serde_json::json!({ "template": text }));
        }
        SetupPlan::Template(text) => {
            print!("{text}");
            return Ok(());
        }
    };
    let reply = ctx.server().await?.setup(request, &token).await?;
    let view = reply.view.clone().unwrap_or_default();
    ctx.remember(&view);
    if ctx.json {
        return ctx.print_message(&reply);
    }
    print!("{}", ctx.draw(&ruleset, &view));
    println!("{}", next_steps(&ruleset, &view));
    Ok(())
}

/// `show`.
pub async fn show(ctx: &Ctx, game: &str) -> Result<(), CliError> {
    let token = ctx.optional_token(game).await?;
    if ctx.json {
        let view = ctx.server().await?.view(game, token.as_deref()).await?;
        ctx.remember(&view);
        return ctx.print_message(&pb::GetViewResponse { view: Some(view) });
    }
    let (view, ruleset) = view_with_ruleset(ctx, game, token.as_deref()).await?;
    print!("{}", ctx.draw(&ruleset, &view));
    if view.viewer_seat.is_some() {
        println!("{}", next_steps(&ruleset, &view));
    }
    Ok(())
}

/// The legal moves grouped by the piece or tank that makes them (entries by entry hex,
/// attacks by target) in the order of the board as drawn (`flipped`: from seat 1's side),
/// each maneuver with the hex it ends on and the way it then faces; with `only`, just the
/// moves of the piece on that cell.
pub fn moves_text(
    names: &Names<'_>,
    view: &pb::GameView,
    only: Option<pb::Cell>,
    flipped: bool,
) -> String {
    let mut groups: Vec<(Option<pb::Cell>, Vec<String>)> = Vec::new();
    for legal in &view.legal_moves {
        let action = legal.r#move.as_ref().and_then(|m| m.action.as_ref());
        let origin = action.and_then(actions::origin);
        if only.is_some() && origin != only {
            continue;
        }
        let mut text = legal.notation.clone();
        if let Some(pb::r#move::Action::Maneuver(maneuver)) = action
            && let Some(from) = maneuver.cell
            && let Some(tank) = view.pieces.iter().find(|p| p.cell == Some(from))
        {
            let facing = pb::Facing::try_from(tank.facing.unwrap_or_default()).unwrap_or_default();
            let steps: Vec<pb::TankAction> = maneuver.actions().collect();
            let (path, facing) = actions::maneuver_path(from, facing, &steps);
            let end = path.last().copied().unwrap_or(from);
            text.push_str(&format!(
                " → {} {}",
                names.label(Some(&end)),
                trinchera_client::words::facing_code(facing)
            ));
        }
        match groups.iter_mut().find(|(cell, _)| *cell == origin) {
            Some((_, texts)) => texts.push(text),
            None => groups.push((origin, vec![text])),
        }
    }
    // The drawing's order: its top row first, each row from the left as drawn; moves of no
    // piece (`end`) last.
    let geometry = names
        .ruleset
        .board
        .as_ref()
        .map(|board| Geometry::new(board, flipped));
    groups.sort_by_key(|(origin, _)| {
        let spot = origin.zip(geometry).map(|(cell, geometry)| {
            let spot = geometry.spot(cell.x, cell.y);
            (spot.row, spot.column)
        });
        (origin.is_none(), spot)
    });
    if groups.is_empty() {
        return match only {
            Some(cell) => format!("No legal move starts on {}.\n", names.label(Some(&cell))),
            None => "No legal moves.\n".to_owned(),
        };
    }
    let mut text = String::new();
    for (origin, moves) in groups {
        let head = origin.map_or_else(|| "other".to_owned(), |c| names.label(Some(&c)));
        let width = moves.iter().map(|m| m.chars().count()).max().unwrap_or(0) + 2;
        let per_line = (72 / width.max(1)).max(1);
        for (index, line) in moves.chunks(per_line).enumerate() {
            let lead = if index == 0 { head.as_str() } else { "" };
            let mut row = format!("{lead:>5}  ");
            for notation in line {
                row.push_str(&format!("{notation:<width$}"));
            }
            text.push_str(row.trim_end());
            text.push('\n');
        }
    }
    text
}

/// `moves`.
pub async fn moves(ctx: &Ctx, game: &str, cell: Option<&str>) -> Result<(), CliError> {
    let token = ctx.token(game).await?;
    if ctx.json {
        let view = ctx.server().await?.view(game, Some(&token)).await?;
        if view.viewer_seat.is_none() {
            return Err(ctx.no_seat(game).await);
        }
        ctx.remember(&view);
        let full = json::to_json(&view).map_err(CliError::Local)?;
        let mut doc = serde_json::Map::new();
        for key in [
            "game_id",
            "version",
            "phase",
            "viewer_seat",
            "to_move",
            "legal_moves",
            "result",
        ] {
            if let Some(value) = full.get(key) {
                doc.insert(key.to_owned(), value.clone());
            }
        }
        return ctx.print_json(&serde_json::Value::Object(doc));
    }
    let (view, ruleset) = view_with_ruleset(ctx, game, Some(&token)).await?;
    if view.viewer_seat.is_none() {
        return Err(ctx.no_seat(game).await);
    }
    let names = Names::new(&ruleset);
    let only = cell.map(|label| cell_named(&names, label)).transpose()?;
    if view.legal_moves.is_empty() {
        match view.to_move {
            Some(seat) => println!("To move: {}; you have no moves now.", names.seat(seat)),
            None => println!(
                "Nobody moves: the game is {}.",
                words::phase(Lang::En, view.phase())
            ),
        }
        return Ok(());
    }
    println!(
        "{} legal moves (version {}):",
        view.legal_moves.len(),
        view.version
    );
    let flipped = render::flipped(ctx.no_flip, Some(&view));
    print!("{}", moves_text(&names, &view, only, flipped));
    Ok(())
}

/// The cell labelled `label` (any case), or a usage error naming the board's labels.
pub fn cell_named(names: &Names<'_>, label: &str) -> Result<pb::Cell, CliError> {
    names
        .cell_by_label(&label.trim().to_lowercase())
        .ok_or_else(|| {
            CliError::Usage(format!(
                "{label:?} is not a cell of the {} board (cells are written like e4)",
                names.ruleset.name
            ))
        })
}

/// `move`: plays and returns the reply.
pub async fn play_move(
    ctx: &Ctx,
    game: &str,
    token: &str,
    notation: &str,
    expect_version: Option<u64>,
) -> Result<pb::MakeMoveResponse, CliError> {
    let reply = ctx
        .server()
        .await?
        .play(
            pb::MakeMoveRequest {
                game_id: game.to_owned(),
                action: Some(pb::make_move_request::Action::Notation(
                    trinchera_client::notation::typed(notation),
                )),
                expected_version: expect_version,
                ..Default::default()
            },
            token,
        )
        .await?;
    if let Some(view) = &reply.view {
        ctx.remember(view);
    }
    Ok(reply)
}

/// `move`, printed.
pub async fn make_move(
    ctx: &Ctx,
    game: &str,
    notation: &[String],
    expect_version: Option<u64>,
) -> Result<(), CliError> {
    let token = ctx.token(game).await?;
    let reply = play_move(ctx, game, &token, &notation.join(" "), expect_version).await?;
    if ctx.json {
        return ctx.print_message(&reply);
    }
    let view = reply.view.clone().unwrap_or_default();
    let ruleset = ctx.server().await?.ruleset(&view.ruleset).await?;
    let names = Names::new(&ruleset);
    if let Some(event) = &reply.event {
        println!("{}", words::event(Lang::En, &names, Some(&view), event));
    }
    println!("{}", next_steps(&ruleset, &view));
    Ok(())
}

/// How a question to confirm shows its answers.
pub const CONFIRM_CHOICES: &str = "(y/n)";

/// Whether `answer` to a question to confirm is yes: `y` or `yes`, in any case.
pub fn confirmed(answer: &str) -> bool {
    matches!(answer.trim().to_lowercase().as_str(), "y" | "yes")
}

/// Whether the player confirms resigning `game`: with `--yes`, or by answering yes at a
/// terminal. Scripts (standard input not a terminal, or `--json`) have nobody to ask, so
/// without `--yes` they get a usage error rather than a resignation they did not mean.
fn resign_confirmed(ctx: &Ctx, game: &str, yes: bool) -> Result<bool, CliError> {
    if yes {
        return Ok(true);
    }
    if ctx.json || !std::io::stdin().is_terminal() {
        return Err(CliError::Usage(format!(
            "resign asks first, and there is nobody to ask (standard input is not a terminal, \
             or --json): `trinchera resign {game} --yes` resigns without asking"
        )));
    }
    // On stderr, as prompts go, so that stdout stays the command's output.
    eprint!("Really resign game {game}? The other side wins. {CONFIRM_CHOICES}: ");
    let _ = std::io::stderr().flush();
    let mut answer = String::new();
    std::io::stdin()
        .read_line(&mut answer)
        .map_err(|e| CliError::file("cannot read", "standard input", e))?;
    Ok(confirmed(&answer))
}

/// `resign`.
pub async fn resign(ctx: &Ctx, game: &str, yes: bool) -> Result<(), CliError> {
    let token = ctx.token(game).await?;
    if !resign_confirmed(ctx, game, yes)? {
        println!("Not resigned: the game goes on.");
        return Ok(());
    }
    let reply = ctx.server().await?.resign(game, &token).await?;
    if ctx.json {
        return ctx.print_message(&reply);
    }
    let view = reply.view.unwrap_or_default();
    let ruleset = ctx.server().await?.ruleset(&view.ruleset).await?;
    let names = Names::new(&ruleset);
    println!("You resigned.");
    if let Some(end) = words::final_result(Lang::En, &names, &view) {
        println!("{end}");
    }
    Ok(())
}

/// `watch`: follows the game until it ends, reconnecting after the last version seen if
/// the stream breaks.
pub async fn watch(ctx: &Ctx, game: &str, after: Option<u64>) -> Result<(), CliError> {
    let token = ctx.optional_token(game).await?;
    let server = ctx.server().await?;
    let mut ruleset: Option<pb::Ruleset> = None;
    let mut last = after;
    let mut retries = 0;
    loop {
        let mut stream = server.watch(game, token.as_deref(), last).await?;
        while let Some(message) = stream.message().await? {
            retries = 0;
            last = Some(message.version);
            let view = message.view.clone().unwrap_or_default();
            ctx.remember(&view);
            if ctx.json {
                let line =
                    serde_json::to_string(&json::to_json(&message).map_err(CliError::Local)?)
                        .map_err(|e| CliError::Local(format!("cannot write JSON: {e}")))?;
                println!("{line}");
            } else {
                if ruleset.is_none() {
                    ruleset = Some(server.ruleset(&view.ruleset).await?);
                }
                let ruleset = ruleset
                    .as_ref()
                    .ok_or_else(|| CliError::Local("no ruleset".into()))?;
                print_watched(ctx, ruleset, &message, &view);
            }
            if view.phase() == pb::Phase::Finished {
                return Ok(());
            }
        }
        // The stream ended before the game did (e.g. the server restarted): resume.
        retries += 1;
        if retries > 3 {
            return Err(ClientError::Unreachable {
                url: ctx.url.clone(),
                detail: "the watch stream keeps ending".into(),
            }
            .into());
        }
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
}

/// One watch message for people: a redraw on a terminal, a line otherwise.
fn print_watched(
    ctx: &Ctx,
    ruleset: &pb::Ruleset,
    message: &pb::WatchGameResponse,
    view: &pb::GameView,
) {
    let names = Names::new(ruleset);
    if ctx.terminal {
        print!("\x1b[2J\x1b[H{}", ctx.draw(ruleset, view));
        return;
    }
    match &message.event {
        Some(event) => println!(
            "{:>4}  {}",
            message.version,
            words::event(Lang::En, &names, Some(view), event)
        ),
        None => println!(
            "{:>4}  {}",
            message.version,
            [
                Some(words::phase(Lang::En, view.phase()).to_owned()),
                view.to_move
                    .map(|seat| format!("to move: {}", names.seat(seat))),
                Some(view)
                    .filter(|view| view.phase() == pb::Phase::Finished)
                    .and_then(|view| words::final_result(Lang::En, &names, view)),
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" · ")
        ),
    }
}

/// `history`.
pub async fn history(ctx: &Ctx, game: &str) -> Result<(), CliError> {
    let token = ctx.optional_token(game).await?;
    let server = ctx.server().await?;
    // The JSON document carries every position too, so that a saved file replays offline.
    let history = server.history(game, token.as_deref(), ctx.json).await?;
    let ruleset = server.ruleset(&history.ruleset).await?;
    if let Some(view) = &history.view {
        ctx.remember(view);
    }
    if ctx.json {
        return ctx
            .print_json(&json::history_document(&history, &ruleset).map_err(CliError::Local)?);
    }
    let names = Names::new(&ruleset);
    for event in &history.events {
        println!(
            "{:>4}  {}",
            event.version,
            words::event(Lang::En, &names, history.view.as_ref(), event)
        );
    }
    if let Some(reveal) = &history.reveal {
        println!("\nRevealed after the end:");
        for setup in &reveal.setups {
            println!(
                "  setup of {}: {}",
                names.seat(setup.seat),
                setup.canonical_setup
            );
        }
        if !reveal.dice_seed.is_empty() {
            println!("  dice seed: {}", reveal.dice_seed);
        }
        println!("`trinchera verify {game}` checks them against the commitments.");
    }
    Ok(())
}

/// Reads a saved history document.
fn read_history(path: &Path) -> Result<(pb::GetHistoryResponse, Option<pb::Ruleset>), CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| CliError::file("cannot read", path, e))?;
    json::read_history_document(&text)
        .map_err(|e| CliError::Local(format!("{} is not a history file: {e}", path.display())))
}

/// `verify`.
pub async fn verify(ctx: &Ctx, game: Option<&str>, file: Option<&Path>) -> Result<(), CliError> {
    let (history, ruleset) = match (game, file) {
        (_, Some(path)) => {
            let (history, ruleset) = read_history(path)?;
            let ruleset = match ruleset {
                Some(ruleset) => ruleset,
                None => ctx.server().await?.ruleset(&history.ruleset).await?,
            };
            (history, ruleset)
        }
        (Some(game), None) => {
            let token = ctx.optional_token(game).await?;
            let server = ctx.server().await?;
            let history = server.history(game, token.as_deref(), false).await?;
            let ruleset = server.ruleset(&history.ruleset).await?;
            (history, ruleset)
        }
        (None, None) => return Err(CliError::Usage("name a game or --history FILE".into())),
    };
    let game_id = history
        .view
        .as_ref()
        .map(|v| v.game_id.clone())
        .unwrap_or_default();
    let seen = ctx
        .store
        .game(&ctx.url, &game_id)?
        .filter(|record| !record.setup_commitments.is_empty() || record.dice_commitment.is_some());
    let report = verify::verify(Evidence {
        history: &history,
        ruleset: &ruleset,
        seen: seen.as_ref(),
        lang: Lang::En,
    })
    .map_err(CliError::Local)?;
    if ctx.json {
        let checks: Vec<serde_json::Value> = report
            .checks
            .iter()
            .map(|c| serde_json::json!({"check": c.name, "ok": c.ok, "detail": c.detail}))
            .collect();
        ctx.print_json(&serde_json::json!({
            "game_id": game_id,
            "ruleset": history.ruleset,
            "fair": report.fair(),
            "verdict": report.verdict(),
            "commitments_from": report.commitments_from,
            "checks": checks,
        }))?;
    } else {
        println!(
            "Game {game_id} ({}): commitments from {}.",
            history.ruleset, report.commitments_from
        );
        for check in &report.checks {
            let mark = if check.ok {
                ctx.style.paint("ok  ", Paint::Good)
            } else {
                ctx.style.paint("FAIL", Paint::Bad)
            };
            println!("  {mark} {}: {}", check.name, check.detail);
        }
        let verdict = report.verdict();
        let paint = if report.fair() {
            Paint::Good
        } else {
            Paint::Bad
        };
        println!("{}", ctx.style.paint(&format!("Verdict: {verdict}"), paint));
    }
    if report.fair() {
        Ok(())
    } else {
        Err(CliError::Unfair)
    }
}

/// `bench`: measures the server with the load client and prints its findings, the table or
/// (with --json) one document; fails after printing them if a call failed or a watcher
/// missed an event.
pub async fn bench(ctx: &Ctx, args: &trinchera_bench::BenchArgs) -> Result<(), CliError> {
    let findings = trinchera_bench::run(&ctx.url, &ctx.trust, args).await?;
    if ctx.json {
        ctx.print_json(&findings.to_json())?;
    } else {
        print!("{}", findings.to_text());
    }
    Ok(findings.verdict()?)
}
