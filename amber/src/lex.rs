//! The AmberScript tokenizer.
//!
//! Tokens are separated by spaces, tabs, carriage returns, form feeds and
//! NULs; a newline is a token of its own ([`Kind::Eol`]), since commands end
//! at the end of their line. `#` starts a comment when it starts a token and
//! runs to the end of the line. `,`, `(` and `)` are one-character tokens. A
//! `\` alone before a newline continues the line. `"..."` is a string with
//! C escapes.
//!
//! Numbers follow Amber's tokenizer: a token that starts with a digit, or
//! with `-`, `+` or `.` followed by a digit, is a number; its longest
//! numeric prefix (`0x` hex digits, or decimal digits with an optional
//! fraction and exponent) is the number and the rest of the token is lexed
//! again (`0.5%` is `0.5` then `%`). A number with a fraction or an exponent
//! is a float. `nan` and `inf` (any case, `inf` and `nan` with a sign too)
//! are floats; Amber only knows `nan`, `inf` is kiln's addition.
//!
//! Every token carries its 1-based line and column (in characters), so
//! parse errors can point at it. The tokenizer never fails: what is not a
//! number or a string is a word.

/// A token's kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Kind {
    /// Anything else: keywords, names, `%`, `,`.
    Word,
    /// A number; see [`Num`].
    Num(Num),
    /// A quoted string (the text holds its unescaped contents).
    Str,
    /// The end of a line.
    Eol,
    /// The end of the input.
    Eos,
}

/// A numeric literal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Num {
    /// A decimal integer (`-12`).
    Int(i128),
    /// A hexadecimal integer (`0xff`), as its bits.
    Hex(u64),
    /// A float (`1.5`, `1e3`, `nan`, `-inf`).
    Float(f64),
}

impl Num {
    /// The value as an integer, when it is one (hex as its bits).
    pub(crate) fn as_int(self) -> Option<i128> {
        match self {
            Num::Int(v) => Some(v),
            Num::Hex(v) => Some(i128::from(v)),
            Num::Float(_) => None,
        }
    }

    /// The value as a float: integers and hex numbers convert by value
    /// (Amber converts `0x3f800000` in float data to 1065353216.0).
    pub(crate) fn as_f64(self) -> f64 {
        match self {
            Num::Int(v) => v as f64,
            Num::Hex(v) => v as f64,
            Num::Float(v) => v,
        }
    }
}

/// One token.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Token {
    /// What it is.
    pub(crate) kind: Kind,
    /// Its text (a string's unescaped contents; empty for end of line and
    /// end of input).
    pub(crate) text: String,
    /// 1-based line.
    pub(crate) line: u32,
    /// 1-based column, in characters.
    pub(crate) col: u32,
}

impl Token {
    /// Whether the token is the word `w`.
    pub(crate) fn is_word(&self, w: &str) -> bool {
        self.kind == Kind::Word && self.text == w
    }

    /// Whether the token ends a command (end of line or of input).
    pub(crate) fn ends_line(&self) -> bool {
        matches!(self.kind, Kind::Eol | Kind::Eos)
    }

    /// How the token reads in messages: `'FOO'`, `end of line`.
    pub(crate) fn describe(&self) -> String {
        match self.kind {
            Kind::Eol => "end of line".to_owned(),
            Kind::Eos => "end of file".to_owned(),
            Kind::Str => format!("\"{}\"", self.text),
            _ => format!("'{}'", self.text),
        }
    }
}

/// The tokenizer: a cursor over the source.
#[derive(Clone, Debug)]
pub(crate) struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    line: u32,
    col: u32,
}

fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\0' | '\x0c')
}

fn is_delimiter(c: char) -> bool {
    is_space(c) || matches!(c, '\n' | ',' | '(' | ')')
}

impl<'a> Lexer<'a> {
    /// A tokenizer at the start of `src`.
    pub(crate) fn new(src: &'a str) -> Self {
        Self {
            src,
            pos: 0,
            line: 1,
            col: 1,
        }
    }

    fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }

    fn peek_char(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// Advances over `n` bytes of the current line (no newline among them).
    fn advance(&mut self, n: usize) {
        let taken = &self.src[self.pos..self.pos + n];
        self.col += taken.chars().count() as u32;
        self.pos += n;
    }

    fn newline(&mut self) {
        self.pos += 1;
        self.line += 1;
        self.col = 1;
    }

    fn skip_spaces(&mut self) {
        let n = self
            .rest()
            .char_indices()
            .find(|&(_, c)| !is_space(c))
            .map_or(self.rest().len(), |(i, _)| i);
        self.advance(n);
    }

    fn skip_comment(&mut self) {
        let n = self.rest().find('\n').unwrap_or(self.rest().len());
        self.advance(n);
    }

    /// The next token.
    pub(crate) fn next_token(&mut self) -> Token {
        loop {
            self.skip_spaces();
            if self.peek_char() == Some('#') {
                self.skip_comment();
            }
            let (line, col) = (self.line, self.col);
            let token = |kind, text: String| Token {
                kind,
                text,
                line,
                col,
            };
            let Some(c) = self.peek_char() else {
                return token(Kind::Eos, String::new());
            };
            match c {
                '\n' => {
                    self.newline();
                    return token(Kind::Eol, String::new());
                }
                '"' => return token(Kind::Str, self.string()),
                ',' | '(' | ')' => {
                    self.advance(1);
                    return token(Kind::Word, c.to_string());
                }
                _ => {}
            }
            let end = self
                .rest()
                .char_indices()
                .find(|&(_, c)| is_delimiter(c))
                .map_or(self.rest().len(), |(i, _)| i);
            let word = &self.rest()[..end];
            if word == "\\" && self.rest()[end..].starts_with('\n') {
                // A line continuation: the newline is not a token.
                self.advance(end);
                self.newline();
                continue;
            }
            if let Some(value) = named_float(word) {
                self.advance(end);
                return token(Kind::Num(Num::Float(value)), word.to_owned());
            }
            if let Some((len, num)) = number_prefix(word) {
                let text = word[..len].to_owned();
                self.advance(len);
                return token(Kind::Num(num), text);
            }
            self.advance(end);
            return token(Kind::Word, word.to_owned());
        }
    }

    /// Reads a quoted string starting at the opening quote (an unterminated
    /// string runs to the end of the line).
    fn string(&mut self) -> String {
        self.advance(1);
        let mut out = String::new();
        let mut escape = false;
        while let Some(c) = self.peek_char() {
            if c == '\n' {
                break;
            }
            self.advance(c.len_utf8());
            if escape {
                out.push(match c {
                    'a' => '\x07',
                    'b' => '\x08',
                    't' => '\t',
                    'n' => '\n',
                    'v' => '\x0b',
                    'f' => '\x0c',
                    'r' => '\r',
                    other => other,
                });
                escape = false;
            } else if c == '\\' {
                escape = true;
            } else if c == '"' {
                break;
            } else {
                out.push(c);
            }
        }
        out
    }

    /// The next token, without consuming it.
    pub(crate) fn peek_token(&self) -> Token {
        self.clone().next_token()
    }

    /// Reads raw lines (shader source, virtual files) from the start of the
    /// current line up to a line whose first word is `END`, and leaves the
    /// cursor just after that `END` (so the rest of its line is tokenized
    /// as usual). Returns the text and its first line number, or `None`
    /// (cursor unchanged) when no such line follows.
    pub(crate) fn raw_block(&mut self) -> Option<(String, u32)> {
        let first_line = self.line;
        let mut offset = 0;
        let rest = self.rest();
        for raw_line in rest.split_inclusive('\n') {
            let trimmed = raw_line.trim_start_matches(is_space);
            if let Some(after) = trimmed.strip_prefix("END") {
                if after
                    .chars()
                    .next()
                    .is_none_or(|c| is_delimiter(c) || c == '#')
                {
                    let text = rest[..offset].to_owned();
                    let end_at = offset + (raw_line.len() - trimmed.len()) + 3;
                    for c in rest[..offset].chars() {
                        if c == '\n' {
                            self.line += 1;
                        }
                    }
                    self.col = 1;
                    self.pos += offset;
                    self.advance(end_at - offset);
                    return Some((text, first_line));
                }
            }
            offset += raw_line.len();
        }
        None
    }
}

/// `nan`, `inf` and their signed forms, any case.
fn named_float(word: &str) -> Option<f64> {
    let (sign, body) = match word.as_bytes().first() {
        Some(b'-') => (-1.0, &word[1..]),
        Some(b'+') => (1.0, &word[1..]),
        _ => (1.0, word),
    };
    if body.eq_ignore_ascii_case("nan") {
        Some(if sign < 0.0 { -f64::NAN } else { f64::NAN })
    } else if body.eq_ignore_ascii_case("inf") || body.eq_ignore_ascii_case("infinity") {
        Some(sign * f64::INFINITY)
    } else {
        None
    }
}

