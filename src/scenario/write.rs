//! The one writer of scenario files ([`to_ron`]): RON a person can read and edit by hand,
//! with the format's field order, every field left out that reads back as it is anyway (a
//! default), and each part on one line where it fits ([`WIDTH`] columns), as the shipped
//! scenarios are written. `balance --out`, the window's "Add from GCS file..." and the
//! editor write through it.
//!
//! A field is left out when the part it belongs to (the ruleset's settings, the map, a
//! side, a template, a unit, the victory rule), read back without it, is equal to the part
//! as it stands: the test is the reader itself, so no ruleset has to list its defaults for
//! the writer and a default can never be dropped wrongly. Parts are minimised one at a
//! time, and a part written identically before is not minimised again (a thousand copies
//! of one unit cost one).

use super::{Registry, ScenarioFile, VictorySpec};
use crate::format::Path;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::HashMap;

/// Widest line the writer joins a part onto (the shipped scenarios' width).
pub const WIDTH: usize = 100;

/// Indentation of one level.
const INDENT: &str = "    ";

/// The scenario file as RON text that `check` reads back (the same scenario, field for
/// field), after `header` written as comment lines (each of its lines after `// `).
/// `registry` reads the ruleset sections back while defaults are left out.
pub fn to_ron(registry: &Registry, file: &ScenarioFile, header: &str) -> Result<String, String> {
    write(registry, file, header, None)
}

/// A scenario file as read: its text, and the scenario it reads as.
#[derive(Clone, Copy)]
pub struct Original<'a> {
    /// The file's text.
    pub text: &'a str,
    /// The scenario read from it.
    pub file: &'a ScenarioFile,
}

/// [`to_ron`] for a scenario changed from `original`: the comments at the top of the
/// original follow `header`, every part the change left as it was (the name, the
/// description, the ruleset's settings, the map, a side by id, a template by name, a unit
/// by name, the victory rule) is written as the original has it, with the comment lines
/// above it and the comment after it; a changed side, template or unit keeps the comment
/// lines above it and the comment after it (by id or name); and the comment lines before
/// the file's closing parenthesis (at the start of its line) and after it are kept.
pub fn to_ron_from(
    registry: &Registry,
    file: &ScenarioFile,
    header: &str,
    original: Original,
) -> Result<String, String> {
    write(registry, file, header, Some(original))
}

