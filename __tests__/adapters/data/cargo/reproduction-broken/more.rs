use cases::add;

#[test]
fn adds() {
    assert_eq!(add(1, 1), 2);
}

mod group {
    #[test]
    #[ignore]
    fn skipped() {}
}
