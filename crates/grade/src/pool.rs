//! The worker pool: jobs spread over threads, each worker with a slot of its own.

use std::any::Any;
use std::num::NonZeroUsize;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use crib_sandbox::{Worker, MAX_WORKERS};

/// A job that panicked, in place of its result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a worker panicked: {message}")]
pub struct Panicked {
    /// What the panic said.
    pub message: String,
}

/// A pool of worker threads, at most [`MAX_WORKERS`]. Each has a [`Worker`] of its own for as
/// long as the pool runs: a grader gives its sandbox uids by worker (`Grader::grade`), so two
/// jobs running at once never share one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkerPool {
    workers: NonZeroUsize,
}

impl WorkerPool {
    /// Returns a pool of `workers` threads (at least one, at most [`MAX_WORKERS`]).
    pub fn new(workers: usize) -> WorkerPool {
        let workers = workers.clamp(1, MAX_WORKERS as usize);
        WorkerPool {
            workers: NonZeroUsize::new(workers).expect("clamped to at least one"),
        }
    }

    /// Returns a pool of one worker per core (at most [`MAX_WORKERS`]).
    pub fn per_core() -> WorkerPool {
        WorkerPool::new(std::thread::available_parallelism().map_or(1, NonZeroUsize::get))
    }

    /// Runs `job(worker, item)` for every item, as [`WorkerPool::run_each`] does, and returns the
    /// results in the order of `items`.
    ///
    /// # Example
    /// ```
    /// use crib_grade::WorkerPool;
    /// let squares = WorkerPool::new(2).run(&[1, 2, 3], |_worker, n| n * n);
    /// assert_eq!(squares, [Ok(1), Ok(4), Ok(9)]);
    /// ```
    pub fn run<T, R>(
        self,
        items: &[T],
        job: impl Fn(Worker, &T) -> R + Sync,
    ) -> Vec<Result<R, Panicked>>
    where
        T: Sync,
        R: Send,
    {
        self.run_each(items, job, |_, _| {})
    }

    /// Runs `job(worker, item)` for every item on the pool's workers (no more workers than
    /// items), each worker taking the next item not yet taken, and returns the results in
    /// the order of `items`. `done(index, result)` is called on the calling thread as each
    /// job ends, in the order they end: to save or show a result while others still run.
    ///
    /// A job that panics gives `Err(Panicked)` in its place; its worker goes on with the next
    /// item, keeping its `Worker`, and no other result is lost.
    ///
    /// # Example
    /// ```
    /// use crib_grade::WorkerPool;
    /// let mut seen = 0;
    /// let got = WorkerPool::new(3).run_each(
    ///     &[1, 0, 4],
    ///     |worker, &n| {
    ///         assert!(worker.index() < 3);
    ///         100 / n
    ///     },
    ///     |_index, _result| seen += 1,
    /// );
    /// assert_eq!(seen, 3);
    /// assert_eq!(got[0], Ok(100));
    /// assert!(got[1].as_ref().is_err_and(|e| e.message.contains("divide by zero")));
    /// assert_eq!(got[2], Ok(25));
    /// ```
    pub fn run_each<T, R>(
        self,
        items: &[T],
        job: impl Fn(Worker, &T) -> R + Sync,
        mut done: impl FnMut(usize, &Result<R, Panicked>),
    ) -> Vec<Result<R, Panicked>>
    where
        T: Sync,
        R: Send,
    {
        let mut results: Vec<Option<Result<R, Panicked>>> =
            std::iter::repeat_with(|| None).take(items.len()).collect();
        let workers = self.workers.get().min(items.len());
        let next = AtomicUsize::new(0);
        let (tx, rx) = mpsc::channel();
        std::thread::scope(|scope| {
            for worker in (0..workers).filter_map(Worker::new) {
                let (tx, next, job) = (tx.clone(), &next, &job);
                scope.spawn(move || loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let result =
                        catch_unwind(AssertUnwindSafe(|| job(worker, item))).map_err(|panic| {
                            Panicked {
                                message: panic_message(panic.as_ref()),
                            }
                        });
                    if tx.send((i, result)).is_err() {
                        break;
                    }
                });
            }
            drop(tx);
            for (i, result) in rx {
                done(i, &result);
                results[i] = Some(result);
            }
        });
        results
            .into_iter()
            .map(|r| r.expect("every job sends its result"))
            .collect()
    }

    /// Returns `f(item)` for every item, in the order of `items`, computed on the pool's
    /// workers in one contiguous chunk each: for pure computations over many small items
    /// (drawing a test set), where a job per item would cost more than the item. A panic in
    /// `f` is a bug, not a verdict: it panics here, with its message, once every worker has
    /// stopped.
    ///
    /// # Example
    /// ```
    /// use crib_grade::WorkerPool;
    /// let squares = WorkerPool::new(2).map(&[1, 2, 3, 4, 5], |n| n * n);
    /// assert_eq!(squares, [1, 4, 9, 16, 25]);
    /// ```
    pub fn map<T, R>(self, items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R>
    where
        T: Sync,
        R: Send,
    {
        let size = items.len().div_ceil(self.workers.get()).max(1);
        let chunks: Vec<&[T]> = items.chunks(size).collect();
        self.run(&chunks, |_, chunk| chunk.iter().map(&f).collect::<Vec<R>>())
            .into_iter()
            .flat_map(|chunk| chunk.unwrap_or_else(|panic| panic!("{}", panic.message)))
            .collect()
    }
}

/// Returns what a panic said, when it said it in text.
pub(crate) fn panic_message(panic: &(dyn Any + Send)) -> String {
    if let Some(text) = panic.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = panic.downcast_ref::<String>() {
        text.clone()
    } else {
        "(no message)".to_string()
    }
}

#[cfg(test)]
mod tests;
