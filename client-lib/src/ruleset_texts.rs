//! What a player reads about a ruleset in the window's language: its description, each
//! seat's role, each piece's note, how moves are written, and the bot levels. The server
//! describes its rulesets in English (`ListRulesets`); this module has the Spanish of the
//! hosted ones, keyed by ruleset id (and bot level name), and gives the server's words in
//! English and for anything it does not know.

use trinchera_proto::v1 as pb;

use crate::lang::Lang;

/// The Spanish texts of one hosted ruleset.
struct Known {
    id: &'static str,
    description: &'static str,
    /// By seat.
    roles: [&'static str; 2],
    /// By piece kind id.
    notes: &'static [(&'static str, &'static str)],
    notation: &'static str,
}

const ARMY_NOTATION: &str = "origen-destino por los nombres de las casillas: a4-a5 mueve, \
     a4xa5 ataca (a4-a5 sobre un enemigo también ataca); las jugadas largas nombran su \
     casilla final, p. ej. b2-b7";

const ARMY_ROLES: [&str; 2] = [
    "coloca en las filas 1-4 y empieza",
    "coloca en las cuatro filas de arriba",
];

const RUNS: &str = "recorre cualquier número de casillas vacías en línea recta; una jugada \
     larga lo descubre y no puede atacar";

const FLAG: &str = "nunca se mueve; quien la captura gana";

/// What Asalto and Tácticas alemanas share after their first sentences.
macro_rules! asedio {
    () => {
        "24 rebeldes (asiento 0, empiezan) asedian la fortaleza de 9 puntos en lo alto de la \
         cruz de 33 puntos, defendida por 2 oficiales. Los rebeldes avanzan un punto por una \
         línea, nunca hacia una fila más baja, y nunca capturan; ganan llenando la fortaleza \
         o encerrando o soplando a los dos oficiales. Los oficiales se mueven por cualquier \
         línea o capturan saltando a un rebelde hasta el punto vacío de detrás, en cadenas \
         que pueden girar entre saltos; ganan cuando quedan menos de 9 rebeldes o los \
         rebeldes no pueden moverse. Un oficial que pudo capturar y no lo hizo puede ser \
         soplado (retirado) por los rebeldes antes de su siguiente jugada. 100 turnos sin \
         captura, soplido ni avance rebelde son tablas."
    };
}

const SIEGE_ROLES: [&str; 2] = [
    "24 rebeldes en todos los puntos fuera de la fortaleza; empiezan; toman la fortaleza o \
     encierran a los dos oficiales",
    "2 oficiales colocados en puntos cualesquiera de la fortaleza; capturan rebeldes hasta \
     que quedan menos de 9",
];

const SIEGE_NOTES: &[(&str, &str)] = &[
    (
        "rebelde",
        "avanza un punto por una línea hasta un punto vacío, nunca hacia una fila más baja (en \
         Tácticas alemanas nunca por una línea marcada); nunca captura",
    ),
    (
        "oficial",
        "se mueve por cualquier línea, o captura saltando a un rebelde vecino, en cadenas; \
         puede ser soplado si deja pasar una captura",
    ),
];

const SIEGE_NOTATION: &str = "un paso nombra dos puntos: d1-d2. La captura de un oficial \
     nombra su salida y cada punto donde cae: d5xd3, o d5xd3xf3 para una cadena (cada parte \
     inicial de una cadena es una jugada por sí misma). Antes de su jugada, los rebeldes pueden \
     retirar a un oficial que no capturó: huff d6.";

/// Every hosted ruleset.
const KNOWN: [Known; 6] = [
    Known {
        id: "frente",
        description: "El juego de ejércitos ocultos de Yetem en un tablero de 10x10 con dos \
             lagos. Captura el Estandarte enemigo. En un combate gana el rango mayor; la Espía \
             vence al Teniente General cuando ataca ella; solo un Cabo Armero sobrevive al \
             atacar una Bomba. Un Soldado puede correr cualquier distancia en línea recta (y se \
             descubre), pero no puede atacar en la carrera.",
        roles: ARMY_ROLES,
        notes: &[
            ("espia", "vence al Teniente General cuando lo ataca ella"),
            ("soldado", RUNS),
            ("cabo_armero", "desactiva las bombas"),
            (
                "teniente_general",
                "el rango más alto; cae ante la Espía cuando ella ataca",
            ),
            (
                "bomba",
                "nunca se mueve; mata a todo atacante salvo al Cabo Armero",
            ),
            ("estandarte", "nunca se mueve; quien lo captura gana"),
        ],
        notation: ARMY_NOTATION,
    },
    Known {
        id: "clasico",
        description: "El clásico juego de ejércitos ocultos en un tablero de 10x10 con dos \
             lagos. Captura la Bandera enemiga o deja al rival sin jugada. En un combate gana el \
             rango mayor; la Espía vence al Mariscal cuando ataca ella; solo un Minador \
             sobrevive al atacar una Bomba. Un Explorador corre cualquier distancia en línea \
             recta y puede atacar al final.",
        roles: ARMY_ROLES,
        notes: &[
            ("espia", "vence al Mariscal cuando lo ataca ella"),
            (
                "explorador",
                "recorre cualquier número de casillas vacías en línea recta y puede atacar al \
                 final; una jugada larga lo descubre",
            ),
            ("minador", "desactiva las bombas"),
            (
                "mariscal",
                "el rango más alto; cae ante la Espía cuando ella ataca",
            ),
            (
                "bomba",
                "nunca se mueve; mata a todo atacante salvo al Minador",
            ),
            ("bandera", FLAG),
        ],
        notation: ARMY_NOTATION,
    },
    Known {
        id: "castillos",
        description: "Un juego de ejércitos ocultos de 24 piezas en un tablero de 8x10 con \
             lagos, castillos y trincheras. Captura la Bandera enemiga. Gana el rango mayor; las \
             Bombas y las Granadas que se mueven matan a quien las ataca salvo al Desactivador; \
             una Granada que ataca vence a todos menos al Desactivador. Una pieza en una \
             trinchera no puede ser atacada; la pieza que acaba en un castillo el tercer turno \
             seguido de su dueño se retira. El General corre en línea recta.",
        roles: ARMY_ROLES,
        notes: &[
            ("bandera", FLAG),
            (
                "bomba",
                "nunca se mueve; mata a todo atacante salvo al Desactivador (una Granada cae con \
                 ella)",
            ),
            (
                "granada",
                "se mueve; mata a quien la ataca salvo al Desactivador; al atacar, vence a todos \
                 menos al Desactivador",
            ),
            ("desactivador", "desactiva bombas y granadas"),
            ("general", RUNS),
            (
                "mariscal",
                "vence a todas las piezas salvo bombas y granadas",
            ),
        ],
        notation: ARMY_NOTATION,
    },
    Known {
        id: "asalto",
        description: concat!(
            "Asalto, el juego de asedio nacido del Zorro y las gallinas. ",
            asedio!()
        ),
        roles: SIEGE_ROLES,
        notes: SIEGE_NOTES,
        notation: SIEGE_NOTATION,
    },
    Known {
        id: "tacticas",
        description: concat!(
            "Tácticas alemanas: el Asalto con las líneas horizontales de las filas 1-4 marcadas. \
             Los rebeldes no pueden moverse por las líneas marcadas, así que solo se mueven de \
             lado en las filas 5-7; los oficiales usan todas las líneas. ",
            asedio!()
        ),
        roles: SIEGE_ROLES,
        notes: SIEGE_NOTES,
        notation: SIEGE_NOTATION,
    },
    Known {
        id: "tanques",
        description: "Batalla de tanques en hexágonos durante 12 rondas. En cada turno: mete \
             tanques desde tu borde y maniobra hasta 3 de ellos, más uno por cada hexágono \
             urbano que controles (cada uno como mucho 2 pasos adelante y 2 giros de 60°, sin \
             girar nunca en un pantano); después ataca a los tanques enemigos a los que apuntan \
             tus cañones: un dado decide cada ataque, y con más atacantes basta una tirada \
             menor. Tras la ronda 12 los dos bandos pueden seguir atacando hasta que ambos \
             paren. Gana quien controle más hexágonos urbanos y, si empatan, quien conserve más \
             tanques. Los dados salen de una semilla comprometida en cada vista (SHA-256) y \
             revelada al final.",
        roles: [
            "entra por la fila 1 (a1-f1) y juega primero en cada ronda",
            "entra por la fila 11 (a11-f11) y juega segundo en cada ronda",
        ],
        notes: &[(
            "tanque",
            "avanza hacia donde apunta su cañón y ataca el hexágono que tiene delante",
        )],
        notation: "enter f1 NE mete un tanque de tu reserva en uno de tus hexágonos de \
             entrada, mirando al E, NE, NW, W, SW o SE; e4 FLF maniobra el tanque de e4 (F un \
             hexágono adelante, L o R un giro de 60°); attack e5 from d5 d6 advance d5 casualty \
             d6 ataca al tanque de e5 (advance y casualty pueden omitirse: entonces nadie \
             avanza, y un ataque fallido pierde el primer atacante nombrado); end cierra la fase \
             de movimiento o de ataque. Una fase en la que solo cabe end se pasa sola.",
    },
];

/// The bot levels the server offers, by name: the Spanish name and description.
const BOT_LEVELS: [(&str, &str, &str); 3] = [
    (
        "random",
        "al azar",
        "juega una jugada legal al azar: para pruebas, no para divertirse",
    ),
    (
        "easy",
        "fácil",
        "un rival para principiantes: toma lo que ve y mira una jugada adelante",
    ),
    (
        "hard",
        "difícil",
        "examina cada jugada en todas las posiciones que su vista permite",
    ),
];

/// The texts of one ruleset in one language.
#[derive(Clone, Copy)]
pub struct RulesetTexts<'a> {
    ruleset: &'a pb::Ruleset,
    /// The Spanish texts, when Spanish is asked for and the ruleset is known.
    spanish: Option<&'static Known>,
}

