//! `play`: the interactive loop for a person at a terminal (or anything writing to its
//! standard input): create or join, set up, then show the board and prompt for moves until
//! the game ends or the player leaves. The game's events arrive over a watch stream the
//! whole time, so they are told at once, at the prompt too ([`session`]); the prompt is a
//! line editor on a terminal ([`console`]).

mod console;
mod editor;
mod keys;
mod session;
mod terminal;

use trinchera_client::{ClientError, Names};

use self::session::{Ending, Session};
use crate::cli::{NewArgs, PlayArgs};
use crate::commands;
use crate::context::Ctx;
use crate::error::CliError;

/// `play`.
pub async fn play(ctx: &Ctx, args: &PlayArgs) -> Result<(), CliError> {
    if ctx.json {
        return Err(CliError::Usage(
            "play is interactive; scripts use new, join, setup, moves and move with --json".into(),
        ));
    }
    let (game, token) = if let Some(ruleset) = &args.ruleset {
        let created = commands::new_game(
            ctx,
            &NewArgs {
                ruleset: ruleset.clone(),
                seat: args.seat,
                name: args.name.clone(),
                game_name: None,
                bot: args.bot.clone(),
                options: vec![],
                clock: args.clock.clone(),
            },
        )
        .await?;
        (created.game_id, created.player_token)
    } else if let Some(game) = &args.join {
        let joined = commands::join_game(ctx, game, args.name.as_deref()).await?;
        (joined.game_id, joined.player_token)
    } else {
        let game = args.resume.clone().unwrap_or_default();
        let token = ctx.token(&game).await?;
        (game, token)
    };
    let server = ctx.server().await?;
    let view = server.view(&game, Some(&token)).await?;
    let ruleset = server.ruleset(&view.ruleset).await?;
    let Some(seat) = view.viewer_seat else {
        return Err(ctx.no_seat(&game).await);
    };
    let names = Names::new(&ruleset);
    println!(
        "Game {game} ({}): you play {} (seat {seat}). Type `help` at a prompt for commands.",
        ruleset.name,
        names.seat(seat)
    );
    let mut session = Session::start(ctx, token, view, ruleset, seat).await?;
    let ending = tokio::select! {
        ending = session.run() => ending,
        // A signal (on a terminal the prompt reads Ctrl-C as a key) leaves like `quit`,
        // with the terminal restored.
        () = stop_requested() => Ok(Ending::Left),
    };
    // The terminal is itself again before the last words.
    drop(session);
    match ending {
        Ok(Ending::Over) => Ok(()),
        Ok(Ending::Left) => {
            println!("{}", leaving(&game));
            Ok(())
        }
        Err(error @ CliError::Client(ClientError::Unreachable { .. })) => {
            // The game goes on at the server; say how to get back to it.
            eprintln!("{}", leaving(&game));
            Err(error)
        }
        Err(error) => Err(error),
    }
}

/// Resolves when the process is asked to stop: SIGINT, or SIGTERM on Unix.
async fn stop_requested() {
    let interrupted = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut terminate) = signal(SignalKind::terminate()) {
            tokio::select! {
                () = interrupted => {}
                _ = terminate.recv() => {}
            }
            return;
        }
    }
    interrupted.await;
}

/// What a player who leaves a running game reads.
fn leaving(game: &str) -> String {
    format!("Leaving; the game goes on. Come back with `trinchera play --resume {game}`.")
}
