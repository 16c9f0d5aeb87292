//! Shows that each submission of the mistake catalog really is wrong (or equivalent to a
//! correct one): runs it in one `swipl` process on many inputs and compares every answer with
//! crib-core. The catalog is trusted code, so there is no sandbox here.
//!
//! hand_value mistakes get a seeded sample of (hand, start) pairs (`--pairs N`, 100,000 by
//! default) or every one of the 12,994,800 (`--every-pair`); select_hand mistakes, and files
//! without an area such as the baselines, get a seeded sample of deals (`--deals N`, 2,000 by
//! default, alternately 6 and 5 cards), where an answer is right when crib-core's
//! `judge_keep` finds Hand and Cribcards a keep of the deal with the best total. Prints a
//! Markdown table: wrong/total, the share and the first counterexample of each file.
//!
//! ```console
//! $ cargo run --release -p crib-lab --bin probe_mistakes -- -j 2
//! $ cargo run --release -p crib-lab --bin probe_mistakes -- crates/grade/tests/baselines
//! ```

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;

use crib_core::{
    cards_text, hands, judge_keep, rank_keeps, starts_for, Card, Dealer, KeepJudgement,
    PreparedHand, Rule,
};
use crib_grade::WorkerPool;

/// The seed of the sampled (hand, start) pairs; not the grader's test-set seed.
const PAIR_SEED: u64 = 0x00c2_1b5e_0a7a_0001;
/// The seed of the sampled deals.
const DEAL_SEED: u64 = 0x00c2_1b5e_0a7a_0002;

/// Answers the queries read from stdin, one line each, in one process.
const DRIVER: &str = r#"
:- use_module(library(time)).
probe_main :-
    repeat,
    read_term(user_input, T, []),
    (   T == end_of_file
    ->  !
    ;   probe_answer(T),
        fail
    ).
probe_answer(hv(Hand, Start)) :-
    (   catch(once(hand_value(Hand, Start, V)), E, true)
    ->  (   var(E) -> format("~q~n", [V]) ; format("error~n") )
    ;   format("fail~n")
    ).
probe_answer(sh(Cards)) :-
    (   catch(call_with_time_limit(30, once(select_hand(Cards, Hand, Crib))), E, true)
    ->  (   nonvar(E) -> format("error~n")
        ;   is_list(Hand), is_list(Crib)
        ->  format("ok"), probe_cards(Hand), format(" |"), probe_cards(Crib), nl
        ;   format("not-a-list~n")
        )
    ;   format("fail~n")
    ).
probe_cards(Cards) :-
    forall(member(C, Cards), format(" ~q", [C])).
"#;

struct Options {
    pairs: usize,
    deals: usize,
    every_pair: bool,
    jobs: usize,
    files: Vec<PathBuf>,
}

/// What one file was found to do.
struct Probe {
    id: String,
    area: String,
    equivalent: String,
    wrong: u64,
    total: u64,
    first: Option<String>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let opts = options()?;
    let driver = tempfile::Builder::new().suffix(".pl").tempfile()?;
    std::fs::write(driver.path(), DRIVER)?;
    let probes = WorkerPool::new(opts.jobs).run_each(
        &opts.files,
        |_, file| probe(file, driver.path(), &opts),
        |i, probe| match probe {
            Ok(p) => eprintln!("{}: {}/{} wrong", p.id, p.wrong, p.total),
            Err(e) => eprintln!("{}: {e}", opts.files[i].display()),
        },
    );
    let mut probes: Vec<Probe> = probes.into_iter().collect::<Result<_, _>>()?;
    probes.sort_by(|a, b| (&a.area, &a.id).cmp(&(&b.area, &b.id)));
    println!("| mistake | area | equivalent | wrong/total | share | first counterexample |");
    println!("|---|---|---|---|---|---|");
    for p in &probes {
        let share = p.wrong as f64 / p.total.max(1) as f64;
        println!(
            "| {} | {} | {} | {}/{} | {} | {} |",
            p.id,
            p.area,
            p.equivalent,
            p.wrong,
            p.total,
            percent(share),
            p.first.as_deref().unwrap_or("-")
        );
    }
    Ok(())
}

fn options() -> Result<Options, String> {
    let mut opts = Options {
        pairs: 100_000,
        deals: 2_000,
        every_pair: false,
        jobs: 2,
        files: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    let number = |v: Option<String>, flag: &str| {
        v.and_then(|v| v.parse().ok())
            .ok_or(format!("{flag} needs a number"))
    };
    let mut paths = Vec::new();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--pairs" => opts.pairs = number(args.next(), "--pairs")?,
            "--deals" => opts.deals = number(args.next(), "--deals")?,
            "-j" => opts.jobs = number(args.next(), "-j")?,
            "--every-pair" => opts.every_pair = true,
            _ => paths.push(PathBuf::from(arg)),
        }
    }
    if paths.is_empty() {
        paths.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/grade/tests/mistakes"));
    }
    for path in paths {
        if path.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(&path)
                .map_err(|e| format!("{}: {e}", path.display()))?
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "pl"))
                .collect();
            files.sort();
            opts.files.extend(files);
        } else {
            opts.files.push(path);
        }
    }
    Ok(opts)
}

/// Returns the value of the header line `% key: value` of `text`, if any.
fn header<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines()
        .take_while(|l| l.starts_with('%'))
        .find_map(|l| l.strip_prefix(&format!("% {key}:")))
        .map(str::trim)
}

