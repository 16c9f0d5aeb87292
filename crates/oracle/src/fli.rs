//! Terms and queries over SWI-Prolog's foreign language interface, kept to what the oracle needs.
//!
//! The foreign interface may only be used on a thread with an active engine. [`Active`] is the
//! proof: it exists only while one is, so every function taking `&Active` is safe to call.
//! Atoms, functors and predicate handles are process-wide in SWI-Prolog and never freed, so
//! [`Names`] holds them as plain values and is shared between threads.

use std::ffi::{c_int, CString};
use std::marker::PhantomData;
use std::os::raw::c_char;

use crib_core::{Card, Rank, Rule, Suit};
use swipl::fli::*;

/// An engine is active on this thread, and a foreign frame is open: term references made
/// while this lives are released, and their bindings undone, when it drops.
pub(crate) struct Active<'engine> {
    frame: PL_fid_t,
    /// Bound to the activation it proves, and to its thread.
    _engine: PhantomData<(&'engine (), *mut ())>,
}

impl Active<'_> {
    /// Opens a foreign frame on the active engine.
    ///
    /// # Safety
    /// An engine must be active on this thread for as long as the returned value lives.
    pub(crate) unsafe fn new<'engine>() -> Active<'engine> {
        Active {
            // SAFETY: the caller keeps an engine active.
            frame: unsafe { PL_open_foreign_frame() },
            _engine: PhantomData,
        }
    }

    /// Returns `n` new consecutive term references, each holding a fresh variable.
    pub(crate) fn terms(&self, n: usize) -> term_t {
        let n = c_int::try_from(n).expect("the oracle asks for a few terms");
        // SAFETY: `self` proves an engine is active.
        unsafe { PL_new_term_refs(n) }
    }

    /// Runs `pred` once on the arguments starting at `args`, keeping the bindings of the
    /// first solution. `args` must hold as many consecutive term references as `pred` has
    /// arguments (from one call of [`Active::terms`]).
    pub(crate) fn call(&self, pred: Pred, args: term_t) -> Status {
        let flags = (PL_Q_NODEBUG | PL_Q_CATCH_EXCEPTION | PL_Q_EXT_STATUS) as c_int;
        // SAFETY: `self` proves an engine is active; `args` are its term references.
        unsafe {
            let query = PL_open_query(std::ptr::null_mut(), flags, pred.0, args);
            let status = PL_next_solution(query);
            if status == PL_S_EXCEPTION {
                let message = self.text(PL_exception(query));
                PL_close_query(query);
                PL_clear_exception();
                Status::Raised(message)
            } else if status == PL_S_FALSE as c_int {
                PL_close_query(query);
                Status::False
            } else {
                PL_cut_query(query);
                Status::True
            }
        }
    }

    /// Puts the list of integers in `t`.
    pub(crate) fn put_ints(&self, t: term_t, values: impl DoubleEndedIterator<Item = i64>) {
        let head = self.terms(1);
        // SAFETY: `self` proves an engine is active.
        unsafe {
            PL_put_nil(t);
            for value in values.rev() {
                PL_put_int64(head, value);
                PL_cons_list(t, head, t);
            }
        }
    }

    /// Reads a proper list from `t`, each element with `element`; `None` if `t` is not a
    /// proper list or `element` returns `None` for some element.
    pub(crate) fn list<T>(
        &self,
        t: term_t,
        mut element: impl FnMut(term_t) -> Option<T>,
    ) -> Option<Vec<T>> {
        let head = self.terms(1);
        // SAFETY: `self` proves an engine is active.
        let rest = unsafe { PL_copy_term_ref(t) };
        let mut items = Vec::new();
        // SAFETY: as above.
        while unsafe { PL_get_list(rest, head, rest) } != 0 {
            items.push(element(head)?);
        }
        // SAFETY: as above.
        (unsafe { PL_get_nil(rest) } != 0).then_some(items)
    }

    /// Reads an integer 0..=255 from `t`.
    pub(crate) fn small_int(&self, t: term_t) -> Option<u8> {
        let mut value = 0i64;
        // SAFETY: `self` proves an engine is active.
        if unsafe { PL_get_int64(t, &mut value) } == 0 {
            return None;
        }
        u8::try_from(value).ok()
    }

    /// Returns `t` as text: a string or atom as its characters, any other term as `writeq/1`
    /// writes it.
    pub(crate) fn text(&self, t: term_t) -> String {
        let mut len = 0usize;
        let mut chars: *mut c_char = std::ptr::null_mut();
        let flags = CVT_ATOM | CVT_STRING | CVT_WRITEQ | BUF_STACK | REP_UTF8;
        // SAFETY: `self` proves an engine is active; on success `chars` points to `len` bytes
        // on Prolog's buffer stack, valid until the frame closes, and copied at once.
        unsafe {
            if PL_get_nchars(t, &mut len, &mut chars, flags) == 0 || chars.is_null() {
                return "<a term that cannot be written>".to_string();
            }
            let bytes = std::slice::from_raw_parts(chars as *const u8, len);
            String::from_utf8_lossy(bytes).into_owned()
        }
    }

    /// Puts a string in `t`.
    pub(crate) fn put_string(&self, t: term_t, text: &str) {
        // SAFETY: `self` proves an engine is active; `text` is `len` valid bytes.
        unsafe { PL_put_string_nchars(t, text.len(), text.as_ptr() as *const c_char) };
    }

    /// Puts an atom in `t`.
    pub(crate) fn put_atom_text(&self, t: term_t, text: &str) {
        let atom = self.atom(text);
        // SAFETY: `self` proves an engine is active.
        unsafe { PL_put_atom(t, atom) };
    }

    /// Puts in `t` the term Prolog reads from `text`; false if `text` is not a term.
    pub(crate) fn put_parsed(&self, t: term_t, text: &str) -> bool {
        let Ok(text) = CString::new(text) else {
            return false;
        };
        // SAFETY: `self` proves an engine is active; `text` is NUL-terminated.
        unsafe { PL_chars_to_term(text.as_ptr(), t) != 0 }
    }

    fn atom(&self, name: &str) -> atom_t {
        // SAFETY: `self` proves an engine is active; `name` is `len` valid bytes.
        unsafe { PL_new_atom_nchars(name.len(), name.as_ptr() as *const c_char) }
    }

    fn functor(&self, name: &str, arity: usize) -> functor_t {
        let name = self.atom(name);
        // SAFETY: `self` proves an engine is active.
        unsafe { PL_new_functor_sz(name, arity) }
    }

    fn pred(&self, module: &str, name: &str, arity: c_int) -> Pred {
        let module = CString::new(module).expect("module names have no NUL");
        let name = CString::new(name).expect("predicate names have no NUL");
        // SAFETY: `self` proves an engine is active; both strings are NUL-terminated.
        Pred(unsafe { PL_predicate(name.as_ptr(), arity, module.as_ptr()) })
    }
}

