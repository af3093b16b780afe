//! Finds where a value sits in RON source text, so that problems found after parsing (a
//! unit on a blocked hex, an unknown weapon) can point at the exact line and column.
//!
//! serde forgets positions once a file is parsed, so this module reads the same text again
//! with a small RON reader that keeps the byte span of every value, then follows a
//! [`Path`] (`units[3].stats.st`) through it. It is only used on text that RON has already
//! accepted, and when it cannot follow a path to the end it returns the closest enclosing
//! value it found.

use crate::format::{Path, PathSeg};

/// A value in the source with its byte span.
#[derive(Clone, Debug)]
struct Node {
    start: usize,
    end: usize,
    kind: Kind,
}

#[derive(Clone, Debug)]
enum Kind {
    /// A number, string, identifier or other single token.
    Atom,
    /// `Name(field: value, ...)` or `(field: value, ...)`.
    Struct(Vec<(String, Node)>),
    /// `Name(value, ...)`, `(value, ...)` or `[value, ...]`.
    Seq(Vec<Node>),
    /// `{ key: value, ... }`.
    Map(Vec<(Node, Node)>),
}

struct Reader<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn skip_ws(&mut self) {
        loop {
            while self.pos < self.bytes.len() && self.bytes[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            }
            if self.src[self.pos..].starts_with("//") {
                while self.pos < self.bytes.len() && self.bytes[self.pos] != b'\n' {
                    self.pos += 1;
                }
            } else if self.src[self.pos..].starts_with("/*") {
                let mut depth = 0;
                while self.pos < self.bytes.len() {
                    if self.src[self.pos..].starts_with("/*") {
                        depth += 1;
                        self.pos += 2;
                    } else if self.src[self.pos..].starts_with("*/") {
                        depth -= 1;
                        self.pos += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        self.pos += 1;
                    }
                }
            } else if self.src[self.pos..].starts_with("#!") {
                // #![enable(...)] attribute
                while self.pos < self.bytes.len() && self.bytes[self.pos] != b']' {
                    self.pos += 1;
                }
                self.pos += 1;
            } else {
                return;
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn ident(&mut self) -> Option<(usize, usize)> {
        let start = self.pos;
        if self.src[self.pos..].starts_with("r#") {
            self.pos += 2;
        }
        while let Some(c) = self.peek() {
            if c.is_ascii_alphanumeric() || c == b'_' {
                self.pos += 1;
            } else {
                break;
            }
        }
        (self.pos > start).then_some((start, self.pos))
    }

    fn string(&mut self) {
        // at the opening quote
        self.pos += 1;
        while let Some(c) = self.peek() {
            self.pos += 1;
            match c {
                b'\\' => self.pos += 1,
                b'"' => return,
                _ => {}
            }
        }
    }

    /// True at `r"`, `r#"`, `r##"`...: a raw string (not a raw identifier `r#name`).
    fn at_raw_string(&self) -> bool {
        let rest = &self.bytes[self.pos + 1..];
        let hashes = rest.iter().take_while(|&&c| c == b'#').count();
        rest.get(hashes) == Some(&b'"')
    }

    fn raw_string(&mut self) {
        // r#*"..."#*
        self.pos += 1;
        let mut hashes = 0;
        while self.peek() == Some(b'#') {
            hashes += 1;
            self.pos += 1;
        }
        self.pos += 1; // opening quote
        let close = format!("\"{}", "#".repeat(hashes));
        match self.src[self.pos..].find(&close) {
            Some(i) => self.pos += i + close.len(),
            None => self.pos = self.bytes.len(),
        }
    }

    fn value(&mut self) -> Option<Node> {
        self.skip_ws();
        let start = self.pos;
        match self.peek()? {
            b'(' => self.group(start, b')'),
            b'[' => self.group(start, b']'),
            b'{' => self.map(start),
            b'"' => {
                self.string();
                Some(Node {
                    start,
                    end: self.pos,
                    kind: Kind::Atom,
                })
            }
            b'r' if self.at_raw_string() => {
                self.raw_string();
                Some(Node {
                    start,
                    end: self.pos,
                    kind: Kind::Atom,
                })
            }
            b'\'' => {
                self.pos += 1;
                if self.peek() == Some(b'\\') {
                    self.pos += 1;
                }
                // one (possibly multi-byte) character, then the closing quote
                let ch_len = self.src[self.pos..]
                    .chars()
                    .next()
                    .map_or(1, char::len_utf8);
                self.pos += ch_len;
                while self.peek().is_some_and(|c| c != b'\'') {
                    self.pos += 1;
                }
                self.pos += 1;
                Some(Node {
                    start,
                    end: self.pos,
                    kind: Kind::Atom,
                })
            }
            c if c.is_ascii_alphabetic() || c == b'_' => self.ident_value(start),
            _ => {
                // number or other token: read to a delimiter
                while let Some(c) = self.peek() {
                    if c.is_ascii_whitespace() || b",:)]}([{".contains(&c) {
                        break;
                    }
                    self.pos += 1;
                }
                (self.pos > start).then_some(Node {
                    start,
                    end: self.pos,
                    kind: Kind::Atom,
                })
            }
        }
    }

    fn ident_value(&mut self, start: usize) -> Option<Node> {
        self.ident()?;
        let after = self.pos;
        self.skip_ws();
        if self.peek() == Some(b'(') {
            let mut node = self.group(self.pos, b')')?;
            node.start = start;
            Some(node)
        } else {
            self.pos = after;
            Some(Node {
                start,
                end: after,
                kind: Kind::Atom,
            })
        }
    }

    /// Skips white space and commas up to the next item of a bracketed list: `Some(true)`
    /// at an item, `Some(false)` past the closing bracket `close`, `None` at the end of text.
    fn next_item(&mut self, close: u8) -> Option<bool> {
        loop {
            self.skip_ws();
            match self.peek()? {
                b',' => self.pos += 1,
                c if c == close => {
                    self.pos += 1;
                    return Some(false);
                }
                _ => return Some(true),
            }
        }
    }

    /// `( ... )` or `[ ... ]`: named fields make a struct, otherwise a sequence.
    fn group(&mut self, start: usize, close: u8) -> Option<Node> {
        self.pos += 1; // opening bracket
        let mut fields = Vec::new();
        let mut items = Vec::new();
        while self.next_item(close)? {
            // A field is `ident :` (but not `ident(` or `ident ,`).
            let save = self.pos;
            if close == b')'
                && let Some((s, e)) = self.ident()
            {
                self.skip_ws();
                if self.peek() == Some(b':') {
                    self.pos += 1;
                    let value = self.value()?;
                    fields.push((self.src[s..e].trim_start_matches("r#").to_string(), value));
                    continue;
                }
            }
            self.pos = save;
            items.push(self.value()?);
        }
        let kind = if !fields.is_empty() {
            Kind::Struct(fields)
        } else {
            Kind::Seq(items)
        };
        Some(Node {
            start,
            end: self.pos,
            kind,
        })
    }

    fn map(&mut self, start: usize) -> Option<Node> {
        self.pos += 1;
        let mut entries = Vec::new();
        while self.next_item(b'}')? {
            let key = self.value()?;
            self.skip_ws();
            if self.peek() == Some(b':') {
                self.pos += 1;
            }
            let value = self.value()?;
            entries.push((key, value));
        }
        Some(Node {
            start,
            end: self.pos,
            kind: Kind::Map(entries),
        })
    }
}

/// A key as written, normalised for comparison: whitespace and quotes removed.
fn normalise(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && *c != '"')
        .collect()
}

fn step<'n>(src: &str, node: &'n Node, seg: &PathSeg) -> Option<&'n Node> {
    match (&node.kind, seg) {
        (Kind::Struct(fields), PathSeg::Field(name)) => {
            fields.iter().find(|(f, _)| f == name).map(|(_, n)| n)
        }
        // A newtype wrapper such as `Gurps((...))` or `Some(...)`: look inside.
        (Kind::Seq(items), PathSeg::Field(_)) if items.len() == 1 => step(src, &items[0], seg),
        (Kind::Seq(items), PathSeg::Index(i)) => items.get(*i),
        (Kind::Map(entries), PathSeg::Key(k)) => entries
            .iter()
            .find(|(key, _)| normalise(&src[key.start..key.end]) == normalise(k))
            .map(|(_, v)| v),
        (Kind::Map(entries), PathSeg::KeyOf(k)) => entries
            .iter()
            .find(|(key, _)| normalise(&src[key.start..key.end]) == normalise(k))
            .map(|(key, _)| key),
        _ => None,
    }
}

