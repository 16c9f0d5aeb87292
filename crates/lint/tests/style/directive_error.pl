% A directive that raises an error.
% Author: a test
:- atom_length(X, X).

%! hand_value(+H, +S, -V) is det.
hand_value(_, _, 0).
