//! The account commands: `register`, `login`, `logout`, `whoami` and `token`. The session is
//! kept in the token store beside the seat tokens, one per server, where the desktop client
//! finds it too.

use trinchera_client::SignedIn;
use trinchera_client::accounts::day;
use trinchera_proto::v1 as pb;

use crate::cli::{PasswordArgs, ScopeArg, TokenCommand};
use crate::context::Ctx;
use crate::error::CliError;
use crate::password::{Confirm, password};
use crate::table;

/// What this client calls its sessions in the account's list of tokens.
const SESSION_LABEL: &str = "trinchera-cli";

/// `register`.
pub async fn register(ctx: &Ctx, name: &str, how: &PasswordArgs) -> Result<(), CliError> {
    let server = ctx.server().await?;
    let password = password(how, name, Confirm::Twice)?;
    let signed = server
        .register(name, password.expose(), SESSION_LABEL)
        .await?;
    let name = keep(ctx, &signed).await?;
    if ctx.json {
        return ctx.print_message(&signed.who);
    }
    println!("Registered {name} on {} and signed in here.", ctx.url);
    println!(
        "Games you create or join are now {name}'s: sign in on any machine or client to go on \
         with them (`trinchera login {name}`; `trinchera games --mine` lists them)."
    );
    Ok(())
}

/// `login`.
pub async fn login(ctx: &Ctx, name: &str, how: &PasswordArgs) -> Result<(), CliError> {
    let server = ctx.server().await?;
    let password = password(how, name, Confirm::Once)?;
    let signed = server.login(name, password.expose(), SESSION_LABEL).await?;
    let name = keep(ctx, &signed).await?;
    if ctx.json {
        return ctx.print_message(&signed.who);
    }
    println!("Signed in as {name} on {}.", ctx.url);
    println!("`trinchera games --mine` lists your games; every command now acts for {name}.");
    Ok(())
}

/// Keeps the new session in place of any other, whose session ends on the server (as far
/// as it answers: a session that did not end runs out or is revoked). The account's name.
async fn keep(ctx: &Ctx, signed: &SignedIn) -> Result<String, CliError> {
    let before = ctx.session()?;
    ctx.store.sign_in(&ctx.url, signed.session.clone())?;
    if let Some(before) = before.filter(|before| before.token != signed.session.token) {
        let _ = ctx.server().await?.logout(&before.token).await;
    }
    Ok(signed.session.name.clone())
}

/// `logout`: ends the session on the server and forgets it here, even when the server does
/// not answer (with a warning that the session may still work there).
pub async fn logout(ctx: &Ctx) -> Result<(), CliError> {
    let Some(session) = ctx.session()? else {
        if ctx.json {
            return ctx.print_json(&serde_json::json!({"account": null, "session_ended": false}));
        }
        println!("Not signed in on {}: nothing to sign out of.", ctx.url);
        return Ok(());
    };
    let ended = match ctx.server().await {
        Ok(server) => server.logout(&session.token).await.map_err(CliError::from),
        Err(error) => Err(error),
    };
    ctx.store.sign_out(&ctx.url)?;
    let name = &session.name;
    let ended = match ended {
        Ok(()) => true,
        // Signed out elsewhere, revoked or expired: it works no more.
        Err(error) if matches!(error.refusal(), Some((_, Some("BAD_TOKEN")))) => true,
        Err(error) => {
            eprintln!("warning: {error}");
            eprintln!(
                "warning: the session could not be ended on the server and may work there \
                 until it runs out; signed in elsewhere, `trinchera token list` shows it and \
                 `trinchera token revoke {}` ends it",
                session.id
            );
            false
        }
    };
    if ctx.json {
        return ctx.print_json(&serde_json::json!({"account": name, "session_ended": ended}));
    }
    if ended {
        println!("Signed out of {name} on {}.", ctx.url);
    } else {
        println!("Forgot the session of {name} on {} here.", ctx.url);
    }
    Ok(())
}

