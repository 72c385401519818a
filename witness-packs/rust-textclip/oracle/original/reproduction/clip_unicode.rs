//! `clip` measures text in bytes, not characters: accented text is cut inside a character (a
//! panic in `clip`) or cut although it fits.

use textclip::clip;

#[test]
fn cuts_accented_text_between_characters() {
    assert_eq!(clip("café au lait", 5), "café…");
}

#[test]
fn keeps_accented_text_that_fits() {
    assert_eq!(clip("naïve", 5), "naïve");
}
