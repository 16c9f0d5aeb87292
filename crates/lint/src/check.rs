//! The rules applied to the child's facts and to the files' text.

use std::collections::{BTreeMap, BTreeSet};

use crib_results::Finding;

use crate::facts::{Comment, Facts, ReadTerm};

/// The thresholds of the layout rules and the rules left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LintConfig {
    /// L401: the longest line allowed, in characters (default 80).
    pub max_line: usize,
    /// L403: the most lines a clause may span (default 25).
    pub max_clause_lines: u32,
    /// L404: the most lines a predicate's clauses may span in all (default 60).
    pub max_predicate_lines: u32,
    /// L405: the deepest nesting of if-then-else and disjunction allowed (default 3).
    pub max_depth: u32,
    /// Rule codes not reported.
    pub ignore: BTreeSet<String>,
}

impl Default for LintConfig {
    fn default() -> LintConfig {
        LintConfig {
            max_line: 80,
            max_clause_lines: 25,
            max_predicate_lines: 60,
            max_depth: 3,
            ignore: BTreeSet::new(),
        }
    }
}

/// The assignment's entry points: dead code is what they (and directives) never reach.
pub const ENTRY_POINTS: [&str; 2] = ["hand_value/3", "select_hand/3"];

/// Returns the findings on `files` (name, text) from the child's `facts`, sorted, ignored
/// rules included (the caller drops them).
pub(crate) fn findings(
    facts: &Facts,
    files: &[(String, String)],
    config: &LintConfig,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut add =
        |rule: &str, file: &str, line: u32, predicate: Option<String>, message: String| {
            out.push(Finding {
                rule: rule.into(),
                file: file.into(),
                line,
                column: None,
                predicate,
                message,
            });
        };
    let clause_at = |file: &str, line: u32| {
        facts
            .terms
            .iter()
            .find(|t| t.clause && t.file == file && t.start <= line && line <= t.end)
            .map(ReadTerm::indicator)
    };
    for l in &facts.syntax {
        add(
            "E001",
            &l.file,
            l.line,
            None,
            format!("syntax error: {}", l.text),
        );
    }
    for w in &facts.warnings {
        let pred = clause_at(&w.file, w.line);
        match w.kind.as_str() {
            "singletons" => add("W201", &w.file, w.line, pred, first_sentence(&w.text)),
            "multiton" => add("W202", &w.file, w.line, pred, first_sentence(&w.text)),
            "discontiguous" => {
                let name = pred.clone().unwrap_or_else(|| "a predicate".into());
                let message = format!(
                    "clauses of {name} are not together (another predicate's clauses come between)"
                );
                add("W203", &w.file, w.line, pred, message)
            }
            "redefine_system" => add("W204", &w.file, w.line, pred, first_sentence(&w.text)),
            "syntax" => {} // the reader's E001 says it, with the same line
            "error" => add("E003", &w.file, w.line, pred, first_sentence(&w.text)),
            _ => {}
        }
    }
    let predicates = predicates(facts);
    // The compiler refuses only the ISO core (a permission error, above); other system
    // predicates a file defines are hidden silently, which is worse.
    for pi in &facts.system {
        let refused = facts.warnings.iter().any(|w| {
            w.kind == "redefine_system" && clause_at(&w.file, w.line).as_deref() == Some(pi)
        });
        if let (false, Some(first)) = (refused, predicates.get(pi.as_str()).and_then(|c| c.first()))
        {
            add(
                "W204",
                &first.file,
                first.start,
                Some(pi.clone()),
                format!("{pi} is a system predicate, which this definition hides"),
            );
        }
    }
    for pi in &facts.library {
        if let Some(first) = predicates.get(pi.as_str()).and_then(|c| c.first()) {
            add(
                "W205",
                &first.file,
                first.start,
                Some(pi.clone()),
                format!("{pi} is also a library predicate, which this definition hides"),
            );
        }
    }
    for (file, text) in files {
        documentation(facts, file, &mut add);
        layout(file, text, config, &mut add);
    }
    for (pi, clauses) in &predicates {
        let first = clauses[0];
        let lines: u32 = clauses.iter().map(|c| c.end - c.start + 1).sum();
        if lines > config.max_predicate_lines {
            add(
                "L404",
                &first.file,
                first.start,
                Some(pi.to_string()),
                format!(
                    "{pi} spans {lines} lines (limit {})",
                    config.max_predicate_lines
                ),
            );
        }
        for c in clauses {
            let span = c.end - c.start + 1;
            if span > config.max_clause_lines {
                add(
                    "L403",
                    &c.file,
                    c.start,
                    Some(pi.to_string()),
                    format!(
                        "a clause of {span} lines (limit {})",
                        config.max_clause_lines
                    ),
                );
            }
            if c.depth > config.max_depth {
                add(
                    "L405",
                    &c.file,
                    c.start,
                    Some(pi.to_string()),
                    format!(
                        "if-then-else or disjunction nested {} deep (limit {})",
                        c.depth, config.max_depth
                    ),
                );
            }
        }
    }
    cross_reference(facts, &predicates, &mut add);
    memorised(facts, &predicates, &mut add);
    for idiom in &facts.idioms {
        let pred = clause_at(&idiom.file, idiom.line);
        let (rule, message) = match idiom.rule.as_str() {
            "state" => (
                "I501",
                format!(
                    "{} changes the database: state kept outside the arguments",
                    idiom.text
                ),
            ),
            "global" => ("I502", format!("{} uses a global variable", idiom.text)),
            "count_with_findall" => (
                "I503",
                "findall/3 then length/2 only to count: aggregate_all(count, Goal, N) says it"
                    .to_string(),
            ),
            "double_negation" => (
                "I504",
                "double negation \\+ \\+: say why, or use once/1".to_string(),
            ),
            _ => continue,
        };
        add(rule, &idiom.file, idiom.line, pred, message);
    }
    out.sort();
    out.dedup();
    out
}