/// `whoami`: the account the signed-in session (or an account's `--token`) acts for.
pub async fn whoami(ctx: &Ctx) -> Result<(), CliError> {
    let Some(token) = ctx.optional_account_token()? else {
        if ctx.json {
            return ctx.print_message(&pb::WhoAmIResponse::default());
        }
        println!(
            "Not signed in on {}: commands act as a guest. `trinchera login NAME` signs in, \
             `trinchera register NAME` makes an account.",
            ctx.url
        );
        return Ok(());
    };
    let who = ctx.server().await?.who_am_i(&token).await?;
    if ctx.json {
        return ctx.print_message(&who);
    }
    let account = who.account.unwrap_or_default();
    println!(
        "Signed in as {} on {} (registered {}).",
        account.name,
        ctx.url,
        day(account.created_ms)
    );
    if let Some(info) = who.token {
        let kind = if info.session { "Session" } else { "Token" };
        println!(
            "{kind} {:?} (id {}): scopes {}, made {}, {}.",
            info.label,
            info.id,
            scopes(&info.scopes),
            day(info.created_ms),
            expiry(info.expires_ms)
        );
    }
    Ok(())
}

/// `token create|list|revoke`.
pub async fn token(ctx: &Ctx, command: &TokenCommand) -> Result<(), CliError> {
    let token = ctx.account_token()?;
    let server = ctx.server().await?;
    match command {
        TokenCommand::Create {
            scopes: wanted,
            label,
            expires_days,
        } => {
            let request = pb::CreateTokenRequest {
                scopes: wanted.iter().map(|s| ScopeArg::scope(*s) as i32).collect(),
                label: label.clone(),
                expires_in_days: expires_days.unwrap_or(0),
            };
            let made = server.create_token(&token, request).await?;
            if ctx.json {
                return ctx.print_message(&made);
            }
            let info = made.token_info.unwrap_or_default();
            // The notes on stderr, so that `> file` keeps the token alone.
            eprintln!(
                "Token {:?} (id {}): scopes {}, {}.",
                info.label,
                info.id,
                scopes(&info.scopes),
                expiry(info.expires_ms)
            );
            eprintln!(
                "It is shown only this once: keep it somewhere safe. `trinchera token revoke {}` \
                 ends it.",
                info.id
            );
            println!("{}", made.token);
            Ok(())
        }
        TokenCommand::List => {
            let listed = server.tokens(&token).await?;
            if ctx.json {
                return ctx.print_message(&listed);
            }
            let here = ctx.session()?.map(|session| session.id);
            let mut rows =
                vec![["ID", "LABEL", "KIND", "SCOPES", "MADE", "EXPIRES", ""].map(String::from)];
            rows.extend(listed.tokens.iter().map(|info| {
                [
                    info.id.clone(),
                    info.label.clone(),
                    if info.session { "session" } else { "personal" }.to_owned(),
                    scopes(&info.scopes),
                    day(info.created_ms),
                    match info.expires_ms {
                        0 => "never".to_owned(),
                        ms => day(ms),
                    },
                    if here.as_deref() == Some(info.id.as_str()) {
                        "(this machine)".to_owned()
                    } else {
                        String::new()
                    },
                ]
            }));
            for row in table::padded(&rows) {
                println!("{}", row.join("  ").trim_end());
            }
            Ok(())
        }
        TokenCommand::Revoke { id } => {
            server.revoke_token(&token, id).await?;
            let here = ctx.session()?.is_some_and(|session| &session.id == id);
            if here {
                ctx.store.sign_out(&ctx.url)?;
            }
            if ctx.json {
                return ctx.print_json(&serde_json::json!({"revoked": id, "signed_out": here}));
            }
            println!("Revoked token {id}: it no longer works.");
            if here {
                println!("It was this machine's session: signed out here.");
            }
            Ok(())
        }
    }
}

/// Scopes in words: "play", "play, bot".
fn scopes(scopes: &[i32]) -> String {
    let words: Vec<&str> = scopes
        .iter()
        .map(|scope| match pb::TokenScope::try_from(*scope) {
            Ok(pb::TokenScope::Play) => "play",
            Ok(pb::TokenScope::Bot) => "bot",
            Ok(pb::TokenScope::Unspecified) | Err(_) => "unknown",
        })
        .collect();
    words.join(", ")
}

/// When a token runs out, in words.
fn expiry(expires_ms: u64) -> String {
    match expires_ms {
        0 => "never expires".to_owned(),
        ms => format!("expires {}", day(ms)),
    }
}
