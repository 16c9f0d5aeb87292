//! Progress on stderr: a bar with rate and ETA at a terminal, a plain line every few seconds
//! otherwise (CI logs).

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// How often a plain progress line is printed when stderr is not a terminal.
const LINE_EVERY: Duration = Duration::from_secs(5);

/// Counts work done, from many threads, and shows it.
pub struct Progress {
    what: &'static str,
    total: u64,
    done: AtomicU64,
    started: Instant,
    view: View,
}

enum View {
    Bar(ProgressBar),
    Lines { last: Mutex<Instant> },
    Hidden,
}

impl Progress {
    /// Starts counting `total` units of `what` ("pairs", "deals").
    pub fn new(label: &'static str, what: &'static str, total: u64, quiet: bool) -> Progress {
        let view = if quiet {
            View::Hidden
        } else if std::io::stderr().is_terminal() {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            let template = format!(
                "{label} [{{wide_bar}}] {{human_pos}}/{{human_len}} {what}, {{rate}}, eta {{eta}}"
            );
            let style = ProgressStyle::with_template(&template)
                .expect("the template is valid")
                .with_key(
                    "rate",
                    |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{:.0}/s", state.per_sec());
                    },
                )
                .progress_chars("=> ");
            bar.set_style(style);
            View::Bar(bar)
        } else {
            eprintln!("{label}: checking {} {what}", HumanCount(total));
            View::Lines {
                last: Mutex::new(Instant::now()),
            }
        };
        Progress {
            what,
            total,
            done: AtomicU64::new(0),
            started: Instant::now(),
            view,
        }
    }

    /// Adds `n` units done.
    pub fn add(&self, n: u64) {
        let done = self.done.fetch_add(n, Ordering::Relaxed) + n;
        match &self.view {
            View::Bar(bar) => bar.inc(n),
            View::Lines { last } => {
                let Ok(mut last) = last.try_lock() else {
                    return;
                };
                if last.elapsed() < LINE_EVERY {
                    return;
                }
                *last = Instant::now();
                let seconds = self.started.elapsed().as_secs_f64();
                let rate = done as f64 / seconds.max(1e-9);
                let eta = (self.total.saturating_sub(done)) as f64 / rate.max(1e-9);
                eprintln!(
                    "  {}/{} {} ({:.0}%), {:.0} {}/s, eta {eta:.0} s",
                    HumanCount(done),
                    HumanCount(self.total),
                    self.what,
                    100.0 * done as f64 / self.total.max(1) as f64,
                    rate,
                    self.what,
                );
            }
            View::Hidden => {}
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let View::Bar(bar) = &self.view {
            bar.finish_and_clear();
        }
    }
}