/// The clauses of each predicate of the files, in order, by `name/arity`.
fn predicates(facts: &Facts) -> BTreeMap<String, Vec<&ReadTerm>> {
    let mut map: BTreeMap<String, Vec<&ReadTerm>> = BTreeMap::new();
    for t in facts.terms.iter().filter(|t| t.clause) {
        map.entry(t.indicator()).or_default().push(t);
    }
    map
}

type Add<'a> = dyn FnMut(&str, &str, u32, Option<String>, String) + 'a;

/// D101-D104 on one file.
fn documentation(facts: &Facts, file: &str, add: &mut Add<'_>) {
    let terms: Vec<&ReadTerm> = facts.terms.iter().filter(|t| t.file == file).collect();
    let comments: Vec<&Comment> = facts.comments.iter().filter(|c| c.file == file).collect();
    let Some(first_clause) = terms.iter().find(|t| t.clause) else {
        return;
    };
    let header: Vec<&&Comment> = comments
        .iter()
        .filter(|c| c.start < first_clause.start)
        .collect();
    if header.is_empty() {
        add(
            "D101",
            file,
            1,
            None,
            "no comment before the first clause saying what the file is and who wrote it".into(),
        );
    } else if !header.iter().any(|c| names_an_author(&c.text)) {
        add(
            "D101",
            file,
            header[0].start,
            None,
            "the header comment does not say who wrote the file (author, written by, name:)".into(),
        );
    }
    let mut seen = BTreeSet::new();
    let mut previous_end = 0;
    // plunit's tests (between :- begin_tests(Unit) and :- end_tests(Unit)) are not
    // predicates a reader needs documented.
    let mut in_tests = false;
    for t in &terms {
        if !t.clause && t.name == "begin_tests" {
            in_tests = true;
        } else if !t.clause && t.name == "end_tests" {
            in_tests = false;
        }
        if t.clause && !in_tests && seen.insert(t.indicator()) {
            // A comment between the term before (not trailing on its last line) and this.
            let commented = comments
                .iter()
                .any(|c| c.start > previous_end && c.end < t.start);
            if !commented {
                add(
                    "D102",
                    file,
                    t.start,
                    Some(t.indicator()),
                    format!("{} has no comment before its first clause", t.indicator()),
                );
            }
        }
        previous_end = t.end;
    }
    // PlDoc comments, as PlDoc reads them (the child uses its mode reader): the
    // predicates each documents, by comment.
    let mut documented: BTreeMap<(u32, u32), Vec<&str>> = BTreeMap::new();
    for m in facts.modes.iter().filter(|m| m.file == file) {
        documented
            .entry((m.start, m.end))
            .or_default()
            .push(&m.predicate);
    }
    let next_clause = |after: u32| terms.iter().find(|t| t.clause && t.start > after);
    // A clause that did not read may be the one a comment documents: say nothing of a
    // comment with a syntax error between it and the next clause.
    let unread_between = |after: u32| {
        let next = next_clause(after).map_or(u32::MAX, |t| t.start);
        facts
            .syntax
            .iter()
            .any(|l| l.file == file && l.line > after && l.line < next)
    };
    for (&(start, end), heads) in &documented {
        if unread_between(end) {
            continue;
        }
        let head = heads.join(" and ");
        match next_clause(end) {
            Some(t) if !heads.contains(&t.indicator().as_str()) => add(
                "D103",
                file,
                start,
                Some(t.indicator()),
                format!(
                    "the PlDoc line documents {head} but the predicate after it is {}",
                    t.indicator()
                ),
            ),
            None => add(
                "D103",
                file,
                start,
                None,
                format!("the PlDoc line documents {head} but no predicate follows it"),
            ),
            _ => {}
        }
    }
    for bad in facts.bad_modes.iter().filter(|b| b.file == file) {
        add(
            "D103",
            file,
            bad.start,
            next_clause(bad.end).map(|t| t.indicator()),
            format!(
                "the PlDoc line \"{}\" does not parse as a mode line: no blank may come between {} and its (",
                bad.text, bad.name
            ),
        );
    }
    if documented.is_empty() {
        add(
            "D104",
            file,
            1,
            None,
            "no predicate has a PlDoc mode line (%! name(+In, -Out) is det.)".into(),
        );
    }
}