/// The byte span `(start, length)` of the value at `path` in RON `src`, or of the closest
/// enclosing value found; `None` if the text cannot be read at all.
pub fn locate(src: &str, path: &Path) -> Option<(usize, usize)> {
    let mut reader = Reader {
        src,
        bytes: src.as_bytes(),
        pos: 0,
    };
    let root = reader.value()?;
    let mut node = &root;
    for seg in &path.0 {
        match step(src, node, seg) {
            Some(next) => node = next,
            None => break,
        }
    }
    Some((node.start, node.end.saturating_sub(node.start).max(1)))
}

pub use crate::format::line_col;

/// Byte offset of 1-based `line` and `col` (in characters) in `src`.
pub fn offset_of(src: &str, line: usize, col: usize) -> usize {
    let mut offset = 0;
    for (i, text) in src.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            let within: usize = text
                .chars()
                .take(col.saturating_sub(1))
                .map(char::len_utf8)
                .sum();
            return offset + within;
        }
        offset += text.len();
    }
    src.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = r#"// a scenario
#![enable(implicit_some)]
(
    name: "Test /* not a comment */",
    map: ( shape: Hexagon(radius: 4), terrain: { (1, -1): Blocked, (2,0): Cover(Light) } ),
    units: [
        ( name: "A", at: (0, 0), stats: Gurps(( st: 10, weapons: ["sword"] )) ),
        /* block
           comment */
        ( name: "B", at: (3, -2), stats: Gurps(st: 12, skills: { "Bow": 40 }) ),
    ],
)
"#;

    fn text_at(path: &Path) -> &'static str {
        let (start, len) = locate(SRC, path).unwrap();
        &SRC[start..start + len]
    }

    #[test]
    fn finds_fields_indices_and_keys() {
        let units = Path::root().field("units");
        assert_eq!(text_at(&units.index(1).field("at")), "(3, -2)");
        assert_eq!(text_at(&units.index(0).field("stats").field("st")), "10");
        assert_eq!(
            text_at(&units.index(0).field("stats").field("weapons").index(0)),
            "\"sword\""
        );
        assert_eq!(text_at(&units.index(1).field("stats").field("st")), "12");
        assert_eq!(
            text_at(&units.index(1).field("stats").field("skills").key("Bow")),
            "40"
        );
        let terrain = Path::root().field("map").field("terrain");
        assert_eq!(text_at(&terrain.key_of("(2, 0)")), "(2,0)");
        assert_eq!(text_at(&terrain.key("(2,0)")), "Cover(Light)");
        assert_eq!(
            text_at(&Path::root().field("name")),
            "\"Test /* not a comment */\""
        );
    }

    #[test]
    fn falls_back_to_the_closest_value() {
        let p = Path::root().field("units").index(1).field("nothing");
        assert!(text_at(&p).starts_with("( name: \"B\""));
    }

    #[test]
    fn line_and_column_round_trip() {
        let (start, _) = locate(SRC, &Path::root().field("units").index(1).field("at")).unwrap();
        let (line, col) = line_col(SRC, start);
        assert_eq!((line, col), (10, 26));
        assert_eq!(offset_of(SRC, line, col), start);
    }
}