impl Drop for Active<'_> {
    fn drop(&mut self) {
        // SAFETY: `Active::new`'s caller keeps the engine active while `self` lives.
        unsafe { PL_discard_foreign_frame(self.frame) }
    }
}

/// A predicate handle. SWI-Prolog never frees one, and any engine may call it.
#[derive(Clone, Copy)]
pub(crate) struct Pred(predicate_t);

// SAFETY: a predicate_t is a process-wide handle SWI-Prolog keeps for the life of the process;
// it carries no thread affinity.
unsafe impl Send for Pred {}
// SAFETY: as for Send; the handle is only read.
unsafe impl Sync for Pred {}

/// The atoms, functors and predicates the oracle builds terms and goals with.
pub(crate) struct Names {
    card: functor_t,
    error: functor_t,
    stream: functor_t,
    /// The ranks written as atoms (`ace`, `jack`, `queen`, `king`), each with its atom.
    faces: [(Rank, atom_t); 4],
    /// `clubs` .. `spades`, indexed by `Suit::index`.
    suits: [atom_t; 4],
    hand: atom_t,
    crib: atom_t,
    true_: atom_t,
    false_: atom_t,
    pub(crate) values_codes: Pred,
    pub(crate) value: Pred,
    pub(crate) select: Pred,
    pub(crate) load_reference: Pred,
    pub(crate) missing_predicates: Pred,
    pub(crate) open_string: Pred,
    pub(crate) load_files: Pred,
    pub(crate) close: Pred,
}

impl Names {
    /// Registers the names. The predicates of module `oracle` may be looked up before
    /// prolog/oracle.pl is loaded; SWI-Prolog resolves them when they are first called.
    pub(crate) fn new(cx: &Active) -> Names {
        Names {
            card: cx.functor("card", 2),
            error: cx.functor("error", 1),
            stream: cx.functor("stream", 1),
            faces: [Rank::Ace, Rank::Jack, Rank::Queen, Rank::King]
                .map(|rank| (rank, cx.atom(&rank.prolog()))),
            suits: Suit::ALL.map(|s| cx.atom(s.prolog())),
            hand: cx.atom("hand"),
            crib: cx.atom("crib"),
            true_: cx.atom("true"),
            false_: cx.atom("false"),
            values_codes: cx.pred("oracle", "values_codes", 5),
            value: cx.pred("oracle", "value", 5),
            select: cx.pred("oracle", "select", 4),
            load_reference: cx.pred("oracle", "load_reference", 2),
            missing_predicates: cx.pred("oracle", "missing_predicates", 2),
            open_string: cx.pred("system", "open_string", 2),
            load_files: cx.pred("system", "load_files", 2),
            close: cx.pred("system", "close", 1),
        }
    }

