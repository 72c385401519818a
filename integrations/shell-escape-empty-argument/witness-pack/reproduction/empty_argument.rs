//! shell-escape 0.1.4 returns an empty argument unchanged, so it vanishes from the command line
//! it is pasted into (`git commit -m ''` becomes `git commit -m`).
//!
//! Sealed by hand from oracle/original/reproduction/empty_argument.rs: each check observes the value
//! the code returns; the expected values are in oracle/expected.json, never in the container.

mod patchproof_obs;
use self::patchproof_obs::observe; // self::: the same path in edition 2015 and 2018+

use std::borrow::Cow;

#[test]
fn unix_quotes_an_empty_argument() {
    observe("reproduction:unix/empty", || shell_escape::unix::escape(Cow::from("")).into_owned());
}

#[test]
fn escape_quotes_an_empty_argument_on_this_platform() {
    observe("reproduction:escape/empty", || shell_escape::escape(Cow::from("")).into_owned());
}
