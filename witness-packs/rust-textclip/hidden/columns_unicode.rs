//! Every column operation counts characters, whatever their size in bytes.
//!
//! Sealed by hand from oracle/original/hidden/columns_unicode.rs: each check observes the value the
//! code returns; the expected values are in oracle/expected.json, never in the container.

mod patchproof_obs;
use patchproof_obs::observe;

use textclip::{clip, fit, pad, row, width};

#[test]
fn width_counts_characters() {
    observe("hidden:width/zoe", || width("Zoë"));
    observe("hidden:width/nihongo", || width("日本語"));
    observe("hidden:width/empty", || width(""));
}

#[test]
fn a_clipped_cell_is_as_wide_as_its_column() {
    observe("hidden:width-of-clip/breakfast/5", || width(&clip("breakfast", 5)));
}

#[test]
fn clips_wide_characters() {
    observe("hidden:clip/nihongo-no-tekisuto/4", || clip("日本語のテキスト", 4));
    observe("hidden:clip/nihongo/3", || clip("日本語", 3));
}

#[test]
fn pads_accented_text_to_the_width() {
    observe("hidden:pad/cafe/6", || pad("café", 6));
}

#[test]
fn fits_and_lines_up_accented_cells() {
    observe("hidden:fit/naive/7", || fit("naïve", 7));
    observe("hidden:row/zoe-asa", || row(&["Zoë", "Åsa Öberg"], &[4, 5]));
}
