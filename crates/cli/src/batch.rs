//! What `crib score` and `crib select` share: where the cards come from (the command line, or
//! many hands from a file or stdin), the output formats (text, JSON Lines, CSV), and the
//! streaming, parallel, order-keeping loop behind batch input.
//!
//! # The batch line format
//!
//! One hand (or deal) per line, its cards in any notation crib reads, separated by spaces,
//! tabs or commas (a Prolog list `[card(5,hearts), ...]` reads too, see
//! [`crib_core::parse_card_list`]). Blank lines and lines whose first non-blank character is
//! `#` are skipped; line numbers count every line of the input, from 1.
//!
//! # Bad lines
//!
//! A line that is not a hand is reported on stderr as `crib: FILE:LINE: message` (the message
//! quotes the bad token) and writes nothing on stdout. By default the first bad line stops the
//! run, after every result before it is written. With `--keep-going` every bad line is
//! reported and every good line still gets its result. Either way the exit code is 2 when any
//! line was bad.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::mpsc;

use anyhow::{bail, Context, Result};
use clap::Args;
use crib_core::{parse_card_list, Card, CardError};
use rayon::prelude::*;
use serde::Serialize;

/// How many lines are read before they are processed together; bounds the memory a batch
/// uses whatever the length of its input.
const CHUNK_LINES: usize = 16 * 1024;

/// How many lines one parallel task processes (and one output buffer holds).
const TASK_LINES: usize = 256;

/// A `CARD` argument: a card, or `-` for "read hands from stdin".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardArg {
    Card(Card),
    Stdin,
}

impl FromStr for CardArg {
    type Err = CardError;

    fn from_str(text: &str) -> Result<CardArg, CardError> {
        if text == "-" {
            Ok(CardArg::Stdin)
        } else {
            Card::parse(text).map(CardArg::Card)
        }
    }
}

/// The options of batch input and of the output format, shared by `score` and `select`.
#[derive(Debug, Args)]
pub struct IoArgs {
    /// Print one JSON object per result on stdout (JSON Lines) instead of text.
    #[arg(long)]
    json: bool,
    /// Print CSV on stdout, a header then one row per result, instead of text.
    #[arg(long, conflicts_with = "json")]
    csv: bool,
    /// Read many hands from FILE, one per line (`-` as the only CARD reads them from stdin).
    #[arg(long, short, value_name = "FILE", conflicts_with = "cards")]
    input: Option<PathBuf>,
    /// With batch input, report every bad line and go on; without it the first bad line stops
    /// the run. Either way crib exits 2 if any line was bad.
    #[arg(long)]
    keep_going: bool,
}

/// The output format chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Csv,
}

/// Where the cards come from.
#[derive(Debug)]
pub enum Input {
    /// One hand given as arguments.
    Single(Vec<Card>),
    /// Many hands, one per line, from this file (None: stdin).
    Batch(Option<PathBuf>),
}

impl IoArgs {
    /// Returns the output format.
    fn format(&self) -> Format {
        match (self.json, self.csv) {
            (true, _) => Format::Json,
            (_, true) => Format::Csv,
            _ => Format::Text,
        }
    }

    /// Returns where the cards come from, given the CARD arguments.
    ///
    /// # Errors
    /// `-` together with cards; `--keep-going` without batch input.
    pub fn input(&self, cards: &[CardArg]) -> Result<Input> {
        let stdin = cards.contains(&CardArg::Stdin);
        if stdin && cards.len() > 1 {
            bail!("'-' reads hands from stdin and must be the only CARD argument");
        }
        let input = match (&self.input, stdin) {
            (Some(path), _) => Input::Batch(Some(path.clone())),
            (None, true) => Input::Batch(None),
            (None, false) => Input::Single(
                cards
                    .iter()
                    .filter_map(|c| match c {
                        CardArg::Card(card) => Some(*card),
                        CardArg::Stdin => None,
                    })
                    .collect(),
            ),
        };
        if self.keep_going && matches!(input, Input::Single(_)) {
            bail!("--keep-going applies only to batch input ('-' or --input FILE)");
        }
        Ok(input)
    }
}

/// Where one task's results go: bytes for stdout, in order.
pub struct Sink {
    /// The format results are to be written in.
    pub format: Format,
    /// The bytes written so far; text is written here directly.
    pub out: Vec<u8>,
}

impl Sink {
    /// Returns an empty sink for `format`.
    pub fn new(format: Format) -> Sink {
        Sink {
            format,
            out: Vec::new(),
        }
    }

