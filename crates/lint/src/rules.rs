//! The rules: stable codes, what each looks for, why it exists and an example.

/// One rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LintRule {
    /// The stable code, e.g. `D102`: its first letter is its family ([`LintRule::family`]).
    pub code: &'static str,
    /// What triggers it, in a few words.
    pub title: &'static str,
    /// Where the guideline comes from: a section of Covington et al., "Coding Guidelines
    /// for Prolog" (TPLP 12(6), 2012), or the SWI-Prolog tool that makes the same check.
    pub source: &'static str,
    /// Why it exists.
    pub why: &'static str,
    /// Code that triggers it.
    pub before: &'static str,
    /// The same code written so that it does not.
    pub after: &'static str,
    /// What the rule cannot see: where it stays silent though a marker might not.
    pub blind: &'static str,
}

/// Every rule, by code.
pub const RULES: &[LintRule] = &[
    LintRule {
        code: "E001",
        title: "syntax error",
        source: "SWI-Prolog's reader (read_term/3)",
        why: "SWI-Prolog's reader cannot read the clause, so it is not part of the program at all; every later finding about that predicate may be a consequence.",
        before: "value(X) :- X is 1 +.\n",
        after: "value(X) :- X is 1 + 1.\n",
        blind: "code that reads but means something else than was meant (a full stop that ends a clause early, an operator read another way): only what SWI-Prolog's reader rejects is an error here.",
    },
    LintRule {
        code: "E002",
        title: "the file could not be checked",
        source: "crib: the lint child must finish",
        why: "The lint child did not finish (loading ran forever, used too much memory, or halted), so the other rules did not run on this submission; its tests say more.",
        before: ":- initialization(halt).\n",
        after: "% no directive that ends or blocks the program on load\n",
        blind: "why the program ended or ran long beyond the limit it hit; crib grade's tests of the same submission say more.",
    },
    LintRule {
        code: "E003",
        title: "error while loading",
        source: "SWI-Prolog's compiler",
        why: "The compiler reported an error other than a syntax error while loading the file (a directive that raised an exception, for example): part of the program may be missing.",
        before: ":- foo.\n",
        after: "% directives only call predicates that exist\n",
        blind: "errors raised only when a predicate is called, not while the file loads: those show in the tests.",
    },
    LintRule {
        code: "D101",
        title: "no header comment saying what the file is and who wrote it",
        source: "Covington et al. (2012), Layout (a standard header) and Documentation; PlDoc's file header",
        why: "A file starts with a comment that says what it is for and who wrote it (the assignment asks for the author's name). The rule asks for a comment before the first clause that names who wrote it: a line with `author`, `written by`, `@author`, `name:` or `student` in it, or a student number (6 to 9 digits) or an email address, as in `% Jane Q. Citizen, 1234567`.",
        before: "hand_value(Hand, Start, Value) :- value(Hand, Start, Value).\n",
        after: "% Cribbage hand scoring for Project 1.\n% Author: Ada Lovelace <ada@example.edu>\nhand_value(Hand, Start, Value) :- value(Hand, Start, Value).\n",
        blind: "whether the header says anything true or useful: any comment before the first clause that names an author (author, written by, name:, student, a run of 6 to 9 digits, an email address) satisfies it, even a number that is not a student's; and a name alone, with no such word or id, is not told from a title, so `% Jane Citizen` still gets it.",
    },
    LintRule {
        code: "D102",
        title: "predicate with no comment before its first clause",
        source: "Covington et al. (2012), Documentation",
        why: "Every predicate is documented where it is defined: what it means, its arguments and modes. A reader should not have to reverse-engineer a predicate from its clauses.",
        before: "fifteens(Cards, Points) :- findall(S, subset15(Cards, S), L), length(L, N), Points is 2 * N.\n",
        after: "% fifteens(+Cards, -Points): two points for each subset of Cards summing to 15.\nfifteens(Cards, Points) :- aggregate_all(count, subset15(Cards, _), N), Points is 2 * N.\n",
        blind: "whether the comment says anything: any comment between the term before and the first clause counts, a line of %%%% included; a comment at the end of the clause's own first line does not.",
    },
    LintRule {
        code: "D103",
        title: "PlDoc mode line that does not match the predicate after it",
        source: "SWI-Prolog's PlDoc",
        why: "A PlDoc mode line (`%! name(+A, -B) is det.`, or a `%%` or `/** */` comment whose first lines PlDoc reads as modes) documents the predicate defined right after it; a name or arity that differs means the comment was copied or left behind when the code changed, and misleads the reader. The lines are read with PlDoc's own mode reader; a comment it reads no mode from as a whole (a `%%` line of prose after the mode line) is read a line at a time from the top, its leading lines that read as a mode with arguments being its modes. A mode line that does not parse only because of a blank before its `(` (`%% score (+Cards, -N)`) is reported as not parsing: PlDoc ignores it.",
        before: "%! pairs(+Cards) is det.\npairs(Cards, Points) :- count_pairs(Cards, Points).\n",
        after: "%! pairs(+Cards, -Points) is det.\npairs(Cards, Points) :- count_pairs(Cards, Points).\n",
        blind: "comments PlDoc does not read as structured: plain % comments, %%%% banners, and a %% or /** comment whose lines do not parse as a mode line (a file header such as %% cribbage.pl - scoring) are prose and not checked, nor is a mode line with no arguments and no determinism (`%% cribbage`) followed by prose; nor whether the modes (+, -, ?) and the determinism are true of the code.",
    },
    LintRule {
        code: "D104",
        title: "no predicate has a PlDoc mode line",
        source: "SWI-Prolog's PlDoc; Covington et al. (2012), Documentation",
        why: "PlDoc's structured comments (`%! name(+In, -Out) is det.`) state each argument's mode and the predicate's determinism, which is what a reader of Prolog needs most. One finding per file. SWI-Prolog's PlDoc;",
        before: "% the value of a hand\nhand_value(Hand, Start, Value) :- value(Hand, Start, Value).\n",
        after: "%! hand_value(+Hand, +Start, -Value) is det.\n% Value is the points of Hand with Start.\nhand_value(Hand, Start, Value) :- value(Hand, Start, Value).\n",
        blind: "whether the mode lines are right (that is D103's): one mode line anywhere in the file satisfies it.",
    },
    LintRule {
        code: "W201",
        title: "singleton variables",
        source: "SWI-Prolog's compiler (singleton warnings)",
        why: "The compiler's own warning: a variable that occurs once in a clause is usually a typo for another one. Write `_` or `_Name` where a value is deliberately ignored.",
        before: "nob(Hand, card(jack, Suit)) :- member(card(jack, S), Hand).\n",
        after: "nob(Hand, card(_, Suit)) :- member(card(jack, Suit), Hand).\n",
        blind: "a variable used twice by mistake, such as a typo that happens to name another variable of the clause: the compiler sees only variables used once.",
    },
    LintRule {
        code: "W202",
        title: "a `_Named` variable used more than once",
        source: "SWI-Prolog's compiler (multiton warnings)",
        why: "The compiler's own warning: `_Name` says \"ignored\", so using it twice misleads the reader about a real binding.",
        before: "same_suit(card(_R1, _S), card(_R2, _S)).\n",
        after: "same_suit(card(_, Suit), card(_, Suit)).\n",
        blind: "plain variables used twice by mistake: only _Named ones are the compiler's concern here.",
    },
    LintRule {
        code: "W203",
        title: "clauses of a predicate not together",
        source: "SWI-Prolog's compiler (discontiguous warnings)",
        why: "The compiler's own warning: clauses of one predicate separated by another are often a typo in a name or arity; if deliberate, `:- discontiguous name/arity.` says so.",
        before: "value(ace, 1).\nsuit(hearts).\nvalue(jack, 10).\n",
        after: "value(ace, 1).\nvalue(jack, 10).\nsuit(hearts).\n",
        blind: "clauses of one predicate split between the files of a multi-file submission; a :- discontiguous declaration silences it, deliberate or not.",
    },
    LintRule {
        code: "W204",
        title: "redefines a system predicate",
        source: "SWI-Prolog's compiler and its system predicates",
        why: "The compiler refuses to redefine an ISO built-in such as `length/2` or `atom_length/2`: the clauses are not loaded and every call goes to the built-in. Other system predicates (`msort/2`, `format/2`) it lets a file hide silently, which misleads a reader more; both are reported. Hooks meant to be defined (`portray/1`, `term_expansion/2`, ...) are not.",
        before: "length([], 0).\nlength([_|T], N) :- length(T, M), N is M + 1.\n",
        after: "my_length([], 0).\nmy_length([_|T], N) :- my_length(T, M), N is M + 1.\n",
        blind: "a predicate of another name or arity that does the same as a system one (my_length/2): only a definition with the system predicate's own name and arity hides it.",
    },
    LintRule {
        code: "W205",
        title: "redefines a library predicate",
        source: "SWI-Prolog's library(check), list_redefined/0",
        why: "A predicate with the name and arity of a library one (`append/3`, `sum_list/2`) hides the library's for this file: readers expect the library's meaning, and the library's version is usually what the course wants used.",
        before: "sum_list([], 0).\nsum_list([X|Xs], S) :- sum_list(Xs, S0), S is S0 + X.\n",
        after: "% use library(lists)' sum_list/2\n",
        blind: "libraries the SWI-Prolog in the sandbox does not have, and a student's own version written on purpose for practice, which is reported all the same.",
    },
    LintRule {
        code: "X301",
        title: "predicate unreachable from hand_value/3 and select_hand/3",
        source: "SWI-Prolog's library(prolog_xref)",
        why: "Dead code: no chain of calls from the assignment's two entry points (or a directive, or a module's exports) reaches it. Calls through meta-arguments count: a helper passed to maplist/3, foldl/4, findall/3 or call/N, or by name to one of the file's own predicates that calls it. It costs the reader time and is often a leftover of an earlier attempt.",
        before: "hand_value(H, S, V) :- value(H, S, V).\nold_value(H, S, V) :- V = 0.\n",
        after: "hand_value(H, S, V) :- value(H, S, V).\n",
        blind: "calls made at run time: a goal that is a variable bound in its own clause (G =.. [Name|Args], call(G), a name taken from a list) may call any predicate, so when one is reached X301 says nothing at all. It follows the meta-arguments of library and system predicates (maplist/N, foldl/N, findall/3, forall/2, aggregate_all/3, include/3, call/N, ...) and of the files' own predicates that call an argument, but not a closure kept inside a data structure, nor predicates called only by another program (a test file).",
    },
    LintRule {
        code: "X302",
        title: "call to an undefined predicate",
        source: "SWI-Prolog's library(check), list_undefined/0",
        why: "A predicate that is called but defined nowhere (not in the files, the system or a library) raises an existence error when reached. SWI-Prolog's library(check) reports the same (`list_undefined/0`).",
        before: "hand_value(H, S, V) :- score(H, S, V).\n",
        after: "hand_value(H, S, V) :- value(H, S, V).\nvalue(_, _, 0).\n",
        blind: "calls made at run time (call/N on a name built with atom_concat/3 or =..), and predicates that exist only in a library that the SWI-Prolog in the sandbox does not have.",
    },
    LintRule {
        code: "L401",
        title: "line longer than the limit (80 characters)",
        source: "Covington et al. (2012), Layout",
        why: "Long lines wrap or scroll in editors, terminals and printed marking copies.",
        before: "value(Hand, Start, Value) :- fifteens(Hand, Start, F), pairs(Hand, Start, P), runs(Hand, Start, R), Value is F + P + R.\n",
        after: "value(Hand, Start, Value) :-\n    fifteens(Hand, Start, F),\n    pairs(Hand, Start, P),\n    runs(Hand, Start, R),\n    Value is F + P + R.\n",
        blind: "anything but the count of characters: a tab counts as one (L402 reports tabs), and a long string or list of cards is reported like code.",
    },
    LintRule {
        code: "L402",
        title: "tab character",
        source: "Covington et al. (2012), Layout",
        why: "Tabs show at different widths in different editors, so indentation that looked right to the author is ragged for the marker. Indent with spaces.",
        before: "value(X) :-\n\tX = 1.\n",
        after: "value(X) :-\n    X = 1.\n",
        blind: "more than the first: one finding per file, at the first tab, with the number of lines that have one.",
    },
    LintRule {
        code: "L403",
        title: "clause longer than the limit (25 lines)",
        source: "Covington et al. (2012), Layout",
        why: "A long clause does several things; splitting it into named predicates documents each step.",
        before: "% a clause of 26 lines or more\n",
        after: "% the same work in several predicates, each named for what it does\n",
        blind: "how much a clause does, only how many lines it spans: a long clause of data (a list of cards) is reported like code.",
    },
    LintRule {
        code: "L404",
        title: "predicate longer than the limit (60 lines)",
        source: "Covington et al. (2012), Layout",
        why: "A predicate spread over many clauses and lines is hard to take in at once; it is usually several predicates.",
        before: "% one predicate of 61 lines or more\n",
        after: "% the same work in several predicates\n",
        blind: "how the predicate is split: many short clauses are reported like a few long ones; lines between its clauses do not count.",
    },
    LintRule {
        code: "L405",
        title: "if-then-else or disjunction nested deeper than the limit (3)",
        source: "Covington et al. (2012), Layout",
        why: "Deeply nested `( -> ; )` is hard to read and to get right; separate clauses or a helper predicate say the same more plainly. A chain `a -> b ; c -> d ; e` counts as one level.",
        before: "v(X, V) :- ( X > 0 -> ( X > 5 -> ( X > 9 -> ( X > 10 -> V = 4 ; V = 3 ) ; V = 2 ) ; V = 1 ) ; V = 0 ).\n",
        after: "v(X, V) :- X > 10, !, V = 4.\nv(X, V) :- X > 9, !, V = 3.\nv(X, V) :- X > 5, !, V = 2.\nv(X, V) :- X > 0, !, V = 1.\nv(_, 0).\n",
        blind: "nesting in other constructs (findall/3 in findall/3, \\+ in \\+, a lambda); a chain a -> b ; c -> d ; e counts as one level.",
    },
    LintRule {
        code: "I501",
        title: "assert or retract used as state",
        source: "Covington et al. (2012), Language idioms",
        why: "Changing the database while computing (assert/retract) makes a predicate's answer depend on history and breaks backtracking; a value passed in an argument says the same declaratively.",
        before: "count(X) :- retract(counter(N)), M is N + 1, assertz(counter(M)), X = M.\n",
        after: "count(N0, N) :- N is N0 + 1.\n",
        blind: "state changed through a helper that calls an argument (call(assertz, F)) or set up by a directive before the program runs: only assert and retract goals in clauses are reported.",
    },
    LintRule {
        code: "I502",
        title: "global variables",
        source: "Covington et al. (2012), Language idioms (as for assert)",
        why: "b_setval/nb_setval and their getters are global state: like assert, they hide data flow that an argument would show.",
        before: "start(S) :- nb_setval(start, S).\n",
        after: "% pass the start card as an argument\n",
        blind: "global state kept in other ways: flags (set_prolog_flag/2), or assert (I501's).",
    },
    LintRule {
        code: "I503",
        title: "counting with findall/3 and length/2",
        source: "markers of this course; SWI-Prolog's library(aggregate)",
        why: "findall/3 then length/2 builds a list only to count it; aggregate_all(count, Goal, N) says what is meant and builds nothing.",
        before: "pairs(Cards, N) :- findall(x, pair(Cards), L), length(L, N).\n",
        after: "pairs(Cards, N) :- aggregate_all(count, pair(Cards), N).\n",
        blind: "counting through bagof/3, setof/3 or a helper predicate; and a findall/3 list used for more than its length (sorted, searched, returned) is not counting only, so it is not reported.",
    },
    LintRule {
        code: "I504",
        title: "double negation `\\+ \\+`",
        source: "markers of this course",
        why: "`\\+ \\+ Goal` proves Goal without binding its variables; it is correct but rarely what a student means, and markers ask for it to be explained. A comment or a once/1 says more plainly what is intended.",
        before: "has_pair(Cards) :- \\+ \\+ pair(Cards).\n",
        after: "has_pair(Cards) :- once(pair(Cards)).\n",
        blind: "double negation across a helper predicate (\\+ helper(X) where helper/1 is itself \\+ ...).",
    },
    LintRule {
        code: "A601",
        title: "answers listed as facts instead of computed",
        source: "crib: the assignment asks for a computation, not a table",
        why: "Ground facts that each give the answer for one fixed hand (hand_value([card(5,hearts), ...], card(jack,clubs), 12).) pass the tests they were copied from and nothing else. Reported when hand_value/3 or select_hand/3 has 3 or more ground facts holding 4 or more card(Rank, Suit) terms each, or when a predicate that they reach, directly or through others, has 20 or more such facts (hand_value(H, S, V) :- answer(H, S, V). beside hundreds of answer/3 facts). It points a marker at the file; crib never marks it.",
        before: "hand_value([card(5,hearts), card(5,spades), card(5,clubs), card(jack,diamonds)],\n           card(5,diamonds), 29).\nhand_value([card(2,hearts), card(3,spades), card(4,clubs), card(9,diamonds)],\n           card(king,clubs), 7).\nhand_value([card(ace,hearts), card(ace,spades), card(7,clubs), card(7,diamonds)],\n           card(queen,hearts), 8).\n",
        after: "% tables of ranks or suits, such as rank_value(jack, 10), are fine\nhand_value(Hand, Start, Value) :-\n    aggregate_all(count, fifteen([Start|Hand]), N),\n    Value is 2 * N.\n",
        blind: "answers written in another form (cards as numbers or strings, tables asserted at run time or read from a file, an if-then-else that compares the hand with fixed ones), fewer facts than the thresholds (a special case or two among real code), and tables reached only through calls made at run time. It looks only at card(Rank, Suit) terms, so tables of ranks or suits (rank_value(jack, 10), suit(hearts)) and of single cards are never reported.",
    },
];

