//! Why a request came to nothing, told in the window's language: a server's refusal by its
//! machine-readable reason (`google.rpc.ErrorInfo`), with the server's own English words
//! after it, which name the square or the piece.

use trinchera_client::ClientError;

use crate::i18n::{Lang, tr};

/// A failed request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The server refused it.
    Refused {
        /// The server's reason, e.g. `ILLEGAL_MOVE`, when it gave one.
        reason: Option<String>,
        /// The server's words.
        message: String,
    },
    /// No server is connected.
    NotConnected,
    /// The network thread could not start.
    NoRuntime(String),
    /// What the client library reports otherwise (a local file, a reply missing a part).
    Local(String),
}

impl Failure {
    /// The failure of a call.
    pub fn of(error: &ClientError) -> Failure {
        match error {
            ClientError::Refused {
                reason, message, ..
            } => Failure::Refused {
                reason: reason.clone(),
                message: message.clone(),
            },
            _ => Failure::Local(error.to_string()),
        }
    }

    /// The failure in `lang`.
    pub fn words(&self, lang: Lang) -> String {
        match self {
            Failure::Refused { reason, message } => {
                match (lang, reason.as_deref().and_then(spanish)) {
                    (Lang::Es, Some(why)) => format!("{why} (el servidor: {message})"),
                    _ => message.clone(),
                }
            }
            Failure::NotConnected => lang
                .pick("not connected to a server", "sin conexión con un servidor")
                .to_owned(),
            Failure::NoRuntime(error) => tr!(
                lang,
                "cannot start the network thread: {error}",
                "no se puede arrancar el hilo de red: {error}"
            ),
            Failure::Local(error) => error.clone(),
        }
    }
}

/// A refusal's reason in Spanish.
fn spanish(reason: &str) -> Option<&'static str> {
    Some(match reason {
        "BAD_REQUEST" => "la petición no es válida",
        "UNKNOWN_RULESET" => "el servidor no tiene ese reglamento",
        "BAD_NOTATION" => "la jugada no se entiende",
        "OFF_BOARD" => "esa casilla no está en el tablero",
        "BAD_SETUP" => "la colocación no cumple las reglas",
        "BAD_NAME" => "ese nombre no vale",
        "WRONG_PHASE" => "eso no se puede en esta fase de la partida",
        "NOT_YOUR_TURN" => "no es tu turno",
        "ILLEGAL_MOVE" => "las reglas no permiten esa jugada",
        "GAME_OVER" => "la partida ha terminado",
        "SEAT_TAKEN" => "no queda ningún asiento libre",
        "TOO_EARLY" => "aún es pronto para eso",
        "GAME_NOT_FOUND" => "no existe esa partida",
        "BAD_TOKEN" => "este equipo no tiene un asiento válido en esa partida",
        "WRONG_GAME" => "esa ficha de jugador es de otra partida",
        "VERSION_MISMATCH" => "alguien jugó antes; el tablero ya está al día",
        "LIMIT_EXCEEDED" => "el servidor ha llegado a su límite; inténtalo más tarde",
        "RATE_LIMITED" => "demasiadas peticiones seguidas; espera un momento",
        "SHUTTING_DOWN" => "el servidor se está apagando",
        "INTERNAL" => "el servidor tuvo un fallo interno",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_are_told_by_their_reason_with_the_servers_words() {
        let refused = Failure::Refused {
            reason: Some("ILLEGAL_MOVE".into()),
            message: "a4-a6 is not a legal move".into(),
        };
        assert_eq!(refused.words(Lang::En), "a4-a6 is not a legal move");
        assert_eq!(
            refused.words(Lang::Es),
            "las reglas no permiten esa jugada (el servidor: a4-a6 is not a legal move)"
        );
        let unknown = Failure::Refused {
            reason: Some("NEW_REASON".into()),
            message: "something new".into(),
        };
        assert_eq!(unknown.words(Lang::Es), "something new");
    }
}
