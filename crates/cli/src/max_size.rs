//! `--max-size MIB`, as crib grade, crib lint and crib similar all read submissions: through
//! crib-grade's staging, which refuses a submission whose files total more.

/// The most a submission's files may total.
#[derive(Debug, Clone, Copy, clap::Args)]
pub(crate) struct MaxSize {
    /// The most a submission's files may total, MiB; a bigger one is not loaded (checked
    /// before anything is read or copied).
    #[arg(long = "max-size", value_name = "MIB", default_value_t = crib_submission::MAX_BYTES >> 20, value_parser = clap::value_parser!(u64).range(1..=1024))]
    mib: u64,
}

impl MaxSize {
    /// The limit in bytes.
    pub(crate) fn bytes(self) -> u64 {
        self.mib << 20
    }
}
