//! Measures the CPU of a salted draw ([`Tests::Salted`]): making a course seed's part or reading
//! it back, and drawing a salted test set from it, in CPU seconds of the whole process (every
//! thread's, from /proc/self/task/*/schedstat).
//!
//! `cargo run --release -p crib-lab --bin salted_draw -- DIR [SALT...]`: the course
//! part of the seed `[1; 32]` is kept in DIR. The first salt of a first run makes and writes
//! it; every other salt is what a Gradescope submission pays: the course part read back, then
//! one draw (the first in the process also builds crib-core's rank table).

use crib_testset::{Seed, Tests};

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
    let course = Seed::from_bytes([1; 32]);
    for salt in salts {
        let start = cpu();
        let tests = Tests::Salted {
            course,
            salt: salt.clone(),
            dir: dir.clone().into(),
        };
        let set = tests.draw();
        println!(
            "course part kept or made, and the draw of {salt:?}: {:.1} ms of CPU, {}",
            (cpu() - start) * 1e3,
            set.fingerprint
        );
    }
    Ok(())
}
