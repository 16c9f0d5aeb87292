use super::*;
use crate::token::{clauses, tokenize};

/// The term of the one clause in `src`, written back with names from their tokens.
fn show(src: &str) -> Option<String> {
    let clause = clauses(tokenize(src)).remove(0);
    let term = read(&clause)?;
    Some(write(&term, &clause))
}

fn write(t: &Term, tokens: &[Token]) -> String {
    match t {
        Term::Var => "V".into(),
        Term::Atomic => "A".into(),
        Term::Atom(i) => tokens[*i].text.clone(),
        Term::List => "L".into(),
        Term::Curly(g) => format!("{{{}}}", write(g, tokens)),
        Term::Compound(i, args) => format!(
            "{}({})",
            tokens[*i].text,
            args.iter()
                .map(|a| write(a, tokens))
                .collect::<Vec<_>>()
                .join(",")
        ),
    }
}

#[test]
fn operators_bind_as_swi_prolog_reads_them() {
    assert_eq!(
        show("a(X) :- b, ( c -> d ; e ), \\+ f(X), X is 1 + 2 * 3.").as_deref(),
        Some(":-(a(V),,(b,,(;(->(c,d),e),,(\\+(f(V)),is(V,+(A,*(A,A)))))))")
    );
    assert_eq!(
        show("x(Y) :- Y = - 1, Z = -1, W = a-b-c.").as_deref(),
        Some(":-(x(V),,(=(V,-(A)),,(=(V,A),=(V,-(-(a,b),c)))))")
    );
    assert_eq!(
        show(":- dynamic foo/1.").as_deref(),
        Some(":-(dynamic(/(foo,A)))")
    );
    assert_eq!(
        show("s --> [a], t(X), {u(X)} | \"b\".").as_deref(),
        Some("-->(s,|(,(L,,(t(V),{u(V)})),A))")
    );
    assert_eq!(
        show("p([H|T], [], {}) :- q(H, T).").as_deref(),
        Some(":-(p(L,[,{),q(V,V))")
    );
    assert_eq!(
        show("p :- X = (a :- b), Y = f(-, +).").as_deref(),
        Some(":-(p,,(=(V,:-(a,b)),=(V,f(-,+))))")
    );
}

#[test]
fn what_is_not_a_term_is_none() {
    assert_eq!(show("my $x = 1; print $x"), None);
    assert_eq!(show("p(a b)"), None);
    assert_eq!(show("p(a"), None);
}
