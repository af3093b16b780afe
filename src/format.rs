//! Shared settings of the RON files Skirmish reads (scenarios, equipment catalogs).

/// RON parsing options for every Skirmish file: `Some(..)` may be left out around optional
/// values (`round_limit: 20`), and an enum variant wrapping a struct may be written with one
/// pair of parentheses (`Gurps(st: 12, ...)` rather than `Gurps((st: 12, ...))`).
pub fn ron_options() -> ron::Options {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .with_default_extension(ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES)
}

/// The largest file Skirmish reads (scenarios, saves, catalogs): 16 MiB, far above any
/// real one (the 24-fighter brawl is 5 KB), so that a wrong path (`/dev/zero`, a disk
/// image) gets an error instead of taking the machine's memory.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Reads a text file of at most [`MAX_FILE_BYTES`]: a regular file (or a link to one), not a
/// device, pipe or directory, read through a bounded reader so that a file growing while
/// read cannot exceed the limit either. A byte-order mark at the start (which some Windows
/// editors write) is left out: it is no part of the text, and a parser would stop at it.
/// The error says what is wrong, without the path.
pub fn read_text_file(path: &std::path::Path) -> Result<String, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read the file: {e}"))?;
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot read the file: {e}"))?;
    if !meta.is_file() {
        return Err(if meta.is_dir() {
            "cannot read the file: it is a directory".to_string()
        } else {
            "cannot read the file: not a regular file (a device, pipe or socket)".to_string()
        });
    }
    let too_big = || {
        format!(
            "cannot read the file: it is larger than {} MiB, the most Skirmish reads",
            MAX_FILE_BYTES / (1024 * 1024)
        )
    };
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_big());
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read the file: {e}"))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_big());
    }
    let mut text = String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let before = std::str::from_utf8(&e.as_bytes()[..valid]).unwrap_or_default();
        let (line, column) = line_col(before, valid);
        format!(
            "cannot read the file: not UTF-8 text (line {line}, column {column}: byte {} is \
             not valid; save it as UTF-8)",
            valid + 1
        )
    })?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}

/// A folder to read relative paths from: `dir`, or the working directory (`.`) when there
/// is none or it is empty (the parent of a bare file name).
pub fn folder(dir: Option<&std::path::Path>) -> std::path::PathBuf {
    match dir {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    }
}

/// 1-based line and column (in characters) of byte `offset` in `src`: where an error
/// points (a scenario's, a save's, a file that is not UTF-8).
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(src.len());
    while !src.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &src[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
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

/// Reads a map of a file, refusing a key written twice (serde would keep the last one and
/// say nothing): `#[serde(deserialize_with = "crate::format::unique_keys")]`. The error is
/// raised at the second key, so the file's line and column point at it.
pub fn unique_keys<'de, D, K, V>(
    deserializer: D,
) -> Result<std::collections::BTreeMap<K, V>, D::Error>
where
    D: serde::Deserializer<'de>,
    K: serde::Deserialize<'de> + Ord + fmt::Debug,
    V: serde::Deserialize<'de>,
{
    deserializer.deserialize_map(Unique(
        std::marker::PhantomData,
        |map: &std::collections::BTreeMap<K, V>, key: &K| map.contains_key(key).then(String::new),
    ))
}

/// [`unique_keys`] for a map of names that are matched ignoring case (GURPS skills and
/// catalog entries): `"Spear"` and `"spear"` are one key written twice.
pub fn unique_names<'de, D, V>(
    deserializer: D,
) -> Result<std::collections::BTreeMap<String, V>, D::Error>
where
    D: serde::Deserializer<'de>,
    V: serde::Deserialize<'de>,
{
    deserializer.deserialize_map(Unique(
        std::marker::PhantomData,
        |map: &std::collections::BTreeMap<String, V>, key: &String| {
            let first = map.keys().find(|k| k.eq_ignore_ascii_case(key))?;
            Some(if first == key {
                String::new()
            } else {
                format!(" (as {first:?}: names are matched ignoring case)")
            })
        },
    ))
}

/// The visitor of [`unique_keys`] and [`unique_names`]: a map none of whose keys the map
/// read so far already holds, by the second field (which says how it holds it: nothing
/// more for the same key, the earlier spelling for a name in another case).
struct Unique<K, V, S>(std::marker::PhantomData<(K, V)>, S);

impl<'de, K, V, S> serde::de::Visitor<'de> for Unique<K, V, S>
where
    K: serde::Deserialize<'de> + Ord + fmt::Debug,
    V: serde::Deserialize<'de>,
    S: Fn(&std::collections::BTreeMap<K, V>, &K) -> Option<String>,
{
    type Value = std::collections::BTreeMap<K, V>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a map, each key once")
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = std::collections::BTreeMap::new();
        while let Some(key) = map.next_key::<K>()? {
            if let Some(also) = (self.1)(&out, &key) {
                return Err(serde::de::Error::custom(format!(
                    "{key:?} is written twice{also}: each key once (the second would replace the first)"
                )));
            }
            let value = map.next_value()?;
            out.insert(key, value);
        }
        Ok(out)
    }
}
