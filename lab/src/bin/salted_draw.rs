//! Measures the CPU of a salted draw ([`Course`]): making a course seed's part, reading it
//! back, and drawing salted test sets from it, each in CPU seconds of the whole process (every
//! thread's, from /proc/self/task/*/schedstat).
//!
//! `cargo run --release -p crib-lab --bin salted_draw -- DIR [SALT...]`: the course
//! part of the seed `[1; 32]` is kept in DIR. A first run makes and writes it; a second run is
//! what a Gradescope submission pays: the course part read back, then one draw (its first in
//! the process, which builds crib-core's rank table too).

use crib_testset::{Course, Seed};

/// Returns the CPU seconds every thread of this process has run so far.
fn cpu() -> f64 {
    let mut ns = 0u64;
    for task in std::fs::read_dir("/proc/self/task").into_iter().flatten() {
        let Ok(task) = task else { continue };
        if let Ok(text) = std::fs::read_to_string(task.path().join("schedstat")) {
            ns += text
                .split_whitespace()
                .next()
                .and_then(|t| t.parse::<u64>().ok())
                .unwrap_or(0);
        }
    }
    ns as f64 / 1e9
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = args.next().ok_or("usage: salted_draw DIR [SALT...]")?;
    let mut salts: Vec<String> = args.collect();
    if salts.is_empty() {
        salts = vec![
            "gradescope submission 1".into(),
            "gradescope submission 2".into(),
        ];
    }
    let seed = Seed::from_bytes([1; 32]);
    let start = cpu();
    let (course, how) = Course::kept(&seed, dir.as_ref());
    let kept = cpu();
    println!("course part {how:?}: {:.1} ms of CPU", (kept - start) * 1e3);
    let mut last = kept;
    let mut first = None;
    for salt in &salts {
        let set = course.draw(salt);
        let now = cpu();
        println!(
            "draw {salt:?}: {:.1} ms of CPU, {}",
            (now - last) * 1e3,
            set.fingerprint
        );
        last = now;
        first.get_or_insert(now);
    }
    if let Some(first) = first {
        println!(
            "course part and first draw: {:.1} ms of CPU",
            (first - start) * 1e3
        );
    }
    Ok(())
}
