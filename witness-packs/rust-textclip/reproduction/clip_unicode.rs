//! `clip` measures text in bytes, not characters: accented text is cut inside a character (a
//! panic in `clip`) or cut although it fits.
//!
//! Sealed by hand from oracle/original/reproduction/clip_unicode.rs: each check observes the value
//! the code returns; the expected values are in oracle/expected.json, never in the container.

mod patchproof_obs;
use patchproof_obs::observe;

use textclip::clip;

#[test]
fn cuts_accented_text_between_characters() {
    observe("reproduction:clip/cafe-au-lait/5", || clip("café au lait", 5));
}

#[test]
fn keeps_accented_text_that_fits() {
    observe("reproduction:clip/naive/5", || clip("naïve", 5));
}
