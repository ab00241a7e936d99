//! Accounts through the real server: the whole flow from registering to finishing a game
//! from another client, the seats an account's token acts for (a property over random
//! games), listings by player, and the refusals.

use rand::RngExt;
use tonic::Code;
use trinchera_proto::v1 as pb;

use crate::backup::{server_command, succeeds};
use crate::harness::{
    AccountClient, ChildServer, Client, PASSWORD, Player, TestServer, account_client, authed,
    create_token, offline_store_args, play_random_move, random_setups, register, rng, scaled,
    spectator_view, try_view_of, view_of,
};

/// Creates a game of `ruleset` for `creator` and joins it for `joiner`: each an account's
/// token (`Ok`) or a guest's name (`Err`). The tokens that act for each seat.
async fn game_between(
    client: &mut Client,
    ruleset: &str,
    creator: Result<&str, &str>,
    joiner: Result<&str, &str>,
) -> [Player; 2] {
    let create = pb::CreateGameRequest {
        ruleset: ruleset.into(),
        player_name: creator.err().unwrap_or("Ignored").into(),
        ..Default::default()
    };
    let created = match creator {
        Ok(token) => client.create_game(authed(create, token)).await,
        Err(_) => client.create_game(create).await,
    }
    .expect("created")
    .into_inner();
    let join = pb::JoinGameRequest {
        game_id: created.game_id.clone(),
        player_name: joiner.err().unwrap_or("Ignored").into(),
    };
    let joined = match joiner {
        Ok(token) => client.join_game(authed(join, token)).await,
        Err(_) => client.join_game(join).await,
    }
    .expect("joined")
    .into_inner();
    let token_of = |holder: Result<&str, &str>, seat_token: String| match holder {
        Ok(account) => account.to_owned(),
        Err(_) => seat_token,
    };
    [
        Player {
            game: created.game_id.clone(),
            seat: 0,
            token: token_of(creator, created.player_token),
        },
        Player {
            game: created.game_id,
            seat: 1,
            token: token_of(joiner, joined.player_token),
        },
    ]
}

/// Signs `name` in: a new session's token.
async fn login(accounts: &mut AccountClient, name: &str) -> String {
    accounts
        .login(pb::LoginRequest {
            name: name.into(),
            password: PASSWORD.into(),
            label: "another machine".into(),
        })
        .await
        .expect("signed in")
        .into_inner()
        .token
}

/// The games `player` (an account's name, or "mine" with `token`) plays, newest first.
async fn games_of(client: &mut Client, player: &str, token: Option<&str>) -> Vec<pb::GameSummary> {
    let request = pb::ListGamesRequest {
        player: player.into(),
        ..Default::default()
    };
    match token {
        Some(token) => client.list_games(authed(request, token)).await,
        None => client.list_games(request).await,
    }
    .expect("listed")
    .into_inner()
    .games
}