/// The longest numeric prefix of `word` and its value, when `word` starts
/// like a number.
fn number_prefix(word: &str) -> Option<(usize, Num)> {
    let b = word.as_bytes();
    let digit_at = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    let mut i = 0;
    if matches!(b.first(), Some(b'-' | b'+')) {
        i = 1;
    }
    let starts = digit_at(i) || (b.get(i) == Some(&b'.') && digit_at(i + 1));
    if !starts {
        return None;
    }
    if i == 0 && b.len() > 2 && b[0] == b'0' && (b[1] == b'x' || b[1] == b'X') {
        let digits = b[2..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
        if digits > 0 {
            let len = 2 + digits;
            if let Ok(v) = u64::from_str_radix(&word[2..len], 16) {
                return Some((len, Num::Hex(v)));
            }
            return None;
        }
    }
    let int_start = i;
    while digit_at(i) {
        i += 1;
    }
    let mut float = false;
    if b.get(i) == Some(&b'.') {
        float = true;
        i += 1;
        while digit_at(i) {
            i += 1;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(b.get(j), Some(b'-' | b'+')) {
            j += 1;
        }
        if digit_at(j) {
            while digit_at(j) {
                j += 1;
            }
            float = true;
            i = j;
        }
    }
    let text = &word[..i];
    if float {
        text.parse::<f64>().ok().map(|v| (i, Num::Float(v)))
    } else {
        debug_assert!(i > int_start);
        text.parse::<i128>().ok().map(|v| (i, Num::Int(v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(src: &str) -> Vec<(Kind, String, u32, u32)> {
        let mut lx = Lexer::new(src);
        let mut out = Vec::new();
        loop {
            let t = lx.next_token();
            let done = t.kind == Kind::Eos;
            out.push((t.kind, t.text, t.line, t.col));
            if done {
                return out;
            }
        }
    }

    #[test]
    fn words_numbers_and_positions() {
        let t = tokens("EXPECT buf IDX 4 TOLERANCE 0.5% EQ -1 0x1f 2.5e1 # c\n  nan -inf\n");
        let kinds: Vec<_> = t
            .iter()
            .map(|(k, s, l, c)| (*k, s.as_str(), *l, *c))
            .collect();
        assert_eq!(
            kinds[..12],
            [
                (Kind::Word, "EXPECT", 1, 1),
                (Kind::Word, "buf", 1, 8),
                (Kind::Word, "IDX", 1, 12),
                (Kind::Num(Num::Int(4)), "4", 1, 16),
                (Kind::Word, "TOLERANCE", 1, 18),
                (Kind::Num(Num::Float(0.5)), "0.5", 1, 28),
                (Kind::Word, "%", 1, 31),
                (Kind::Word, "EQ", 1, 33),
                (Kind::Num(Num::Int(-1)), "-1", 1, 36),
                (Kind::Num(Num::Hex(0x1f)), "0x1f", 1, 39),
                (Kind::Num(Num::Float(25.0)), "2.5e1", 1, 44),
                (Kind::Eol, "", 1, 53),
            ]
        );
        assert!(matches!(t[12].0, Kind::Num(Num::Float(v)) if v.is_nan()));
        assert_eq!((t[12].2, t[12].3), (2, 3));
        assert_eq!(
            kinds[13],
            (Kind::Num(Num::Float(f64::NEG_INFINITY)), "-inf", 2, 7)
        );
        assert_eq!(kinds[14..], [(Kind::Eol, "", 2, 11), (Kind::Eos, "", 3, 1)]);
    }

    #[test]
    fn continuation_strings_and_raw_blocks() {
        let t = tokens("A \\\n B \"x\\ty\"");
        assert_eq!(t[0].1, "A");
        assert_eq!((t[1].1.as_str(), t[1].2), ("B", 2));
        assert_eq!((t[2].0, t[2].1.as_str()), (Kind::Str, "x\ty"));

        let src = "SHADER x\n  a END b\n  END  # done\nNEXT";
        let mut lx = Lexer::new(src);
        for _ in 0..3 {
            lx.next_token();
        }
        let (text, line) = lx.raw_block().expect("block");
        assert_eq!((text.as_str(), line), ("  a END b\n", 2));
        let after = lx.next_token();
        assert_eq!((after.kind, after.line), (Kind::Eol, 3));
        let next = lx.next_token();
        assert_eq!((next.text.as_str(), next.line, next.col), ("NEXT", 4, 1));
        assert!(Lexer::new("no end here\n").raw_block().is_none());
    }
}
