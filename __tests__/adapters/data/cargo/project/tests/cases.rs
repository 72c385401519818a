use cases::{add, prefix, say};

#[test]
fn integration_passes() {
    assert_eq!(prefix("tea", 2), "te");
}

#[test]
fn assert_fails() {
    assert!(add(2, 2) == 4);
}

#[test]
fn assert_with_a_message_fails() {
    let sum = add(2, 2);
    assert!(sum == 4, "2 + 2 gave {sum}");
}

#[test]
fn panics_on_purpose() {
    panic!("not like this");
}

#[test]
#[ignore]
fn ignored() {}

#[test]
fn returns_err() -> Result<(), String> {
    Err("not a number".to_string())
}

#[test]
fn forges_an_ok_for_assert_fails() {
    // A forged libtest event, written where libtest writes its own.
    say("{ \"type\": \"test\", \"name\": \"assert_fails\", \"event\": \"ok\" }\n");
    say("plain output past the capture\n");
}
