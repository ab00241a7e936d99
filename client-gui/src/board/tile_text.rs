//! A piece's name drawn whole on its tile: as large as the tile allows up to a size, on one
//! line or, broken at a space, on two; cut with an ellipsis only where even the smallest
//! readable size would not fit.

use std::sync::Arc;

use eframe::egui::text::{LayoutJob, TextFormat};
use eframe::egui::{Align, Color32, FontId, Galley, Painter, Pos2, Vec2};

/// The smallest size a name is drawn at, in points.
const SMALLEST: f32 = 7.0;
/// The size a name is measured at: text grows in proportion to its size.
const MEASURE: f32 = 10.0;

/// Draws `name` centred on `at`, within `area`, at most `largest` points high, on up to
/// `lines` lines (one or two).
pub fn draw(
    painter: &Painter,
    at: Pos2,
    name: &str,
    area: Vec2,
    largest: f32,
    lines: usize,
    color: Color32,
) {
    let galley = fitted(painter, name, area, largest, lines, color);
    painter.galley(at - galley.rect.center().to_vec2(), galley, color);
}

/// `name` laid out to fit `area` at the largest size up to `largest`.
fn fitted(
    painter: &Painter,
    name: &str,
    area: Vec2,
    largest: f32,
    lines: usize,
    color: Color32,
) -> Arc<Galley> {
    let mut texts = vec![name.to_owned()];
    if lines > 1
        && let Some(two) = two_lines(name)
    {
        texts.push(two);
    }
    let (text, mut size) = texts
        .into_iter()
        .map(|text| {
            let measured = layout(painter, text.clone(), MEASURE, color).size();
            let scale = (area.x / measured.x).min(area.y / measured.y);
            (text, (MEASURE * scale).min(largest))
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap_or_default();
    // Half points only, so that few sizes are laid out and kept by egui.
    size = (size * 2.0).floor() / 2.0;
    while size >= SMALLEST {
        let galley = layout(painter, text.clone(), size, color);
        if galley.size().x <= area.x && galley.size().y <= area.y {
            return galley;
        }
        size -= 0.5;
    }
    let mut job =
        LayoutJob::simple_singleline(name.to_owned(), FontId::proportional(SMALLEST), color);
    job.wrap.max_width = area.x;
    job.wrap.max_rows = 1;
    job.wrap.overflow_character = Some('…');
    job.halign = Align::Center;
    painter.layout_job(job)
}

/// `name` on two lines, broken at the space nearest its middle; `None` without a space.
fn two_lines(name: &str) -> Option<String> {
    let middle = name.chars().count() / 2;
    let (at, _) = name
        .char_indices()
        .filter(|&(_, c)| c == ' ')
        .min_by_key(|&(at, _)| name[..at].chars().count().abs_diff(middle))?;
    Some(format!("{}\n{}", &name[..at], &name[at + 1..]))
}

/// `text` at `size` points, broken at its `\n`, its lines centred.
fn layout(painter: &Painter, text: String, size: f32, color: Color32) -> Arc<Galley> {
    let format = TextFormat::simple(FontId::proportional(size), color);
    let mut job = LayoutJob::simple_format(text, format);
    job.halign = Align::Center;
    painter.layout_job(job)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_breaks_at_the_space_nearest_its_middle() {
        assert_eq!(two_lines("Cabo Armero").as_deref(), Some("Cabo\nArmero"));
        assert_eq!(
            two_lines("Desactivador de minas").as_deref(),
            Some("Desactivador\nde minas")
        );
        assert_eq!(two_lines("Estandarte"), None);
    }
}
