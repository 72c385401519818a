//! An empty argument is quoted by both escapers, from a borrowed or an owned string; every other
//! argument is escaped as before (plain words unchanged, words with spaces or specials quoted).
//!
//! Sealed by hand from oracle/original/hidden/empty_and_plain_arguments.rs: each check observes the value
//! the code returns; the expected values are in oracle/expected.json, never in the container.

mod patchproof_obs;
use self::patchproof_obs::observe; // self::: the same path in edition 2015 and 2018+

// shell-escape is an edition 2015 crate, so the test target is too: there `use shell_escape::…`
// would name a module of the test crate; paths that start with the crate's name reach it.
use std::borrow::Cow;

fn unix_line(args: &[&str]) -> String {
    args.iter().map(|a| shell_escape::unix::escape(Cow::from(*a)).into_owned()).collect::<Vec<_>>().join(" ")
}

fn windows_line(args: &[&str]) -> String {
    args.iter().map(|a| shell_escape::windows::escape(Cow::from(*a)).into_owned()).collect::<Vec<_>>().join(" ")
}

#[test]
fn windows_quotes_an_empty_argument() {
    observe("hidden:windows/empty", || shell_escape::windows::escape(Cow::from("")).into_owned());
    observe("hidden:windows/empty-owned", || shell_escape::windows::escape(Cow::Owned(String::new())).into_owned());
}

#[test]
fn unix_quotes_an_owned_empty_argument() {
    observe("hidden:unix/empty-owned", || shell_escape::unix::escape(Cow::Owned(String::new())).into_owned());
}

#[test]
fn an_empty_argument_keeps_its_place_in_a_command_line() {
    observe("hidden:unix/line-with-empty", || unix_line(&["git", "commit", "-m", "", "--allow-empty"]));
    observe("hidden:windows/line-with-empty", || windows_line(&["tool.exe", "", "x"]));
}

#[test]
fn plain_words_stay_unquoted() {
    observe("hidden:unix/plain-word", || shell_escape::unix::escape(Cow::from("foobar")).into_owned());
    observe("hidden:unix/option", || shell_escape::unix::escape(Cow::from("--aaa=bbb-ccc")).into_owned());
    observe("hidden:unix/path", || shell_escape::unix::escape(Cow::from("/usr/bin/x,y.z+1")).into_owned());
    observe("hidden:windows/option", || shell_escape::windows::escape(Cow::from("--aaa=bbb-ccc")).into_owned());
}

#[test]
fn whitespace_and_specials_are_still_quoted() {
    observe("hidden:unix/one-space", || shell_escape::unix::escape(Cow::from(" ")).into_owned());
    observe("hidden:unix/single-quote", || shell_escape::unix::escape(Cow::from("it's")).into_owned());
    observe("hidden:windows/one-space", || shell_escape::windows::escape(Cow::from(" ")).into_owned());
    observe("hidden:windows/double-quotes", || shell_escape::windows::escape(Cow::from(r#"say "hi""#)).into_owned());
}
