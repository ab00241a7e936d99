//! Accounts over a store in memory with a fake clock: names, sign-ins, tokens, scopes,
//! deletion and the operators' upkeep.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use tonic::Code;
use trinchera_store::MemoryStore;

use super::*;
use crate::names::PLAYER_NAME;
use crate::now::FakeTime;
use crate::throttle::{RateLimit, RateLimits};

const START: u64 = 1_800_000_000_000;
const PASSWORD: &str = "correct horse";

/// Accounts over a fresh store, rate limits as `rates`, with their clock.
fn accounts_with(rates: RateLimits) -> (Accounts, Arc<FakeTime>) {
    let time = Arc::new(FakeTime::at(START));
    let limits = AccountLimits {
        hash_threads: 2,
        ..AccountLimits::default()
    };
    let store = Arc::new(MemoryStore::new());
    let clock = Arc::clone(&time) as Arc<dyn TimeSource>;
    (
        Accounts::new(store, clock, limits, &rates, PLAYER_NAME),
        time,
    )
}

fn accounts() -> (Accounts, Arc<FakeTime>) {
    accounts_with(RateLimits::OFF)
}

/// The code, reason and message a refusal is sent with.
fn refusal<T: std::fmt::Debug>(result: Result<T, ApiError>) -> (Code, String, String) {
    let status = tonic::Status::from(result.expect_err("refused"));
    let info = tonic_types::StatusExt::get_details_error_info(&status).expect("ErrorInfo");
    (status.code(), info.reason, status.message().to_owned())
}

async fn signed(accounts: &Accounts, issued: &Issued) -> Signed {
    accounts
        .authenticate(&issued.token)
        .await
        .expect("a working token")
}

#[tokio::test]
async fn names_are_one_whatever_their_case_and_width() {
    let (accounts, _) = accounts();
    let ana = accounts
        .register(" Ana ", PASSWORD, "cli")
        .await
        .expect("registered");
    assert_eq!(ana.account.name, "Ana");
    assert!(ana.token.starts_with(tokens::PREFIX) && ana.record.session);
    for taken in ["ana", "ＡＮＡ", "ANA"] {
        let (code, reason, message) = refusal(accounts.register(taken, PASSWORD, "").await);
        assert_eq!(
            (code, reason.as_str()),
            (Code::AlreadyExists, "NAME_TAKEN"),
            "{taken}"
        );
        assert!(message.contains("30 days"), "{message}");
    }
    for name in ["ａｎａ", "ANA"] {
        let session = accounts.login(None, name, PASSWORD, "gui").await;
        assert_eq!(session.expect("signed in").account.name, "Ana");
    }
    for bad in ["", "Bot (easy)", "mine", "Ｍｉｎｅ", "a\u{202E}b"] {
        let (code, reason, _) = refusal(accounts.register(bad, PASSWORD, "").await);
        assert_eq!(
            (code, reason.as_str()),
            (Code::InvalidArgument, "BAD_NAME"),
            "{bad:?}"
        );
    }
    let (code, reason, _) = refusal(accounts.register("Bea", "short", "").await);
    assert_eq!(
        (code, reason.as_str()),
        (Code::InvalidArgument, "BAD_PASSWORD")
    );
}

#[tokio::test]
async fn a_wrong_name_and_a_wrong_password_get_one_answer() {
    let (accounts, _) = accounts();
    accounts
        .register("Ana", PASSWORD, "")
        .await
        .expect("registered");
    let wrong_password = refusal(accounts.login(None, "Ana", "wrong horse", "").await);
    let wrong_name = refusal(accounts.login(None, "Nadie", PASSWORD, "").await);
    assert_eq!(wrong_password, wrong_name);
    assert_eq!(
        (wrong_name.0, wrong_name.1.as_str()),
        (Code::Unauthenticated, "BAD_CREDENTIALS")
    );
}