fn write(
    registry: &Registry,
    file: &ScenarioFile,
    header: &str,
    original: Option<Original>,
) -> Result<String, String> {
    let mut w = Writer {
        registry,
        known: HashMap::new(),
        original,
        lines: vec![],
    };
    let root = Path::root();
    w.lines.extend(header.lines().map(|l| format!("// {l}")));
    if let Some(o) = original {
        let top = o
            .text
            .lines()
            .take_while(|l| !l.trim_start().starts_with('('));
        // The original's opening comments, but for lines the header writes anew (a file
        // saved twice says it once).
        let kept: Vec<String> = top
            .filter(|l| l.trim_start().starts_with("//") && !w.lines.iter().any(|h| h == l))
            .map(str::to_string)
            .collect();
        w.lines.extend(kept);
    }
    w.lines.push("(".into());
    let same = |f: &dyn Fn(&ScenarioFile) -> bool| original.is_some_and(|o| f(o.file));
    let kept = same(&|o| o.name == file.name).then(|| root.field("name"));
    if !w.as_written(1, "name: ", &file.name, kept) {
        w.lines
            .push(format!("{INDENT}name: {},", plain(&file.name)?));
    }
    if !file.description.is_empty() {
        let kept = same(&|o| o.description == file.description).then(|| root.field("description"));
        if !w.as_written(1, "description: ", &file.description, kept) {
            let text = plain(&file.description)?;
            w.lines.push(format!("{INDENT}description: {text},"));
        }
    }
    let kept = same(&|o| o.ruleset == file.ruleset).then(|| root.field("ruleset"));
    let was = original.map(|_| root.field("ruleset"));
    w.part(1, "ruleset: ", &file.ruleset, (kept, was))?;
    let kept = same(&|o| o.map == file.map).then(|| root.field("map"));
    let was = original.map(|_| root.field("map"));
    w.part(1, "map: ", &file.map, (kept, was))?;
    w.lines.push(format!("{INDENT}sides: ["));
    for side in &file.sides {
        let at = |same: &dyn Fn(&super::SideSpec) -> bool| {
            let j = original?.file.sides.iter().position(same)?;
            Some(root.field("sides").index(j))
        };
        let (kept, was) = (at(&|s| s == side), at(&|s| s.id == side.id));
        w.part(2, "", side, (kept, was))?;
    }
    w.lines.push(format!("{INDENT}],"));
    if !file.templates.is_empty() {
        w.lines.push(format!("{INDENT}templates: {{"));
        for (name, stats) in &file.templates {
            let kept = original
                .filter(|o| o.file.templates.get(name) == Some(stats))
                .map(|_| root.field("templates").key(name));
            let was = original
                .filter(|o| o.file.templates.contains_key(name))
                .map(|_| root.field("templates").key(name));
            w.part(2, &format!("{}: ", plain(name)?), stats, (kept, was))?;
        }
        w.lines.push(format!("{INDENT}}},"));
    }
    w.lines.push(format!("{INDENT}units: ["));
    for unit in &file.units {
        let at = |same: &dyn Fn(&super::UnitSpec) -> bool| {
            let j = original?.file.units.iter().position(same)?;
            Some(root.field("units").index(j))
        };
        let (kept, was) = (at(&|u| u == unit), at(&|u| u.name == unit.name));
        w.part(2, "", unit, (kept, was))?;
    }
    w.lines.push(format!("{INDENT}],"));
    if file.victory != VictorySpec::default() {
        let kept = same(&|o| o.victory == file.victory).then(|| root.field("victory"));
        if !w.as_written(1, "victory: ", &file.victory, kept) {
            w.lines
                .push(format!("{INDENT}victory: {},", plain(&file.victory)?));
        }
    }
    let (before, close, after) = original
        .map(|o| closing_comments(o.text))
        .unwrap_or_default();
    w.lines
        .extend(before.iter().map(|c| format!("{INDENT}{}", c.trim_start())));
    w.lines.push(match close {
        Some(c) => format!(") {c}"),
        None => ")".into(),
    });
    w.lines.extend(after);
    Ok(w.lines.join("\n") + "\n")
}

/// The comments around a scenario file's closing parenthesis, when it starts the last
/// line that is neither blank nor a comment: the comment lines right above it, the comment
/// after it on its line, and the comment lines after it (to the end of the file).
fn closing_comments(text: &str) -> (Vec<String>, Option<String>, Vec<String>) {
    let lines: Vec<&str> = text.lines().collect();
    let Some(at) = lines.iter().rposition(|l| l.starts_with(')')) else {
        return Default::default();
    };
    let comment = |l: &str| l.trim_start().starts_with("//");
    // Only comments and blank lines follow the file's own closing parenthesis.
    if !lines[at + 1..]
        .iter()
        .all(|l| l.trim().is_empty() || comment(l))
    {
        return Default::default();
    }
    let mut before: Vec<String> = (lines[..at].iter().rev())
        .take_while(|l| comment(l))
        .map(|l| l.to_string())
        .collect();
    before.reverse();
    let rest = lines[at][1..].trim();
    let close = rest.starts_with("//").then(|| rest.to_string());
    let after = (lines[at + 1..].iter())
        .filter(|l| comment(l))
        .map(|l| l.to_string())
        .collect();
    (before, close, after)
}

