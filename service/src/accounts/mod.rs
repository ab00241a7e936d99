//! Player accounts: a name and a password that follow a person from one client to another,
//! and the tokens that act for the account.
//!
//! [`Accounts`] registers, signs in and out, changes passwords, deletes, makes, lists and
//! revokes tokens, and tells who a token acts for ([`Accounts::authenticate`], on every
//! call, from the store: a revoked token or a disabled account is refused at once, on every
//! server that shares the store). Passwords are hashed in [`passwords`] off the async
//! workers; failed sign-ins are limited in [`failures`]; tokens are made in [`tokens`].
//! Names follow the player-name rules of [`crate::names`] and are unique as they compare.

mod admin;
mod failures;
mod passwords;
mod tokens;

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use trinchera_store::records::{AccountRecord, AccountTokenRecord};
use trinchera_store::{AccountId, Store, TokenHash};

pub use self::admin::AccountAdmin;
use self::failures::FailedLogins;
use self::passwords::{Password, Passwords};
pub(crate) use self::tokens::{AccountToken, Scopes, is_account_token, token_id};
use crate::error::{AccountError, ApiError};
use crate::names::{self, NameLimit};
use crate::now::TimeSource;
use crate::throttle::RateLimits;

/// How accounts are kept: hashing, sessions, names of deleted accounts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccountLimits {
    /// Passwords hashed at once (each takes 19 MiB and a few dozen ms of a core); the other
    /// sign-ins wait their turn.
    pub hash_threads: usize,
    /// How long a session token from Register or Login works.
    pub session: Duration,
    /// How long the name of a deleted account stays reserved.
    pub name_hold: Duration,
}

impl AccountLimits {
    /// Passwords hashed at once by default: half the machine's cores, at least one, so that
    /// sign-ins leave the other half to the games.
    pub fn default_hash_threads() -> usize {
        std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1))
    }
}

impl Default for AccountLimits {
    fn default() -> Self {
        AccountLimits {
            hash_threads: AccountLimits::default_hash_threads(),
            session: Duration::from_secs(180 * 24 * 60 * 60),
            name_hold: Duration::from_secs(30 * 24 * 60 * 60),
        }
    }
}

/// Who a working account token acts for.
#[derive(Clone, Debug)]
pub(crate) struct Signed {
    /// The account.
    pub account: AccountId,
    /// Its name, as registered.
    pub name: String,
    /// The token's hash.
    pub token: TokenHash,
    /// The token as stored.
    pub record: AccountTokenRecord,
}

impl Signed {
    /// What the token may do.
    pub(crate) fn scopes(&self) -> Scopes {
        Scopes::from_bits(self.record.scopes)
    }
}

/// A token just made, shown once, with what it is.
#[derive(Debug)]
pub(crate) struct Issued {
    /// The account it acts for.
    pub account: AccountRecord,
    /// The secret.
    pub token: String,
    /// Its hash.
    pub hash: TokenHash,
    /// Its record.
    pub record: AccountTokenRecord,
}

/// Every account of the store.
pub(crate) struct Accounts {
    store: Arc<dyn Store>,
    time: Arc<dyn TimeSource>,
    passwords: Passwords,
    failures: FailedLogins,
    limits: AccountLimits,
    name_limit: NameLimit,
}

/// What ListGames takes for "the caller's games" in place of a player's name: no account
/// may be called so.
pub(crate) const MINE: &str = "mine";

/// Accounts listed per store query.
const PAGE: usize = 500;

impl Accounts {
    /// The accounts of `store` on the clock `time`, kept as `limits` say, failed sign-ins
    /// limited as `rates` say, names as long as `names` allows.
    pub(crate) fn new(
        store: Arc<dyn Store>,
        time: Arc<dyn TimeSource>,
        limits: AccountLimits,
        rates: &RateLimits,
        names: NameLimit,
    ) -> Self {
        Accounts {
            store,
            time,
            passwords: Passwords::new(limits.hash_threads),
            failures: FailedLogins::new(rates.failed_logins, rates.failed_logins_per_name),
            limits,
            name_limit: names,
        }
    }

