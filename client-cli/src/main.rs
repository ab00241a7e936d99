//! `trinchera`: the command-line client of a Trinchera game server.
//!
//! A thin client: it depends on the public contract (`trinchera-proto`) only. The server
//! knows the rules and lists the legal moves; this program draws what `ListRulesets`
//! describes, keeps the player's tokens and account session, and checks the fairness
//! commitments after a game
//! (the connection, the token store and the checks are `trinchera-client`'s, shared with the
//! desktop client).

mod accounts;
mod arena;
mod cli;
mod commands;
mod context;
mod error;
mod password;
mod play;
mod render;
mod rulesets;
mod table;
mod words;

/// mimalloc, as in the server: `trinchera bench` shares the machine with the server it
/// measures, so its own allocations should cost as little as the server's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::process::ExitCode;

use clap::{CommandFactory, Parser};

use crate::cli::{Cli, Command, RulesetsCommand};
use crate::context::Ctx;
use crate::error::CliError;

/// The exit status of a Unix program killed by SIGPIPE (128 + 13), as shells report it.
const BROKEN_PIPE_EXIT: i32 = 141;

/// Ends the program quietly when its output is closed (`trinchera games | head`), as Unix
/// tools do, instead of panicking on the failed print.
fn quiet_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if message.contains("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(BROKEN_PIPE_EXIT);
        }
        default(info);
    }));
}

/// Reports arguments that do not parse: clap's text on stderr (help and version on stdout,
/// exit 0), and with `--json` also the promised `{"error": …}` document on stdout.
fn usage_error(error: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    ) {
        let _ = error.print();
        return ExitCode::SUCCESS;
    }
    let error = usage_as_typed(error);
    let rendered = error.render().to_string();
    let first = rendered.lines().next().unwrap_or_default();
    let usage = CliError::Usage(first.trim_start_matches("error: ").to_owned());
    if std::env::args().any(|arg| arg == "--json") {
        println!("{}", usage.to_json());
    }
    let _ = error.print();
    usage.exit_code()
}

/// The parse `error` with the usage line of what was typed. Clap counts a global option
/// set in the environment (`TRINCHERA_SERVER`, `TRINCHERA_TOKEN`, `TRINCHERA_TLS_CA`) as
/// given, and shows it in an error's usage line as if the command needed it (`play
/// --server <SERVER> <RULESET|…>`); the same arguments parsed without the environment say
/// the same error with the usage line as typed. Help, which shows the environment's
/// values, is left alone.
fn usage_as_typed(error: clap::Error) -> clap::Error {
    if !error.use_stderr() {
        return error;
    }
    let typed = Cli::command()
        .mut_args(|arg| arg.env(None))
        .try_get_matches_from(std::env::args_os());
    match typed {
        Err(plain) if plain.kind() == error.kind() => plain,
        _ => error,
    }
}

fn main() -> ExitCode {
    quiet_on_broken_pipe();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return usage_error(error),
    };
    let json = cli.json;
    // Only the benchmark needs more than one thread to drive a server.
    let runtime = match &cli.command {
        Command::Bench(args) => {
            let mut builder = tokio::runtime::Builder::new_multi_thread();
            builder.worker_threads(args.client_threads as usize);
            builder
        }
        _ => tokio::runtime::Builder::new_current_thread(),
    }
    .enable_all()
    .build();
    let outcome = runtime
        .map_err(|e| CliError::Local(format!("cannot start the async runtime: {e}")))
        .and_then(|runtime| runtime.block_on(run(cli)));
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        // `verify` has already printed its report and verdict.
        Err(error @ CliError::Unfair) => error.exit_code(),
        // `bench` has already printed its report (with --json, the one document).
        Err(error @ CliError::BenchFailed(_)) => {
            eprintln!("trinchera: {error}");
            error.exit_code()
        }
        Err(error) => {
            if json {
                println!("{}", error.to_json());
            }
            eprintln!("trinchera: {error}");
            if let Some((_, Some(reason))) = error.refusal()
                && !json
            {
                eprintln!("(server reason: {reason})");
            }
            error.exit_code()
        }
    }
}

/// Runs the parsed command.
async fn run(cli: Cli) -> Result<(), CliError> {
    if let Command::Completions { shell } = &cli.command {
        clap_complete::generate(
            *shell,
            &mut Cli::command(),
            "trinchera",
            &mut std::io::stdout(),
        );
        return Ok(());
    }
    let ctx = Ctx::new(&cli)?;
    let done = match &cli.command {
        Command::Rulesets { show: None } => rulesets::rulesets(&ctx).await,
        Command::Rulesets {
            show: Some(RulesetsCommand::Show { id }),
        }
        | Command::Rules { id } => rulesets::ruleset_show(&ctx, id).await,
        Command::New(args) => commands::new(&ctx, args).await,
        Command::Join { game, name } => commands::join(&ctx, game, name.as_deref()).await,
        Command::Games(args) => commands::games(&ctx, args).await,
        Command::Register { name, password } => accounts::register(&ctx, name, password).await,
        Command::Login { name, password } => accounts::login(&ctx, name, password).await,
        Command::Logout => accounts::logout(&ctx).await,
        Command::Whoami => accounts::whoami(&ctx).await,
        Command::Token { command } => accounts::token(&ctx, command).await,
        Command::Setup { game, how } => commands::setup(&ctx, game, how).await,
        Command::Show { game } => commands::show(&ctx, game).await,
        Command::Moves { game, cell } => commands::moves(&ctx, game, cell.as_deref()).await,
        Command::Move {
            game,
            notation,
            expect_version,
        } => commands::make_move(&ctx, game, notation, *expect_version).await,
        Command::Resign { game, yes } => commands::resign(&ctx, game, *yes).await,
        Command::Watch { game, after } => commands::watch(&ctx, game, *after).await,
        Command::History { game } => commands::history(&ctx, game).await,
        Command::Verify { game, history } => {
            commands::verify(&ctx, game.as_deref(), history.as_deref()).await
        }
        Command::Play(args) => play::play(&ctx, args).await,
        Command::Bench(args) => commands::bench(&ctx, args).await,
        Command::Arena(args) => arena::arena(&ctx, args).await,
        Command::Completions { .. } => Ok(()),
    };
    done.map_err(|error| ctx.explain(error))
}
