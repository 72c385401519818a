pub fn two() -> u32 {
    2
}

pub fn explode() {
    let empty: Vec<u32> = Vec::new();
    let _ = empty[1];
}
