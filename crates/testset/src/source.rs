//! What a run's tests are ([`Tests`]) and the one function that draws them ([`Tests::draw`]):
//! afresh, through the one cache beside the seed ([`crate::kept`]), or from a course seed's
//! kept part ([`Course::draw`]).

use std::path::PathBuf;

use crate::course::Course;
use crate::draw::TestSet;
use crate::kept::kept;
use crate::seed::Seed;

/// What a run's tests are: the one way crib-grade is told which [`TestSet`] to grade on, and
/// [`Tests::draw`], the one function that draws it.
///
/// # Example
/// ```
/// use crib_testset::{Seed, Tests};
/// let dir = tempfile::tempdir()?;
/// let seed = Seed::from_bytes([7; 32]);
/// let kept = Tests::Kept { seed, dir: dir.path().to_owned() };
/// // Drawn and written the first time, read back the next: the same set as drawn afresh.
/// assert_eq!(kept.draw().fingerprint, Tests::Drawn(seed).draw().fingerprint);
/// assert_eq!(kept.draw().fingerprint, Tests::Drawn(seed).draw().fingerprint);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tests {
    /// The test set of the seed ([`TestSet::new`]), drawn in the run and kept nowhere: for a
    /// seed met once.
    Drawn(Seed),
    /// The same test set, kept in `dir`: drawn and written there the first time, read back by
    /// later runs of this build under the same seed. `dir` must be as private as the seed.
    Kept {
        /// The seed.
        seed: Seed,
        /// Where its set is kept.
        dir: PathBuf,
    },
    /// The test set of the seed `course` derives with `salt` ([`Seed::derive`]; e.g. a
    /// Gradescope submission's id), drawn in a few milliseconds ([`Course::draw`]) from the
    /// course seed's part kept in `dir` (made and written there the first time). `dir` must
    /// be as private as the seed.
    Salted {
        /// The course seed.
        course: Seed,
        /// What the run's seed is derived with.
        salt: String,
        /// Where the course seed's part is kept.
        dir: PathBuf,
    },
}

impl Tests {
    /// Returns the run's seed, whose id the drawn set carries: the seed, or for a salted set
    /// the course seed derived with the salt.
    pub fn seed(&self) -> Seed {
        match self {
            Tests::Drawn(seed) | Tests::Kept { seed, .. } => *seed,
            Tests::Salted { course, salt, .. } => course.derive(salt),
        }
    }

    /// Returns the test set, drawn as each variant says. A file that cannot be kept is not
    /// an error: the set is the same, drawn again next time.
    pub fn draw(&self) -> TestSet {
        match self {
            Tests::Drawn(seed) => TestSet::new(seed),
            Tests::Kept { seed, dir } => kept::<TestSet>(seed, dir).0,
            Tests::Salted { course, salt, dir } => kept::<Course>(course, dir).0.draw(salt),
        }
    }
}
