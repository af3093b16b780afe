//! Scenario errors: each says which file, line and column, what is wrong and what was
//! expected, and renders with the offending source line (miette).

use super::locate::{line_col, locate, offset_of};
use crate::format::Problem;
use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, MietteError, MietteSpanContents,
    SourceCode, SourceSpan, SpanContents,
};
use std::fmt;
use std::sync::Arc;

/// One problem in a scenario file.
#[derive(Debug, Diagnostic)]
#[diagnostic(code(skirmish::scenario))]
pub struct ScenarioError {
    /// File name as given.
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// 1-based column in characters, when known.
    pub column: Option<usize>,
    /// What is wrong and what was expected.
    pub message: String,
    #[source_code]
    source_code: Option<Shown>,
    #[label("here")]
    span: Option<SourceSpan>,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, "{}:{l}:{c}: {}", self.file, self.message),
            _ => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for ScenarioError {}

impl ScenarioError {
    fn with_span(
        file: &str,
        shared: &Arc<String>,
        offset: usize,
        len: usize,
        message: String,
    ) -> Self {
        let text = shared.as_str();
        let (line, column) = line_col(text, offset);
        let offset = floor_char(text, offset.min(text.len()));
        let len = len.min(text.len() - offset);
        let (shown, span) = if text.lines().any(|l| l.len() > LONG_LINE) {
            let (shown, at, len) = excerpt(file, text, offset, len, line);
            (shown, SourceSpan::new(at.into(), len))
        } else {
            let shown = Shown {
                name: file.to_string(),
                text: Arc::clone(shared),
                first_line: 0,
                first_column: 0,
                lead: 0,
            };
            (shown, SourceSpan::new(offset.into(), len))
        };
        Self {
            file: file.to_string(),
            line: Some(line),
            column: Some(column),
            message,
            source_code: Some(shown),
            span: Some(span),
        }
    }

    /// A problem reading the file itself (no position).
    pub fn io(file: &str, message: &str) -> Self {
        Self {
            file: file.to_string(),
            line: None,
            column: None,
            message: message.to_string(),
            source_code: None,
            span: None,
        }
    }

    /// A RON syntax or type error, at the position the parser reports.
    pub fn from_ron(file: &str, text: &str, err: &ron::error::SpannedError) -> Self {
        let start = offset_of(text, err.span.start.line, err.span.start.col);
        let end = offset_of(text, err.span.end.line, err.span.end.col).max(start);
        let message = match &err.code {
            ron::Error::Message(m) => m.clone(),
            other => other.to_string(),
        };
        let message = plain_top_level(message);
        let shared = Arc::new(text.to_string());
        Self::with_span(file, &shared, start, (end - start).max(1), message)
    }

    /// A problem found by validation, located by its path in the file.
    pub fn at_path(file: &str, text: &str, problem: &Problem) -> Self {
        Self::at_path_in(file, &Arc::new(text.to_string()), problem)
    }

    /// [`ScenarioError::at_path`] in a text shared by every problem of the file (a copy
    /// each would be many copies of a large file).
    pub fn at_path_in(file: &str, text: &Arc<String>, problem: &Problem) -> Self {
        let message = if problem.path.0.is_empty() {
            problem.message.clone()
        } else {
            format!("{}: {}", problem.path, problem.message)
        };
        match locate(text, &problem.path) {
            Some((offset, len)) => Self::with_span(file, text, offset, len, message),
            None => Self::io(file, &message),
        }
    }
}

/// The fields a scenario file starts with, and a save file's.
const SCENARIO_FIELDS: [&str; 8] = [
    "name",
    "description",
    "ruleset",
    "map",
    "sides",
    "templates",
    "units",
    "victory",
];
const SAVE_FIELDS: [&str; 4] = ["scenario", "seed", "own_dice", "decisions"];

