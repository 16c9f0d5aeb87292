//! crib-similar's integration tests, in one binary (one link in the optimised test build, not
//! one per file): the tokenizer and term reader against SWI-Prolog's reader (`reader`), and
//! disguised copies against independent solutions (`disguise`, `disguise_corpus`), with what
//! they share in `common`.

mod common;
mod disguise;
mod disguise_corpus;
mod reader;
