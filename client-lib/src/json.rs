//! `--json` documents: protobuf messages in the canonical proto3 JSON mapping (as grpcurl
//! prints them), with the proto field names (`game_id`, `legal_moves`), enum value names
//! (`PHASE_PLAYING`), 64-bit integers as numbers and every field present, so that `jq`
//! scripts never meet a missing key: fields with presence (`to_move`, `viewer_seat`,
//! `result` before the end...) are `null` when unset; of a `oneof`, only the member set
//! appears.

use std::sync::OnceLock;

use prost_reflect::{
    DescriptorPool, DeserializeOptions, DynamicMessage, ReflectMessage, SerializeOptions,
};
use trinchera_proto::v1 as pb;

/// A generated message with its fully qualified protobuf name.
pub trait Proto: prost::Message + Default {
    /// E.g. `trinchera.v1.GameView`.
    const NAME: &'static str;
}

/// Implements [`Proto`] for messages of package `trinchera.v1`.
macro_rules! proto_names {
    ($($message:ident),* $(,)?) => {
        $(impl Proto for pb::$message {
            const NAME: &'static str = concat!("trinchera.v1.", stringify!($message));
        })*
    };
}

proto_names!(
    CreateGameResponse,
    CreateTokenResponse,
    GameView,
    GetHistoryResponse,
    GetViewResponse,
    JoinGameResponse,
    ListGamesResponse,
    ListTokensResponse,
    ListRulesetsResponse,
    MakeMoveResponse,
    ResignResponse,
    Ruleset,
    SubmitSetupResponse,
    WatchGameResponse,
    WhoAmIResponse,
);

/// The descriptors of `trinchera.v1`, decoded once.
fn pool() -> Result<&'static DescriptorPool, String> {
    static POOL: OnceLock<Result<DescriptorPool, String>> = OnceLock::new();
    POOL.get_or_init(|| {
        DescriptorPool::decode(trinchera_proto::FILE_DESCRIPTOR_SET).map_err(|e| e.to_string())
    })
    .as_ref()
    .map_err(|e| format!("the bundled protobuf descriptors are broken: {e}"))
}

fn descriptor<M: Proto>() -> Result<prost_reflect::MessageDescriptor, String> {
    pool()?
        .get_message_by_name(M::NAME)
        .ok_or_else(|| format!("no descriptor for {}", M::NAME))
}

/// `message` as a JSON value.
pub fn to_json<M: Proto>(message: &M) -> Result<serde_json::Value, String> {
    let dynamic = DynamicMessage::decode(descriptor::<M>()?, message.encode_to_vec().as_slice())
        .map_err(|e| format!("cannot re-read a {}: {e}", M::NAME))?;
    let options = SerializeOptions::new()
        .stringify_64_bit_integers(false)
        .use_proto_field_name(true)
        .skip_default_fields(false);
    let mut value = dynamic
        .serialize_with_options(serde_json::value::Serializer, &options)
        .map_err(|e| format!("cannot write a {} as JSON: {e}", M::NAME))?;
    fill_unset(&mut value, &dynamic.descriptor());
    Ok(value)
}

/// Adds `null` for every field of `message` left out of `value` (fields with presence,
/// unset), nested messages included; `oneof` members other than the one set stay out.
fn fill_unset(value: &mut serde_json::Value, message: &prost_reflect::MessageDescriptor) {
    let Some(object) = value.as_object_mut() else {
        return;
    };
    for field in message.fields() {
        let name = field.name();
        let in_oneof = field.containing_oneof().is_some_and(|o| !o.is_synthetic());
        match object.get_mut(name) {
            None if !in_oneof => {
                object.insert(name.to_owned(), serde_json::Value::Null);
            }
            None => {}
            Some(inner) => {
                let prost_reflect::Kind::Message(nested) = field.kind() else {
                    continue;
                };
                if nested.full_name().starts_with("google.protobuf.") || field.is_map() {
                    continue;
                }
                match inner {
                    serde_json::Value::Array(items) => {
                        for item in items {
                            fill_unset(item, &nested);
                        }
                    }
                    other => fill_unset(other, &nested),
                }
            }
        }
    }
}

