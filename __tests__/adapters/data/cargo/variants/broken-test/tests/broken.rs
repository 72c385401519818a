#[test]
fn calls_a_missing_function() {
    assert_eq!(cases::subtract(3, 1), 2);
}
