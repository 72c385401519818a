//! An empty argument is quoted by both escapers, from a borrowed or an owned string; every other
//! argument is escaped as before (plain words unchanged, words with spaces or specials quoted).

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
    assert_eq!(shell_escape::windows::escape(Cow::from("")).into_owned(), r#""""#); // hidden:windows/empty
    assert_eq!(shell_escape::windows::escape(Cow::Owned(String::new())).into_owned(), r#""""#); // hidden:windows/empty-owned
}

#[test]
fn unix_quotes_an_owned_empty_argument() {
    assert_eq!(shell_escape::unix::escape(Cow::Owned(String::new())).into_owned(), "''"); // hidden:unix/empty-owned
}

#[test]
fn an_empty_argument_keeps_its_place_in_a_command_line() {
    assert_eq!(unix_line(&["git", "commit", "-m", "", "--allow-empty"]), "git commit -m '' --allow-empty"); // hidden:unix/line-with-empty
    assert_eq!(windows_line(&["tool.exe", "", "x"]), r#"tool.exe "" x"#); // hidden:windows/line-with-empty
}

#[test]
fn plain_words_stay_unquoted() {
    assert_eq!(shell_escape::unix::escape(Cow::from("foobar")).into_owned(), "foobar"); // hidden:unix/plain-word
    assert_eq!(shell_escape::unix::escape(Cow::from("--aaa=bbb-ccc")).into_owned(), "--aaa=bbb-ccc"); // hidden:unix/option
    assert_eq!(shell_escape::unix::escape(Cow::from("/usr/bin/x,y.z+1")).into_owned(), "/usr/bin/x,y.z+1"); // hidden:unix/path
    assert_eq!(shell_escape::windows::escape(Cow::from("--aaa=bbb-ccc")).into_owned(), "--aaa=bbb-ccc"); // hidden:windows/option
}

#[test]
fn whitespace_and_specials_are_still_quoted() {
    assert_eq!(shell_escape::unix::escape(Cow::from(" ")).into_owned(), "' '"); // hidden:unix/one-space
    assert_eq!(shell_escape::unix::escape(Cow::from("it's")).into_owned(), r#"'it'\''s'"#); // hidden:unix/single-quote
    assert_eq!(shell_escape::windows::escape(Cow::from(" ")).into_owned(), r#"" ""#); // hidden:windows/one-space
    assert_eq!(shell_escape::windows::escape(Cow::from(r#"say "hi""#)).into_owned(), r#""say \"hi\"""#); // hidden:windows/double-quotes
}
