//! One oracle per rayon worker thread.

use std::sync::{Mutex, PoisonError};

use crate::{Oracle, Reference};

/// Oracles for the threads of a rayon pool, so a parallel sweep asks Prolog on every core.
///
/// [`Pool::with`] lends the calling worker its own oracle, made on that worker the first time
/// (an engine must stay on the thread that made it; see [`Oracle`]). A thread outside the
/// rayon pool gets a fresh oracle for each call, which is correct but slower.
#[derive(Debug)]
pub struct Pool {
    reference: Reference,
    slots: Box<[Mutex<Option<Oracle>>]>,
}

impl Pool {
    /// Returns a pool with room for one oracle per thread of the current rayon pool.
    pub fn new(reference: &Reference) -> Pool {
        let size = rayon::current_num_threads().max(1);
        Pool {
            reference: reference.clone(),
            slots: (0..size).map(|_| Mutex::new(None)).collect(),
        }
    }

    /// Runs `f` with the calling thread's oracle.
    ///
    /// # Example
    /// ```
    /// use crib_core::{hands, starts_for, Hand, Rule};
    /// use rayon::prelude::*;
    /// let reference = crib_oracle::Reference::load(crib_oracle::default_path())?;
    /// let pool = crib_oracle::Pool::new(&reference);
    /// let first: Vec<[crib_core::Card; 4]> = hands().take(100).collect();
    /// let total: u64 = first
    ///     .par_iter()
    ///     .map(|&cards| {
    ///         let hand = Hand::new(cards).expect("hands() gives distinct cards");
    ///         let starts: Vec<_> = starts_for(&cards).collect();
    ///         let values = pool.with(|o| o.hand_values(&hand, &starts, Rule::Hand)).unwrap();
    ///         values.iter().map(|&v| u64::from(v)).sum::<u64>()
    ///     })
    ///     .sum();
    /// assert!(total > 0);
    /// # Ok::<(), crib_oracle::OracleError>(())
    /// ```
    pub fn with<R>(&self, f: impl FnOnce(&Oracle) -> R) -> R {
        let Some(index) = rayon::current_thread_index() else {
            return f(&self.reference.oracle());
        };
        let mut slot = self.slots[index % self.slots.len()]
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        // Another rayon pool's worker with the same index made the oracle there: replace it.
        if !slot.as_ref().is_some_and(Oracle::is_home) {
            *slot = Some(self.reference.oracle());
        }
        f(slot.as_ref().expect("the slot was filled above"))
    }
}