    /// A name as the rules accept it, and as names compare.
    fn checked_name(&self, name: &str) -> Result<(String, String), ApiError> {
        let name = names::check(name, self.name_limit, "account name").map_err(|error| {
            ApiError::invalid(trinchera_game::Reason::BadName, error.to_string())
        })?;
        if name.is_empty() {
            return Err(ApiError::invalid(
                trinchera_game::Reason::BadName,
                "an account needs a name",
            ));
        }
        let folded = names::folded(&name);
        if folded == MINE {
            return Err(ApiError::invalid(
                trinchera_game::Reason::BadName,
                format!("{MINE:?} is no account name: ListGames takes it for the caller's games"),
            ));
        }
        Ok((name, folded))
    }

    /// Creates the account `name` with `password` and signs it in (a session labelled
    /// `label`).
    pub(crate) async fn register(
        &self,
        name: &str,
        password: &str,
        label: &str,
    ) -> Result<Issued, ApiError> {
        let (name, folded) = self.checked_name(name)?;
        let password = Password::new(password, "password")?;
        let now = self.time.now_ms();
        let account = AccountRecord {
            name,
            folded,
            password: self.passwords.hash(password).await?,
            created_ms: now,
            disabled: false,
            deleted_ms: 0,
        };
        let reusable_before = now.saturating_sub(self.limits.name_hold.as_millis() as u64);
        let Some(id) = self.store.create_account(&account, reusable_before).await? else {
            let days = self.limits.name_hold.as_secs() / 86_400;
            return Err(AccountError::NameTaken(account.name, days).into());
        };
        tracing::info!(account = %id, "account registered");
        self.issue(id, account, Scopes::PLAY, label, true, self.limits.session)
            .await
    }

    /// Signs `name` in with `password` from `peer`: a new session labelled `label`. A wrong
    /// name and a wrong password get the same answer after the same work.
    pub(crate) async fn login(
        &self,
        peer: Option<IpAddr>,
        name: &str,
        password: &str,
        label: &str,
    ) -> Result<Issued, ApiError> {
        let folded = names::folded(name.trim());
        self.failures.check(peer, &folded)?;
        let password = Password::new(password, "password")?;
        let holder = self
            .store
            .account_named(&folded)
            .await?
            .filter(|(_, account)| account.deleted_ms == 0);
        let hash = holder.as_ref().map(|(_, account)| account.password.clone());
        let right = self.passwords.verify(password, hash).await?;
        let Some((id, account)) = holder.filter(|_| right) else {
            self.failures.fail(peer, &folded);
            return Err(AccountError::BadCredentials.into());
        };
        if account.disabled {
            return Err(AccountError::Disabled.into());
        }
        let issued = self
            .issue(id, account, Scopes::PLAY, label, true, self.limits.session)
            .await?;
        // An operator may have disabled the account while the password was being checked:
        // its tokens were refused from then on, so this one is too.
        if self
            .live_account(id)
            .await?
            .is_none_or(|account| account.disabled)
        {
            self.store.remove_account_token(&issued.hash).await?;
            return Err(AccountError::Disabled.into());
        }
        Ok(issued)
    }

    /// The account `id` unless it was deleted.
    async fn live_account(&self, id: AccountId) -> Result<Option<AccountRecord>, ApiError> {
        Ok(self
            .store
            .account(id)
            .await?
            .filter(|account| account.deleted_ms == 0))
    }

    /// Makes and stores a token of account `id` for `lifetime` (zero: no end).
    async fn issue(
        &self,
        id: AccountId,
        account: AccountRecord,
        scopes: Scopes,
        label: &str,
        session: bool,
        lifetime: Duration,
    ) -> Result<Issued, ApiError> {
        let token = AccountToken::generate()?;
        let now = self.time.now_ms();
        let record = AccountTokenRecord {
            account: id.0,
            scopes: scopes.bits(),
            label: label.to_owned(),
            created_ms: now,
            expires_ms: if lifetime.is_zero() {
                0
            } else {
                now + lifetime.as_millis() as u64
            },
            session,
        };
        let hash = token.hash();
        self.store.put_account_token(&hash, &record).await?;
        Ok(Issued {
            account,
            token: token.reveal(),
            hash,
            record,
        })
    }

