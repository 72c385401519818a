//! Every column operation counts characters, whatever their size in bytes.

use textclip::{clip, fit, pad, row, width};

#[test]
fn width_counts_characters() {
    assert_eq!(width("Zoë"), 3);
    assert_eq!(width("日本語"), 3);
    assert_eq!(width(""), 0);
}

#[test]
fn a_clipped_cell_is_as_wide_as_its_column() {
    assert_eq!(width(&clip("breakfast", 5)), 5);
}

#[test]
fn clips_wide_characters() {
    assert_eq!(clip("日本語のテキスト", 4), "日本語…");
    assert_eq!(clip("日本語", 3), "日本語");
}

#[test]
fn pads_accented_text_to_the_width() {
    assert_eq!(pad("café", 6), "café  ");
}

#[test]
fn fits_and_lines_up_accented_cells() {
    assert_eq!(fit("naïve", 7), "naïve  ");
    assert_eq!(row(&["Zoë", "Åsa Öberg"], &[4, 5]), "Zoë  | Åsa …");
}
