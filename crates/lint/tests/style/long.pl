% Long clauses and a long predicate.
% Author: a test

%! hand_value(+H, +S, -V) is det.
hand_value(H, S, V) :-
    long(H, S, V0),
    V1 is V0 + 1,
    V2 is V1 + 1,
    V3 is V2 + 1,
    V4 is V3 + 1,
    V5 is V4 + 1,
    V6 is V5 + 1,
    V7 is V6 + 1,
    V8 is V7 + 1,
    V9 is V8 + 1,
    V10 is V9 + 1,
    V11 is V10 + 1,
    V12 is V11 + 1,
    V13 is V12 + 1,
    V14 is V13 + 1,
    V15 is V14 + 1,
    V16 is V15 + 1,
    V17 is V16 + 1,
    V18 is V17 + 1,
    V19 is V18 + 1,
    V20 is V19 + 1,
    V21 is V20 + 1,
    V22 is V21 + 1,
    V = V22.

%! long(+H, +S, -V) is det.
long(_, _, 0).
long(a1, _, 1).
long(a2, _, 2).
long(a3, _, 3).
long(a4, _, 4).
long(a5, _, 5).
long(a6, _, 6).
long(a7, _, 7).
long(a8, _, 8).
long(a9, _, 9).
long(a10, _, 10).
long(a11, _, 11).
long(a12, _, 12).
long(a13, _, 13).
long(a14, _, 14).
long(a15, _, 15).
long(a16, _, 16).
long(a17, _, 17).
long(a18, _, 18).
long(a19, _, 19).
long(a20, _, 20).
long(a21, _, 21).
long(a22, _, 22).
long(a23, _, 23).
long(a24, _, 24).
long(a25, _, 25).
long(a26, _, 26).
long(a27, _, 27).
long(a28, _, 28).
long(a29, _, 29).
long(a30, _, 30).
long(a31, _, 31).
long(a32, _, 32).
long(a33, _, 33).
long(a34, _, 34).
long(a35, _, 35).
long(a36, _, 36).
long(a37, _, 37).
long(a38, _, 38).
long(a39, _, 39).
long(b, _, N) :-
    N0 = 0,
    N1 = 1,
    N2 = 2,
    N3 = 3,
    N4 = 4,
    N5 = 5,
    N6 = 6,
    N7 = 7,
    N8 = 8,
    N9 = 9,
    N10 = 10,
    N11 = 11,
    N12 = 12,
    N13 = 13,
    N14 = 14,
    N15 = 15,
    N16 = 16,
    N17 = 17,
    N18 = 18,
    N19 = 19,
    N20 = 20,
    N21 = 21,
    N22 = 22,
    N23 = 23,
    N = 1.
