//! Rows of text in aligned columns.

/// `rows` with each cell but a row's last padded to the width of its column (counted in
/// characters, so that accented names line up).
pub fn padded<const N: usize>(rows: &[[String; N]]) -> Vec<[String; N]> {
    let widths: [usize; N] = std::array::from_fn(|column| {
        rows.iter()
            .map(|row| row[column].chars().count())
            .max()
            .unwrap_or(0)
    });
    rows.iter()
        .map(|row| {
            std::array::from_fn(|column| {
                let cell = &row[column];
                if column + 1 == N {
                    return cell.clone();
                }
                let pad = widths[column] - cell.chars().count();
                format!("{cell}{}", " ".repeat(pad))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::padded;

    #[test]
    fn columns_are_as_wide_as_their_widest_cell() {
        let rows = [
            ["tácticas", "cross, 33 points", "Rebeldes"],
            ["tanques", "hex", "Rojo"],
        ]
        .map(|row| row.map(String::from));
        let lines: Vec<String> = padded(&rows).iter().map(|row| row.join("  ")).collect();
        assert_eq!(
            lines,
            [
                "tácticas  cross, 33 points  Rebeldes",
                "tanques   hex               Rojo"
            ]
        );
    }
}
