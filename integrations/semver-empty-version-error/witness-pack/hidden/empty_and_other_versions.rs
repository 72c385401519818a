//! Every way of parsing a `Version` reports the empty string as empty; every other input, and the
//! requirement and comparator parsers, report what they reported before. (The error checks of
//! upstream's `test_parse`, which the upstream commit rewrote, are here, with some of its parse
//! checks: `tests/test_version.rs` is left out of the regression phase, see the README.)
//!
//! Sealed by hand from oracle/original/hidden/empty_and_other_versions.rs: each check observes the value
//! the code returns; the expected values are in oracle/expected.json, never in the container.

mod patchproof_obs;
use self::patchproof_obs::observe; // self::: the same path in edition 2015 and 2018+

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
    observe("hidden:str-parse/empty", || outcome("".parse::<Version>()));
    observe("hidden:from-str/empty", || outcome(Version::from_str("")));
    observe("hidden:version-parse/empty-string", || outcome(Version::parse(&String::new())));
}

#[test]
fn other_bad_versions_keep_their_messages() {
    observe("hidden:version-parse/two-spaces", || outcome(Version::parse("  ")));
    observe("hidden:version-parse/1", || outcome(Version::parse("1")));
    observe("hidden:version-parse/1.2", || outcome(Version::parse("1.2")));
    observe("hidden:version-parse/1.2.3-", || outcome(Version::parse("1.2.3-")));
    observe("hidden:version-parse/a.b.c", || outcome(Version::parse("a.b.c")));
    observe("hidden:version-parse/1.2.3-space-abc", || outcome(Version::parse("1.2.3 abc")));
    observe("hidden:version-parse/1.2.3-01", || outcome(Version::parse("1.2.3-01")));
    observe("hidden:version-parse/1.2.3-plus-plus", || outcome(Version::parse("1.2.3++")));
    observe("hidden:version-parse/07", || outcome(Version::parse("07")));
}

#[test]
fn good_versions_still_parse() {
    observe("hidden:version-parse/1.2.3", || outcome(Version::parse("1.2.3")));
    observe("hidden:version-parse/pre-and-build", || outcome(Version::parse("1.2.3-alpha1+build5")));
    observe("hidden:version-parse/0.4.0-beta.1", || outcome(Version::parse("0.4.0-beta.1+0851523")));
    observe("hidden:version-parse/beta-10", || outcome(Version::parse("1.1.0-beta-10")));
    observe("hidden:str-parse/1.2.3-alpha1-build-42", || outcome("1.2.3-alpha1+42".parse::<Version>()));
}

#[test]
fn requirements_and_comparators_are_unchanged() {
    observe("hidden:req-parse/empty", || outcome(VersionReq::parse("")));
    observe("hidden:req-parse/gt", || outcome(VersionReq::parse(">")));
    observe("hidden:req-parse/range", || outcome(VersionReq::parse(">=1.2, <2")));
    observe("hidden:comparator-parse/empty", || outcome(Comparator::parse("")));
    observe("hidden:comparator-parse/1.", || outcome(Comparator::parse("1.")));
}