/// Writes `file` to `out`, a new file (one that exists is not replaced), keeping the
/// comments of `original` where the file is unchanged, and reads it back with `registry`:
/// a scenario that names files of its own folder (a GCS character) may not check from
/// another folder, and is then removed again with the reason.
pub fn write_new(
    registry: &Registry,
    file: &ScenarioFile,
    header: &str,
    original: Option<Original>,
    out: &std::path::Path,
) -> Result<(), String> {
    use std::io::Write;
    let text = match original {
        Some(o) => to_ron_from(registry, file, header, o)?,
        None => to_ron(registry, file, header)?,
    };
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(out)
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    f.write_all(text.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    drop(f);
    if let Err(problems) = registry.load(out) {
        let _ = std::fs::remove_file(out);
        let first = problems
            .to_string()
            .lines()
            .next()
            .unwrap_or("")
            .to_string();
        return Err(not_there(out, "written there does not check", &first));
    }
    Ok(())
}

/// Whether a new file can be made at `out`: its folder exists and takes a file there
/// (tried by making it empty and removing it again), and no file is there yet. What
/// [`write_new`] needs, asked before a long search (`balance --out`).
pub fn can_write_new(out: &std::path::Path) -> Result<(), String> {
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(out)
    {
        Ok(f) => {
            drop(f);
            std::fs::remove_file(out).map_err(|e| {
                format!(
                    "made {} to see that it can be written, but cannot remove it again: {e}",
                    out.display()
                )
            })
        }
        Err(e) => Err(format!("cannot write {}: {e}", out.display())),
    }
}

/// Whether `file`, written to `out`, would still check: the files it names (a GURPS
/// character's GCS file) are read relative to the folder it is in. What [`write_new`]
/// finds after writing, asked before (`balance --out` asks before its search).
pub fn checks_there(file: &ScenarioFile, out: &std::path::Path) -> Result<(), String> {
    let mut there = file.clone();
    there.dir = Some(crate::format::folder(out.parent()));
    super::validate(there).map(|_| ()).map_err(|problems| {
        let first = problems
            .first()
            .map_or_else(String::new, |p| format!("{}: {}", p.path, p.message));
        not_there(out, "would not check there", &first)
    })
}

/// Why a scenario does not check at `out` (`failure`, with its first `problem`), and what
/// to do.
fn not_there(out: &std::path::Path, failure: &str, problem: &str) -> String {
    format!(
        "{} {failure} ({problem}); write it beside the original, whose folder the files it \
         names are relative to",
        out.display()
    )
}

/// The fields of part `value` as a form shows them: each field of the struct it holds (the
/// outermost one, inside its tags: `Gurps(st: 12, ...)`, `MainSequence(Character(...))`),
/// defaults included, in the format's order, each value on one line.
pub fn fields<T: Serialize>(value: &T) -> Result<Vec<(String, String)>, String> {
    let lines = pretty_lines(value)?;
    Ok(field_spans(&lines)
        .into_iter()
        .map(|(name, at, end)| {
            let one = Node::read(&lines[at..end], 0).0.one_line();
            let value = one
                .strip_prefix(&format!("{name}: "))
                .unwrap_or(&one)
                .trim_end_matches(',');
            (name, unraw(value))
        })
        .collect())
}

/// RON text with its raw identifiers written plainly, outside strings: `r#None` (a
/// variant named like Option's `None`, which the writer marks so) as `None`, as the
/// format's documentation and a person write it (both read the same).
fn unraw(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    let mut previous: Option<char> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if in_string {
            in_string = c != '"' || escaped;
            escaped = c == '\\' && !escaped;
        } else if c == '"' {
            in_string = true;
        } else if c == 'r'
            && chars.peek() == Some(&'#')
            && !previous.is_some_and(|p| p.is_alphanumeric() || p == '_')
        {
            let mut ahead = chars.clone();
            ahead.next();
            if ahead.peek().is_some_and(|n| n.is_alphabetic() || *n == '_') {
                chars.next();
                previous = Some('#');
                continue;
            }
        }
        out.push(c);
        previous = Some(c);
    }
    out
}