    /// Puts the atom `hand` or `crib` in `t`.
    pub(crate) fn put_rule(&self, _cx: &Active, t: term_t, rule: Rule) {
        let name = match rule {
            Rule::Hand => self.hand,
            Rule::Crib => self.crib,
        };
        // SAFETY: `_cx` proves an engine is active.
        unsafe { PL_put_atom(t, name) };
    }

    /// Puts `card(Rank, Suit)` in `t`, as the assignment writes cards.
    pub(crate) fn put_card(&self, cx: &Active, t: term_t, card: Card) {
        let args = cx.terms(2);
        // SAFETY: `cx` proves an engine is active; `args` are two fresh term references.
        unsafe {
            match self.faces.iter().find(|(rank, _)| *rank == card.rank()) {
                Some(&(_, atom)) => PL_put_atom(args, atom),
                None => PL_put_int64(args, i64::from(card.rank().number())),
            };
            PL_put_atom(args + 1, self.suits[usize::from(card.suit().index())]);
            PL_cons_functor_v(t, self.card, args);
        }
    }

    /// Puts the list of `card(Rank, Suit)` terms in `t`.
    pub(crate) fn put_cards(&self, cx: &Active, t: term_t, cards: &[Card]) {
        let head = cx.terms(1);
        // SAFETY: `cx` proves an engine is active.
        unsafe { PL_put_nil(t) };
        for &card in cards.iter().rev() {
            self.put_card(cx, head, card);
            // SAFETY: as above.
            unsafe { PL_cons_list(t, head, t) };
        }
    }

    /// Puts `[stream(S)]` in `t`, the option list that loads a file from stream `s`.
    pub(crate) fn put_stream_option(&self, cx: &Active, t: term_t, s: term_t) {
        let option = cx.terms(1);
        // SAFETY: `cx` proves an engine is active.
        unsafe {
            PL_cons_functor_v(option, self.stream, s);
            PL_put_nil(t);
            PL_cons_list(t, option, t);
        }
    }

    /// Reads `card(Rank, Suit)` from `t`, or `None` if `t` is not a card of the deck.
    pub(crate) fn card(&self, cx: &Active, t: term_t) -> Option<Card> {
        let arg = cx.terms(1);
        let mut suit = 0;
        // SAFETY: `cx` proves an engine is active.
        unsafe {
            if PL_is_functor(t, self.card) == 0 {
                return None;
            }
            PL_get_arg(1, t, arg);
        }
        let rank = self.rank(cx, arg)?;
        // SAFETY: as above; `t` is card/2.
        unsafe {
            PL_get_arg(2, t, arg);
            if PL_get_atom(arg, &mut suit) == 0 {
                return None;
            }
        }
        let suit = Suit::ALL
            .into_iter()
            .find(|s| self.suits[usize::from(s.index())] == suit)?;
        Some(Card::new(rank, suit))
    }

    fn rank(&self, cx: &Active, t: term_t) -> Option<Rank> {
        if let Some(number) = cx.small_int(t) {
            return match number {
                2..=10 => Rank::from_number(number),
                _ => None,
            };
        }
        let mut name = 0;
        // SAFETY: `cx` proves an engine is active.
        if unsafe { PL_get_atom(t, &mut name) } == 0 {
            return None;
        }
        self.faces
            .iter()
            .find(|&&(_, atom)| atom == name)
            .map(|&(rank, _)| rank)
    }

    /// Reads the outcome term prolog/oracle.pl binds: `true` or `false`, or `error(Message)`
    /// as the message.
    pub(crate) fn outcome(&self, cx: &Active, t: term_t) -> Result<bool, String> {
        let mut name = 0;
        // SAFETY: `cx` proves an engine is active.
        if unsafe { PL_get_atom(t, &mut name) } != 0 && (name == self.true_ || name == self.false_)
        {
            return Ok(name == self.true_);
        }
        // SAFETY: as above.
        if unsafe { PL_is_functor(t, self.error) } != 0 {
            let message = cx.terms(1);
            // SAFETY: as above; `t` is error/1.
            unsafe { PL_get_arg(1, t, message) };
            return Err(cx.text(message));
        }
        Err(format!("unexpected outcome {}", cx.text(t)))
    }
}

/// How a query ended.
pub(crate) enum Status {
    True,
    False,
    /// The query raised; the text is the exception term, written with `writeq/1`.
    Raised(String),
}
