//! `--login-flood`: sign-ins with a wrong password kept in flight while the games are
//! measured, so that the report shows whether password hashing slows the moves.

use std::sync::Arc;
use std::time::Instant;

use tokio::task::JoinSet;
use trinchera_proto::v1 as pb;
use trinchera_proto::v1::account_service_client::AccountServiceClient;

use crate::failure::Failure;
use crate::player::Table;

/// What the flood did.
#[derive(Clone, Copy, Debug, Default)]
pub struct Flooded {
    /// Calls kept in flight.
    pub calls: u32,
    /// Sign-ins answered (refused as wrong, as they should be).
    pub answered: u64,
    /// Sign-ins refused for another reason (a rate limit: start the server with
    /// `--no-rate-limits` to let them through to the hashing), or failed.
    pub other: u64,
}

/// Keeps `calls` wrong sign-ins in flight over `table`'s connections until `until`.
pub async fn flood(table: Arc<Table>, calls: u32, until: Instant) -> Flooded {
    let mut tasks = JoinSet::new();
    for caller in 0..calls as usize {
        let table = Arc::clone(&table);
        tasks.spawn(async move {
            let mut client = AccountServiceClient::new(table.server(caller).channel().clone());
            let (mut answered, mut other) = (0, 0);
            while Instant::now() < until {
                let login = pb::LoginRequest {
                    name: format!("flood-{caller}"),
                    password: "not the password".into(),
                    label: "trinchera bench".into(),
                };
                match client.login(login).await {
                    Err(status) if status.code() == tonic::Code::Unauthenticated => answered += 1,
                    Err(status) => {
                        let error = table.server(caller).error(status);
                        table.errors.count(&Failure::from(error));
                        other += 1;
                    }
                    Ok(_) => other += 1,
                }
            }
            (answered, other)
        });
    }
    let mut flooded = Flooded {
        calls,
        ..Flooded::default()
    };
    while let Some(done) = tasks.join_next().await {
        let (answered, other) = done.unwrap_or_default();
        flooded.answered += answered;
        flooded.other += other;
    }
    flooded
}