/// A reader's message about the whole file in words rather than the program's type names
/// (`Recording`: a saved battle; `ScenarioFile`: a scenario), and, when a field of the one
/// kind of file is found where the other kind was expected, which kind the file is and the
/// command for it.
fn plain_top_level(message: String) -> String {
    let unexpected = message
        .strip_prefix("Unexpected field named `")
        .and_then(|rest| rest.split_once('`'));
    let hint = match unexpected {
        Some((field, rest))
            if rest.starts_with(" in `Recording`") && SCENARIO_FIELDS.contains(&field) =>
        {
            ". This is a scenario, not a saved battle: fight it with `skirmish run FILE` \
             (a save is what the window's Save writes)"
        }
        Some((field, rest))
            if rest.starts_with(" in `ScenarioFile`") && SAVE_FIELDS.contains(&field) =>
        {
            ". This is a saved battle, not a scenario: replay it with `skirmish replay FILE`, \
             or open it in the window with `skirmish --load FILE`"
        }
        _ => "",
    };
    let message = message
        .replace("struct `Recording`", "a saved battle")
        .replace("`Recording`", "a saved battle")
        .replace("struct `ScenarioFile`", "a scenario")
        .replace("`ScenarioFile`", "a scenario");
    format!("{message}{hint}")
}

/// Lines longer than this many bytes are not shown whole under an error: the terminal could
/// not show them usefully, and the report's layout cannot point past column 65,535.
const LONG_LINE: usize = 400;

/// Bytes of a long line shown on each side of the problem.
const AROUND: usize = 80;

/// The text an error is shown in, with its file name: the whole file, or, when the file has
/// lines too long to show (a terrain map written on one line), only the part of the
/// problem's line around it, numbered as the line it comes from.
#[derive(Debug)]
struct Shown {
    name: String,
    text: Arc<String>,
    /// The line of the file (0-based) that `text` starts with.
    first_line: usize,
    /// The byte of that line (0-based) that `text` starts with, after `lead`.
    first_column: usize,
    /// Bytes put before the line's text (the "…" of a line cut short), not in the file.
    lead: usize,
}

impl SourceCode for Shown {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let inner = self.text.as_str().read_span(span, before, after)?;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line() + self.first_line,
            match inner.column().checked_sub(self.lead) {
                Some(column) => column + self.first_column,
                None => inner.column(),
            },
            inner.line_count(),
        )))
    }
}

