//! The one hash crib uses: 64-bit FNV-1a, for submission content hashes (here) and
//! crib-grade's test-set fingerprint and result file names. Not cryptographic; it only tells
//! versions apart.

/// FNV-1a's starting state (the offset basis).
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a's 64-bit prime.
const FNV_PRIME: u64 = 0x0100_0000_01b3;

/// Returns the 64-bit FNV-1a hash of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_from(FNV_OFFSET, bytes)
}

/// Returns the FNV-1a state after feeding `bytes` to `state`: `fnv1a_from(FNV_OFFSET, b)`
/// is `fnv1a(b)`, and feeding two slices in turn hashes their concatenation.
pub fn fnv1a_from(state: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(state, |h, &b| (h ^ u64::from(b)).wrapping_mul(FNV_PRIME))
}

#[cfg(test)]
mod tests;
