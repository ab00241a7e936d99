//! Display-safe text from a server that may be hostile: a name must not be able to move a
//! terminal's cursor, recolour it, set its title, or turn the text around it backwards.
//!
//! [`display_safe`] strips C0 and C1 controls, whole escape sequences (CSI, OSC, DCS...),
//! and the invisible format and bidi controls (U+200B–U+200F, U+202A–U+202E, U+2066–U+2069,
//! U+FEFF, U+00AD, the tag block...). [`Clean`] applies it to every string field of the
//! replies [`crate::Server`] hands out, so no client prints a raw server string.

use std::borrow::Cow;

use trinchera_proto::v1 as pb;

const ESC: char = '\u{1b}';
const BEL: char = '\u{7}';
/// The C1 control introducing a CSI sequence, like `ESC [`.
const CSI: char = '\u{9b}';
/// The C1 string terminator, like `ESC \`.
const ST: char = '\u{9c}';

/// Whether `c` is an invisible format or direction control (Unicode category Cf and the
/// line and paragraph separators).
fn is_format(c: char) -> bool {
    matches!(c,
        '\u{ad}'
        | '\u{600}'..='\u{605}'
        | '\u{61c}'
        | '\u{6dd}'
        | '\u{70f}'
        | '\u{890}'..='\u{891}'
        | '\u{8e2}'
        | '\u{180e}'
        | '\u{200b}'..='\u{200f}'
        | '\u{2028}'..='\u{202e}'
        | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{206f}'
        | '\u{feff}'
        | '\u{fff9}'..='\u{fffb}'
        | '\u{110bd}'
        | '\u{110cd}'
        | '\u{13430}'..='\u{1343f}'
        | '\u{1bca0}'..='\u{1bca3}'
        | '\u{1d173}'..='\u{1d17a}'
        | '\u{e0000}'..='\u{e007f}')
}

/// Whether `c` must go (`keep_newlines`: except `\n`).
fn is_unsafe(c: char, keep_newlines: bool) -> bool {
    (c.is_control() && !(keep_newlines && c == '\n')) || is_format(c)
}

/// `text` without control characters, escape sequences or format/bidi controls, on one line.
pub fn display_safe(text: &str) -> Cow<'_, str> {
    strip(text, false)
}

/// Like [`display_safe`], but keeps line breaks (for paragraphs such as a description).
pub fn display_safe_text(text: &str) -> Cow<'_, str> {
    strip(text, true)
}

fn strip(text: &str, keep_newlines: bool) -> Cow<'_, str> {
    if !text.chars().any(|c| is_unsafe(c, keep_newlines)) {
        return Cow::Borrowed(text);
    }
    let mut clean = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ESC => match chars.next() {
                Some('[') => skip_csi(&mut chars),
                Some(']' | 'P' | 'X' | '^' | '_') => skip_string(&mut chars),
                // Two-character sequences (ESC c, ESC 7...): the second character goes too.
                _ => {}
            },
            CSI => skip_csi(&mut chars),
            '\u{90}' | '\u{98}' | '\u{9d}' | '\u{9e}' | '\u{9f}' => skip_string(&mut chars),
            c if is_unsafe(c, keep_newlines) => {}
            c => clean.push(c),
        }
    }
    Cow::Owned(clean)
}

/// Skips the rest of a CSI sequence: parameters and intermediates, then one final byte.
fn skip_csi(chars: &mut impl Iterator<Item = char>) {
    for c in chars.by_ref() {
        if ('\u{40}'..='\u{7e}').contains(&c) || !('\u{20}'..='\u{3f}').contains(&c) {
            return;
        }
    }
}

/// Skips the rest of a control string (OSC, DCS...): up to BEL, ST or `ESC \`.
fn skip_string(chars: &mut std::iter::Peekable<impl Iterator<Item = char>>) {
    while let Some(c) = chars.next() {
        match c {
            BEL | ST => return,
            ESC => {
                if chars.peek() == Some(&'\\') {
                    chars.next();
                }
                return;
            }
            _ => {}
        }
    }
}

/// Replaces `text` by its display-safe form if it differs.
fn clean_line(text: &mut String) {
    if let Cow::Owned(clean) = display_safe(text) {
        *text = clean;
    }
}

/// Replaces `text` by its display-safe form, line breaks kept, if it differs.
fn clean_paragraph(text: &mut String) {
    if let Cow::Owned(clean) = display_safe_text(text) {
        *text = clean;
    }
}

/// A server reply whose strings can be made display-safe in place.
pub trait Clean {
    /// Makes every string of `self` display-safe.
    fn clean(&mut self);
}

impl<T: Clean> Clean for Vec<T> {
    fn clean(&mut self) {
        self.iter_mut().for_each(Clean::clean);
    }
}

impl<T: Clean> Clean for Option<T> {
    fn clean(&mut self) {
        if let Some(inner) = self {
            inner.clean();
        }
    }
}

/// Implements [`Clean`] for messages: `line` fields on one line, `text` fields keep line
/// breaks, `nested` fields are [`Clean`] themselves.
macro_rules! clean {
    ($($message:ident { $(line: $($line:ident),+;)? $(text: $($text:ident),+;)? $(nested: $($nested:ident),+;)? })*) => {
        $(impl Clean for pb::$message {
            fn clean(&mut self) {
                $($(clean_line(&mut self.$line);)+)?
                $($(clean_paragraph(&mut self.$text);)+)?
                $($(self.$nested.clean();)+)?
            }
        })*
    };
}