/// Part `value` with field `name` (one of [`fields`]) set to the RON `text`, as `registry`
/// reads it; the reader's complaint (what it expected) when the text does not fit.
pub fn with_field<T: Serialize + DeserializeOwned>(
    registry: &Registry,
    value: &T,
    name: &str,
    text: &str,
) -> Result<T, String> {
    let lines = pretty_lines(value)?;
    let (_, at, end) = field_spans(&lines)
        .into_iter()
        .find(|(n, ..)| n == name)
        .ok_or_else(|| format!("there is no field `{name}`"))?;
    let pad = " ".repeat(indent_of(&lines[at]));
    let mut changed = lines[..at].to_vec();
    changed.push(format!("{pad}{name}: {},", text.trim()));
    changed.extend_from_slice(&lines[end..]);
    registry
        .read_ron::<T>(&changed.join("\n"))
        .map_err(|e| format!("{name}: {}", e.code))
}

/// `value` as pretty RON lines, every field written.
fn pretty_lines<T: Serialize>(value: &T) -> Result<Vec<String>, String> {
    let text = crate::format::ron_options()
        .to_string_pretty(
            value,
            ron::ser::PrettyConfig::new()
                .struct_names(false)
                .indentor(INDENT),
        )
        .map_err(|e| format!("cannot write the scenario: {e}"))?;
    Ok(bare_apostrophes(&text)
        .lines()
        .map(str::to_string)
        .collect())
}

/// The outermost fields of pretty RON `lines`: name, first line and the index after the last.
fn field_spans(lines: &[String]) -> Vec<(String, usize, usize)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        match field_end(lines, i) {
            Some(end) => {
                let name = lines[i].trim_start().split_once(": ").map(|(n, _)| n);
                spans.push((name.unwrap_or_default().to_string(), i, end));
                i = end;
            }
            None => i += 1,
        }
    }
    let outer = spans.iter().map(|s| indent_of(&lines[s.1])).min();
    spans.retain(|s| Some(indent_of(&lines[s.1])) == outer);
    spans
}

/// `value` as compact RON (one line: a string, a number, a short enum).
fn plain<T: Serialize>(value: &T) -> Result<String, String> {
    crate::format::ron_options()
        .to_string(value)
        .map(|text| bare_apostrophes(&text))
        .map_err(|e| format!("cannot write the scenario: {e}"))
}

/// RON `text` with the apostrophes in its strings unescaped (`\'` to `'`; RON's writer
/// escapes them, its reader takes them either way), other escapes left as they are.
fn bare_apostrophes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\'') => out.push('\''),
            Some(next) => {
                out.push(c);
                out.push(next);
            }
            None => out.push(c),
        }
    }
    out
}

/// Appends `body` (lines indented from column 0, the first to follow `key`) to `lines` at
/// `level`, with the comma that ends an item.
fn nest(lines: &mut Vec<String>, level: usize, key: &str, body: Vec<String>) {
    let pad = INDENT.repeat(level);
    let last = body.len().saturating_sub(1);
    for (i, line) in body.into_iter().enumerate() {
        let comma = if i == last { "," } else { "" };
        if i == 0 {
            lines.push(format!("{pad}{key}{line}{comma}"));
        } else {
            lines.push(format!("{pad}{line}{comma}"));
        }
    }
}

/// The lines (written by this module: no comments) with every bracketed group that fits in
/// [`WIDTH`] columns on one line.
fn join(lines: &[String]) -> Vec<String> {
    let mut at = 0;
    let mut out = Vec::new();
    while at < lines.len() {
        let (node, next) = Node::read(lines, at);
        node.render(&mut out);
        at = next;
    }
    out
}

/// A line of pretty RON, or a bracketed group of them: the line that opens it (ending in
/// `(`, `[` or `{`), its items and the line that closes it.
enum Node {
    Line(String),
    Group {
        open: String,
        items: Vec<Node>,
        close: String,
    },
}

