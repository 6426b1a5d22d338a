//! Vertex AI's streamed function-call arguments (`partialArgs`) written as JSON text, without
//! Python. Twin: `PartialArgsWriter` in `src/jsondrip/toolcalls/partial_args.py`, whose
//! docstring gives the rules: pieces in document order, each adding the text that closes and
//! opens containers on the way to its path, then its leaf; a path that cannot be written
//! without retracting is an error whose message is the twin's, word for word.
//!
//! This writer takes only what it can write exactly as the twin does ([`Piece`]s read by
//! `pieces.rs`: plain paths, camelCase keys, numbers it prints as Python's `repr`); the readers
//! answer "the long way" for anything else, before this writer changes, and the Python side
//! then hands this writer's [`State`] to the twin, which decides.

use std::collections::HashSet;

use super::pieces::{read_pieces, Leaf, Piece, Step};
use super::ChunkMatch;

/// What a chunk or an array of pieces came to.
#[derive(Debug, PartialEq, Eq)]
pub enum Written {
    /// The JSON text the pieces add.
    Text(String),
    /// Not read: the twin decides; this writer has not changed.
    LongWay,
    /// A piece out of document order: the twin's `ValueError` message (the call fails).
    Invalid(String),
}

/// A member of a path: an object key or an array index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Key {
    Name(String),
    Index(u64),
}

impl From<Step<'_>> for Key {
    fn from(step: Step<'_>) -> Key {
        match step {
            Step::Name(name) => Key::Name(name.to_owned()),
            Step::Index(index) => Key::Index(index),
        }
    }
}

/// The path step names this member.
fn names(step: Step<'_>, key: &Key) -> bool {
    match (step, key) {
        (Step::Name(a), Key::Name(b)) => a == b,
        (Step::Index(a), Key::Index(b)) => a == *b,
        _ => false,
    }
}

/// An open container: an array or an object, the members written, an object's keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Container {
    pub is_array: bool,
    pub count: u64,
    pub keys: Keys,
}

impl Container {
    pub fn new(is_array: bool) -> Self {
        Container {
            is_array,
            count: 0,
            keys: Keys::default(),
        }
    }
}

/// An object's keys: a short list while there are few (most objects: no hashing), a hash set
/// past [`Keys::FEW`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Keys {
    few: Vec<String>,
    many: HashSet<String>,
}

impl Keys {
    const FEW: usize = 16;

    pub fn contains(&self, key: &str) -> bool {
        if self.many.is_empty() {
            self.few.iter().any(|k| k == key)
        } else {
            self.many.contains(key)
        }
    }

    pub fn insert(&mut self, key: String) {
        if self.many.is_empty() && self.few.len() < Self::FEW {
            self.few.push(key);
            return;
        }
        self.many.extend(self.few.drain(..));
        self.many.insert(key);
    }

    pub fn iter(&self) -> impl Iterator<Item = &String> {
        self.few.iter().chain(self.many.iter())
    }
}

/// The writer's whole state, as the twin keeps it (its `state()` / `from_state`): the open
/// containers root first, the path of the innermost open one, the path of a string still
/// continuing, and whether the call ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct State {
    pub containers: Vec<Container>,
    pub open: Vec<Key>,
    pub string: Option<Vec<Key>>,
    pub ended: bool,
}

/// One call's writer.
#[derive(Default)]
pub struct PartialArgs {
    pub state: State,
}

impl PartialArgs {
    pub fn new() -> Self {
        PartialArgs::default()
    }

    /// A whole SSE chunk framed as `frame`'s around the `partialArgs` array: the text its
    /// pieces add, read and written in one pass; the long way when the chunk is framed
    /// otherwise or holds what [`read_pieces`] leaves to the twin.
    pub fn feed_chunk(&mut self, frame: &ChunkMatch, chunk: &[u8]) -> Written {
        let Some(start) = frame.value_start(chunk) else {
            return Written::LongWay;
        };
        match read_pieces(chunk, start) {
            Some((pieces, end)) if frame.suffix_at(chunk, end) => self.written(&pieces),
            _ => Written::LongWay,
        }
    }

    /// The JSON text of a `partialArgs` array (and nothing after it): what its pieces add.
    pub fn feed_json(&mut self, json: &[u8]) -> Written {
        if std::str::from_utf8(json).is_err() {
            return Written::LongWay;
        }
        match read_pieces(json, 0) {
            Some((pieces, end)) if end == json.len() => self.written(&pieces),
            _ => Written::LongWay,
        }
    }

    /// [`PartialArgs::write`] as a [`Written`].
    pub fn written(&mut self, pieces: &[Piece]) -> Written {
        let mut out = String::new();
        match self.write(pieces, &mut out) {
            Ok(()) => Written::Text(out),
            Err(message) => Written::Invalid(message),
        }
    }

    /// The text the pieces add, or the twin's `ValueError` message for a piece out of
    /// document order (the writer is then spent: the call fails).
    pub fn write(&mut self, pieces: &[Piece], out: &mut String) -> Result<(), String> {
        for piece in pieces {
            self.piece(piece, out)?;
        }
        Ok(())
    }