/// The largest char boundary of `text` at or before `at`.
fn floor_char(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The part of line `line` (1-based) of file `name` that holds `text[offset..offset + len]`,
/// within [`AROUND`] bytes of it, with "…" where the line goes on, and where the problem
/// starts in it and how long it is there (cut at the line's end and at [`AROUND`] bytes).
fn excerpt(
    name: &str,
    text: &str,
    offset: usize,
    len: usize,
    line: usize,
) -> (Shown, usize, usize) {
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let from = floor_char(text, offset.saturating_sub(AROUND).max(start));
    let span_end = floor_char(text, (offset + len.min(AROUND)).min(end).max(offset));
    let mut to = (span_end + AROUND).min(end);
    while !text.is_char_boundary(to) {
        to += 1;
    }
    let mut shown = String::with_capacity(to - from + 8);
    if from > start {
        shown.push('…');
    }
    let at = shown.len() + offset - from;
    let lead = shown.len();
    shown.push_str(&text[from..to]);
    if to < end {
        shown.push('…');
    }
    let shown = Shown {
        name: name.to_string(),
        text: Arc::new(shown),
        first_line: line.saturating_sub(1),
        first_column: from - start,
        lead,
    };
    (shown, at, span_end - offset)
}

/// Every problem found in one file.
#[derive(Debug)]
pub struct ScenarioErrors {
    /// The problems shown, in file order of discovery (at most [`MAX_SHOWN`]).
    pub errors: Vec<ScenarioError>,
    /// Problems found beyond those shown.
    pub hidden: usize,
}

/// The most problems of one file that are shown: a generated file with a mistake in every
/// unit would otherwise print one for each of thousands of units.
pub const MAX_SHOWN: usize = 100;

impl ScenarioErrors {
    /// A single problem.
    pub fn single(error: ScenarioError) -> Self {
        Self {
            errors: vec![error],
            hidden: 0,
        }
    }

    /// The problems found in `text` (file `file`), each located by its path, the first
    /// [`MAX_SHOWN`] of them shown.
    pub fn located(file: &str, text: &str, problems: &[Problem]) -> Self {
        let shared = Arc::new(text.to_string());
        Self {
            errors: problems
                .iter()
                .take(MAX_SHOWN)
                .map(|p| ScenarioError::at_path_in(file, &shared, p))
                .collect(),
            hidden: problems.len().saturating_sub(MAX_SHOWN),
        }
    }

    /// How many problems were found, shown or not.
    pub fn count(&self) -> usize {
        self.errors.len() + self.hidden
    }

    /// Each problem with the source line it points at, for a terminal (`color`) or a log.
    pub fn render(&self, color: bool) -> String {
        let mut out = render_diagnostics(&self.errors, color);
        if self.hidden > 0 {
            out.push_str(&format!(
                "... and {} more problem{} not shown (the first {MAX_SHOWN} are above)\n",
                self.hidden,
                if self.hidden == 1 { "" } else { "s" }
            ));
        }
        out
    }
}

/// Each diagnostic with the source line it points at, one after the other, for a terminal
/// (`color`) or a log.
pub fn render_diagnostics<D: miette::Diagnostic>(errors: &[D], color: bool) -> String {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    // No wrapping: the `file:line:col: message` line must stay whole for tools and tests.
    let handler = GraphicalReportHandler::new_themed(theme).with_width(10_000);
    let mut out = String::new();
    for e in errors {
        if handler.render_report(&mut out, e).is_err() {
            out.push_str(&e.to_string());
        }
        out.push('\n');
    }
    out
}

impl fmt::Display for ScenarioErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ScenarioErrors {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_is_shown_around_the_problem_only() {
        // "é" is two bytes: the cut must fall between characters.
        let line = format!("({}zz: 1,{})", "é".repeat(50_000), "é".repeat(50_000));
        let text = format!("// first\n{line}\n");
        let offset = text.find("zz").expect("the field");
        let (shown, at, len) = excerpt("x.ron", &text, offset, 2, 2);
        let shown = shown.text.as_str();
        assert_eq!(&shown[at..at + len], "zz");
        assert!(shown.starts_with('…') && shown.ends_with('…'));
        assert!(shown.len() < 2 * AROUND + 16, "{} bytes", shown.len());

        let shared = Arc::new(text.clone());
        let e = ScenarioError::with_span("x.ron", &shared, offset, 2, "unknown field".into());
        assert_eq!((e.line, e.column), (Some(2), Some(50_002)));
        let report = render_diagnostics(&[e], false);
        assert!(
            report.contains("× x.ron:2:50002: unknown field"),
            "{report}"
        );
        // numbered as the file's line 2, at its byte 100,002 ("é" is two bytes), as miette
        // counts columns
        assert!(report.contains("[x.ron:2:100002]"), "{report}");
        assert!(report.len() < 2_000, "{report}");
    }

    #[test]
    fn a_file_of_short_lines_is_shown_whole_around_the_problem() {
        let text = "(\n    a: 1,\n    zz: 2,\n)\n";
        let offset = text.find("zz").expect("the field");
        let shared = Arc::new(text.to_string());
        let e = ScenarioError::with_span("y.ron", &shared, offset, 2, "unknown field".into());
        let report = render_diagnostics(&[e], false);
        assert!(report.contains("[y.ron:3:5]"), "{report}");
        assert!(
            report.contains("a: 1,") && report.contains("zz: 2,"),
            "{report}"
        );
    }
}
