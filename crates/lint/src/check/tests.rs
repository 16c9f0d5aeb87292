use super::*;

#[test]
fn a_header_names_its_writer_by_a_word_a_student_number_or_an_email() {
    for header in [
        "% Author: Lee Student",
        "% written by Lee",
        "% Name: Lee",
        "% Jane Q. Citizen, 1234567",
        "% s4412345 Project 1",
        "% Project 1 (Jane Q. Citizen 912345678)",
        "/* Tomas Ortega <tomas.ortega@mail.example.edu> */",
        "% jq.citizen+cribbage@uni-x.example.ac.nz, May 2024",
    ] {
        assert!(names_an_author(header), "{header:?}");
    }
}

#[test]
fn a_header_that_only_describes_the_program_names_no_writer() {
    for header in [
        "% Cribbage hand scorer for the first project.\n% Counts fifteens and flushes.",
        "% Scores a hand in 2024 for 12345 deals", // too few digits
        "% 1234567890 is too long for an id",      // too many
        "% pi is 3.1415926, a million is 1,000000",
        "% see @param and the manual's email@ section; a@b is no address",
        "%% cribbage.pl - predicates for the card game",
    ] {
        assert!(!names_an_author(header), "{header:?}");
    }
}