    /// Writes `value` as one line of JSON.
    pub fn json(&mut self, value: &impl Serialize) -> Result<()> {
        serde_json::to_writer(&mut self.out, value)?;
        self.out.push(b'\n');
        Ok(())
    }

    /// Writes `row` as one CSV record.
    pub fn csv(&mut self, row: &impl Serialize) -> Result<()> {
        let mut csv = csv::WriterBuilder::new()
            .has_headers(false)
            .buffer_capacity(256)
            .from_writer(&mut self.out);
        csv.serialize(row)?;
        csv.flush()?;
        Ok(())
    }

    /// Returns a sink holding `A`'s CSV header, or nothing for the other formats.
    fn header<A: Answerer>(format: Format) -> Result<Sink> {
        let mut sink = Sink::new(format);
        if format == Format::Csv {
            sink.csv(&A::HEADER)?;
        }
        Ok(sink)
    }
}

/// One hand to answer: its cards, and its line number when it comes from batch input.
#[derive(Debug, Clone, Copy)]
pub struct Item<'a> {
    pub line: Option<usize>,
    pub cards: &'a [Card],
}

/// Answers one hand, writing its results into the sink.
pub trait Answerer: Sync {
    /// The CSV header, the names of the fields of each row [`Sink::csv`] is given.
    const HEADER: &'static [&'static str];

    /// Writes the results for `item`.
    ///
    /// # Errors
    /// The hand is not one this command answers (wrong number of cards, ...).
    fn answer(&self, item: Item<'_>, sink: &mut Sink) -> Result<()>;
}

/// Runs a command on its input: one hand from the arguments, or a batch.
///
/// # Errors
/// A bad hand, an unreadable input, or (in a batch) any bad line; see the module docs.
pub fn run<A: Answerer>(input: Input, io: &IoArgs, answer: &A) -> Result<()> {
    let (format, keep_going) = (io.format(), io.keep_going);
    let mut out = std::io::stdout().lock();
    match input {
        Input::Single(cards) => {
            let mut sink = Sink::header::<A>(format)?;
            answer.answer(
                Item {
                    line: None,
                    cards: &cards,
                },
                &mut sink,
            )?;
            out.write_all(&sink.out)?;
            Ok(())
        }
        Input::Batch(path) => {
            let (name, reader) = match &path {
                Some(p) => (
                    p.display().to_string(),
                    reader(File::open(p).with_context(|| format!("cannot open {}", p.display()))?),
                ),
                None => ("<stdin>".into(), reader(std::io::stdin())),
            };
            let mut first_bad = None;
            let summary = batch(reader, &mut out, format, keep_going, answer, |line, err| {
                let message = format!("{name}:{line}: {err:#}");
                if keep_going {
                    eprintln!("crib: {message}");
                } else {
                    first_bad = Some(message);
                }
            })
            .with_context(|| match &path {
                Some(p) => format!("reading {}", p.display()),
                None => "reading stdin".into(),
            })?;
            out.flush()?;
            if let Some(message) = first_bad {
                bail!("{message}");
            }
            if summary.bad > 0 {
                bail!(
                    "{} of {} hands in {name} were bad (reported above)",
                    summary.bad,
                    summary.hands
                );
            }
            Ok(())
        }
    }
}

/// What a batch read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BatchSummary {
    /// Lines holding a hand (not blank, not a comment).
    pub hands: usize,
    /// Hands that got an error instead of results.
    pub bad: usize,
}

/// The results of one task: output bytes and, in line order, the bad lines with where in the
/// output they fall.
struct Piece {
    out: Vec<u8>,
    bad: Vec<(usize, usize, anyhow::Error)>,
    hands: usize,
}

/// The input of a batch: any reader, buffered here so that a chunk is handed on as soon as
/// reading more would wait.
pub type Reader = BufReader<Box<dyn Read + Send>>;

/// Returns `input` as a batch [`Reader`].
pub fn reader(input: impl Read + Send + 'static) -> Reader {
    BufReader::with_capacity(1 << 16, Box::new(input))
}

/// Lines read together: their bytes, where each ends, and the number of the first.
struct Chunk {
    text: Vec<u8>,
    ends: Vec<usize>,
    first_line: usize,
}