/// Whether a header comment names who wrote the file: a word that says so (`author`,
/// `written by`, `name:`, `student`), or what names a person the way a person does without
/// such a word: a student number or an email address (`% Jane Q. Citizen, 1234567`).
fn names_an_author(text: &str) -> bool {
    let lower = text.to_lowercase();
    ["author", "written by", "name:", "student"]
        .iter()
        .any(|k| lower.contains(k))
        || has_student_number(text)
        || has_email(text)
}

/// The fewest and most digits of a student number.
const STUDENT_NUMBER_DIGITS: std::ops::RangeInclusive<usize> = 6..=9;

/// Whether `text` holds a student number: a run of 6 to 9 digits, not part of a longer run,
/// nor of a decimal number (`3.1415926`) or a grouped one (`1,000000`).
fn has_student_number(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let joined = |at: Option<usize>, digit_at: Option<usize>| {
            at.and_then(|a| bytes.get(a))
                .is_some_and(|b| matches!(b, b'.' | b','))
                && digit_at
                    .and_then(|d| bytes.get(d))
                    .is_some_and(u8::is_ascii_digit)
        };
        let before = joined(start.checked_sub(1), start.checked_sub(2));
        let after = joined(Some(i), Some(i + 1));
        if STUDENT_NUMBER_DIGITS.contains(&(i - start)) && !before && !after {
            return true;
        }
    }
    false
}

/// Whether `text` holds an email address: `local@domain.tld`, the local part of letters,
/// digits and `._%+-`, the domain of two or more labels, the last one letters only.
fn has_email(text: &str) -> bool {
    let local_char = |c: char| c.is_ascii_alphanumeric() || "._%+-".contains(c);
    let domain_char = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '.';
    text.match_indices('@').any(|(at, _)| {
        let local_start = text[..at]
            .rfind(|c: char| !local_char(c))
            .map_or(0, |i| i + 1);
        let local = &text[local_start..at];
        let rest = &text[at + 1..];
        let domain = rest.split(|c: char| !domain_char(c)).next().unwrap_or("");
        let domain = domain.trim_end_matches(['.', '-']);
        let labels: Vec<&str> = domain.split('.').collect();
        !local.is_empty()
            && !local.starts_with('.')
            && labels.len() >= 2
            && labels.iter().all(|l| !l.is_empty())
            && labels
                .last()
                .is_some_and(|tld| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()))
    })
}

