//! Tests of the feedback files.
