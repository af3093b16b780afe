//! Shared settings of the RON files Skirmish reads (scenarios, equipment catalogs).

/// RON parsing options for every Skirmish file: `Some(..)` may be left out around optional
/// values (`round_limit: 20`), and an enum variant wrapping a struct may be written with one
/// pair of parentheses (`Gurps(st: 12, ...)` rather than `Gurps((st: 12, ...))`).
pub fn ron_options() -> ron::Options {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .with_default_extension(ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES)
}

use std::fmt;

/// One step of a path into a file's structure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathSeg {
    /// A named field of a struct.
    Field(String),
    /// An element of a list.
    Index(usize),
    /// The value under a key of a map, by the key's text.
    Key(String),
    /// The key itself of a map entry, by the key's text.
    KeyOf(String),
}

/// Where in a file a problem is, as a path of fields, indices and keys from the top, e.g.
/// `units[3].stats.st`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Path(pub Vec<PathSeg>);

impl Path {
    /// The empty path: the whole file.
    pub fn root() -> Self {
        Self(Vec::new())
    }

    /// This path extended by a field.
    pub fn field(&self, name: &str) -> Self {
        let mut p = self.clone();
        p.0.push(PathSeg::Field(name.to_string()));
        p
    }

    /// This path extended by a list index.
    pub fn index(&self, i: usize) -> Self {
        let mut p = self.clone();
        p.0.push(PathSeg::Index(i));
        p
    }

    /// This path extended by a map key (its value).
    pub fn key(&self, key: &str) -> Self {
        let mut p = self.clone();
        p.0.push(PathSeg::Key(key.to_string()));
        p
    }

    /// This path extended to a map key itself.
    pub fn key_of(&self, key: &str) -> Self {
        let mut p = self.clone();
        p.0.push(PathSeg::KeyOf(key.to_string()));
        p
    }

    /// `self` followed by `rest`.
    pub fn join(&self, rest: &Path) -> Self {
        let mut p = self.clone();
        p.0.extend(rest.0.iter().cloned());
        p
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                PathSeg::Field(name) if i == 0 => write!(f, "{name}")?,
                PathSeg::Field(name) => write!(f, ".{name}")?,
                PathSeg::Index(n) => write!(f, "[{n}]")?,
                PathSeg::Key(k) | PathSeg::KeyOf(k) => write!(f, "[{k:?}]")?,
            }
        }
        Ok(())
    }
}

/// A problem found while checking a file's content, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Where.
    pub path: Path,
    /// What is wrong, and what was expected.
    pub message: String,
}

impl Problem {
    /// A problem at `path`.
    pub fn new(path: Path, message: impl Into<String>) -> Self {
        Self {
            path,
            message: message.into(),
        }
    }
}
