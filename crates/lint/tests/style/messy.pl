hand_value(Hand, Start, Value) :- count(Hand, Start, Value), helper(Hand).

select_hand(Cards, Hand, Crib) :-
	append(Hand, Crib, Cards).

%! count(+Hand, -N) is det.
count(Hand, Start, N) :- findall(x, member(_, [Start|Hand]), L), length(L, N).

unused(X) :- \+ \+ member(X, [a]), nb_setval(seen, X), assertz(fact(X)).
same(card(_R, _S), card(_R2, _S)).
value(ace, 1).
same(x, y).
deep(X, V) :- ( X > 0 -> ( X > 5 -> ( X > 9 -> ( X > 10 -> V = 4 ; V = 3 ) ; V = 2 ) ; V = 1 ) ; V = 0 ).
sum_list([], 0).
sum_list([X|Xs], S) :- sum_list(Xs, S0), S is S0 + X.
oops(X) :- X is 1 +.