/// Reads a message back from JSON written by [`to_json`] (or any proto3 JSON of it).
pub fn from_json<M: Proto>(value: serde_json::Value) -> Result<M, String> {
    let options = DeserializeOptions::new().deny_unknown_fields(false);
    let dynamic = DynamicMessage::deserialize_with_options(descriptor::<M>()?, value, &options)
        .map_err(|e| e.to_string())?;
    dynamic.transcode_to::<M>().map_err(|e| e.to_string())
}

/// The key under which a history document carries the ruleset description.
pub const RULESET_KEY: &str = "ruleset_description";

/// A history document (`trinchera --json history`): `GetHistoryResponse` plus the ruleset
/// description, so that a saved file is verified and replayed without a server.
pub fn history_document(
    history: &pb::GetHistoryResponse,
    ruleset: &pb::Ruleset,
) -> Result<serde_json::Value, String> {
    let mut doc = to_json(history)?;
    doc[RULESET_KEY] = to_json(ruleset)?;
    Ok(doc)
}

/// Reads a history document; the error says why `text` is not one.
pub fn read_history_document(
    text: &str,
) -> Result<(pb::GetHistoryResponse, Option<pb::Ruleset>), String> {
    let mut doc: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let ruleset = match doc.as_object_mut().and_then(|o| o.remove(RULESET_KEY)) {
        Some(value) => Some(from_json::<pb::Ruleset>(value)?),
        None => None,
    };
    let history = from_json::<pb::GetHistoryResponse>(doc)?;
    // Any JSON object decodes (unknown fields are skipped): a history names its game.
    if history.view.is_none() || history.ruleset.is_empty() {
        return Err(
            "it names no game and ruleset (write one with `trinchera --json history GAME`)".into(),
        );
    }
    Ok((history, ruleset))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_round_trip_with_proto_names_and_enum_names() {
        let view = pb::GameView {
            game_id: "g1".into(),
            version: 7,
            phase: pb::Phase::Playing as i32,
            to_move: Some(1),
            legal_moves: vec![
                pb::LegalMove {
                    notation: "a4-a5".into(),
                    r#move: None,
                },
                pb::LegalMove {
                    notation: "b4-b5".into(),
                    r#move: Some(pb::Move {
                        action: Some(pb::r#move::Action::Step(pb::Step::default())),
                    }),
                },
            ],
            ..Default::default()
        };
        let json = to_json(&view).expect("serializes");
        assert_eq!(json["game_id"], "g1");
        assert_eq!(json["version"], 7);
        assert_eq!(json["phase"], "PHASE_PLAYING");
        assert_eq!(json["to_move"], 1);
        assert_eq!(json["legal_moves"][0]["notation"], "a4-a5");
        assert_eq!(json["captured"], serde_json::json!([]));
        assert_eq!(json["viewer_seat"], serde_json::Value::Null, "unset: null");
        assert_eq!(json["result"], serde_json::Value::Null);
        assert!(json["clock"].is_null());
        assert!(json["legal_moves"][0]["move"].is_null());
        let step = &json["legal_moves"][1]["move"];
        assert!(
            step["step"]["from"].is_null(),
            "nested messages are filled too"
        );
        assert!(
            step.get("jump").is_none(),
            "only the oneof member set: {step}"
        );
        let back: pb::GameView = from_json(json).expect("deserializes");
        assert_eq!(back, view);
    }

    #[test]
    fn history_documents_round_trip_and_others_are_refused() {
        let history = pb::GetHistoryResponse {
            ruleset: "frente".into(),
            view: Some(pb::GameView::default()),
            positions: vec![pb::GameView::default()],
            ..Default::default()
        };
        let ruleset = pb::Ruleset {
            id: "frente".into(),
            ..Default::default()
        };
        let text = history_document(&history, &ruleset)
            .expect("writes")
            .to_string();
        let (back, described) = read_history_document(&text).expect("reads");
        assert_eq!((back, described), (history, Some(ruleset)));
        let other = to_json(&pb::GameView::default())
            .expect("writes")
            .to_string();
        assert!(read_history_document(&other).is_err());
        assert!(read_history_document("not json").is_err());
    }

    #[test]
    fn malformed_json_is_an_error() {
        let error = from_json::<pb::GameView>(serde_json::json!({"version": "many"}));
        assert!(error.is_err());
    }
}
