//! A tokenizer of SWI-Prolog's syntax, faithful enough to split a file into clauses and
//! their tokens exactly as SWI-Prolog's reader does (checked against it over every Prolog
//! file of the project in `tests/similar/reader.rs`). Comments and layout are dropped; each
//! token keeps its line.

/// What kind of token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A name: letters and digits from a lowercase letter, symbol characters, a quoted
    /// atom, or a solo character (`!`, `;`).
    Atom,
    /// A variable: from an uppercase letter or `_`.
    Var,
    /// A number, including `0'c` character codes.
    Number,
    /// A string: `"..."` or `` `...` ``.
    Str,
    /// Punctuation: `(`, `)`, `[`, `]`, `{`, `}`, `,`, `|`.
    Punct,
    /// The end of a clause: `.` followed by layout, `%` or the end of the file.
    End,
}

/// One token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// Its kind.
    pub kind: Kind,
    /// Its text (a quoted atom without its quotes, escapes left as written).
    pub text: String,
    /// Its line, 1-based.
    pub line: u32,
    /// Whether layout comes right before it (`foo(` is a call, `foo (` is not).
    pub spaced: bool,
}

const SYMBOL: &str = "+-*/\\^<>=~:.?@#&$";

/// Returns the tokens of `source`. Never fails: an unterminated quote or comment runs to the
/// end of the file, as the reader would report it, and what came before is kept.
pub fn tokenize(source: &str) -> Vec<Token> {
    let chars: Vec<char> = source.chars().collect();
    let mut tokens = Vec::new();
    let (mut i, mut line, mut spaced) = (0usize, 1u32, true);
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            if c == '\n' {
                line += 1;
            }
            i += 1;
            spaced = true;
            continue;
        }
        if c == '%' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            spaced = true;
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                if chars[i] == '\n' {
                    line += 1;
                }
                i += 1;
            }
            i = (i + 2).min(chars.len());
            spaced = true;
            continue;
        }
        let (start, start_line) = (i, line);
        // A quoted item's text is what is inside its quotes.
        let mut inside = None;
        let kind;
        if c.is_alphabetic() || c == '_' {
            i += 1;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            kind = if c.is_uppercase() || c == '_' {
                Kind::Var
            } else {
                Kind::Atom
            };
        } else if c.is_ascii_digit() {
            i = number_end(&chars, i);
            kind = Kind::Number;
        } else if c == '\'' || c == '"' || c == '`' {
            let (end, newlines) = quoted_end(&chars, i);
            line += newlines;
            inside = Some(i + 1..end.saturating_sub(1).max(i + 1));
            i = end;
            kind = if c == '\'' { Kind::Atom } else { Kind::Str };
        } else if c == '.'
            && chars
                .get(i + 1)
                .is_none_or(|n| n.is_whitespace() || *n == '%')
        {
            i += 1;
            kind = Kind::End;
        } else if "()[]{},|".contains(c) {
            i += 1;
            kind = Kind::Punct;
        } else if c == '!' || c == ';' {
            i += 1;
            kind = Kind::Atom;
        } else if SYMBOL.contains(c) {
            // Greedy, as the reader is: `=..` then layout is an atom; only a `.` that starts
            // a token can end a clause.
            while i < chars.len() && SYMBOL.contains(chars[i]) {
                i += 1;
            }
            kind = Kind::Atom;
        } else {
            i += 1;
            kind = Kind::Atom;
        }
        tokens.push(Token {
            kind,
            text: chars[inside.unwrap_or(start..i)].iter().collect(),
            line: start_line,
            spaced,
        });
        spaced = false;
    }
    tokens
}

/// Returns where a number starting at `i` ends: digits (with `_` groups), `0'c`, `0x..`,
/// `0o..`, `0b..`, a fraction and an exponent.
fn number_end(chars: &[char], mut i: usize) -> usize {
    if chars[i] == '0' && chars.get(i + 1) == Some(&'\'') {
        // 0'c, with 0'\\n, 0''' and 0'' (quote) forms.
        i += 2;
        match chars.get(i) {
            Some('\\') => i += 2,
            Some('\'') if chars.get(i + 1) == Some(&'\'') => i += 2,
            Some(_) => i += 1,
            None => {}
        }
        return i.min(chars.len());
    }
    if chars[i] == '0' && matches!(chars.get(i + 1), Some('x' | 'o' | 'b')) {
        let radix = match chars[i + 1] {
            'x' => 16,
            'o' => 8,
            _ => 2,
        };
        if chars.get(i + 2).is_some_and(|c| c.is_digit(radix)) {
            i += 2;
            while i < chars.len() && chars[i].is_digit(radix) {
                i += 1;
            }
            return i;
        }
    }
    while i < chars.len()
        && (chars[i].is_ascii_digit()
            || (chars[i] == '_' && chars.get(i + 1).is_some_and(char::is_ascii_digit)))
    {
        i += 1;
    }
    if chars.get(i) == Some(&'.') && chars.get(i + 1).is_some_and(char::is_ascii_digit) {
        i += 1;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        if matches!(chars.get(i), Some('e' | 'E')) {
            let mut j = i + 1;
            if matches!(chars.get(j), Some('+' | '-')) {
                j += 1;
            }
            if chars.get(j).is_some_and(char::is_ascii_digit) {
                i = j;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
            }
        }
    }
    i
}

/// Returns the index after the closing quote of the quoted item starting at `i`, and the
/// newlines inside it. A doubled quote is one quote; a backslash escapes the next character.
fn quoted_end(chars: &[char], i: usize) -> (usize, u32) {
    let quote = chars[i];
    let (mut j, mut newlines) = (i + 1, 0);
    while j < chars.len() {
        match chars[j] {
            '\\' => {
                if chars.get(j + 1) == Some(&'\n') {
                    newlines += 1;
                }
                j += 2;
                continue;
            }
            '\n' => newlines += 1,
            c if c == quote => {
                if chars.get(j + 1) == Some(&quote) {
                    j += 2;
                    continue;
                }
                return (j + 1, newlines);
            }
            _ => {}
        }
        j += 1;
    }
    (chars.len(), newlines)
}

/// Splits tokens into clauses at each end token (the end token is not kept); a last clause
/// without its end is kept.
pub fn clauses(tokens: Vec<Token>) -> Vec<Vec<Token>> {
    let mut out = Vec::new();
    let mut current = Vec::new();
    for t in tokens {
        if t.kind == Kind::End {
            out.push(std::mem::take(&mut current));
        } else {
            current.push(t);
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

#[cfg(test)]
mod tests;