impl LintRule {
    /// The rule's family, named by its code's first letter, for tables.
    pub fn family(&self) -> &'static str {
        match self.code.as_bytes()[0] {
            b'E' => "errors",
            b'D' => "documentation",
            b'W' => "compiler warnings",
            b'X' => "cross-reference",
            b'L' => "layout and size",
            b'I' => "idioms",
            b'A' => "assignment",
            _ => unreachable!("every rule's code starts with its family's letter"),
        }
    }
}

/// Returns the rule with `code`, in any case.
pub fn rule(code: &str) -> Option<&'static LintRule> {
    RULES.iter().find(|r| r.code.eq_ignore_ascii_case(code))
}

/// Returns `--explain`'s text for `rule`: title, family, why, source, what it cannot see
/// and the example.
pub fn explain(rule: &LintRule) -> String {
    let indent = |text: &str| {
        text.lines()
            .map(|l| format!("    {l}"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    format!(
        "{code}: {title} ({family})\n\n{why}\n\nSource: {source}.\n\nCannot see: {blind}\n\nTriggers it:\n\n{before}\n\nDoes not:\n\n{after}\n",
        code = rule.code,
        title = rule.title,
        family = rule.family(),
        why = rule.why,
        source = rule.source,
        before = indent(rule.before),
        after = indent(rule.after),
        blind = rule.blind,
    )
}

#[cfg(test)]
mod tests;