impl Node {
    /// The node that starts at `lines[at]`, and the index after it.
    fn read(lines: &[String], at: usize) -> (Node, usize) {
        let line = &lines[at];
        if !line.ends_with(['(', '[', '{']) {
            return (Node::Line(line.clone()), at + 1);
        }
        let depth = indent_of(line);
        let mut items = Vec::new();
        let mut i = at + 1;
        while i < lines.len() {
            let l = &lines[i];
            if indent_of(l) == depth && l.trim_start().starts_with([')', ']', '}']) {
                let group = Node::Group {
                    open: line.clone(),
                    items,
                    close: l.clone(),
                };
                return (group, i + 1);
            }
            let (item, next) = Node::read(lines, i);
            items.push(item);
            i = next;
        }
        // An unclosed group (not written by this module): kept as it is.
        let mut flat = vec![Node::Line(line.clone())];
        flat.extend(items);
        let open = String::new();
        let close = String::new();
        let group = Node::Group {
            open,
            items: flat,
            close,
        };
        (group, i)
    }

    /// The node on one line without its indentation, if it has no line comment.
    fn one_line(&self) -> String {
        match self {
            Node::Line(l) => l.trim().to_string(),
            Node::Group { open, items, close } => {
                let inner: Vec<String> = items
                    .iter()
                    .map(|n| {
                        let text = n.one_line();
                        text.strip_suffix(',').map_or(text.clone(), str::to_string)
                    })
                    .collect();
                format!("{}{}{}", open.trim(), inner.join(", "), close.trim())
            }
        }
    }

    fn render(&self, out: &mut Vec<String>) {
        match self {
            Node::Line(l) => out.push(l.clone()),
            Node::Group { open, items, close } => {
                let one = self.one_line();
                if !open.is_empty() && indent_of(open) + one.len() <= WIDTH {
                    out.push(format!("{}{one}", " ".repeat(indent_of(open))));
                    return;
                }
                if !open.is_empty() {
                    out.push(open.clone());
                }
                // Items that fit on a line share lines, as many as fit (a map's terrain, a
                // stat block's scores); a longer one takes lines of its own.
                let pad = " ".repeat(indent_of(open) + INDENT.len());
                let mut line = String::new();
                for item in items {
                    let text = item.one_line();
                    // A list's structures (crew, systems) take a line each.
                    let alone = open.ends_with('[') && matches!(item, Node::Group { .. });
                    if alone || pad.len() + text.len() > WIDTH {
                        if !line.is_empty() {
                            out.push(format!("{pad}{line}"));
                            line.clear();
                        }
                        item.render(out);
                        continue;
                    }
                    if !line.is_empty() && pad.len() + line.len() + 1 + text.len() > WIDTH {
                        out.push(format!("{pad}{line}"));
                        line.clear();
                    }
                    if !line.is_empty() {
                        line.push(' ');
                    }
                    line.push_str(&text);
                }
                if !line.is_empty() {
                    out.push(format!("{pad}{line}"));
                }
                if !close.is_empty() {
                    out.push(close.clone());
                }
            }
        }
    }
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// The file being written.
struct Writer<'r> {
    registry: &'r Registry,
    /// Parts already minimised, by their full text.
    known: HashMap<String, Vec<String>>,
    original: Option<Original<'r>>,
    lines: Vec<String>,
}