/// L401 and L402 on one file's text.
fn layout(file: &str, text: &str, config: &LintConfig, add: &mut Add<'_>) {
    let mut tabs = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = (i + 1) as u32;
        let chars = line.chars().count();
        if chars > config.max_line {
            add(
                "L401",
                file,
                n,
                None,
                format!("line of {chars} characters (limit {})", config.max_line),
            );
        }
        if line.contains('\t') {
            tabs.push(n);
        }
    }
    if let Some(&first) = tabs.first() {
        let message = if tabs.len() == 1 {
            "a tab character".to_string()
        } else {
            format!("tab characters on {} lines, the first here", tabs.len())
        };
        add("L402", file, first, None, message);
    }
}

/// The calls between predicates: who calls whom, by `name/arity`.
type Edges<'a> = BTreeMap<&'a str, Vec<&'a str>>;

/// Returns the calls of `facts` as edges.
fn edges(facts: &Facts) -> Edges<'_> {
    let mut edges: Edges<'_> = BTreeMap::new();
    for call in &facts.calls {
        edges
            .entry(call.by.as_str())
            .or_default()
            .push(call.called.as_str());
    }
    edges
}

/// Returns what a chain of calls reaches from `roots` (the roots included).
fn reach<'a>(edges: &Edges<'a>, mut roots: Vec<&'a str>) -> BTreeSet<&'a str> {
    let mut reached = BTreeSet::new();
    while let Some(p) = roots.pop() {
        if reached.insert(p) {
            roots.extend(edges.get(p).into_iter().flatten().copied());
        }
    }
    reached
}

/// X301 (unreachable from the entry points) and X302 (undefined).
fn cross_reference(
    facts: &Facts,
    predicates: &BTreeMap<String, Vec<&ReadTerm>>,
    add: &mut Add<'_>,
) {
    let edges = edges(facts);
    let mut roots: Vec<&str> = ENTRY_POINTS
        .iter()
        .copied()
        .filter(|e| predicates.contains_key(*e))
        .collect();
    let declared: BTreeSet<&str> = facts
        .declared
        .iter()
        .map(|d| d.predicate.as_str())
        .collect();
    if !roots.is_empty() {
        // A module's exports (and dynamic/multifile predicates) are entry points too: what
        // they call is not dead, even when the assignment's two predicates never call it.
        roots.extend(
            declared
                .iter()
                .copied()
                .filter(|d| predicates.contains_key(*d)),
        );
        roots.extend(
            facts
                .calls
                .iter()
                .filter(|c| !predicates.contains_key(&c.by))
                .map(|c| c.called.as_str()),
        );
        let mut reached = reach(&edges, roots);
        // A term that did not read (a syntax error) may call any predicate named in its
        // text: when its head's predicate is reached (or it is a directive), so are they.
        let unread: Vec<(Option<String>, BTreeSet<String>)> =
            facts.unread.iter().map(|l| names(&l.text)).collect();
        loop {
            let mut more = Vec::new();
            for (head, called) in &unread {
                let live = head.as_ref().is_none_or(|h| {
                    reached
                        .iter()
                        .any(|p| p.rsplit_once('/').is_some_and(|(n, _)| n == h))
                });
                if live {
                    more.extend(predicates.keys().map(String::as_str).filter(|p| {
                        !reached.contains(p)
                            && p.rsplit_once('/').is_some_and(|(n, _)| called.contains(n))
                    }));
                }
            }
            if more.is_empty() {
                break;
            }
            more.extend(reached.iter().copied());
            reached = reach(&edges, more);
        }
        // A reached goal that is a variable bound in its own clause (G =.. L, call(G))
        // may call any predicate: what is dead cannot be known, so X301 says nothing.
        let unknowable = facts
            .unresolved
            .iter()
            .any(|u| reached.contains(u.by.as_str()) || !predicates.contains_key(&u.by));
        for (pi, clauses) in predicates {
            // A definition that hides a system predicate is W204's; xref does not record
            // the calls to it, so reachability cannot say.
            let hides_system = facts.system.iter().any(|s| s == pi);
            if !unknowable
                && !reached.contains(pi.as_str())
                && !declared.contains(pi.as_str())
                && !hides_system
            {
                let first = clauses[0];
                add(
                    "X301",
                    &first.file,
                    first.start,
                    Some(pi.clone()),
                    format!("{pi} is never reached from hand_value/3 or select_hand/3"),
                );
            }
        }
    }
    // One finding for each predicate defined nowhere, at its first call.
    let mut first_call: BTreeMap<&str, &crate::facts::Undefined> = BTreeMap::new();
    for u in &facts.undefined {
        first_call
            .entry(u.called.as_str())
            .and_modify(|f| {
                if (u.file == f.file && u.line < f.line) || f.line == 0 {
                    *f = u;
                }
            })
            .or_insert(u);
    }
    for (pi, u) in first_call {
        let (by, from) = if predicates.contains_key(&u.by) {
            (Some(u.by.clone()), format!(" (called from {})", u.by))
        } else {
            (None, " (called from a directive)".to_string())
        };
        add(
            "X302",
            &u.file,
            u.line,
            by,
            format!("{pi} is called but defined nowhere{from}"),
        );
    }
}

