//! shell-escape 0.1.4 returns an empty argument unchanged, so it vanishes from the command line
//! it is pasted into (`git commit -m ''` becomes `git commit -m`).

use std::borrow::Cow;

#[test]
fn unix_quotes_an_empty_argument() {
    assert_eq!(shell_escape::unix::escape(Cow::from("")).into_owned(), "''"); // reproduction:unix/empty
}

#[test]
fn escape_quotes_an_empty_argument_on_this_platform() {
    assert_eq!(shell_escape::escape(Cow::from("")).into_owned(), "''"); // reproduction:escape/empty
}
