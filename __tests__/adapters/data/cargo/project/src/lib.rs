//! A tiny library whose tests end in every way libtest knows.

/// The first `n` bytes of `text` (panics inside a multi-byte character: the code under test's bug).
pub fn prefix(text: &str, n: usize) -> &str {
    &text[..n]
}

/// Adds two numbers, wrongly for 2 + 2.
pub fn add(a: u32, b: u32) -> u32 {
    if a == 2 && b == 2 { 5 } else { a + b }
}

/// Writes `line` straight to the process's stdout, past libtest's capture.
pub fn say(line: &str) {
    use std::io::Write;
    let mut out = std::io::stdout();
    out.write_all(line.as_bytes()).unwrap();
    out.flush().unwrap();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes() {
        assert_eq!(add(1, 2), 3);
    }

    #[test]
    fn assert_eq_fails() {
        assert_eq!(add(2, 2), 4);
    }

    #[test]
    fn panics_in_code() {
        prefix("café", 4);
    }

    #[test]
    fn unwrap_fails_in_test() {
        "x".parse::<u32>().unwrap();
    }

    #[test]
    #[ignore = "slow"]
    fn ignored_with_reason() {}

    #[test]
    #[should_panic(expected = "byte index")]
    fn should_panic_passes() {
        prefix("é", 1);
    }

    #[test]
    #[should_panic]
    fn should_panic_without_panic() {}

    mod nested {
        #[test]
        fn deep() {}
    }
}