impl std::fmt::Debug for RulesetTexts<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RulesetTexts")
            .field("ruleset", &self.ruleset.id)
            .field("spanish", &self.spanish.is_some())
            .finish()
    }
}

impl<'a> RulesetTexts<'a> {
    /// The texts of `ruleset` in `lang`.
    pub fn new(lang: Lang, ruleset: &'a pb::Ruleset) -> RulesetTexts<'a> {
        let known = KNOWN.iter().find(|known| known.id == ruleset.id);
        RulesetTexts {
            ruleset,
            spanish: lang.pick(None, known),
        }
    }

    /// The Spanish text `pick` finds, else the server's.
    fn pick(
        &self,
        pick: impl FnOnce(&'static Known) -> Option<&'static str>,
        server: &'a str,
    ) -> &'a str {
        self.spanish.and_then(pick).unwrap_or(server)
    }

    /// The game in a paragraph.
    pub fn description(&self) -> &'a str {
        self.pick(|k| Some(k.description), &self.ruleset.description)
    }

    /// What `seat` does, e.g. "sets up in rows 1-4 and moves first".
    pub fn role(&self, seat: i32) -> &'a str {
        let server = self
            .ruleset
            .seats
            .iter()
            .find(|s| s.seat == seat)
            .map_or("", |s| s.role.as_str());
        let index = usize::try_from(seat).ok();
        self.pick(|k| index.and_then(|i| k.roles.get(i).copied()), server)
    }

    /// What is special about piece kind `kind` (empty if nothing).
    pub fn note(&self, kind: &str) -> &'a str {
        let server = self
            .ruleset
            .piece_kinds
            .iter()
            .find(|k| k.id == kind)
            .map_or("", |k| k.note.as_str());
        if server.is_empty() {
            return server;
        }
        self.pick(
            |k| {
                k.notes
                    .iter()
                    .find(|(id, _)| *id == kind)
                    .map(|(_, note)| *note)
            },
            server,
        )
    }

    /// How moves are written.
    pub fn notation(&self) -> &'a str {
        self.pick(|k| Some(k.notation), &self.ruleset.notation_help)
    }
}