    /// The call ended: the text that closes whatever is open (`{}` if nothing came).
    pub fn end(&mut self) -> String {
        let state = &mut self.state;
        state.ended = true;
        let mut out = String::new();
        if state.string.take().is_some() {
            out.push('"');
        }
        if state.containers.is_empty() {
            out.push('{');
            state.containers.push(Container::new(false));
        }
        for container in state.containers.iter().rev() {
            out.push(if container.is_array { ']' } else { '}' });
        }
        state.containers.clear();
        state.open.clear();
        out
    }

    fn piece(&mut self, piece: &Piece, out: &mut String) -> Result<(), String> {
        let path = &piece.path[..];
        match &piece.leaf {
            Leaf::Nothing => {}
            Leaf::Literal(literal) => self.leaf(path, |out| out.push_str(literal), out)?,
            Leaf::Str(text) => {
                let continues = self
                    .state
                    .string
                    .as_deref()
                    .is_some_and(|open| same(path, open));
                if continues {
                    escape_into(text, out);
                } else {
                    self.leaf(
                        path,
                        |out| {
                            out.push('"');
                            escape_into(text, out);
                        },
                        out,
                    )?;
                    self.state.string = Some(path.iter().map(|&s| Key::from(s)).collect());
                }
                if !piece.more {
                    out.push('"');
                    self.state.string = None;
                }
            }
        }
        Ok(())
    }

    /// Writes the leaf at `path`: closes the open string, closes and opens containers on the
    /// way (the twin's `_leaf`).
    fn leaf(
        &mut self,
        path: &[Step],
        literal: impl FnOnce(&mut String),
        out: &mut String,
    ) -> Result<(), String> {
        let state = &mut self.state;
        if state.string.take().is_some() {
            out.push('"');
        }
        if state.containers.is_empty() {
            if let Step::Index(_) = path[0] {
                return Err(format!(
                    "{}: the arguments are an object, not an array",
                    show(path)
                ));
            }
            out.push('{');
            state.containers.push(Container::new(false));
        }
        let parents = &path[..path.len() - 1];
        if same(parents, &state.open) {
            let container = state.containers.last_mut().expect("the root is open");
            member(container, path[path.len() - 1], path, out)?;
            literal(out);
            return Ok(());
        }
        let shared = parents
            .iter()
            .zip(&state.open)
            .take_while(|(step, key)| names(**step, key))
            .count();
        for _ in shared..state.open.len() {
            let container = state.containers.pop().expect("one per open key");
            state.open.pop();
            out.push(if container.is_array { ']' } else { '}' });
        }
        for depth in shared..path.len() {
            let container = state.containers.last_mut().expect("the root is open");
            member(container, path[depth], path, out)?;
            if depth == path.len() - 1 {
                literal(out);
                break;
            }
            let is_array = matches!(path[depth + 1], Step::Index(_));
            out.push(if is_array { '[' } else { '{' });
            state.containers.push(Container::new(is_array));
            state.open.push(Key::from(path[depth]));
        }
        Ok(())
    }
}

/// The separator and key before a new member of `container`, or the twin's error when `key`
/// cannot be that new member (the twin's `_member`).
fn member(
    container: &mut Container,
    key: Step,
    path: &[Step],
    out: &mut String,
) -> Result<(), String> {
    if container.is_array {
        if key != Step::Index(container.count) {
            let shown = match key {
                Step::Name(name) => name.to_owned(),
                Step::Index(index) => index.to_string(),
            };
            return Err(format!(
                "{}: element {shown} cannot follow {} element(s) already written",
                show(path),
                container.count
            ));
        }
        if container.count > 0 {
            out.push_str(", ");
        }
    } else {
        let Step::Name(name) = key else {
            return Err(format!("{}: an index where an object is open", show(path)));
        };
        if container.keys.contains(name) {
            // a plain path's key is an ASCII identifier: Python's repr is the key in quotes
            return Err(format!(
                "{}: the key '{name}' was already written",
                show(path)
            ));
        }
        container.keys.insert(name.to_owned());
        if container.count > 0 {
            out.push_str(", ");
        }
        out.push('"');
        escape_into(name, out);
        out.push_str("\": ");
    }
    container.count += 1;
    Ok(())
}

fn same(path: &[Step], keys: &[Key]) -> bool {
    path.len() == keys.len() && path.iter().zip(keys).all(|(step, key)| names(*step, key))
}

/// A path as the twin's messages show it: `$.a[0].b`.
fn show(path: &[Step]) -> String {
    let mut out = String::from("$");
    for step in path {
        match step {
            Step::Name(name) => {
                out.push('.');
                out.push_str(name);
            }
            Step::Index(index) => {
                out.push('[');
                out.push_str(&index.to_string());
                out.push(']');
            }
        }
    }
    out
}

/// `text` escaped as `json.dumps(text, ensure_ascii=False)` escapes it, without the quotes:
/// quotes, backslashes and control characters only.
pub fn escape_into(text: &str, out: &mut String) {
    let bytes = text.as_bytes();
    let mut start = 0;
    for (at, &b) in bytes.iter().enumerate() {
        let escaped: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&text[start..at]);
        if escaped.is_empty() {
            out.push_str(&format!("\\u{b:04x}"));
        } else {
            out.push_str(escaped);
        }
        start = at + 1;
    }
    out.push_str(&text[start..]);
}