    /// Who the account token `token` acts for: refused if it was never issued, was revoked
    /// or expired, or its account is deleted or disabled. Read from the store on every
    /// call, so that a revocation holds at once on every server.
    pub(crate) async fn authenticate(&self, token: &str) -> Result<Signed, ApiError> {
        let hash = TokenHash::of(token);
        let Some(record) = self.store.account_token(&hash).await? else {
            return Err(AccountError::BadToken(
                "the account token is not valid (signed out, revoked or never issued)",
            )
            .into());
        };
        if record.expires_ms != 0 && record.expires_ms <= self.time.now_ms() {
            return Err(AccountError::BadToken("the account token has expired").into());
        }
        let account = AccountId(record.account);
        let Some(stored) = self.live_account(account).await? else {
            return Err(AccountError::BadToken("the account was deleted").into());
        };
        if stored.disabled {
            return Err(AccountError::Disabled.into());
        }
        Ok(Signed {
            account,
            name: stored.name,
            token: hash,
            record,
        })
    }

    /// The account of a working token, with the token's scopes checked for `what`.
    fn require(signed: &Signed, needed: Scopes, what: &'static str) -> Result<(), ApiError> {
        tokens::require(signed.scopes(), needed, what).map_err(ApiError::from)
    }

    /// Ends the calling token.
    pub(crate) async fn logout(&self, signed: &Signed) -> Result<(), ApiError> {
        self.store.remove_account_token(&signed.token).await?;
        Ok(())
    }

    /// The account a token acts for.
    pub(crate) async fn whoami(&self, signed: &Signed) -> Result<AccountRecord, ApiError> {
        self.live_account(signed.account)
            .await?
            .ok_or_else(|| AccountError::BadToken("the account was deleted").into())
    }

    /// Checks `password` against the account's, counting a failure as a failed sign-in.
    async fn confirm(
        &self,
        peer: Option<IpAddr>,
        signed: &Signed,
        password: &str,
    ) -> Result<AccountRecord, ApiError> {
        let account = self.whoami(signed).await?;
        self.failures.check(peer, &account.folded)?;
        let password = Password::new(password, "password")?;
        if !self
            .passwords
            .verify(password, Some(account.password.clone()))
            .await?
        {
            self.failures.fail(peer, &account.folded);
            return Err(AccountError::BadCredentials.into());
        }
        Ok(account)
    }

    /// Replaces the caller's password (`current` asked again) and ends the account's other
    /// sessions; how many ended.
    pub(crate) async fn change_password(
        &self,
        peer: Option<IpAddr>,
        signed: &Signed,
        current: &str,
        new: &str,
    ) -> Result<u32, ApiError> {
        Accounts::require(signed, Scopes::PLAY, "change the password")?;
        let new = Password::new(new, "new password")?;
        let mut account = self.confirm(peer, signed, current).await?;
        account.password = self.passwords.hash(new).await?;
        self.store.update_account(signed.account, &account).await?;
        let mut ended = 0;
        for (hash, token) in self.store.account_tokens(signed.account).await? {
            if token.session && hash != signed.token {
                self.store.remove_account_token(&hash).await?;
                ended += 1;
            }
        }
        tracing::info!(account = %signed.account, sessions_ended = ended, "password changed");
        Ok(ended)
    }

    /// Deletes the caller's account (`password` asked again): every token ends, the games
    /// stay, and the name is held for [`AccountLimits::name_hold`].
    pub(crate) async fn delete(
        &self,
        peer: Option<IpAddr>,
        signed: &Signed,
        password: &str,
    ) -> Result<(), ApiError> {
        Accounts::require(signed, Scopes::PLAY, "delete the account")?;
        let mut account = self.confirm(peer, signed, password).await?;
        account.deleted_ms = self.time.now_ms().max(1);
        self.store.update_account(signed.account, &account).await?;
        self.end_tokens(signed.account).await?;
        tracing::info!(account = %signed.account, "account deleted");
        Ok(())
    }

