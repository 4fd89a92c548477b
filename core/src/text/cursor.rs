//! The token cursor of the recursive-descent parsers over MLIR's syntax
//! (the kernel IR's and the tensor IR's): one token of lookahead, the
//! punctuation/keyword/literal helpers, MLIR's placement of "expected ..."
//! errors, and the nesting guard that refuses pathological inputs before
//! the stack overflows.
//!
//! A parser holds a [`Cursor`] and implements [`TokenParser`] (three
//! items: its error type and the two accessors); every helper is a provided
//! method, so the parsers share one copy of them and keep their own error
//! types.

use crate::ir::Location;
use crate::text::lexer::{missing_token_pos, Lexer, TokKind, Token};
use crate::text::ParseError;

/// How deeply regions, types and attributes may nest.
pub(crate) const MAX_DEPTH: usize = 200;

/// The lexer, its lookahead and the nesting depth.
pub(crate) struct Cursor<'a> {
    lx: Lexer<'a>,
    tok: Token<'a>,
    /// End of the last consumed token (where "expected ..." errors point
    /// when the lookahead starts a new line, as MLIR reports them).
    prev_end: usize,
    depth: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the first token of `src`.
    pub(crate) fn new(src: &'a str) -> Result<Self, ParseError> {
        let mut lx = Lexer::new(src);
        let tok = lx.next_token()?;
        Ok(Cursor {
            lx,
            tok,
            prev_end: 0,
            depth: 0,
        })
    }
}

/// A parser's error type: made from a location and a message, and from the
/// lexer's errors. (The kernel and tensor parsers' errors implement it where
/// they are defined: text depends on neither.)
pub(crate) trait SyntaxError: From<ParseError> {
    /// An error at `loc`.
    fn at(loc: Location, message: String) -> Self;
}

