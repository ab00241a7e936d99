//! The client library's watch streams ask the server for piece changes only and put the
//! views back together: what they show must be what a stream of whole views shows.

use trinchera_client::connection::{Server as Client, Trust, authed};
use trinchera_client::sanitize::Clean;
use trinchera_proto::v1 as pb;
use trinchera_proto::v1::game_service_client::GameServiceClient;

use crate::harness::{Lcg, Server};

/// Moves played in each game (fewer if it ends).
const MOVES: usize = 40;

/// A game of `ruleset` with both seats taken and set up: its id and the seats' tokens.
async fn ready_game(client: &Client, ruleset: &str) -> (String, [String; 2]) {
    let created = client
        .create(pb::CreateGameRequest {
            ruleset: ruleset.into(),
            seat: Some(0),
            ..pb::CreateGameRequest::default()
        })
        .await
        .expect("created");
    let game = created.game_id;
    let joined = client
        .join(pb::JoinGameRequest {
            game_id: game.clone(),
            player_name: "Bea".into(),
        })
        .await
        .expect("joined");
    let tokens = [created.player_token, joined.player_token];
    for (seat, token) in (0..).zip(&tokens) {
        let view = client.view(&game, Some(token)).await.expect("view");
        let pending = view.players.iter().any(|p| p.seat == seat && !p.setup_done);
        if view.phase() == pb::Phase::Setup && pending {
            let random = pb::SubmitSetupRequest {
                game_id: game.clone(),
                placements: Vec::new(),
                random: true,
            };
            client.setup(random, token).await.expect("set up");
        }
    }
    (game, tokens)
}

/// A stream of whole views, straight from the generated client.
async fn whole_stream(
    client: &Client,
    game: &str,
    token: Option<&str>,
) -> tonic::Streaming<pb::WatchGameResponse> {
    let request = pb::WatchGameRequest {
        game_id: game.to_owned(),
        ..pb::WatchGameRequest::default()
    };
    GameServiceClient::new(client.channel().clone())
        .watch_game(authed(request, token).expect("request"))
        .await
        .expect("watching")
        .into_inner()
}

#[tokio::test(flavor = "multi_thread")]
async fn rebuilt_views_equal_whole_views_message_by_message() {
    let server = Server::start();
    let client = Client::connect(&server.url, &Trust::default())
        .await
        .expect("connected");
    let mut rng = Lcg(23);
    let rulesets = client.rulesets().await.expect("rulesets").rulesets;
    assert!(rulesets.len() >= 6, "every ruleset is served");
    for ruleset in rulesets.iter().map(|r| r.id.as_str()) {
        let (game, tokens) = ready_game(&client, ruleset).await;
        // Seat 1 and a spectator, each watching both ways.
        let watchers = [Some(tokens[1].as_str()), None];
        let mut pairs = Vec::new();
        for token in watchers {
            let rebuilt = client.watch(&game, token, None).await.expect("watching");
            pairs.push((rebuilt, whole_stream(&client, &game, token).await));
        }
        let mut played = 0;
        while played < MOVES {
            let view = client.view(&game, None).await.expect("view");
            let Some(seat) = view.to_move else { break };
            let token = &tokens[usize::try_from(seat).expect("a seat")];
            let legal = client
                .view(&game, Some(token))
                .await
                .expect("view")
                .legal_moves;
            let chosen = legal[rng.below(legal.len())].r#move.clone();
            let request = pb::MakeMoveRequest {
                game_id: game.clone(),
                action: chosen.map(pb::make_move_request::Action::Move),
                ..pb::MakeMoveRequest::default()
            };
            client.play(request, token).await.expect("played");
            played += 1;
        }
        client.resign(&game, &tokens[0]).await.ok();
        let mut messages = 0;
        for (rebuilt, whole) in &mut pairs {
            while let Some(mut expected) = whole.message().await.expect("whole") {
                expected.clean();
                let got = rebuilt
                    .message()
                    .await
                    .expect("rebuilt")
                    .expect("a message");
                assert_eq!(got, expected, "{ruleset} at version {}", expected.version);
                messages += 1;
            }
            assert!(
                rebuilt.message().await.expect("ended").is_none(),
                "{ruleset}"
            );
        }
        assert!(messages > MOVES, "{ruleset}: {messages} messages compared");
    }
}
