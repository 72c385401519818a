//! semver 1.0.14 reports an empty version string as "unexpected end of input while parsing major
//! version number", the message of a version cut short ("1"), instead of saying it is empty.

use semver::Version;

#[test]
fn parsing_an_empty_version_says_it_is_empty() {
    assert_eq!(Version::parse("").unwrap_err().to_string(), "empty string, expected a semver version"); // reproduction:version-parse/empty
}
