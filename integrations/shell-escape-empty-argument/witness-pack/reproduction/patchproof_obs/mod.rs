//! PatchProof observation helper for sealed Rust tests (the generic sealed-oracle form, see
//! docs/witness-pack.md). Copy this file to `patchproof_obs/mod.rs` in the pack's test folder and
//! declare it with `mod patchproof_obs;` in each sealed test file. It holds no expected value: a test
//! calls `observe("case-id", || value)`, which prints one line,
//! `PATCHPROOF-OBS/1 <nonce> {"case": id, "value": <JSON>}`, and the host compares it with the
//! pack's oracle file, which never enters the container. Standard library only.

use std::fmt::Write as _;
use std::io::Write as _;

/// The nonce of this run, staged by PatchProof beside the phase's tests (compiled in).
const NONCE: &str = include_str!("../patchproof-oracle.nonce");

/// A value that can be observed: written as JSON.
pub trait Observable {
    fn write_json(&self, out: &mut String);
}

fn write_str(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{:04x}", unit);
                }
            }
        }
    }
    out.push('"');
}

impl Observable for str {
    fn write_json(&self, out: &mut String) {
        write_str(self, out);
    }
}
impl Observable for String {
    fn write_json(&self, out: &mut String) {
        write_str(self, out);
    }
}
impl Observable for char {
    fn write_json(&self, out: &mut String) {
        write_str(self.encode_utf8(&mut [0u8; 4]), out);
    }
}
impl Observable for bool {
    fn write_json(&self, out: &mut String) {
        out.push_str(if *self { "true" } else { "false" });
    }
}
macro_rules! observable_integers {
    ($($t:ty),*) => {$(
        impl Observable for $t {
            fn write_json(&self, out: &mut String) {
                let _ = write!(out, "{}", self);
            }
        }
    )*};
}
observable_integers!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);
macro_rules! observable_floats {
    ($($t:ty),*) => {$(
        impl Observable for $t {
            fn write_json(&self, out: &mut String) {
                if self.is_finite() {
                    let _ = write!(out, "{:?}", self);
                } else {
                    out.push_str("{\"$number\":");
                    write_str(&format!("{}", self), out);
                    out.push('}');
                }
            }
        }
    )*};
}
observable_floats!(f32, f64);
impl<T: Observable + ?Sized> Observable for &T {
    fn write_json(&self, out: &mut String) {
        (**self).write_json(out);
    }
}
impl<T: Observable> Observable for [T] {
    fn write_json(&self, out: &mut String) {
        out.push('[');
        for (i, item) in self.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            item.write_json(out);
        }
        out.push(']');
    }
}
impl<T: Observable, const N: usize> Observable for [T; N] {
    fn write_json(&self, out: &mut String) {
        self[..].write_json(out);
    }
}
impl<T: Observable> Observable for Vec<T> {
    fn write_json(&self, out: &mut String) {
        self[..].write_json(out);
    }
}
impl<T: Observable> Observable for Option<T> {
    fn write_json(&self, out: &mut String) {
        match self {
            Some(value) => value.write_json(out),
            None => out.push_str("null"),
        }
    }
}
/// `Ok(v)` as `{"ok": v}`, `Err(e)` as `{"err": "<e as Debug>"}`.
impl<T: Observable, E: std::fmt::Debug> Observable for Result<T, E> {
    fn write_json(&self, out: &mut String) {
        match self {
            Ok(value) => {
                out.push_str("{\"ok\":");
                value.write_json(out);
            }
            Err(error) => {
                out.push_str("{\"err\":");
                write_str(&format!("{:?}", error), out);
            }
        }
        out.push('}');
    }
}
macro_rules! observable_tuples {
    ($(($($name:ident . $index:tt),+)),*) => {$(
        impl<$($name: Observable),+> Observable for ($($name,)+) {
            fn write_json(&self, out: &mut String) {
                out.push('[');
                $( if $index > 0 { out.push(','); } self.$index.write_json(out); )+
                out.push(']');
            }
        }
    )*};
}
observable_tuples!((A.0, B.1), (A.0, B.1, C.2), (A.0, B.1, C.2, D.3));

/// The stream the host reads: the stdout of the run's first process, the topmost ancestor working
/// in this same folder (Docker's init, or what the runner started), past libtest's capture and
/// the harness that reads the test binary's own output; else this process's stdout.
fn stream() -> Box<dyn std::io::Write> {
    // First choice: fd 9, which PatchProof's cargo harness keeps open on the run's stdout for this
    // helper. Only a pipe or a terminal counts, so a file the tests opened as fd 9 is never used.
    if let Ok(file) = std::fs::OpenOptions::new().append(true).open("/proc/self/fd/9") {
        use std::os::unix::fs::FileTypeExt;
        if let Ok(meta) = file.metadata() {
            if meta.file_type().is_fifo() || meta.file_type().is_char_device() {
                return Box::new(file);
            }
        }
    }
    fn parent_of(pid: u32) -> Option<u32> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", pid)).ok()?;
        stat[stat.rfind(')')? + 1..].split_whitespace().nth(1)?.parse().ok()
    }
    let cwd = std::env::current_dir().ok().and_then(|dir| std::fs::canonicalize(dir).ok());
    let mut top = None;
    let mut pid = std::process::id();
    while let (Some(cwd), Some(ppid)) = (cwd.as_ref(), parent_of(pid)) {
        if ppid == 0 || std::fs::read_link(format!("/proc/{}/cwd", ppid)).ok().as_ref() != Some(cwd) {
            break;
        }
        pid = ppid;
        top = Some(ppid);
    }
    if let Some(top) = top {
        if let Ok(file) = std::fs::OpenOptions::new().append(true).open(format!("/proc/{}/fd/1", top)) {
            return Box::new(file);
        }
    }
    Box::new(std::io::stdout())
}

fn emit(id: &str, value: &dyn Fn(&mut String)) {
    let mut line = format!("PATCHPROOF-OBS/1 {} {{\"case\":", NONCE.trim());
    write_str(id, &mut line);
    line.push_str(",\"value\":");
    value(&mut line);
    line.push_str("}\n");
    // One write of one short line: lines of parallel tests do not interleave.
    let _ = stream().write_all(line.as_bytes());
}

/// Observe the value `compute` returns as case `id`. A panic is observed as
/// `{"$raised": "panic", "message": …}` and then resumed, so the test fails as it would have.
pub fn observe<T: Observable, F: FnOnce() -> T>(id: &str, compute: F) {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(compute)) {
        Ok(value) => emit(id, &|out| value.write_json(out)),
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            emit(id, &|out| {
                out.push_str("{\"$raised\":\"panic\",\"message\":");
                write_str(&message, out);
                out.push('}');
            });
            std::panic::resume_unwind(payload);
        }
    }
}