/// Returns the name a term's text starts with (none for a directive) and the names it
/// holds after it: the atoms of a clause that did not read, outside comments and strings.
fn names(text: &str) -> (Option<String>, BTreeSet<String>) {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    let mut first = true;
    let mut directive = false;
    while let Some(c) = chars.next() {
        match c {
            '%' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                let mut star = false;
                for c in chars.by_ref() {
                    if star && c == '/' {
                        break;
                    }
                    star = c == '*';
                }
            }
            '"' | '`' => {
                for d in chars.by_ref() {
                    if d == c {
                        break;
                    }
                }
            }
            c if c.is_alphanumeric() || c == '_' => {
                let mut word = c.to_string();
                while let Some(&d) = chars.peek() {
                    if !(d.is_alphanumeric() || d == '_') {
                        break;
                    }
                    word.push(d);
                    chars.next();
                }
                if word.starts_with(|c: char| c.is_lowercase()) {
                    tokens.push(word);
                }
                first = false;
            }
            ':' if first && chars.peek() == Some(&'-') => directive = true,
            c if !c.is_whitespace() => first = false,
            _ => {}
        }
    }
    let head = if directive || tokens.is_empty() {
        None
    } else {
        Some(tokens.remove(0))
    };
    (head, tokens.into_iter().collect())
}

/// A601: how many `card(Rank, Suit)` terms a fact must hold to give the answer for a whole
/// hand (four cards and a start, or a deal and what is kept of it).
pub const MEMORISED_CARDS: u32 = 4;

/// A601: how many such facts of `hand_value/3` or `select_hand/3` make a list of answers.
pub const MEMORISED_ENTRY_FACTS: usize = 3;

/// A601: how many such facts of a predicate the entry points reach make a table of answers.
pub const MEMORISED_TABLE_FACTS: usize = 20;

/// A601: answers listed as ground facts of whole hands, in an entry point or in a table
/// that an entry point reaches, instead of computed.
fn memorised(facts: &Facts, predicates: &BTreeMap<String, Vec<&ReadTerm>>, add: &mut Add<'_>) {
    let mut hands: BTreeMap<&str, Vec<&crate::facts::GroundFact>> = BTreeMap::new();
    for g in facts.ground.iter().filter(|g| g.cards >= MEMORISED_CARDS) {
        hands.entry(g.predicate.as_str()).or_default().push(g);
    }
    let edges = edges(facts);
    let mut tables: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for entry in ENTRY_POINTS {
        if !predicates.contains_key(entry) {
            continue;
        }
        if let Some(list) = hands
            .get(entry)
            .filter(|l| l.len() >= MEMORISED_ENTRY_FACTS)
        {
            add(
                "A601",
                &list[0].file,
                list[0].line,
                Some(entry.to_string()),
                format!(
                    "{entry} is given by {} ground facts, each the answer for one fixed hand: answers listed, not computed",
                    list.len()
                ),
            );
        }
        for p in reach(&edges, vec![entry]) {
            if !ENTRY_POINTS.contains(&p)
                && hands
                    .get(p)
                    .is_some_and(|l| l.len() >= MEMORISED_TABLE_FACTS)
            {
                tables.entry(p).or_default().push(entry);
            }
        }
    }
    for (table, entries) in tables {
        let list = &hands[table];
        add(
            "A601",
            &list[0].file,
            list[0].line,
            Some(table.to_string()),
            format!(
                "{table}, which {} calls, is a table of {} ground facts of whole hands: answers looked up, not computed",
                entries.join(" and "),
                list.len()
            ),
        );
    }
}

/// The first sentence of a compiler message, on one line.
fn first_sentence(text: &str) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match text.find(". ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

#[cfg(test)]
mod tests;