/// Answers every hand of `input`, one per line, writing results to `out` in input order.
///
/// Three stages run at once: a thread reads chunks of at most [`CHUNK_LINES`] lines (fewer
/// when more input is not there yet, so that a script feeding lines one by one gets each
/// answer at once); a thread answers each chunk in parallel (rayon), [`TASK_LINES`] lines to
/// a task; and the calling thread writes the results. At most two chunks wait between stages,
/// so memory stays bounded however long the input. `report` is called with the line number
/// and the error of each bad line; without `keep_going` the first bad line ends the batch,
/// every result before it written.
///
/// # Errors
/// Reading `input` or writing `out` fails.
pub fn batch<A: Answerer>(
    input: Reader,
    out: &mut impl Write,
    format: Format,
    keep_going: bool,
    answer: &A,
    mut report: impl FnMut(usize, &anyhow::Error),
) -> Result<BatchSummary> {
    let mut summary = BatchSummary::default();
    out.write_all(&Sink::header::<A>(format)?.out)?;
    let (chunks_tx, chunks) = mpsc::sync_channel::<std::io::Result<Chunk>>(2);
    // Not joined: it may be waiting on a terminal when a bad line ends the batch.
    std::thread::spawn(move || read_chunks(input, &chunks_tx));
    std::thread::scope(|scope| {
        let (pieces_tx, pieces) = mpsc::sync_channel::<std::io::Result<Vec<Piece>>>(2);
        scope.spawn(move || {
            for chunk in chunks {
                let answered = chunk.map(|c| answer_chunk(&c, format, answer));
                if pieces_tx.send(answered).is_err() {
                    break; // the writer stopped
                }
            }
        });
        for answered in pieces {
            for piece in answered? {
                summary.hands += piece.hands;
                let mut written = 0;
                for (line, at, err) in &piece.bad {
                    out.write_all(&piece.out[written..*at])?;
                    written = *at;
                    summary.bad += 1;
                    report(*line, err);
                    if !keep_going {
                        return Ok(summary);
                    }
                }
                out.write_all(&piece.out[written..])?;
            }
            out.flush()?;
        }
        Ok(summary)
    })
}

/// Reads `input` in chunks of lines and sends them on until the end, an error, or the
/// receiver going away.
fn read_chunks(mut input: Reader, chunks: &mpsc::SyncSender<std::io::Result<Chunk>>) {
    let mut next_line = 1;
    loop {
        let mut chunk = Chunk {
            text: Vec::new(),
            ends: Vec::new(),
            first_line: next_line,
        };
        while chunk.ends.len() < CHUNK_LINES {
            match input.read_until(b'\n', &mut chunk.text) {
                Ok(0) => break,
                Ok(_) => chunk.ends.push(chunk.text.len()),
                Err(e) => {
                    let _ = chunks.send(Err(e));
                    return;
                }
            }
            if input.buffer().is_empty() {
                break; // reading on might wait: hand these lines on first
            }
        }
        if chunk.ends.is_empty() {
            return;
        }
        next_line += chunk.ends.len();
        if chunks.send(Ok(chunk)).is_err() {
            return;
        }
    }
}

/// Answers the lines of a chunk in parallel; the pieces are in line order.
fn answer_chunk(chunk: &Chunk, format: Format, answer: &impl Answerer) -> Vec<Piece> {
    let lines: Vec<&[u8]> = chunk
        .ends
        .iter()
        .scan(0, |start, &end| {
            let line = &chunk.text[*start..end];
            *start = end;
            Some(line)
        })
        .collect();
    lines
        .par_chunks(TASK_LINES)
        .enumerate()
        .map(|(t, task)| answer_lines(task, chunk.first_line + t * TASK_LINES, format, answer))
        .collect()
}

/// Answers consecutive lines, the first of them line `first`.
fn answer_lines(lines: &[&[u8]], first: usize, format: Format, answer: &impl Answerer) -> Piece {
    let mut sink = Sink::new(format);
    let mut bad = Vec::new();
    let mut hands = 0;
    for (i, raw) in lines.iter().enumerate() {
        let line = first + i;
        let text = match std::str::from_utf8(raw) {
            Ok(text) => text.trim(),
            Err(e) => {
                hands += 1;
                bad.push((line, sink.out.len(), anyhow::anyhow!("not UTF-8 text: {e}")));
                continue;
            }
        };
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        hands += 1;
        let result = parse_card_list(text)
            .map_err(anyhow::Error::from)
            .and_then(|cards| {
                let before = sink.out.len();
                answer
                    .answer(
                        Item {
                            line: Some(line),
                            cards: &cards,
                        },
                        &mut sink,
                    )
                    .inspect_err(|_| sink.out.truncate(before))
            });
        if let Err(e) = result {
            bad.push((line, sink.out.len(), e));
        }
    }
    Piece {
        out: sink.out,
        bad,
        hands,
    }
}

#[cfg(test)]
mod tests;
