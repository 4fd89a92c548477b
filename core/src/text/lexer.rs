//! The tokenizer of the MLIR text form.
//!
//! Tokens are produced on demand from a byte cursor, so the parser can peek
//! one token ahead, rewind to an earlier position (`4xf32` is lexed as `4`
//! and `xf32`, then re-lexed from `f32`), and scan raw text where MLIR does
//! (dialect attribute bodies such as `#spirv.target_env<...>`, ops of other
//! dialects that are skipped). Comments (`// ...` to the end of the line) and
//! whitespace separate tokens and are otherwise ignored.

use std::borrow::Cow;

use crate::ir::Location;

use super::ParseError;

/// What a token is. Identifier-like tokens borrow the source text (without
/// their sigil); strings and quoted symbols are unescaped.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum TokKind<'a> {
    /// End of input.
    Eof,
    /// A bare identifier: `spirv.IAdd`, `i32`, `vector`, `Logical`, `x`.
    Ident(&'a str),
    /// `%name` (without `%`; may carry a `#N` result suffix).
    Value(&'a str),
    /// `^name` (without `^`).
    Block(&'a str),
    /// `@name` or `@"quoted name"` (without `@`, unescaped).
    Symbol(Cow<'a, str>),
    /// `#name` (without `#`): dialect attributes and attribute aliases.
    Hash(&'a str),
    /// `!name` (without `!`): dialect types and type aliases.
    Bang(&'a str),
    /// An integer literal without sign: decimal or `0x` hexadecimal.
    Int(&'a str),
    /// A float literal without sign: `1.5`, `1.500000e+00`.
    Float(&'a str),
    /// A string literal, unescaped.
    Str(Cow<'a, str>),
    /// Punctuation: `( ) [ ] { } < > , : :: = -> - ? * + | ...`.
    Punct(&'static str),
}

impl TokKind<'_> {
    /// How the token reads in an error message.
    pub(crate) fn describe(&self) -> String {
        match self {
            TokKind::Eof => "end of input".to_string(),
            TokKind::Ident(s) => format!("'{s}'"),
            TokKind::Value(s) => format!("'%{s}'"),
            TokKind::Block(s) => format!("'^{s}'"),
            TokKind::Symbol(s) => format!("'@{s}'"),
            TokKind::Hash(s) => format!("'#{s}'"),
            TokKind::Bang(s) => format!("'!{s}'"),
            TokKind::Int(s) | TokKind::Float(s) => format!("'{s}'"),
            TokKind::Str(s) => format!("{s:?}"),
            TokKind::Punct(p) => format!("'{p}'"),
        }
    }
}

/// A token with its position.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Token<'a> {
    /// What it is.
    pub kind: TokKind<'a>,
    /// Byte offset of its first character.
    pub start: usize,
    /// Byte offset just past it.
    pub end: usize,
}

/// The on-demand tokenizer.
#[derive(Clone, Debug)]
pub(crate) struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    /// Byte offsets at which lines start.
    line_starts: Vec<usize>,
}

/// Where an "expected X" error points, given the end of the previous token
/// and the start of the lookahead: at the lookahead, or, when the lookahead
/// starts a later line, just after the previous token (where the missing
/// text belongs), as MLIR reports it.
pub(crate) fn missing_token_pos(src: &str, prev_end: usize, next_start: usize) -> usize {
    let gap = src.get(prev_end..next_start).unwrap_or("");
    if prev_end > 0 && gap.contains('\n') {
        prev_end
    } else {
        next_start
    }
}

fn is_id_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_id_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'.'
}

fn is_suffix_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.' | b'-')
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `src`.
    pub(crate) fn new(src: &'a str) -> Self {
        let mut line_starts = vec![0];
        for (i, b) in src.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i + 1);
            }
        }
        Lexer {
            src,
            pos: 0,
            line_starts,
        }
    }

    /// The whole source text.
    pub(crate) fn src(&self) -> &'a str {
        self.src
    }

    /// The current byte offset.
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// Moves the cursor to byte offset `pos` (clamped to the input).
    pub(crate) fn reset(&mut self, pos: usize) {
        self.pos = pos.min(self.src.len());
    }

    /// The 1-based line and column (in bytes) of byte offset `pos`.
    pub(crate) fn location(&self, pos: usize) -> Location {
        let line = match self.line_starts.binary_search(&pos) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = self.line_starts.get(line).copied().unwrap_or(0);
        Location::new(line as u32 + 1, (pos.saturating_sub(start) + 1) as u32)
    }

    fn err(&self, pos: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            loc: self.location(pos),
            message: message.into(),
        }
    }

    fn byte(&self, i: usize) -> Option<u8> {
        self.src.as_bytes().get(i).copied()
    }

    /// Skips whitespace and comments.
    pub(crate) fn skip_trivia(&mut self) {
        loop {
            match self.byte(self.pos) {
                Some(b) if b.is_ascii_whitespace() => self.pos += 1,
                Some(b'/') if self.byte(self.pos + 1) == Some(b'/') => {
                    while let Some(b) = self.byte(self.pos) {
                        if b == b'\n' {
                            break;
                        }
                        self.pos += 1;
                    }
                }
                _ => return,
            }
        }
    }

    /// Lexes the next token and advances past it.
    pub(crate) fn next_token(&mut self) -> Result<Token<'a>, ParseError> {
        self.skip_trivia();
        let start = self.pos;
        let Some(b) = self.byte(start) else {
            return Ok(Token {
                kind: TokKind::Eof,
                start,
                end: start,
            });
        };
        let kind = match b {
            b'(' | b')' | b'[' | b']' | b'{' | b'}' | b'<' | b'>' | b',' | b'=' | b'?' | b'*'
            | b'+' | b'|' => {
                self.pos += 1;
                TokKind::Punct(match b {
                    b'(' => "(",
                    b')' => ")",
                    b'[' => "[",
                    b']' => "]",
                    b'{' => "{",
                    b'}' => "}",
                    b'<' => "<",
                    b'>' => ">",
                    b',' => ",",
                    b'=' => "=",
                    b'?' => "?",
                    b'*' => "*",
                    b'+' => "+",
                    _ => "|",
                })
            }
            b':' => {
                if self.byte(start + 1) == Some(b':') {
                    self.pos += 2;
                    TokKind::Punct("::")
                } else {
                    self.pos += 1;
                    TokKind::Punct(":")
                }
            }
            b'-' => {
                if self.byte(start + 1) == Some(b'>') {
                    self.pos += 2;
                    TokKind::Punct("->")
                } else {
                    self.pos += 1;
                    TokKind::Punct("-")
                }
            }
            b'.' => {
                if self.src[start..].starts_with("...") {
                    self.pos += 3;
                    TokKind::Punct("...")
                } else {
                    return Err(self.err(start, "unexpected character '.'"));
                }
            }
            b'"' => TokKind::Str(self.lex_string()?),
            b'%' | b'^' => {
                self.pos += 1;
                let body = self.lex_suffix_id();
                if body.is_empty() {
                    let what = if b == b'%' { "SSA value" } else { "block" };
                    return Err(
                        self.err(start, format!("expected {what} name after '{}'", b as char))
                    );
                }
                if b == b'%' {
                    // `%x#0`: a use of one result of a multi-result op.
                    if self.byte(self.pos) == Some(b'#')
                        && self.byte(self.pos + 1).is_some_and(|c| c.is_ascii_digit())
                    {
                        self.pos += 1;
                        while self.byte(self.pos).is_some_and(|c| c.is_ascii_digit()) {
                            self.pos += 1;
                        }
                    }
                    TokKind::Value(&self.src[start + 1..self.pos])
                } else {
                    TokKind::Block(body)
                }
            }
            b'@' => {
                self.pos += 1;
                if self.byte(self.pos) == Some(b'"') {
                    TokKind::Symbol(self.lex_string()?)
                } else {
                    let body = self.lex_suffix_id();
                    if body.is_empty() {
                        return Err(self.err(start, "expected symbol name after '@'"));
                    }
                    TokKind::Symbol(Cow::Borrowed(body))
                }
            }
            b'#' | b'!' => {
                self.pos += 1;
                let body = self.lex_suffix_id();
                if body.is_empty() {
                    return Err(
                        self.err(start, format!("expected identifier after '{}'", b as char))
                    );
                }
                if b == b'#' {
                    TokKind::Hash(body)
                } else {
                    TokKind::Bang(body)
                }
            }
            b'0'..=b'9' => self.lex_number(),
            b if is_id_start(b) => {
                while self.byte(self.pos).is_some_and(is_id_char) {
                    self.pos += 1;
                }
                TokKind::Ident(&self.src[start..self.pos])
            }
            _ => {
                let c = self.src[start..].chars().next().unwrap_or('?');
                return Err(self.err(start, format!("unexpected character '{c}'")));
            }
        };
        Ok(Token {
            kind,
            start,
            end: self.pos,
        })
    }

    fn lex_suffix_id(&mut self) -> &'a str {
        let start = self.pos;
        while self.byte(self.pos).is_some_and(is_suffix_char) {
            self.pos += 1;
        }
        &self.src[start..self.pos]
    }

    fn lex_number(&mut self) -> TokKind<'a> {
        let start = self.pos;
        if self.byte(start) == Some(b'0')
            && self.byte(start + 1) == Some(b'x')
            && self.byte(start + 2).is_some_and(|c| c.is_ascii_hexdigit())
        {
            self.pos += 2;
            while self.byte(self.pos).is_some_and(|c| c.is_ascii_hexdigit()) {
                self.pos += 1;
            }
            return TokKind::Int(&self.src[start..self.pos]);
        }
        while self.byte(self.pos).is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        if self.byte(self.pos) != Some(b'.') {
            return TokKind::Int(&self.src[start..self.pos]);
        }
        self.pos += 1;
        while self.byte(self.pos).is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        if matches!(self.byte(self.pos), Some(b'e' | b'E')) {
            let mut p = self.pos + 1;
            if matches!(self.byte(p), Some(b'+' | b'-')) {
                p += 1;
            }
            if self.byte(p).is_some_and(|c| c.is_ascii_digit()) {
                while self.byte(p).is_some_and(|c| c.is_ascii_digit()) {
                    p += 1;
                }
                self.pos = p;
            }
        }
        TokKind::Float(&self.src[start..self.pos])
    }

    /// Lexes a string literal starting at the cursor (which is on `"`).
    fn lex_string(&mut self) -> Result<Cow<'a, str>, ParseError> {
        let start = self.pos;
        self.pos += 1;
        // Fast path: no escapes.
        let bytes = self.src.as_bytes();
        let mut end = self.pos;
        while end < bytes.len() && !matches!(bytes[end], b'"' | b'\\' | b'\n') {
            end += 1;
        }
        if bytes.get(end) == Some(&b'"') {
            self.pos = end + 1;
            return Ok(Cow::Borrowed(&self.src[start + 1..end]));
        }
        let mut bytes = Vec::new();
        loop {
            let Some(b) = self.byte(self.pos) else {
                return Err(self.err(start, "expected '\"' in string literal"));
            };
            match b {
                b'"' => {
                    self.pos += 1;
                    break;
                }
                b'\n' => return Err(self.err(start, "expected '\"' in string literal")),
                b'\\' => {
                    let Some(e) = self.byte(self.pos + 1) else {
                        return Err(self.err(start, "expected '\"' in string literal"));
                    };
                    self.pos += 2;
                    match e {
                        b'"' | b'\\' => bytes.push(e),
                        b'n' => bytes.push(b'\n'),
                        b't' => bytes.push(b'\t'),
                        h1 if h1.is_ascii_hexdigit() => {
                            let Some(h2) = self.byte(self.pos).filter(u8::is_ascii_hexdigit) else {
                                return Err(
                                    self.err(self.pos - 2, "unknown escape in string literal")
                                );
                            };
                            self.pos += 1;
                            let hex = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
                            bytes.push(hex(h1) * 16 + hex(h2));
                        }
                        _ => return Err(self.err(self.pos - 2, "unknown escape in string literal")),
                    }
                }
                _ => {
                    bytes.push(b);
                    self.pos += 1;
                }
            }
        }
        String::from_utf8(bytes)
            .map(Cow::Owned)
            .map_err(|_| self.err(start, "string literal is not valid UTF-8"))
    }

    /// With the cursor right after an opening `<`, returns the text up to the
    /// matching `>` and moves past it. Nested `<>`, `()`, `[]`, `{}` and
    /// strings are skipped; `->` does not close.
    pub(crate) fn scan_angle_body(&mut self, open: usize) -> Result<&'a str, ParseError> {
        let start = self.pos;
        let mut stack: Vec<u8> = vec![b'>'];
        while let Some(b) = self.byte(self.pos) {
            match b {
                b'"' => {
                    self.lex_string()?;
                    continue;
                }
                b'-' if self.byte(self.pos + 1) == Some(b'>') => {
                    self.pos += 2;
                    continue;
                }
                b'<' => stack.push(b'>'),
                b'(' => stack.push(b')'),
                b'[' => stack.push(b']'),
                b'{' => stack.push(b'}'),
                b'>' | b')' | b']' | b'}' => {
                    if stack.last() != Some(&b) {
                        return Err(self.err(
                            self.pos,
                            format!("unbalanced '{}' in dialect attribute body", b as char),
                        ));
                    }
                    stack.pop();
                    if stack.is_empty() {
                        let body = &self.src[start..self.pos];
                        self.pos += 1;
                        return Ok(body);
                    }
                }
                _ => {}
            }
            self.pos += 1;
        }
        Err(self.err(open, "unterminated '<': expected '>' before end of input"))
    }

    /// Skips the text of an op written in another dialect's custom syntax:
    /// everything up to a newline outside brackets, or up to a `}` that
    /// closes an enclosing region (which is not consumed).
    pub(crate) fn skip_foreign_op(&mut self, op_start: usize) -> Result<(), ParseError> {
        let mut stack: Vec<u8> = Vec::new();
        while let Some(b) = self.byte(self.pos) {
            match b {
                b'"' => {
                    self.lex_string()?;
                    continue;
                }
                b'/' if self.byte(self.pos + 1) == Some(b'/') => {
                    while self.byte(self.pos).is_some_and(|c| c != b'\n') {
                        self.pos += 1;
                    }
                    continue;
                }
                b'\n' if stack.is_empty() => return Ok(()),
                b'-' if self.byte(self.pos + 1) == Some(b'>') => {
                    self.pos += 2;
                    continue;
                }
                b'<' => stack.push(b'>'),
                b'(' => stack.push(b')'),
                b'[' => stack.push(b']'),
                b'{' => stack.push(b'}'),
                // Stray closers (`a > b` in another dialect) are tolerated.
                b'>' | b')' | b']' if stack.last() == Some(&b) => {
                    stack.pop();
                }
                b'}' => {
                    // Unwind any unclosed `<`/`(`/`[` opened inside the braces.
                    while let Some(&top) = stack.last() {
                        if top == b'}' {
                            break;
                        }
                        stack.pop();
                    }
                    if stack.is_empty() {
                        return Ok(());
                    }
                    stack.pop();
                }
                _ => {}
            }
            self.pos += 1;
        }
        if stack.contains(&b'}') {
            return Err(self.err(
                op_start,
                "unterminated region: expected '}' before end of input",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<TokKind<'_>> {
        let mut lx = Lexer::new(src);
        let mut out = Vec::new();
        loop {
            let t = lx.next_token().unwrap();
            if t.kind == TokKind::Eof {
                return out;
            }
            out.push(t.kind);
        }
    }

    #[test]
    fn lexes_mlir_tokens() {
        let k = kinds("%0 = spirv.IAdd %arg0, %x#1 : i32 // c\n^bb1 @f @\"q s\" -> :: 0x7FC00000 1.5e+00 4xf32");
        assert_eq!(k[0], TokKind::Value("0"));
        assert_eq!(k[2], TokKind::Ident("spirv.IAdd"));
        assert_eq!(k[5], TokKind::Value("x#1"));
        assert_eq!(k[8], TokKind::Block("bb1"));
        assert_eq!(k[9], TokKind::Symbol("f".into()));
        assert_eq!(k[10], TokKind::Symbol("q s".into()));
        assert_eq!(k[11], TokKind::Punct("->"));
        assert_eq!(k[12], TokKind::Punct("::"));
        assert_eq!(k[13], TokKind::Int("0x7FC00000"));
        assert_eq!(k[14], TokKind::Float("1.5e+00"));
        assert_eq!(k[15], TokKind::Int("4"));
        assert_eq!(k[16], TokKind::Ident("xf32"));
    }

    #[test]
    fn strings_unescape() {
        assert_eq!(
            kinds(r#""a\"b\n\0A""#),
            vec![TokKind::Str("a\"b\n\n".into())]
        );
        assert!(Lexer::new("\"abc").next_token().is_err());
    }

    #[test]
    fn angle_body_scan() {
        let src = "<v1.0, [A], #x<(d0) -> (d0)>, \">\"> rest";
        let mut lx = Lexer::new(src);
        lx.reset(1);
        assert_eq!(
            lx.scan_angle_body(0).unwrap(),
            "v1.0, [A], #x<(d0) -> (d0)>, \">\""
        );
    }

    #[test]
    fn locations_are_one_based() {
        let lx = Lexer::new("ab\ncd");
        assert_eq!(lx.location(0), Location::new(1, 1));
        assert_eq!(lx.location(4), Location::new(2, 2));
    }
}