    /// Removes every token of `account`; how many.
    async fn end_tokens(&self, account: AccountId) -> Result<usize, ApiError> {
        let tokens = self.store.account_tokens(account).await?;
        for (hash, _) in &tokens {
            self.store.remove_account_token(hash).await?;
        }
        Ok(tokens.len())
    }

    /// Makes a personal token with `scopes`, `label` and a life of `expires_in_days` (0:
    /// no end).
    pub(crate) async fn create_token(
        &self,
        signed: &Signed,
        scopes: Scopes,
        label: &str,
        expires_in_days: u32,
    ) -> Result<Issued, ApiError> {
        Accounts::require(signed, Scopes::PLAY, "make tokens")?;
        let account = self.whoami(signed).await?;
        let lifetime = Duration::from_secs(u64::from(expires_in_days) * 86_400);
        self.issue(signed.account, account, scopes, label, false, lifetime)
            .await
    }

    /// The account's working tokens, newest first.
    pub(crate) async fn tokens(
        &self,
        signed: &Signed,
    ) -> Result<Vec<(TokenHash, AccountTokenRecord)>, ApiError> {
        Accounts::require(signed, Scopes::PLAY, "list tokens")?;
        let now = self.time.now_ms();
        let mut tokens: Vec<_> = self
            .store
            .account_tokens(signed.account)
            .await?
            .into_iter()
            .filter(|(_, token)| token.expires_ms == 0 || token.expires_ms > now)
            .collect();
        tokens.sort_by(|(a_hash, a), (b_hash, b)| {
            (b.created_ms, b_hash.0).cmp(&(a.created_ms, a_hash.0))
        });
        Ok(tokens)
    }

    /// Revokes the account's token whose id ([`token_id`]) is `id`.
    pub(crate) async fn revoke(&self, signed: &Signed, id: &str) -> Result<(), ApiError> {
        Accounts::require(signed, Scopes::PLAY, "revoke tokens")?;
        let tokens = self.store.account_tokens(signed.account).await?;
        let Some((hash, _)) = tokens.iter().find(|(hash, _)| token_id(hash) == id) else {
            return Err(AccountError::NoSuchToken(id.chars().take(40).collect()).into());
        };
        self.store.remove_account_token(hash).await?;
        Ok(())
    }

    /// The account called `name` (as names compare), deleted or not.
    pub(crate) async fn named(&self, name: &str) -> Result<(AccountId, AccountRecord), ApiError> {
        self.store
            .account_named(&names::folded(name.trim()))
            .await?
            .ok_or_else(|| AccountError::NoSuchAccount(name.chars().take(64).collect()).into())
    }

    /// A page of accounts by id, those after `after`, and whether more follow.
    pub(crate) async fn list(
        &self,
        after: Option<AccountId>,
    ) -> Result<(Vec<(AccountId, AccountRecord)>, bool), ApiError> {
        let mut page = self.store.accounts(after, PAGE + 1).await?;
        let more = page.len() > PAGE;
        page.truncate(PAGE);
        Ok((page, more))
    }

    /// Disables (or enables again) the account `name`: while disabled, its tokens are
    /// refused and it cannot sign in.
    pub(crate) async fn set_disabled(
        &self,
        name: &str,
        disabled: bool,
    ) -> Result<(AccountId, AccountRecord), ApiError> {
        let (id, mut account) = self.named(name).await?;
        account.disabled = disabled;
        self.store.update_account(id, &account).await?;
        tracing::info!(account = %id, disabled, "account disabled or enabled by an operator");
        Ok((id, account))
    }

    /// Gives the account `name` a new random password, returned to tell its owner, and
    /// ends every token of it.
    pub(crate) async fn reset_password(
        &self,
        name: &str,
    ) -> Result<(AccountId, AccountRecord, String), ApiError> {
        let (id, mut account) = self.named(name).await?;
        let password = hex::encode(crate::ids::random_bytes::<10>()?);
        account.password = self
            .passwords
            .hash(Password::new(&password, "password")?)
            .await?;
        self.store.update_account(id, &account).await?;
        let ended = self.end_tokens(id).await?;
        tracing::info!(account = %id, tokens_ended = ended, "password reset by an operator");
        Ok((id, account, password))
    }
}

#[cfg(test)]
mod tests;