/// The Spanish name and description of the bot level `name`, if it is known here.
fn spanish_bot(name: &str) -> Option<&'static (&'static str, &'static str, &'static str)> {
    BOT_LEVELS.iter().find(|(level, _, _)| *level == name)
}

/// The name of the bot level `name` in `lang`, e.g. "fácil" for "easy".
pub fn bot_name(lang: Lang, name: &str) -> &str {
    match lang.pick(None, spanish_bot(name)) {
        Some(&(_, spanish, _)) => spanish,
        None => name,
    }
}

/// What the bot `level` does, in `lang`.
pub fn bot_about(lang: Lang, level: &pb::BotLevel) -> &str {
    match lang.pick(None, spanish_bot(&level.name)) {
        Some(&(_, _, about)) => about,
        None => &level.description,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_rulesets_speak_spanish_and_unknown_ones_the_servers_words() {
        let frente = pb::Ruleset {
            id: "frente".into(),
            description: "server words".into(),
            seats: vec![pb::SeatInfo {
                seat: 0,
                role: "sets up in rows 1-4 and moves first".into(),
                ..Default::default()
            }],
            piece_kinds: vec![
                pb::PieceKind {
                    id: "bomba".into(),
                    note: "never moves".into(),
                    ..Default::default()
                },
                pb::PieceKind {
                    id: "capitan".into(),
                    ..Default::default()
                },
            ],
            ..Default::default()
        };
        assert_eq!(
            RulesetTexts::new(Lang::En, &frente).description(),
            "server words"
        );
        let es = RulesetTexts::new(Lang::Es, &frente);
        assert!(
            es.description()
                .starts_with("El juego de ejércitos ocultos")
        );
        assert_eq!(es.role(0), "coloca en las filas 1-4 y empieza");
        assert!(es.note("bomba").starts_with("nunca se mueve"));
        assert_eq!(es.note("capitan"), "", "no note stays no note");
        let other = pb::Ruleset {
            id: "other".into(),
            description: "server words".into(),
            ..Default::default()
        };
        assert_eq!(
            RulesetTexts::new(Lang::Es, &other).description(),
            "server words"
        );
        let easy = pb::BotLevel {
            name: "easy".into(),
            description: "a beginner's opponent".into(),
        };
        assert_eq!(bot_name(Lang::Es, &easy.name), "fácil");
        assert!(bot_about(Lang::Es, &easy).starts_with("un rival"));
        assert_eq!(bot_about(Lang::En, &easy), "a beginner's opponent");
        let odd = pb::BotLevel {
            name: "odd".into(),
            description: "odd one".into(),
        };
        assert_eq!(
            (bot_name(Lang::Es, &odd.name), bot_about(Lang::Es, &odd)),
            ("odd", "odd one")
        );
    }

    #[test]
    fn every_known_ruleset_has_a_role_for_both_seats_and_no_empty_text() {
        for known in &KNOWN {
            let texts = [known.description, known.notation]
                .into_iter()
                .chain(known.roles)
                .chain(known.notes.iter().map(|(_, note)| *note));
            for text in texts {
                assert!(!text.is_empty(), "{}", known.id);
            }
        }
    }
}
