//! The operators' upkeep of accounts: list them, disable or enable one, reset a password.
//! What the admin service answers on a running server, and what `trinchera-server accounts`
//! does on a store no server uses, in the admin service's own messages.

use std::sync::Arc;

use trinchera_proto::admin::v1 as pb;
use trinchera_store::records::AccountRecord;
use trinchera_store::{AccountId, Store};

use super::{AccountLimits, Accounts};
use crate::error::ApiError;
use crate::names::PLAYER_NAME;
use crate::now::SystemTime;
use crate::throttle::RateLimits;

/// The operators' side of the accounts of one store.
pub struct AccountAdmin {
    accounts: Arc<Accounts>,
}

/// An account as operators see it.
fn entry(id: AccountId, account: &AccountRecord) -> pb::AccountEntry {
    pb::AccountEntry {
        id: id.0,
        name: account.name.clone(),
        created_ms: account.created_ms,
        disabled: account.disabled,
        deleted_ms: account.deleted_ms,
    }
}

impl AccountAdmin {
    /// The accounts of `store`, which no server uses (passwords hashed on one thread).
    pub fn new(store: Arc<dyn Store>) -> AccountAdmin {
        let limits = AccountLimits {
            hash_threads: 1,
            ..AccountLimits::default()
        };
        let accounts = Accounts::new(
            store,
            Arc::new(SystemTime),
            limits,
            &RateLimits::OFF,
            PLAYER_NAME,
        );
        AccountAdmin::over(Arc::new(accounts))
    }

    /// The upkeep of a running server's `accounts`.
    pub(crate) fn over(accounts: Arc<Accounts>) -> AccountAdmin {
        AccountAdmin { accounts }
    }

    /// A page of accounts by id, those after `after_id` (0: from the first).
    pub async fn list(&self, after_id: u64) -> Result<pb::ListAccountsResponse, ApiError> {
        let after = Some(after_id).filter(|&id| id != 0).map(AccountId);
        let (page, more) = self.accounts.list(after).await?;
        Ok(pb::ListAccountsResponse {
            next_after_id: page.last().filter(|_| more).map_or(0, |(id, _)| id.0),
            accounts: page
                .iter()
                .map(|(id, account)| entry(*id, account))
                .collect(),
        })
    }

    /// Disables the account `name` (as names compare), or enables it again.
    pub async fn set_disabled(
        &self,
        name: &str,
        disabled: bool,
    ) -> Result<pb::SetAccountDisabledResponse, ApiError> {
        let (id, account) = self.accounts.set_disabled(name, disabled).await?;
        Ok(pb::SetAccountDisabledResponse {
            account: Some(entry(id, &account)),
        })
    }

    /// Gives the account `name` a new random password and ends every token of it.
    pub async fn reset_password(&self, name: &str) -> Result<pb::ResetPasswordResponse, ApiError> {
        let (id, account, password) = self.accounts.reset_password(name).await?;
        Ok(pb::ResetPasswordResponse {
            account: Some(entry(id, &account)),
            password,
        })
    }
}
