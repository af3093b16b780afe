//! Scenario errors: each says which file, line and column, what is wrong and what was
//! expected, and renders with the offending source line (miette).

use super::locate::{line_col, locate, offset_of};
use crate::format::Problem;
use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, NamedSource, SourceSpan};
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
    source_code: Option<NamedSource<Arc<String>>>,
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
    fn with_span(file: &str, text: &str, offset: usize, len: usize, message: String) -> Self {
        let (line, column) = line_col(text, offset);
        let len = len.min(text.len().saturating_sub(offset));
        Self {
            file: file.to_string(),
            line: Some(line),
            column: Some(column),
            message,
            source_code: Some(NamedSource::new(file, Arc::new(text.to_string()))),
            span: Some(SourceSpan::new(offset.into(), len)),
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
        Self::with_span(file, text, start, (end - start).max(1), message)
    }

    /// A problem found by validation, located by its path in the file.
    pub fn at_path(file: &str, text: &str, problem: &Problem) -> Self {
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

/// Every problem found in one file.
#[derive(Debug)]
pub struct ScenarioErrors {
    /// The problems, in file order of discovery.
    pub errors: Vec<ScenarioError>,
}

impl ScenarioErrors {
    /// A single problem.
    pub fn single(error: ScenarioError) -> Self {
        Self {
            errors: vec![error],
        }
    }

    /// Each problem with the source line it points at, for a terminal (`color`) or a log.
    pub fn render(&self, color: bool) -> String {
        render_diagnostics(&self.errors, color)
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
