//! semver 1.0.14 reports an empty version string as "unexpected end of input while parsing major
//! version number", the message of a version cut short ("1"), instead of saying it is empty.
//!
//! Sealed by hand from oracle/original/reproduction/empty_version.rs: each check observes the value
//! the code returns; the expected values are in oracle/expected.json, never in the container.

mod patchproof_obs;
use self::patchproof_obs::observe; // self::: the same path in edition 2015 and 2018+

use semver::Version;

#[test]
fn parsing_an_empty_version_says_it_is_empty() {
    observe("reproduction:version-parse/empty", || Version::parse("").unwrap_err().to_string());
}