fn probe(file: &Path, driver: &Path, opts: &Options) -> Probe {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
    let area = header(&text, "area").unwrap_or("select_hand").to_string();
    let equivalent = header(&text, "equivalent")
        .map(|e| e.split_whitespace().next().unwrap_or("").to_string())
        .unwrap_or_else(|| "baseline".into());
    let mut probe = Probe {
        id: stem,
        area,
        equivalent,
        wrong: 0,
        total: 0,
        first: None,
    };
    if probe.area == "select_hand" {
        let mut dealer = Dealer::new(DEAL_SEED);
        let deals = (0..opts.deals).map(move |i| dealer.deal(if i % 2 == 0 { 6 } else { 5 }));
        run(file, driver, deals, &mut probe, query_deal, judge_deal);
    } else if opts.every_pair {
        let pairs = hands().flat_map(|h| {
            starts_for(&h)
                .collect::<Vec<_>>()
                .into_iter()
                .map(move |s| (h, s))
        });
        run(file, driver, pairs, &mut probe, query_pair, judge_pair);
    } else {
        let mut dealer = Dealer::new(PAIR_SEED);
        let pairs = (0..opts.pairs).map(move |_| {
            let d = dealer.deal(5);
            ([d[0], d[1], d[2], d[3]], d[4])
        });
        run(file, driver, pairs, &mut probe, query_pair, judge_pair);
    }
    probe
}

fn prolog_list(cards: &[Card]) -> String {
    let terms: Vec<String> = cards.iter().map(|c| c.prolog()).collect();
    format!("[{}]", terms.join(","))
}

fn query_pair((hand, start): &([Card; 4], Card)) -> String {
    format!("hv({},{}).", prolog_list(hand), start.prolog())
}

#[allow(clippy::ptr_arg)] // `run` takes `fn(&Q)`, and a deal is a `Vec<Card>`
fn query_deal(cards: &Vec<Card>) -> String {
    format!("sh({}).", prolog_list(cards))
}

/// Returns a counterexample when `got` is not the value of the pair.
fn judge_pair((hand, start): &([Card; 4], Card), got: &str) -> Option<String> {
    let expected = PreparedHand::from_cards(*hand).value(*start, Rule::Hand);
    (got != expected.to_string()).then(|| {
        format!(
            "{} + {}: expected {expected}, got {got}",
            cards_text(hand),
            start
        )
    })
}

/// Returns a counterexample when `got` is not a keep of the deal with the best total.
#[allow(clippy::ptr_arg)]
fn judge_deal(cards: &Vec<Card>, got: &str) -> Option<String> {
    let keeps = rank_keeps(cards).expect("deals are 5 or 6 distinct cards");
    let best = &keeps[0];
    let deal = cards_text(cards);
    let best_text = format!("best {} (total {})", cards_text(&best.keep), best.total);
    let parse = |tokens: &str| -> Option<Vec<Card>> {
        tokens
            .split_whitespace()
            .map(|t| Card::parse(t).ok())
            .collect()
    };
    let answer = got.strip_prefix("ok").and_then(|g| g.split_once(" |"));
    let Some((Some(hand), Some(crib))) = answer.map(|(h, c)| (parse(h), parse(c))) else {
        return Some(format!("deal {deal}: got {got}; {best_text}"));
    };
    match judge_keep(cards, &hand, &crib).expect("deals are 5 or 6 distinct cards") {
        KeepJudgement::Keep { keep, .. } if keep.total == best.total => None,
        KeepJudgement::Keep { keep, .. } => Some(format!(
            "deal {deal}: kept {} (total {}), {best_text}",
            cards_text(&keep.keep),
            keep.total
        )),
        KeepJudgement::Wrong(fault) => Some(format!(
            "deal {deal}: got Hand = {}, Cribcards = {}: {fault}; {best_text}",
            cards_text(&hand),
            cards_text(&crib)
        )),
    }
}

/// Feeds `queries` to `file` in one swipl process and counts the answers `judge` rejects.
fn run<Q: Send + 'static>(
    file: &Path,
    driver: &Path,
    queries: impl Iterator<Item = Q> + Send + 'static,
    probe: &mut Probe,
    query: fn(&Q) -> String,
    judge: fn(&Q, &str) -> Option<String>,
) {
    let mut child = Command::new("swipl")
        .args(["-q", "-g", "probe_main", "-t", "halt"])
        .arg(driver)
        .arg(file)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("swipl runs");
    let stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let (sent, asked) = mpsc::channel();
    let writer = std::thread::spawn(move || {
        let mut stdin = BufWriter::new(stdin);
        for q in queries {
            let line = query(&q);
            sent.send(q).unwrap();
            if writeln!(stdin, "{line}").is_err() {
                break;
            }
        }
    });
    let mut lines = stdout.lines();
    for q in asked {
        let got = lines
            .next()
            .and_then(Result::ok)
            .unwrap_or_else(|| "no answer (swipl ended)".into());
        probe.total += 1;
        if let Some(why) = judge(&q, got.trim()) {
            probe.wrong += 1;
            probe.first.get_or_insert(why);
        }
    }
    writer.join().unwrap();
    let _ = child.wait();
}

/// Formats a share as a percentage with enough digits to show a tiny one.
fn percent(share: f64) -> String {
    if share == 0.0 {
        "0%".into()
    } else if share < 0.001 {
        format!("{:.4}%", share * 100.0)
    } else {
        format!("{:.1}%", share * 100.0)
    }
}