clean! {
    ListRulesetsResponse { nested: rulesets; }
    Ruleset {
        line: id, name;
        text: description, notation_help;
        nested: seats, board, piece_kinds, setup_zones;
    }
    SeatInfo { line: name, role; }
    Board { nested: cells; }
    CellInfo { line: label; }
    PieceKind { line: id, name, code, note; }
    SetupZone { nested: pieces; }
    PieceCount { line: kind; }
    GameView {
        line: game_id, ruleset, name;
        nested: players, pieces, captured, legal_moves, result, status, last_event;
    }
    Player { line: name, setup_commitment, bot; }
    Piece { line: kind; }
    LegalMove { line: notation; }
    Result { line: reason; }
    TanksStatus { line: dice_commitment; }
    Event { line: notation; nested: effects; }
    Effect { nested: effect; }
    Battle { line: attacker_kind, defender_kind; }
    Reveal { line: kind; }
    GameSummary { line: game_id, ruleset, name; nested: players, result; }
    ListGamesResponse { line: next_page_token; nested: games; }
    CreateGameResponse { line: game_id, player_token; nested: view; }
    JoinGameResponse { line: game_id, player_token; nested: view; }
    GetViewResponse { nested: view; }
    SubmitSetupResponse { nested: view; }
    MakeMoveResponse { nested: event, view; }
    ResignResponse { nested: view; }
    WatchGameResponse { nested: event, view; }
    GetHistoryResponse { line: ruleset; nested: events, reveal, view, positions; }
    SuggestSetupResponse { nested: placements; }
    FairnessReveal { line: dice_seed; nested: setups; }
    SetupReveal { line: salt, canonical_setup, commitment; nested: placements; }
    Placement { line: kind; }
    Account { line: name; }
    TokenInfo { line: id, label; }
    RegisterResponse { line: token; nested: account, token_info; }
    LoginResponse { line: token; nested: account, token_info; }
    LogoutResponse {}
    WhoAmIResponse { nested: account, token; }
    CreateTokenResponse { line: token; nested: token_info; }
    ListTokensResponse { nested: tokens; }
    RevokeTokenResponse {}
}

impl Clean for pb::game_view::Status {
    fn clean(&mut self) {
        if let pb::game_view::Status::Tanks(tanks) = self {
            tanks.clean();
        }
    }
}

impl Clean for pb::effect::Effect {
    fn clean(&mut self) {
        match self {
            pb::effect::Effect::Battle(battle) => battle.clean(),
            pb::effect::Effect::Reveal(reveal) => reveal.clean(),
            pb::effect::Effect::Result(result) => result.clean(),
            pb::effect::Effect::Removal(_)
            | pb::effect::Effect::Dice(_)
            | pb::effect::Effect::Control(_)
            | pb::effect::Effect::Phase(_)
            | pb::effect::Effect::Pass(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_bidi_controls_are_stripped() {
        let cases = [
            ("\x1b[31mRojo\x1b[0m", "Rojo"),
            ("Ana\u{202e}olleh", "Anaolleh"),
            ("a\x1b]0;title\x07b", "ab"),
            ("a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\b", "alinkb"),
            ("\u{9b}2Jclear", "clear"),
            ("two\nlines\r\tand\u{0}", "twolinesand"),
            (
                "zero\u{200b}width\u{feff}\u{2066}iso\u{2069}\u{e0041}",
                "zerowidthiso",
            ),
            ("soft\u{ad}hyphen\u{2028}", "softhyphen"),
            ("Capitán ñ 日本 🙂", "Capitán ñ 日本 🙂"),
        ];
        for (raw, clean) in cases {
            assert_eq!(display_safe(raw), clean, "{raw:?}");
        }
        assert!(matches!(display_safe("plain"), Cow::Borrowed(_)));
        assert_eq!(display_safe_text("a\nb\x1b[1m"), "a\nb");
    }

    #[test]
    fn replies_are_cleaned_down_to_nested_events() {
        let mut reply = pb::WatchGameResponse {
            view: Some(pb::GameView {
                name: "\x1b[2Jgame".into(),
                players: vec![pb::Player {
                    name: "\u{202e}Ana".into(),
                    ..Default::default()
                }],
                ..Default::default()
            }),
            event: Some(pb::Event {
                notation: "a1-a2\x1b[A".into(),
                effects: vec![pb::Effect {
                    effect: Some(pb::effect::Effect::Result(pb::Result {
                        reason: "RESIGNED\r".into(),
                        ..Default::default()
                    })),
                }],
                ..Default::default()
            }),
            ..Default::default()
        };
        reply.clean();
        let view = reply.view.as_ref().expect("view");
        assert_eq!(view.name, "game");
        assert_eq!(view.players[0].name, "Ana");
        let event = reply.event.as_ref().expect("event");
        assert_eq!(event.notation, "a1-a2");
        assert_eq!(
            event.effects[0].effect,
            Some(pb::effect::Effect::Result(pb::Result {
                reason: "RESIGNED".into(),
                ..Default::default()
            }))
        );
    }
}
