//! Every way of parsing a `Version` reports the empty string as empty; every other input, and the
//! requirement and comparator parsers, report what they reported before. (The error checks of
//! upstream's `test_parse`, which the upstream commit rewrote, are here, with some of its parse
//! checks: `tests/test_version.rs` is left out of the regression phase, see the README.)

use std::fmt::Display;
use std::str::FromStr;

use semver::{Comparator, Version, VersionReq};

fn outcome<T: Display, E: Display>(result: Result<T, E>) -> String {
    match result {
        Ok(value) => format!("ok {}", value),
        Err(error) => format!("err {}", error),
    }
}

#[test]
fn every_version_parser_says_empty() {
    assert_eq!(outcome("".parse::<Version>()), "err empty string, expected a semver version"); // hidden:str-parse/empty
    assert_eq!(outcome(Version::from_str("")), "err empty string, expected a semver version"); // hidden:from-str/empty
    assert_eq!(outcome(Version::parse(&String::new())), "err empty string, expected a semver version"); // hidden:version-parse/empty-string
}

#[test]
fn other_bad_versions_keep_their_messages() {
    assert_eq!(outcome(Version::parse("  ")), "err unexpected character ' ' while parsing major version number"); // hidden:version-parse/two-spaces
    assert_eq!(outcome(Version::parse("1")), "err unexpected end of input while parsing major version number"); // hidden:version-parse/1
    assert_eq!(outcome(Version::parse("1.2")), "err unexpected end of input while parsing minor version number"); // hidden:version-parse/1.2
    assert_eq!(outcome(Version::parse("1.2.3-")), "err empty identifier segment in pre-release identifier"); // hidden:version-parse/1.2.3-
    assert_eq!(outcome(Version::parse("a.b.c")), "err unexpected character 'a' while parsing major version number"); // hidden:version-parse/a.b.c
    assert_eq!(outcome(Version::parse("1.2.3 abc")), "err unexpected character ' ' after patch version number"); // hidden:version-parse/1.2.3-space-abc
    assert_eq!(outcome(Version::parse("1.2.3-01")), "err invalid leading zero in pre-release identifier"); // hidden:version-parse/1.2.3-01
    assert_eq!(outcome(Version::parse("1.2.3++")), "err empty identifier segment in build metadata"); // hidden:version-parse/1.2.3-plus-plus
    assert_eq!(outcome(Version::parse("07")), "err invalid leading zero in major version number"); // hidden:version-parse/07
}

#[test]
fn good_versions_still_parse() {
    assert_eq!(outcome(Version::parse("1.2.3")), "ok 1.2.3"); // hidden:version-parse/1.2.3
    assert_eq!(outcome(Version::parse("1.2.3-alpha1+build5")), "ok 1.2.3-alpha1+build5"); // hidden:version-parse/pre-and-build
    assert_eq!(outcome(Version::parse("0.4.0-beta.1+0851523")), "ok 0.4.0-beta.1+0851523"); // hidden:version-parse/0.4.0-beta.1
    assert_eq!(outcome(Version::parse("1.1.0-beta-10")), "ok 1.1.0-beta-10"); // hidden:version-parse/beta-10
    assert_eq!(outcome("1.2.3-alpha1+42".parse::<Version>()), "ok 1.2.3-alpha1+42"); // hidden:str-parse/1.2.3-alpha1-build-42
}

#[test]
fn requirements_and_comparators_are_unchanged() {
    assert_eq!(outcome(VersionReq::parse("")), "err unexpected end of input while parsing major version number"); // hidden:req-parse/empty
    assert_eq!(outcome(VersionReq::parse(">")), "err unexpected end of input while parsing major version number"); // hidden:req-parse/gt
    assert_eq!(outcome(VersionReq::parse(">=1.2, <2")), "ok >=1.2, <2"); // hidden:req-parse/range
    assert_eq!(outcome(Comparator::parse("")), "err unexpected end of input while parsing major version number"); // hidden:comparator-parse/empty
    assert_eq!(outcome(Comparator::parse("1.")), "err unexpected end of input while parsing minor version number"); // hidden:comparator-parse/1.
}