#[tokio::test]
async fn failed_sign_ins_are_limited_per_name_and_per_address() {
    let one_a_minute = |burst| Some(RateLimit::per_minute(nz(1), nz(burst)));
    let (accounts, _) = accounts_with(RateLimits {
        failed_logins: one_a_minute(4),
        failed_logins_per_name: one_a_minute(2),
        ..RateLimits::OFF
    });
    accounts
        .register("Ana", PASSWORD, "")
        .await
        .expect("registered");
    accounts
        .register("Bea", PASSWORD, "")
        .await
        .expect("registered");
    let here = Some(IpAddr::from([10, 0, 0, 1]));
    let there = Some(IpAddr::from([10, 0, 0, 2]));
    for _ in 0..5 {
        accounts
            .login(here, "Ana", PASSWORD, "")
            .await
            .expect("successes cost nothing");
    }
    for _ in 0..2 {
        let (code, ..) = refusal(accounts.login(here, "Ana", "wrong horse", "").await);
        assert_eq!(code, Code::Unauthenticated);
    }
    let (code, reason, message) = refusal(accounts.login(there, "ＡＮＡ", PASSWORD, "").await);
    assert_eq!(
        (code, reason.as_str()),
        (Code::ResourceExhausted, "RATE_LIMITED")
    );
    assert!(message.contains("for this name"), "{message}");
    for _ in 0..2 {
        let (code, ..) = refusal(accounts.login(here, "Bea", "wrong horse", "").await);
        assert_eq!(code, Code::Unauthenticated);
    }
    let (code, _, message) = refusal(accounts.login(here, "Cid", PASSWORD, "").await);
    assert_eq!(code, Code::ResourceExhausted);
    assert!(message.contains("from your address"), "{message}");
}

fn nz(n: u32) -> std::num::NonZeroU32 {
    std::num::NonZeroU32::new(n).expect("not zero")
}

#[tokio::test]
async fn tokens_end_when_revoked_signed_out_or_expired() {
    let (accounts, time) = accounts();
    let session = accounts
        .register("Ana", PASSWORD, "cli")
        .await
        .expect("registered");
    let ana = signed(&accounts, &session).await;
    time.advance(Duration::from_secs(1));
    let bot = accounts
        .create_token(&ana, Scopes::BOT, "my bot", 1)
        .await
        .expect("made");
    assert!(!bot.record.session);
    let listed = accounts.tokens(&ana).await.expect("listed");
    assert_eq!(listed.len(), 2);
    assert_eq!(listed[0].1.label, "my bot", "newest first");
    // A bot's token plays, but does not manage the account.
    let as_bot = signed(&accounts, &bot).await;
    let (code, reason, _) = refusal(accounts.create_token(&as_bot, Scopes::PLAY, "x", 0).await);
    assert_eq!((code, reason.as_str()), (Code::PermissionDenied, "SCOPE"));
    // A day later the bot's token has expired.
    time.advance(Duration::from_secs(86_400));
    let (code, _, message) = refusal(accounts.authenticate(&bot.token).await);
    assert_eq!(code, Code::Unauthenticated);
    assert!(message.contains("expired"), "{message}");
    assert_eq!(accounts.tokens(&ana).await.expect("listed").len(), 1);
    // Revoked by id: refused on the next call.
    let other = accounts
        .login(None, "Ana", PASSWORD, "gui")
        .await
        .expect("in");
    accounts
        .revoke(&ana, &token_id(&other.hash))
        .await
        .expect("revoked");
    assert!(accounts.authenticate(&other.token).await.is_err());
    let (code, reason, _) = refusal(accounts.revoke(&ana, "0123456789abcdef").await);
    assert_eq!((code, reason.as_str()), (Code::NotFound, "TOKEN_NOT_FOUND"));
    // Signed out.
    accounts.logout(&ana).await.expect("out");
    let (code, reason, _) = refusal(accounts.authenticate(&session.token).await);
    assert_eq!(
        (code, reason.as_str()),
        (Code::Unauthenticated, "BAD_TOKEN")
    );
}

