//! Moves as people type them.

/// `text` with every cell written in upper case put in lower case, as notation writes
/// cells (`E5-E4` → `e5-e4`, `D5XD3XF3` → `d5xd3xf3`, `enter F1 NE` → `enter f1 NE`).
/// A run of letters counts as (the column of) a cell when digits follow it; other words,
/// such as facings and maneuver letters (`NE`, `FLF`), stay as typed.
pub fn typed(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut letters = String::new();
    for c in text.chars() {
        if c.is_ascii_alphabetic() {
            letters.push(c);
            continue;
        }
        if c.is_ascii_digit() {
            out.push_str(&letters.to_ascii_lowercase());
        } else {
            out.push_str(&letters);
        }
        letters.clear();
        out.push(c);
    }
    out.push_str(&letters);
    out
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
    }
}
