//! Uses a function the library does not have: the generated target does not compile.

#[test]
fn subtracts() {
    assert_eq!(cases::subtract(3, 1), 2);
}