#[tokio::test]
async fn a_new_password_ends_the_other_sessions_only() {
    let (accounts, _) = accounts();
    let first = accounts
        .register("Ana", PASSWORD, "cli")
        .await
        .expect("registered");
    let second = accounts
        .login(None, "Ana", PASSWORD, "gui")
        .await
        .expect("in");
    let ana = signed(&accounts, &first).await;
    let script = accounts
        .create_token(&ana, Scopes::PLAY, "script", 0)
        .await
        .expect("made");
    let (code, ..) = refusal(
        accounts
            .change_password(None, &ana, "wrong horse", "new horse!")
            .await,
    );
    assert_eq!(code, Code::Unauthenticated);
    let ended = accounts
        .change_password(None, &ana, PASSWORD, "new horse!")
        .await
        .expect("changed");
    assert_eq!(ended, 1);
    assert!(accounts.authenticate(&second.token).await.is_err());
    assert!(accounts.authenticate(&first.token).await.is_ok());
    assert!(accounts.authenticate(&script.token).await.is_ok());
    assert!(accounts.login(None, "Ana", PASSWORD, "").await.is_err());
    assert!(accounts.login(None, "Ana", "new horse!", "").await.is_ok());
}

#[tokio::test]
async fn a_deleted_account_keeps_its_name_for_30_days() {
    let (accounts, time) = accounts();
    let session = accounts
        .register("Ana", PASSWORD, "")
        .await
        .expect("registered");
    let ana = signed(&accounts, &session).await;
    assert!(accounts.delete(None, &ana, "wrong horse").await.is_err());
    accounts
        .delete(None, &ana, PASSWORD)
        .await
        .expect("deleted");
    assert!(accounts.authenticate(&session.token).await.is_err());
    let (code, reason, _) = refusal(accounts.login(None, "Ana", PASSWORD, "").await);
    assert_eq!(
        (code, reason.as_str()),
        (Code::Unauthenticated, "BAD_CREDENTIALS")
    );
    let (code, ..) = refusal(accounts.register("ana", PASSWORD, "").await);
    assert_eq!(code, Code::AlreadyExists);
    time.advance(Duration::from_secs(30 * 86_400 + 1));
    let again = accounts
        .register("ana", PASSWORD, "")
        .await
        .expect("free again");
    assert_ne!(signed(&accounts, &again).await.account, ana.account);
}

#[tokio::test]
async fn operators_disable_enable_and_reset() {
    let (accounts, _) = accounts();
    let session = accounts
        .register("Ana", PASSWORD, "")
        .await
        .expect("registered");
    accounts.set_disabled("ANA", true).await.expect("disabled");
    let (code, reason, _) = refusal(accounts.authenticate(&session.token).await);
    assert_eq!(
        (code, reason.as_str()),
        (Code::PermissionDenied, "ACCOUNT_DISABLED")
    );
    let (code, ..) = refusal(accounts.login(None, "Ana", "wrong horse", "").await);
    assert_eq!(
        code,
        Code::Unauthenticated,
        "a wrong password says nothing more"
    );
    let (code, ..) = refusal(accounts.login(None, "Ana", PASSWORD, "").await);
    assert_eq!(code, Code::PermissionDenied);
    accounts.set_disabled("ana", false).await.expect("enabled");
    assert!(accounts.authenticate(&session.token).await.is_ok());
    let (_, account, password) = accounts.reset_password("Ana").await.expect("reset");
    assert_eq!(account.name, "Ana");
    assert!(accounts.authenticate(&session.token).await.is_err());
    assert!(accounts.login(None, "Ana", PASSWORD, "").await.is_err());
    assert!(accounts.login(None, "Ana", &password, "").await.is_ok());
    let (code, reason, _) = refusal(accounts.set_disabled("Nadie", true).await);
    assert_eq!(
        (code, reason.as_str()),
        (Code::NotFound, "ACCOUNT_NOT_FOUND")
    );
    let (page, more) = accounts.list(None).await.expect("listed");
    assert_eq!((page.len(), more), (1, false));
}