impl Writer<'_> {
    /// Appends part `value` at `level` after `key`: as the original has it at `kept` (with
    /// its comments) when that reads as `value`, else minimised and joined, with the
    /// comment lines above and the comment after the part it changes, at `was` in the
    /// original (the same side, template or unit by id or name).
    fn part<T: Serialize + DeserializeOwned + PartialEq>(
        &mut self,
        level: usize,
        key: &str,
        value: &T,
        (kept, was): (Option<Path>, Option<Path>),
    ) -> Result<(), String> {
        if self.as_written(level, key, value, kept) {
            return Ok(());
        }
        let comments = self
            .original
            .zip(was)
            .and_then(|(o, path)| verbatim(o.text, &path));
        let pad = INDENT.repeat(level);
        if let Some(c) = &comments {
            let above = c.above.iter().map(|l| format!("{pad}{}", l.trim_start()));
            self.lines.extend(above);
        }
        let body = self.minimal(value)?;
        let mut part = Vec::new();
        nest(&mut part, level, key, body);
        self.lines.extend(join(&part));
        if let Some(after) = comments.and_then(|c| c.after)
            && let Some(last) = self.lines.last_mut()
        {
            last.push(' ');
            last.push_str(&after);
        }
        Ok(())
    }

    /// Appends part `value` at `level` after `key` as the original has it at `kept`, with
    /// its comments, when that reads as `value`; false (nothing appended) otherwise.
    fn as_written<T: Serialize + DeserializeOwned + PartialEq>(
        &mut self,
        level: usize,
        key: &str,
        value: &T,
        kept: Option<Path>,
    ) -> bool {
        let pad = INDENT.repeat(level);
        if let Some(o) = self.original
            && let Some(path) = kept
            && let Some(v) = verbatim(o.text, &path)
        {
            // The lines as they will be written; kept only if they read back as the part
            // (a string broken over lines would take the new indentation inside it).
            let last = v.value.len() - 1;
            let lines: Vec<String> = (v.value.iter().enumerate())
                .map(|(i, line)| {
                    let lead = if i == 0 { "" } else { pad.as_str() };
                    format!("{lead}{line}")
                })
                .collect();
            if (self.registry.read_ron::<T>(&lines.join("\n"))).is_ok_and(|r| r == *value) {
                let above = v.above.iter().map(|c| format!("{pad}{}", c.trim_start()));
                self.lines.extend(above);
                for (i, mut line) in lines.into_iter().enumerate() {
                    if i == 0 {
                        line = format!("{pad}{key}{line}");
                    }
                    if i == last {
                        line.push(',');
                        if let Some(c) = &v.after {
                            line.push(' ');
                            line.push_str(c);
                        }
                    }
                    self.lines.push(line);
                }
                return true;
            }
        }
        false
    }

    /// `value` as pretty RON lines with every field left out whose absence reads back the
    /// same value.
    fn minimal<T: Serialize + DeserializeOwned + PartialEq>(
        &mut self,
        value: &T,
    ) -> Result<Vec<String>, String> {
        let mut lines = pretty_lines(value)?;
        let full = lines.join("\n");
        if let Some(known) = self.known.get(&full) {
            return Ok(known.clone());
        }
        let mut i = 0;
        while i < lines.len() {
            let Some(end) = field_end(&lines, i) else {
                i += 1;
                continue;
            };
            let mut without = lines[..i].to_vec();
            without.extend_from_slice(&lines[end..]);
            let same = self
                .registry
                .read_ron::<T>(&without.join("\n"))
                .is_ok_and(|v| v == *value);
            if same {
                lines = without;
            } else {
                i += 1;
            }
        }
        self.known.insert(full, lines.clone());
        Ok(lines)
    }
}

/// A value's text in a file with its comments.
struct Verbatim {
    /// The comment lines right above the value's first line.
    above: Vec<String>,
    /// The value's lines, the first from where it starts, the others less the first
    /// line's indentation.
    value: Vec<String>,
    /// The comment after it on its last line.
    after: Option<String>,
}

/// The value at `path` in RON `text`, with its comments (none when it shares its first
/// line with something before it).
fn verbatim(text: &str, path: &Path) -> Option<Verbatim> {
    let (start, len) = super::locate::locate(text, path)?;
    let end = (start + len).min(text.len());
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let prefix = text.get(line_start..start)?;
    // The value starts its line, or follows only its own key (`map: (`, `"guard": Gurps(`):
    // the comment lines above are about it.
    let key = prefix.trim();
    let alone = key.is_empty() || (key.ends_with(':') && !key.contains(['(', '[', '{', ',']));
    let mut above = Vec::new();
    if alone {
        for line in text[..line_start].lines().rev() {
            if !line.trim_start().starts_with("//") {
                break;
            }
            above.push(line.to_string());
        }
        above.reverse();
    }
    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
    let rest = text[end..line_end].trim_start();
    let rest = rest.strip_prefix(',').unwrap_or(rest).trim();
    let after = rest.starts_with("//").then(|| rest.to_string());
    // Lines after the first lose the indentation of the first one's line (spaces and tabs
    // only, one byte each).
    let blank = |l: &str| l.len() - l.trim_start_matches([' ', '\t']).len();
    let cut = blank(&text[line_start..]);
    let value = text[start..end]
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                return l.to_string();
            }
            l[blank(l).min(cut)..].to_string()
        })
        .collect();
    Some(Verbatim {
        above,
        value,
        after,
    })
}

