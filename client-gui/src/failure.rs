//! Why a request came to nothing, told in the window's language: a server's refusal by its
//! machine-readable reason (`google.rpc.ErrorInfo`), with the server's own English words
//! after it, which name the square or the piece; an account's refusal in words of the
//! client's own in both languages, the server's being written for every client.

use std::time::Duration;

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
        /// When the server said to try again (too many calls, too many failed sign-ins).
        retry_after: Option<Duration>,
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
                reason,
                message,
                retry_after,
                ..
            } => Failure::Refused {
                reason: reason.clone(),
                message: message.clone(),
                retry_after: *retry_after,
            },
            _ => Failure::Local(error.to_string()),
        }
    }

    /// The failure in `lang`.
    pub fn words(&self, lang: Lang) -> String {
        match self {
            Failure::Refused {
                reason,
                message,
                retry_after,
            } => {
                let reason = reason.as_deref().unwrap_or_default();
                if let Some((en, es)) = account(reason) {
                    return lang.pick(en, es).to_owned();
                }
                if let (Some(wait), "RATE_LIMITED") = (retry_after, reason) {
                    return wait_words(lang, *wait);
                }
                match (lang, spanish(reason)) {
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

impl Failure {
    /// Why the server no longer takes a session, in `lang`: a token it refuses
    /// (`BAD_TOKEN`: signed out elsewhere, revoked, expired, the account deleted) in words
    /// about sessions, not seats; anything else (a disabled account) as [`Failure::words`].
    pub fn session_words(&self, lang: Lang) -> String {
        match self {
            Failure::Refused {
                reason: Some(reason),
                ..
            } if reason == "BAD_TOKEN" => lang
                .pick(
                    "it was signed out elsewhere, revoked or ran out",
                    "se cerró en otro sitio, se revocó o caducó",
                )
                .to_owned(),
            _ => self.words(lang),
        }
    }
}

/// "Too many tries: try again in 8 s", for a refusal that said when to try again: the seconds
/// left of `wait`, never 0.
pub fn wait_words(lang: Lang, wait: Duration) -> String {
    let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    let seconds = seconds.max(1);
    tr!(
        lang,
        "too many tries: try again in {seconds} s",
        "demasiados intentos: vuelve a probar dentro de {seconds} s"
    )
}

/// An account's refusal in English and Spanish, by its reason (`AccountError` on the
/// server). A refused session's token (`BAD_TOKEN`) sends the player back to sign in
/// ([`crate::sign_in`]); in a game it is a seat's token, told by [`spanish`].
fn account(reason: &str) -> Option<(&'static str, &'static str)> {
    Some(match reason {
        "BAD_PASSWORD" => (
            "the password must be 8 to 1,024 bytes long",
            "la contraseña debe tener de 8 a 1.024 bytes",
        ),
        "NAME_TAKEN" => (
            "that name is taken: choose another, or sign in if the account is yours",
            "ese nombre ya tiene dueño: elige otro, o entra si la cuenta es tuya",
        ),
        "BAD_CREDENTIALS" => (
            "wrong name or password",
            "el nombre o la contraseña no son correctos",
        ),
        "ACCOUNT_DISABLED" => (
            "this account is disabled: ask the server's operators",
            "esta cuenta está desactivada: pregunta a quienes llevan el servidor",
        ),
        "SCOPE" => (
            "the token of this session may not do that: sign in with your name and password",
            "la ficha de esta sesión no permite eso: entra con tu nombre y tu contraseña",
        ),
        "TOKEN_NOT_FOUND" => (
            "your account has no such token",
            "tu cuenta no tiene esa ficha",
        ),
        "ACCOUNT_NOT_FOUND" => (
            "there is no account of that name",
            "no hay ninguna cuenta con ese nombre",
        ),
        "NOT_SEATED" => (
            "your account holds no seat in this game",
            "tu cuenta no tiene asiento en esta partida",
        ),
        _ => return None,
    })
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
            retry_after: None,
        };
        assert_eq!(refused.words(Lang::En), "a4-a6 is not a legal move");
        assert_eq!(
            refused.words(Lang::Es),
            "las reglas no permiten esa jugada (el servidor: a4-a6 is not a legal move)"
        );
        let unknown = Failure::Refused {
            reason: Some("NEW_REASON".into()),
            message: "something new".into(),
            retry_after: None,
        };
        assert_eq!(unknown.words(Lang::Es), "something new");
    }

    #[test]
    fn account_refusals_have_words_of_their_own_in_both_languages() {
        for reason in [
            "BAD_PASSWORD",
            "NAME_TAKEN",
            "BAD_CREDENTIALS",
            "ACCOUNT_DISABLED",
            "SCOPE",
            "TOKEN_NOT_FOUND",
            "ACCOUNT_NOT_FOUND",
            "NOT_SEATED",
        ] {
            let refused = Failure::Refused {
                reason: Some(reason.into()),
                message: "MESSAGE".into(),
                retry_after: None,
            };
            let (en, es) = (refused.words(Lang::En), refused.words(Lang::Es));
            assert!(
                !en.contains("MESSAGE") && !es.contains("MESSAGE"),
                "{reason}"
            );
            assert_ne!(en, es, "{reason}");
        }
    }

    #[test]
    fn a_refusal_that_says_when_to_retry_tells_the_seconds() {
        let refused = Failure::Refused {
            reason: Some("RATE_LIMITED".into()),
            message: "too many failed sign-ins for this name: retry in 10 s".into(),
            retry_after: Some(Duration::from_millis(9_200)),
        };
        assert_eq!(refused.words(Lang::En), "too many tries: try again in 10 s");
        assert_eq!(
            refused.words(Lang::Es),
            "demasiados intentos: vuelve a probar dentro de 10 s"
        );
        assert_eq!(
            wait_words(Lang::En, Duration::ZERO),
            "too many tries: try again in 1 s"
        );
    }
}