/// The token-level helpers of a parser holding a [`Cursor`].
pub(crate) trait TokenParser<'a>: Sized {
    /// The parser's error type.
    type Error: SyntaxError;

    /// The parser's cursor.
    fn cursor(&self) -> &Cursor<'a>;

    /// The parser's cursor, to move it.
    fn cursor_mut(&mut self) -> &mut Cursor<'a>;

    /// The lookahead's kind.
    fn peek(&self) -> &TokKind<'a> {
        &self.cursor().tok.kind
    }

    /// The location of the lookahead.
    fn loc(&self) -> Location {
        let c = self.cursor();
        c.lx.location(c.tok.start)
    }

    /// The location of byte offset `pos`.
    fn loc_at(&self, pos: usize) -> Location {
        self.cursor().lx.location(pos)
    }

    /// Byte offset of the lookahead.
    fn pos(&self) -> usize {
        self.cursor().tok.start
    }

    /// The byte offset just past the lookahead.
    fn tok_end(&self) -> usize {
        self.cursor().tok.end
    }

    /// The byte offset just past the last consumed token.
    fn prev_end(&self) -> usize {
        self.cursor().prev_end
    }

    /// The whole source text.
    fn src(&self) -> &'a str {
        self.cursor().lx.src()
    }

    /// Whether the lookahead is the first token of a later line than the
    /// last consumed token.
    fn starts_next_line(&self) -> bool {
        let c = self.cursor();
        c.prev_end > 0
            && self
                .src()
                .get(c.prev_end..c.tok.start)
                .is_some_and(|gap| gap.contains('\n'))
    }

    /// Returns the lookahead and lexes the next token.
    fn bump(&mut self) -> Result<Token<'a>, Self::Error> {
        let c = self.cursor_mut();
        let next = c.lx.next_token()?;
        c.prev_end = c.tok.end;
        Ok(std::mem::replace(&mut c.tok, next))
    }

    /// Moves the cursor to byte offset `pos` and re-lexes the lookahead.
    fn reset_to(&mut self, pos: usize) -> Result<(), Self::Error> {
        let c = self.cursor_mut();
        c.lx.reset(pos);
        c.prev_end = pos;
        c.tok = c.lx.next_token()?;
        Ok(())
    }

    /// An error at the lookahead.
    fn err<T>(&self, message: impl Into<String>) -> Result<T, Self::Error> {
        Err(Self::Error::at(self.loc(), message.into()))
    }

    /// An error at `loc`.
    fn err_at<T>(&self, loc: Location, message: impl Into<String>) -> Result<T, Self::Error> {
        Err(Self::Error::at(loc, message.into()))
    }

    /// "expected `what`": at the lookahead, or, when the lookahead starts a
    /// later line, just after the previous token (where the missing text
    /// belongs), as MLIR reports it.
    fn expected<T>(&self, what: &str) -> Result<T, Self::Error> {
        let c = self.cursor();
        let message = format!("expected {what}, found {}", c.tok.kind.describe());
        let pos = missing_token_pos(self.src(), c.prev_end, c.tok.start);
        self.err_at(self.loc_at(pos), message)
    }

    /// Whether the lookahead is punctuation `p`.
    fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(), TokKind::Punct(q) if *q == p)
    }

    /// Consumes punctuation `p` if it is the lookahead.
    fn eat_punct(&mut self, p: &str) -> Result<bool, Self::Error> {
        if self.is_punct(p) {
            self.bump()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// Consumes punctuation `p` or fails.
    fn expect_punct(&mut self, p: &str) -> Result<(), Self::Error> {
        if self.eat_punct(p)? {
            Ok(())
        } else {
            self.expected(&format!("'{p}'"))
        }
    }

    /// Whether the lookahead is the bare identifier `s`.
    fn is_ident(&self, s: &str) -> bool {
        matches!(self.peek(), TokKind::Ident(t) if *t == s)
    }

    /// Consumes identifier `s` if it is the lookahead.
    fn eat_ident(&mut self, s: &str) -> Result<bool, Self::Error> {
        if self.is_ident(s) {
            self.bump()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// Consumes identifier `s` or fails.
    fn expect_ident(&mut self, s: &str) -> Result<(), Self::Error> {
        if self.eat_ident(s)? {
            Ok(())
        } else {
            self.expected(&format!("'{s}'"))
        }
    }

    /// Any bare identifier.
    fn ident(&mut self, what: &str) -> Result<&'a str, Self::Error> {
        match *self.peek() {
            TokKind::Ident(s) => {
                self.bump()?;
                Ok(s)
            }
            _ => self.expected(what),
        }
    }

    /// `@name`.
    fn symbol(&mut self) -> Result<String, Self::Error> {
        match self.peek() {
            TokKind::Symbol(s) => {
                let s = s.to_string();
                self.bump()?;
                Ok(s)
            }
            _ => self.expected("a symbol name '@...'"),
        }
    }

    /// An unsigned integer literal.
    fn uint(&mut self, what: &str) -> Result<u64, Self::Error> {
        match *self.peek() {
            TokKind::Int(s) => match parse_uint(s).and_then(|v| u64::try_from(v).ok()) {
                Some(v) => {
                    self.bump()?;
                    Ok(v)
                }
                None => self.err(format!("integer '{s}' is out of range")),
            },
            _ => self.expected(what),
        }
    }

    /// A signed integer literal (an optional `-`, then digits); a value
    /// out of range is an error at the digits.
    fn int(&mut self, what: &str) -> Result<i64, Self::Error> {
        let neg = self.eat_punct("-")?;
        let loc = self.loc();
        let v = self.uint(what)?;
        let v = if neg {
            (v <= i64::MAX as u64 + 1).then(|| (v as i128).wrapping_neg() as i64)
        } else {
            i64::try_from(v).ok()
        };
        match v {
            Some(v) => Ok(v),
            None => self.err_at(loc, "integer is out of range"),
        }
    }

    /// One level deeper; fails past [`MAX_DEPTH`].
    fn enter(&mut self) -> Result<(), Self::Error> {
        let c = self.cursor_mut();
        c.depth += 1;
        if c.depth > MAX_DEPTH {
            return self.err("nesting is too deep");
        }
        Ok(())
    }

    /// One level back up.
    fn leave(&mut self) {
        let c = self.cursor_mut();
        c.depth = c.depth.saturating_sub(1);
    }

    /// A comma-separated list closed by `close` (the opener consumed).
    fn comma_list(
        &mut self,
        close: &str,
        mut item: impl FnMut(&mut Self) -> Result<(), Self::Error>,
    ) -> Result<(), Self::Error> {
        if self.eat_punct(close)? {
            return Ok(());
        }
        loop {
            item(self)?;
            if self.eat_punct(close)? {
                return Ok(());
            }
            self.expect_punct(",")?;
        }
    }
}

/// Parses a decimal or `0x` hexadecimal unsigned literal (`None` when it
/// does not fit 128 bits).
pub(crate) fn parse_uint(s: &str) -> Option<u128> {
    match s.strip_prefix("0x") {
        Some(hex) => u128::from_str_radix(hex, 16).ok(),
        None => s.parse().ok(),
    }
}
