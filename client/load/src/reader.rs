//! `Reader`: a strict JSON (RFC 8259) reader over one frame's text, for the load generator.
//!
//! Server frames are mostly short strings, small integers and small objects. serde_json
//! spends more per string on setting up its general string scanner, and per field on
//! visitor calls, than these need; this reader walks the bytes with plain loops and builds
//! [`Node`]s directly. What it accepts, and the values it gives, are serde_json's: rarer
//! forms (escapes, fractions, exponents, integers past 18 digits, `-0`) are handed to
//! serde_json itself, which keeps the two in agreement without copying its rules.

use std::borrow::Cow;
use std::fmt;

use serde_json::Number;

use super::node::{drop_repeated_keys, Node, Str};

/// Deepest nesting of arrays and objects accepted, as in serde_json.
const MAX_DEPTH: u32 = 127;

/// Why a text is not valid JSON (or not of the expected shape).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// Byte offset where reading stopped.
    pub at: usize,
    /// What was wrong there.
    pub what: &'static str,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.what, self.at)
    }
}

impl std::error::Error for DecodeError {}

/// The offset of the first byte from `from` on that ends the plain run of a string: a quote,
/// a backslash or a control character (`bytes.len()` if there is none; `from` if it is past
/// the end).
///
/// Eight bytes are tested at a time with the usual bit tricks: for a word `x`,
/// `(x - 0x0101..01 * n) & !x & 0x8080..80` has the high bit of the lowest byte below `n`
/// set (for `n <= 0x80`), and no lower bit; a byte equal to `c` is a zero byte of
/// `x ^ (0x0101..01 * c)`. The lowest set bit of the three masks is the byte sought.
#[inline]
fn plain_run_end(bytes: &[u8], from: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x & HIGHS;
    let mut at = from;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let x = u64::from_le_bytes(
            chunk
                .try_into()
                .expect("`get(at..at + 8)` gives eight bytes"),
        );
        let hits = below(x ^ (ONES * u64::from(b'"')), 1)
            | below(x ^ (ONES * u64::from(b'\\')), 1)
            | below(x, 0x20);
        if hits != 0 {
            return at + (hits.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    let Some(tail) = bytes.get(at..) else {
        return from;
    };
    at + tail
        .iter()
        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
        .unwrap_or(tail.len())
}

/// A position in one JSON text.
pub struct Reader<'a> {
    text: &'a str,
    pos: usize,
    depth: u32,
}

/// The shape of a number literal.
struct Literal<'a> {
    text: &'a str,
    negative: bool,
    /// No fraction and no exponent.
    integer: bool,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `text`.
    pub fn new(text: &'a str) -> Reader<'a> {
        Reader {
            text,
            pos: 0,
            depth: 0,
        }
    }

    /// An error at the current position.
    pub fn fail<T>(&self, what: &'static str) -> Result<T, DecodeError> {
        Err(DecodeError { at: self.pos, what })
    }

    #[inline]
    fn byte_at(&self, at: usize) -> Option<u8> {
        self.text.as_bytes().get(at).copied()
    }

    /// The next byte that is not whitespace, without taking it.
    #[inline]
    pub fn peek(&mut self) -> Option<u8> {
        while let Some(b) = self.byte_at(self.pos) {
            if !matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
                return Some(b);
            }
            self.pos += 1;
        }
        None
    }

    /// Take `byte` (after whitespace), or fail.
    #[inline]
    pub fn expect(&mut self, byte: u8, what: &'static str) -> Result<(), DecodeError> {
        if self.peek() != Some(byte) {
            return self.fail(what);
        }
        self.pos += 1;
        Ok(())
    }

    /// Take `byte` (after whitespace) if it is next.
    #[inline]
    pub fn take(&mut self, byte: u8) -> bool {
        let next = self.peek() == Some(byte);
        self.pos += usize::from(next);
        next
    }

    /// After a member or item: `true` if another follows (`,`), `false` at `close`.
    #[inline]
    pub fn more(&mut self, close: u8) -> Result<bool, DecodeError> {
        match self.peek() {
            Some(b',') => {
                self.pos += 1;
                Ok(true)
            }
            Some(b) if b == close => {
                self.pos += 1;
                Ok(false)
            }
            _ => self.fail("expected `,` or a closing bracket"),
        }
    }

    /// Open an array or object (`open` is next): `false` if it closes at once.
    pub fn open(&mut self, open: u8, close: u8) -> Result<bool, DecodeError> {
        self.expect(open, "expected an array or object")?;
        self.enter()?;
        Ok(!self.take(close))
    }

    /// Count one more level of nesting (its opening bracket is taken).
    pub fn enter(&mut self) -> Result<(), DecodeError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return self.fail("nested too deep");
        }
        Ok(())
    }

    /// The current offset, to come back to with [`Reader::rewind`].
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// Go back to an earlier offset at the same nesting level.
    pub fn rewind(&mut self, offset: usize) {
        self.pos = offset;
    }

    /// Take `bytes` if the text goes on with exactly them (no whitespace skipped).
    #[inline]
    pub fn take_exact(&mut self, bytes: &[u8]) -> bool {
        let next = self.text.as_bytes()[self.pos..].starts_with(bytes);
        if next {
            self.pos += bytes.len();
        }
        next
    }

    /// The rest of a string whose opening quote was just taken, when it has no escapes;
    /// otherwise `None` and nothing is taken.
    #[inline]
    pub fn plain_string_rest(&mut self) -> Option<&'a str> {
        let end = plain_run_end(self.text.as_bytes(), self.pos);
        if self.byte_at(end) != Some(b'"') {
            return None;
        }
        let s = &self.text[self.pos..end];
        self.pos = end + 1;
        Some(s)
    }

    /// Leave an array or object (its closing bracket is taken).
    pub fn close(&mut self) {
        self.depth -= 1;
    }

    /// Whether nothing but whitespace is left.
    pub fn at_end(&mut self) -> bool {
        self.peek().is_none()
    }

    /// Take `null` if it is next.
    pub fn null(&mut self) -> Result<bool, DecodeError> {
        if self.peek() != Some(b'n') {
            return Ok(false);
        }
        self.word("null")?;
        Ok(true)
    }

    fn word(&mut self, word: &'static str) -> Result<(), DecodeError> {
        if !self.text[self.pos..].starts_with(word) {
            return self.fail("expected a value");
        }
        self.pos += word.len();
        Ok(())
    }

    /// A string, borrowed from the text unless it has escapes.
    pub fn string(&mut self) -> Result<Cow<'a, str>, DecodeError> {
        // Most strings follow their `:` or `,` at once: try that before skipping whitespace.
        if self.byte_at(self.pos) == Some(b'"') {
            self.pos += 1;
        } else {
            self.expect(b'"', "expected a string")?;
        }
        let start = self.pos;
        self.pos = plain_run_end(self.text.as_bytes(), start);
        match self.byte_at(self.pos) {
            Some(b'"') => {
                let s = &self.text[start..self.pos];
                self.pos += 1;
                Ok(Cow::Borrowed(s))
            }
            Some(b'\\') => self.escaped(start),
            Some(_) => self.fail("control character in a string"),
            None => self.fail("unterminated string"),
        }
    }

    /// The end of the string that opened just before `start` (the offset of its closing
    /// quote), stepping over escapes without reading them.
    fn string_end(&self, start: usize) -> Result<usize, DecodeError> {
        let mut at = start;
        loop {
            at = plain_run_end(self.text.as_bytes(), at);
            match self.byte_at(at) {
                Some(b'"') => return Ok(at),
                Some(b'\\') => at += 2,
                Some(_) => {
                    return Err(DecodeError {
                        at,
                        what: "control character in a string",
                    })
                }
                None => {
                    return Err(DecodeError {
                        at,
                        what: "unterminated string",
                    })
                }
            }
        }
    }

    /// A string with escapes (its opening quote was just before `start`): serde_json reads
    /// the escapes, so that every rule about them (surrogate pairs included) is its own.
    fn escaped(&mut self, start: usize) -> Result<Cow<'a, str>, DecodeError> {
        let end = self.string_end(start)?;
        let quoted = &self.text[start - 1..=end];
        match serde_json::from_str::<String>(quoted) {
            Ok(s) => {
                self.pos = end + 1;
                Ok(Cow::Owned(s))
            }
            Err(_) => self.fail("bad escape in a string"),
        }
    }

    /// The text of a number, checked against the JSON grammar.
    fn literal(&mut self) -> Result<Literal<'a>, DecodeError> {
        let start = self.pos;
        let negative = self.byte_at(self.pos) == Some(b'-');
        self.pos += usize::from(negative);
        match self.byte_at(self.pos) {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return self.fail("bad number"),
        }
        let mut integer = true;
        if self.byte_at(self.pos) == Some(b'.') {
            self.pos += 1;
            self.some_digits()?;
            integer = false;
        }
        if matches!(self.byte_at(self.pos), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.byte_at(self.pos), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            self.some_digits()?;
            integer = false;
        }
        Ok(Literal {
            text: &self.text[start..self.pos],
            negative,
            integer,
        })
    }

    fn digits(&mut self) {
        while matches!(self.byte_at(self.pos), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
    }

    fn some_digits(&mut self) -> Result<(), DecodeError> {
        if !matches!(self.byte_at(self.pos), Some(b'0'..=b'9')) {
            return self.fail("bad number");
        }
        self.digits();
        Ok(())
    }

    /// The value of a plain integer literal of at most 18 digits (which cannot overflow).
    fn small(literal: &Literal<'_>) -> Option<u64> {
        let digits = &literal.text.as_bytes()[usize::from(literal.negative)..];
        (literal.integer && digits.len() <= 18).then(|| {
            digits
                .iter()
                .fold(0u64, |n, &d| n * 10 + u64::from(d - b'0'))
        })
    }

    /// A number, as serde_json would hold it.
    pub fn number(&mut self) -> Result<Number, DecodeError> {
        let literal = self.literal()?;
        match Reader::small(&literal) {
            Some(n) if !literal.negative => Ok(Number::from(n)),
            // At most 18 digits: the negation fits an i64. serde_json reads `-0` as a float.
            Some(n) if n != 0 => Ok(Number::from(
                -i64::try_from(n).expect("18 digits or fewer fit an i64"),
            )),
            _ => serde_json::from_str(literal.text).or_else(|_| self.fail("number out of range")),
        }
    }

    /// A non-negative integer that fits a `u64` (what serde reads into a `u64`).
    pub fn unsigned(&mut self) -> Result<u64, DecodeError> {
        let literal = self.literal()?;
        match Reader::small(&literal) {
            Some(n) if !literal.negative => Ok(n),
            _ => serde_json::from_str(literal.text).or_else(|_| self.fail("not a u64")),
        }
    }

    /// The raw text of the next value, checked but not built (its end is found by reading
    /// it in full).
    pub fn raw(&mut self) -> Result<&'a str, DecodeError> {
        self.peek();
        let start = self.pos;
        self.skip()?;
        Ok(&self.text[start..self.pos])
    }

    /// Any value, built.
    pub fn node(&mut self) -> Result<Node, DecodeError> {
        match self.peek() {
            Some(b'"') => Ok(Node::String(match self.string()? {
                Cow::Borrowed(s) => Str::new(s),
                Cow::Owned(s) => Str::from(s),
            })),
            Some(b'{') => {
                let mut members: Vec<(Str, Node)> = Vec::new();
                if self.open(b'{', b'}')? {
                    loop {
                        let key = match self.string()? {
                            Cow::Borrowed(s) => Str::new(s),
                            Cow::Owned(s) => Str::from(s),
                        };
                        self.expect(b':', "expected `:`")?;
                        members.push((key, self.node()?));
                        if !self.more(b'}')? {
                            break;
                        }
                    }
                }
                self.close();
                drop_repeated_keys(&mut members);
                Ok(Node::Object(members))
            }
            Some(b'[') => {
                let mut items = Vec::new();
                if self.open(b'[', b']')? {
                    loop {
                        items.push(self.node()?);
                        if !self.more(b']')? {
                            break;
                        }
                    }
                }
                self.close();
                Ok(Node::Array(items))
            }
            Some(b't') => self.word("true").map(|()| Node::Bool(true)),
            Some(b'f') => self.word("false").map(|()| Node::Bool(false)),
            Some(b'n') => self.word("null").map(|()| Node::Null),
            Some(b'-' | b'0'..=b'9') => self.number().map(Node::Number),
            _ => self.fail("expected a value"),
        }
    }

    /// Any value, checked and passed over. Like serde_json skipping an unknown field, it
    /// checks a number's form but not its range.
    pub fn skip(&mut self) -> Result<(), DecodeError> {
        match self.peek() {
            Some(b'"') => {
                self.pos += 1;
                let start = self.pos;
                let end = self.string_end(start)?;
                if self.text[start..end].contains('\\') {
                    // Escapes are checked by serde_json, as it checks a skipped string.
                    if serde_json::from_str::<serde::de::IgnoredAny>(&self.text[start - 1..=end])
                        .is_err()
                    {
                        return self.fail("bad escape in a string");
                    }
                }
                self.pos = end + 1;
                Ok(())
            }
            Some(b'{') => {
                if self.open(b'{', b'}')? {
                    loop {
                        self.string()?;
                        self.expect(b':', "expected `:`")?;
                        self.skip()?;
                        if !self.more(b'}')? {
                            break;
                        }
                    }
                }
                self.close();
                Ok(())
            }
            Some(b'[') => {
                if self.open(b'[', b']')? {
                    loop {
                        self.skip()?;
                        if !self.more(b']')? {
                            break;
                        }
                    }
                }
                self.close();
                Ok(())
            }
            Some(b't') => self.word("true"),
            Some(b'f') => self.word("false"),
            Some(b'n') => self.word("null"),
            Some(b'-' | b'0'..=b'9') => self.literal().map(|_| ()),
            _ => self.fail("expected a value"),
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::node::tests::random_value;
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use serde_json::Value;

    /// Read one whole document as a node.
    pub(crate) fn read(text: &str) -> Result<Node, DecodeError> {
        let mut reader = Reader::new(text);
        let node = reader.node()?;
        if !reader.at_end() {
            return reader.fail("trailing characters");
        }
        Ok(node)
    }

    /// JSON text for `value` with random whitespace and, now and then, characters written
    /// as escapes.
    pub(crate) fn noisy_text(rng: &mut SmallRng, value: &Value) -> String {
        let compact = value.to_string();
        let mut out = String::new();
        let mut in_string = false;
        let mut chars = compact.chars().peekable();
        while let Some(c) = chars.next() {
            // Whitespace goes around structural characters only, not inside literals.
            if !in_string && "{}[],:".contains(c) && rng.random_range(0..4) == 0 {
                out.push_str([" ", "\n", "\t", "\r\n "][rng.random_range(0..4)]);
            }
            match c {
                '"' => {
                    in_string = !in_string;
                    out.push(c);
                }
                '\\' if in_string => {
                    // An escape of the compact text: keep it whole.
                    out.push(c);
                    if let Some(next) = chars.next() {
                        out.push(next);
                    }
                }
                c if in_string && rng.random_range(0..6) == 0 => {
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        out.push_str(&format!("\\u{unit:04x}"));
                    }
                }
                c => out.push(c),
            }
        }
        out
    }

    #[test]
    fn reads_like_serde_json() {
        let mut rng = SmallRng::seed_from_u64(17);
        for _ in 0..3000 {
            let value = random_value(&mut rng, 4);
            let text = noisy_text(&mut rng, &value);
            let node = read(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
            assert_eq!(node.to_value(), value, "{text}");
            let mut reader = Reader::new(&text);
            reader.skip().expect("skips what it reads");
            assert!(reader.at_end());
        }
    }

    #[test]
    fn plain_runs_end_at_quotes_backslashes_and_controls() {
        for text in [
            "",
            "abc",
            "abcdefghijklmnopq\"",
            "\\",
            "abcdefgh\u{1f}",
            "ééééééé\"x",
            "abcdefg\\",
        ] {
            let want = text
                .bytes()
                .position(|b| b == b'"' || b == b'\\' || b < 0x20)
                .unwrap_or(text.len());
            assert_eq!(plain_run_end(text.as_bytes(), 0), want, "{text:?}");
        }
        let mut rng = SmallRng::seed_from_u64(31);
        for _ in 0..2000 {
            let bytes: Vec<u8> = (0..rng.random_range(0..40))
                .map(|_| {
                    [b'a', b'"', b'\\', 0x1f, 0x20, 0x7f, 0x80, 0xff, b'!'][rng.random_range(0..9)]
                })
                .collect();
            let from = rng.random_range(0..=bytes.len() + 2);
            if from > bytes.len() {
                assert_eq!(plain_run_end(&bytes, from), from);
                continue;
            }
            let want = from
                + bytes[from..]
                    .iter()
                    .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
                    .unwrap_or(bytes.len() - from);
            assert_eq!(plain_run_end(&bytes, from), want, "{bytes:?} from {from}");
        }
    }

    #[test]
    fn numbers_are_serde_jsons() {
        for text in [
            "0",
            "-0",
            "1",
            "-1",
            "123456789012345678",
            "-123456789012345678",
            "1234567890123456789",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "1.5",
            "-0.0",
            "1e3",
            "1E-3",
            "2.5e+10",
            "1e400",
            "123456789012345678901234567890",
        ] {
            let ours = read(text).map(|n| n.to_value()).ok();
            let theirs = serde_json::from_str::<Value>(text).ok();
            assert_eq!(ours, theirs, "{text}");
            if let Some(Value::Number(n)) = &theirs {
                // The same kind of number (`u64`, `i64` or `f64`), not only an equal one.
                assert_eq!(read(text), Ok(Node::Number(n.clone())), "{text}");
            }
        }
    }

    #[test]
    fn refuses_what_serde_json_refuses() {
        for text in [
            "",
            " ",
            "nul",
            "tru",
            "[1,]",
            "[,1]",
            "{\"a\":1,}",
            "{\"a\" 1}",
            "{a:1}",
            "{\"a\":}",
            "01",
            "-",
            "1.",
            ".5",
            "1e",
            "1e+",
            "+1",
            "--1",
            "\"abc",
            "\"a\u{1}b\"",
            "\"\\x\"",
            "\"\\u12\"",
            "\"\\ud800\"",
            "[1 2]",
            "{\"a\":1 \"b\":2}",
            "[1]]",
            "[[1]",
            "NaN",
            "{\"a\":[1,{\"b\":}]}",
            "\"\\",
            "[\"\\\"]",
        ] {
            assert!(
                serde_json::from_str::<Value>(text).is_err(),
                "serde_json takes {text:?}"
            );
            assert!(read(text).is_err(), "{text:?}");
        }
        for depth in [100, 126, 127, 128, 129, 200] {
            let text = "[".repeat(depth) + &"]".repeat(depth);
            assert_eq!(
                read(&text).is_ok(),
                serde_json::from_str::<Value>(&text).is_ok(),
                "{depth}"
            );
        }
        assert!(read(&("[".repeat(127) + &"]".repeat(127))).is_ok());
    }

    /// Any cut of a valid text is refused, and so is a changed byte wherever serde_json
    /// refuses it; where both accept, they read the same value.
    #[test]
    fn agrees_with_serde_json_on_damaged_text() {
        let mut rng = SmallRng::seed_from_u64(23);
        for _ in 0..300 {
            let value = random_value(&mut rng, 3);
            let text = noisy_text(&mut rng, &value);
            for cut in 0..text.len() {
                if text.is_char_boundary(cut)
                    && serde_json::from_str::<Value>(&text[..cut]).is_err()
                {
                    assert!(read(&text[..cut]).is_err(), "{}", &text[..cut]);
                }
            }
            for _ in 0..20 {
                let mut bytes = text.clone().into_bytes();
                let at = rng.random_range(0..bytes.len());
                if !bytes[at].is_ascii() {
                    continue;
                }
                const SUBSTITUTES: &[u8] = b"{}[]\",:\\ 0-1.eEtfnu/\x01a";
                bytes[at] = SUBSTITUTES[rng.random_range(0..SUBSTITUTES.len())];
                let damaged =
                    String::from_utf8(bytes).expect("an ASCII byte replaced an ASCII byte");
                let ours = read(&damaged).map(|n| n.to_value()).ok();
                let theirs = serde_json::from_str::<Value>(&damaged).ok();
                assert_eq!(ours, theirs, "{damaged}");
            }
        }
    }
}
