//! External tests, compiled into PatchProof's generated target with a helper module.

mod support;

use cases::{add, prefix};

#[test]
fn asserts() {
    assert_eq!(add(2, 2), 4);
}

#[test]
fn panics_in_code() {
    prefix("naïve", 3);
}

#[test]
fn panics_in_helper() {
    support::explode();
}

#[test]
fn passes() {
    assert_eq!(support::two(), 2);
}
