//! Moves as people type them.

/// `text` with every cell written in upper case put in lower case, as notation writes
/// cells (`E5-E4` → `e5-e4`, `D5XD3XF3` → `d5xd3xf3`, `enter F1 NE` → `enter f1 NE`).
/// A word with a digit in it names cells and goes to lower case whole (`E4-E5X` → `e4-e5x`,
/// not a mix of cases); other words, such as facings and maneuver letters (`NE`, `FLF`),
/// stay as typed.
pub fn typed(text: &str) -> String {
    text.split_inclusive(char::is_whitespace)
        .map(|word| {
            if word.contains(|c: char| c.is_ascii_digit()) {
                word.to_ascii_lowercase()
            } else {
                word.to_owned()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::typed;

    #[test]
    fn cells_go_to_lower_case_and_other_words_stay() {
        assert_eq!(typed("E5-E4"), "e5-e4");
        assert_eq!(typed("D5XD3XF3"), "d5xd3xf3");
        assert_eq!(typed("enter F1 NE"), "enter f1 NE");
        assert_eq!(typed("C1 FLF"), "c1 FLF");
        assert_eq!(typed("a10-a9"), "a10-a9");
        assert_eq!(typed("end"), "end");
        assert_eq!(typed("E4-E5X"), "e4-e5x");
        assert_eq!(typed("attack E5 from D5  D6"), "attack e5 from d5  d6");
    }
}