#[tokio::test(flavor = "multi_thread")]
async fn a_game_begun_with_one_session_is_finished_with_another() {
    let server = TestServer::start().await;
    let (mut client, mut accounts) = (server.client().await, account_client(server.addr).await);
    let ana = register(&mut accounts, "Ana").await;
    let bea = register(&mut accounts, "Bea").await;
    let players = game_between(&mut client, "frente", Ok(&ana), Ok(&bea)).await;
    let view = view_of(&mut client, &players[0]).await;
    let names: Vec<(&str, i32)> = view
        .players
        .iter()
        .map(|p| (p.name.as_str(), p.kind))
        .collect();
    let account = pb::PlayerKind::Account as i32;
    assert_eq!(
        names,
        [("Ana", account), ("Bea", account)],
        "named by the accounts"
    );
    random_setups(&mut client, &players).await;
    let mut rng = rng(7);
    for _ in 0..6 {
        play_random_move(&mut client, &players, &mut rng).await;
    }
    // Elsewhere, with nothing kept from the first client: sign in, find the game, go on.
    let again = login(&mut accounts, "ana").await;
    assert_ne!(again, ana);
    let mine = games_of(&mut client, "mine", Some(&again)).await;
    assert_eq!(mine.len(), 1);
    assert_eq!(mine[0].game_id, players[0].game);
    let kinds: Vec<i32> = mine[0].players.iter().map(|p| p.kind).collect();
    assert_eq!(kinds, [account, account]);
    assert_eq!(games_of(&mut client, "ＢＥＡ", None).await.len(), 1);
    let continued = [
        Player {
            token: again,
            ..players[0].clone()
        },
        players[1].clone(),
    ];
    let seen = view_of(&mut client, &continued[0]).await;
    assert_eq!(seen.viewer_seat, Some(0));
    while play_random_move(&mut client, &continued, &mut rng)
        .await
        .is_some()
    {}
    let over = spectator_view(&mut client, &players[0].game).await;
    assert!(over.result.is_some(), "played to the end");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_accounts_token_acts_only_for_the_seats_its_account_holds() {
    let server = TestServer::start().await;
    let (mut client, mut accounts) = (server.client().await, account_client(server.addr).await);
    let mut tokens = Vec::new();
    for name in ["Ana", "Bea", "Cid"] {
        tokens.push(register(&mut accounts, name).await);
    }
    for seed in 0..scaled(8, 60) as u64 {
        let mut rng = rng(seed);
        let ruleset = [
            "frente",
            "clasico",
            "castillos",
            "asalto",
            "tacticas",
            "tanques",
        ][rng.random_range(0..6)];
        // Each seat: one of the accounts or a guest; never one account on both seats.
        let first = rng.random_range(0..4);
        let second = (first + rng.random_range(1..4)) % 4;
        let holder = |who: usize| tokens.get(who).map(String::as_str).ok_or("Guest");
        let players = game_between(&mut client, ruleset, holder(first), holder(second)).await;
        random_setups(&mut client, &players).await;
        for _ in 0..rng.random_range(0..8) {
            play_random_move(&mut client, &players, &mut rng).await;
        }
        let spectator = spectator_view(&mut client, &players[0].game).await;
        for (who, token) in tokens.iter().enumerate() {
            let seat = [first, second].iter().position(|&holder| holder == who);
            let caller = Player {
                game: players[0].game.clone(),
                seat: 0,
                token: token.clone(),
            };
            let view = try_view_of(&mut client, &caller).await.expect("a view");
            assert_eq!(
                view.viewer_seat,
                seat.map(|seat| seat as i32),
                "seed {seed}"
            );
            if seat.is_none() {
                assert_eq!(
                    view.pieces, spectator.pieces,
                    "seed {seed}: a spectator's sight"
                );
                assert!(view.legal_moves.is_empty());
            }
            // Acting: refused for any seat but the account's own.
            let Some(to_move) = spectator.to_move.map(|seat| seat as usize) else {
                continue;
            };
            if seat == Some(to_move) {
                continue;
            }
            let status = first_legal_move(&mut client, &players[to_move], token)
                .await
                .expect_err("refused");
            let expected = if seat.is_some() {
                Code::FailedPrecondition
            } else {
                Code::PermissionDenied
            };
            assert_eq!(status.code(), expected, "seed {seed}: {status:?}");
            let after = spectator_view(&mut client, &caller.game).await;
            assert_eq!(
                after.version, spectator.version,
                "a refusal changes nothing"
            );
        }
        // The account that holds the seat to move moves with its token.
        if let Some(to_move) = spectator.to_move.map(|seat| seat as usize)
            && let Some(token) = tokens.get([first, second][to_move])
        {
            first_legal_move(&mut client, &players[to_move], token)
                .await
                .expect("the account's own seat");
        }
    }
}

/// Plays the first legal move of `mover`'s seat with the token `token`.
async fn first_legal_move(
    client: &mut Client,
    mover: &Player,
    token: &str,
) -> Result<pb::MakeMoveResponse, tonic::Status> {
    let view = view_of(client, mover).await;
    let legal = view.legal_moves.first().expect("the mover has a move");
    client
        .make_move(authed(
            pb::MakeMoveRequest {
                game_id: mover.game.clone(),
                action: Some(pb::make_move_request::Action::Notation(
                    legal.notation.clone(),
                )),
                expected_version: Some(view.version),
                omit_view: true,
            },
            token,
        ))
        .await
        .map(tonic::Response::into_inner)
}

#[tokio::test(flavor = "multi_thread")]
async fn guests_and_seat_tokens_work_as_before_beside_accounts() {
    let server = TestServer::start().await;
    let (mut client, mut accounts) = (server.client().await, account_client(server.addr).await);
    let ana = register(&mut accounts, "Ana").await;
    let created = client
        .create_game(authed(
            pb::CreateGameRequest {
                ruleset: "frente".into(),
                ..Default::default()
            },
            &ana,
        ))
        .await
        .expect("created")
        .into_inner();
    // The seat's own token acts for it too.
    let seat_token = Player {
        game: created.game_id.clone(),
        seat: 0,
        token: created.player_token,
    };
    assert_eq!(view_of(&mut client, &seat_token).await.viewer_seat, Some(0));
    // Ana cannot take the other seat of her own game.
    let status = client
        .join_game(authed(
            pb::JoinGameRequest {
                game_id: created.game_id.clone(),
                player_name: String::new(),
            },
            &ana,
        ))
        .await
        .expect_err("refused");
    assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
    // A guest joins by name, as always.
    let joined = client
        .join_game(pb::JoinGameRequest {
            game_id: created.game_id.clone(),
            player_name: "Ana".into(),
        })
        .await
        .expect("joined")
        .into_inner();
    let kinds: Vec<i32> = joined
        .view
        .expect("a view")
        .players
        .iter()
        .map(|p| p.kind)
        .collect();
    assert_eq!(
        kinds,
        [pb::PlayerKind::Account as i32, pb::PlayerKind::Guest as i32]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn account_calls_refuse_clearly_and_change_nothing() {
    let server = TestServer::start().await;
    let (mut client, mut accounts) = (server.client().await, account_client(server.addr).await);
    let ana = register(&mut accounts, "Ana").await;
    let reason = |status: &tonic::Status| {
        tonic_types::StatusExt::get_details_error_info(status)
            .expect("ErrorInfo")
            .reason
    };
    let taken = accounts
        .register(pb::RegisterRequest {
            name: "ＡＮＡ".into(),
            password: PASSWORD.into(),
            label: String::new(),
        })
        .await
        .expect_err("taken");
    assert_eq!(
        (taken.code(), reason(&taken).as_str()),
        (Code::AlreadyExists, "NAME_TAKEN")
    );
    let no_token = accounts
        .who_am_i(pb::WhoAmIRequest {})
        .await
        .expect_err("needs a token");
    assert_eq!(no_token.code(), Code::Unauthenticated);
    assert!(
        no_token.message().contains("authorization"),
        "{}",
        no_token.message()
    );
    let forged = format!("tra1_{}", "0".repeat(64));
    let status = client
        .get_view(authed(
            pb::GetViewRequest {
                game_id: "1".into(),
            },
            &forged,
        ))
        .await
        .expect_err("a forged token");
    assert_eq!(
        (status.code(), reason(&status).as_str()),
        (Code::Unauthenticated, "BAD_TOKEN")
    );
    let status = client
        .list_games(pb::ListGamesRequest {
            player: "mine".into(),
            ..Default::default()
        })
        .await
        .expect_err("mine needs a token");
    assert_eq!(status.code(), Code::Unauthenticated);
    let status = client
        .list_games(pb::ListGamesRequest {
            player: "Nadie".into(),
            ..Default::default()
        })
        .await
        .expect_err("no such account");
    assert_eq!(
        (status.code(), reason(&status).as_str()),
        (Code::NotFound, "ACCOUNT_NOT_FOUND")
    );
    // A personal token for a bot, listed without its secret, revoked at once.
    let made = create_token(&mut accounts, &ana, pb::TokenScope::Bot, "my bot", 30).await;
    let listed = accounts
        .list_tokens(authed(pb::ListTokensRequest {}, &ana))
        .await
        .expect("listed")
        .into_inner()
        .tokens;
    assert_eq!(listed.len(), 2);
    let info = made.token_info.expect("details");
    assert!(listed.contains(&info) && !made.token.contains(&info.id));
    let status = accounts
        .list_tokens(authed(pb::ListTokensRequest {}, &made.token))
        .await
        .expect_err("a bot's token manages nothing");
    assert_eq!(
        (status.code(), reason(&status).as_str()),
        (Code::PermissionDenied, "SCOPE")
    );
    accounts
        .revoke_token(authed(pb::RevokeTokenRequest { id: info.id }, &ana))
        .await
        .expect("revoked");
    let status = accounts
        .who_am_i(authed(pb::WhoAmIRequest {}, &made.token))
        .await
        .expect_err("revoked at once");
    assert_eq!(status.code(), Code::Unauthenticated);
    let me = accounts
        .who_am_i(authed(pb::WhoAmIRequest {}, &ana))
        .await
        .expect("who")
        .into_inner();
    assert_eq!(me.account.expect("account").name, "Ana");
    accounts
        .logout(authed(pb::LogoutRequest {}, &ana))
        .await
        .expect("signed out");
    let status = accounts
        .who_am_i(authed(pb::WhoAmIRequest {}, &ana))
        .await
        .expect_err("signed out");
    assert_eq!(status.code(), Code::Unauthenticated);
}

#[tokio::test(flavor = "multi_thread")]
async fn operators_keep_accounts_offline_and_through_the_admin_service() {
    let temp = tempfile::tempdir().expect("temp dir");
    let server = ChildServer::start_with(temp.path(), &["--admin-listen", "127.0.0.1:0"]).await;
    let mut accounts = account_client(server.addr).await;
    let ana = register(&mut accounts, "Ana").await;
    let admin = format!("http://{}", server.side_address("admin service").await);
    let said = succeeds(&["accounts", "disable", "ana", "--from", &admin]);
    assert!(said.contains("account 1 (Ana) disabled"), "{said}");
    let status = accounts
        .who_am_i(authed(pb::WhoAmIRequest {}, &ana))
        .await
        .expect_err("disabled at once");
    assert_eq!(status.code(), Code::PermissionDenied, "{status:?}");
    succeeds(&["accounts", "enable", "ＡＮＡ", "--from", &admin]);
    accounts
        .who_am_i(authed(pb::WhoAmIRequest {}, &ana))
        .await
        .expect("enabled again");
    let listed = server_command(&["accounts", "list", "--json", "--from", &admin]);
    let listed = String::from_utf8_lossy(&listed.stdout).into_owned();
    assert!(
        listed.contains("\"name\":\"Ana\"") && listed.contains("\"disabled\":false"),
        "{listed}"
    );
    let missing = server_command(&["accounts", "disable", "Nadie", "--from", &admin]);
    assert!(!missing.status.success());
    let said = String::from_utf8_lossy(&missing.stderr).into_owned();
    assert!(
        said.contains("there is no account named \"Nadie\""),
        "{said}"
    );
    server.kill().await;
    // Offline, on the store itself.
    let store = offline_store_args(temp.path());
    let offline = |command: &[&str]| {
        let args: Vec<&str> = command
            .iter()
            .copied()
            .chain(store.iter().map(String::as_str))
            .collect();
        server_command(&args)
    };
    let reset = offline(&["accounts", "reset-password", "Ana"]);
    assert!(reset.status.success(), "{reset:?}");
    let password = String::from_utf8_lossy(&reset.stdout).trim().to_owned();
    assert!(password.len() >= 8, "{password:?}");
    let table = offline(&["accounts", "list"]);
    let table = String::from_utf8_lossy(&table.stdout).into_owned();
    assert!(table.contains("Ana") && table.contains("active"), "{table}");
    let server = ChildServer::start(temp.path()).await;
    let mut accounts = account_client(server.addr).await;
    let status = accounts
        .who_am_i(authed(pb::WhoAmIRequest {}, &ana))
        .await
        .expect_err("a reset ends every token");
    assert_eq!(status.code(), Code::Unauthenticated);
    accounts
        .login(pb::LoginRequest {
            name: "Ana".into(),
            password,
            label: String::new(),
        })
        .await
        .expect("the new password works");
    server.kill().await;
}