/// When `lines[at]` starts a struct field (`name: ...`), the index after its last line.
fn field_end(lines: &[String], at: usize) -> Option<usize> {
    let line = lines[at].trim_start();
    let (name, _) = line.split_once(": ")?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    if !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        return None;
    }
    let (_, next) = Node::read(lines, at);
    Some(next)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn groups_that_fit_go_on_one_line() {
        let text = lines(
            "(\n    a: (\n        b: 1,\n        c: [\n            2,\n        ],\n    ),\n)",
        );
        assert_eq!(join(&text), ["(a: (b: 1, c: [2]))"]);
        let long = format!("(\n    a: \"{}\",\n    b: 2,\n)", "x".repeat(WIDTH));
        assert_eq!(join(&lines(&long)).join("\n"), long, "too wide: kept");
        let many: Vec<String> = (0..30)
            .map(|i| format!("            ({i}, 0): Blocked,"))
            .collect();
        let mut terrain = lines("(\n    map: (\n        terrain: {");
        terrain.extend(many);
        terrain.extend(lines("        },\n    ),\n)"));
        let packed = join(&terrain).join("\n");
        let out: Vec<&str> = packed.lines().collect();
        assert!(out.iter().all(|l| l.len() <= WIDTH), "{packed}");
        assert_eq!(out[..3], ["(", "    map: (", "        terrain: {"]);
        assert_eq!(out[out.len() - 3..], ["        },", "    ),", ")"]);
        let rows = &out[3..out.len() - 3];
        assert!((5..=8).contains(&rows.len()), "{packed}");
        assert!(rows[0].starts_with("            (0, 0): Blocked, (1, 0): Blocked,"));
        assert_eq!(packed.matches("Blocked").count(), 30);
    }

    #[test]
    fn apostrophes_are_written_bare() {
        let text = plain(&"Raiders' wall \\' \"x\"\n".to_string()).expect("written");
        assert_eq!(text, r#""Raiders' wall \\' \"x\"\n""#);
        let back: String = crate::format::ron_options().from_str(&text).expect("read");
        assert_eq!(back, "Raiders' wall \\' \"x\"\n");
    }

    /// Raw identifiers are shown plainly in a form, outside strings only.
    #[test]
    fn raw_identifiers_are_shown_plainly() {
        assert_eq!(unraw("r#None"), "None");
        assert_eq!(unraw("[r#None, Basic]"), "[None, Basic]");
        assert_eq!(
            unraw(r#"(name: "r#None", x: r#None)"#),
            r#"(name: "r#None", x: None)"#
        );
        assert_eq!(unraw(r#""a \" r#b""#), r#""a \" r#b""#);
        assert_eq!(unraw("bar#x"), "bar#x");
    }

    #[test]
    fn a_field_spans_its_group() {
        let text = lines("(\n    a: (\n        b: 1,\n    ),\n    c: 2,\n)");
        assert_eq!(field_end(&text, 1), Some(4));
        assert_eq!(field_end(&text, 4), Some(5));
        assert_eq!(field_end(&text, 0), None);
        let map = lines("{\n    (1, 2): Blocked,\n    \"x\": 1,\n}");
        assert_eq!(field_end(&map, 1), None, "map keys are not fields");
        assert_eq!(field_end(&map, 2), None);
    }
}
