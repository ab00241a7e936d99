//! `trinchera-server accounts`: the operators' upkeep of player accounts (list, disable,
//! enable, reset a password), on a store no server uses or through a running server's
//! admin service.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use anyhow::Context;
use tonic::transport::Channel;
use trinchera_proto::admin::v1 as pb;
use trinchera_proto::admin::v1::admin_service_client::AdminServiceClient;
use trinchera_service::AccountAdmin;
use trinchera_store::Store;

use crate::StoreArgs;
use crate::client::{ClientTls, connect};
use crate::config::Config;

/// What to do with the accounts.
#[derive(Debug, clap::Subcommand)]
pub enum AccountsCommand {
    /// List every account: id, name, when registered, and whether disabled or deleted.
    List {
        /// One JSON object per account and line instead of a table.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        on: Where,
    },
    /// Disable an account: its tokens are refused at once (on every server sharing the
    /// store) and it cannot sign in; its games stay.
    Disable {
        /// The account's name (compared regardless of case and width).
        name: String,
        #[command(flatten)]
        on: Where,
    },
    /// Enable a disabled account again.
    Enable {
        /// The account's name.
        name: String,
        #[command(flatten)]
        on: Where,
    },
    /// Give an account a new random password (printed once on stdout) and end every token
    /// of it; its owner signs in with it and changes it.
    ResetPassword {
        /// The account's name.
        name: String,
        #[command(flatten)]
        on: Where,
    },
}

/// Where the accounts are: a store no server uses, or a running server's admin service.
#[derive(Debug, clap::Args)]
pub struct Where {
    #[command(flatten)]
    pub store: StoreArgs,
    /// Through a running server's admin service (admin.listen), e.g.
    /// http://127.0.0.1:50052, instead of a store no server is using.
    #[arg(long, value_name = "URL", conflicts_with_all = ["data_dir", "store"])]
    from: Option<String>,
    #[command(flatten)]
    tls: ClientTls,
}

impl AccountsCommand {
    /// Where the command works.
    pub fn place(&self) -> &Where {
        match self {
            AccountsCommand::List { on, .. }
            | AccountsCommand::Disable { on, .. }
            | AccountsCommand::Enable { on, .. }
            | AccountsCommand::ResetPassword { on, .. } => on,
        }
    }
}

/// The accounts, reached one way or the other.
enum Admin {
    /// On the configured store.
    Local(AccountAdmin, Arc<dyn Store>),
    /// Through the admin service.
    Remote(AdminServiceClient<Channel>),
}

impl Admin {
    async fn open(config: &Config, on: &Where) -> anyhow::Result<Admin> {
        match &on.from {
            Some(url) => {
                let channel = connect(url, &on.tls, Duration::from_secs(10)).await?;
                Ok(Admin::Remote(AdminServiceClient::new(channel)))
            }
            None => {
                let store = crate::backup::open(config).await?;
                Ok(Admin::Local(AccountAdmin::new(Arc::clone(&store)), store))
            }
        }
    }

    async fn list(&mut self, after_id: u64) -> anyhow::Result<pb::ListAccountsResponse> {
        match self {
            Admin::Local(admin, _) => Ok(admin.list(after_id).await?),
            Admin::Remote(client) => Ok(client
                .list_accounts(pb::ListAccountsRequest { after_id })
                .await
                .map_err(refused)?
                .into_inner()),
        }
    }

    async fn set_disabled(
        &mut self,
        name: &str,
        disabled: bool,
    ) -> anyhow::Result<pb::AccountEntry> {
        let changed = match self {
            Admin::Local(admin, _) => admin.set_disabled(name, disabled).await?,
            Admin::Remote(client) => client
                .set_account_disabled(pb::SetAccountDisabledRequest {
                    name: name.to_owned(),
                    disabled,
                })
                .await
                .map_err(refused)?
                .into_inner(),
        };
        changed.account.context("the answer names no account")
    }

    async fn reset_password(&mut self, name: &str) -> anyhow::Result<pb::ResetPasswordResponse> {
        match self {
            Admin::Local(admin, _) => Ok(admin.reset_password(name).await?),
            Admin::Remote(client) => Ok(client
                .reset_password(pb::ResetPasswordRequest {
                    name: name.to_owned(),
                })
                .await
                .map_err(refused)?
                .into_inner()),
        }
    }

    /// Closes the store, if this opened one.
    async fn close(self) -> anyhow::Result<()> {
        if let Admin::Local(_, store) = self {
            store.close().await.context("closing the store")?;
        }
        Ok(())
    }
}

/// The admin service's refusal, in its own words.
fn refused(status: tonic::Status) -> anyhow::Error {
    anyhow::anyhow!("the admin service refused: {}", status.message())
}

/// `trinchera-server accounts ...`.
pub async fn run(config: &Config, command: AccountsCommand) -> anyhow::Result<ExitCode> {
    let mut admin = Admin::open(config, command.place()).await?;
    let done = match &command {
        AccountsCommand::List { json, .. } => list(&mut admin, *json).await,
        AccountsCommand::Disable { name, .. } | AccountsCommand::Enable { name, .. } => {
            let disable = matches!(command, AccountsCommand::Disable { .. });
            let account = admin.set_disabled(name, disable).await;
            account.map(|account| {
                let done = if disable { "disabled" } else { "enabled" };
                eprintln!(
                    "trinchera-server: account {} ({}) {done}",
                    account.id, account.name
                );
            })
        }
        AccountsCommand::ResetPassword { name, .. } => {
            admin.reset_password(name).await.map(|reset| {
                let account = reset.account.unwrap_or_default();
                eprintln!(
                    "trinchera-server: account {} ({}) has a new password (below, shown once); \
                     every token of it has ended",
                    account.id, account.name
                );
                println!("{}", reset.password);
            })
        }
    };
    admin.close().await?;
    done.map(|()| ExitCode::SUCCESS)
}

/// Prints every account, a page at a time.
async fn list(admin: &mut Admin, json: bool) -> anyhow::Result<()> {
    if !json {
        println!("{:>8}  {:<32}  {:<29}  STATUS", "ID", "NAME", "REGISTERED");
    }
    let mut after = 0;
    loop {
        let page = admin.list(after).await?;
        for account in &page.accounts {
            if json {
                println!("{}", json_line(account));
            } else {
                println!(
                    "{:>8}  {:<32}  {:<29}  {}",
                    account.id,
                    account.name,
                    date(account.created_ms),
                    status(account)
                );
            }
        }
        if page.next_after_id == 0 {
            return Ok(());
        }
        after = page.next_after_id;
    }
}

/// An account as a JSON line.
fn json_line(account: &pb::AccountEntry) -> String {
    serde_json::json!({
        "id": account.id,
        "name": account.name,
        "created_ms": account.created_ms,
        "disabled": account.disabled,
        "deleted_ms": account.deleted_ms,
    })
    .to_string()
}

/// Whether an account is in use, disabled or deleted.
fn status(account: &pb::AccountEntry) -> String {
    match (account.deleted_ms, account.disabled) {
        (0, false) => "active".to_owned(),
        (0, true) => "disabled".to_owned(),
        (deleted, _) => format!("deleted {}", date(deleted)),
    }
}

/// A time as an HTTP date.
fn date(ms: u64) -> String {
    httpdate::fmt_http_date(UNIX_EPOCH + Duration::from_millis(ms))
}
