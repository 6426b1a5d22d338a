//! `PartialArgs`: one Vertex call's partialArgs writer (`crate::envelope::partial_args`) for
//! Python. Twin: `PartialArgsWriter` in `src/jsondrip/toolcalls/partial_args.py`; the two
//! meet in `toolcalls/vertex_args.py`, which hands this writer's state to the twin when a
//! piece is one this writer leaves to it (`None` from `feed` or `feed_chunk`).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyFrozenSet, PyInt, PyList, PyString, PyTuple};

use super::envelope::ChunkMatcher;
use crate::envelope::partial_args::{self as writer, Container, Key, State, Written};
use crate::envelope::pieces::plain_path;
use crate::envelope::pieces::{Leaf, Piece};
use crate::envelope::repr::float_repr;

/// The partialArgs writer of one call: `feed(entries)` (decoded pieces) and
/// `feed_chunk(matcher, chunk)` (a whole SSE chunk) give the text the pieces add, or None
/// when the twin must decide (nothing changed); a piece out of document order raises the
/// twin's `ValueError`.
#[pyclass(module = "jsondrip._native")]
pub struct PartialArgs {
    inner: writer::PartialArgs,
}

fn answer(written: Written) -> PyResult<Option<String>> {
    match written {
        Written::Text(text) => Ok(Some(text)),
        Written::LongWay => Ok(None),
        Written::Invalid(message) => Err(PyValueError::new_err(message)),
    }
}

#[pymethods]
impl PartialArgs {
    #[new]
    fn new() -> Self {
        PartialArgs {
            inner: writer::PartialArgs::new(),
        }
    }

    /// The text the entries (a list of dicts, as `json` decodes them) add; None: the twin
    /// decides.
    fn feed(&mut self, entries: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let Some(read) = read_entries(entries) else {
            return Ok(None);
        };
        let mut pieces = Vec::with_capacity(read.len());
        for (path, leaf, more) in &read {
            let Some(path) = path.to_str().ok().and_then(plain_path) else {
                return Ok(None);
            };
            let leaf = leaf.clone();
            pieces.push(Piece {
                path,
                leaf,
                more: *more,
            });
        }
        answer(self.inner.written(&pieces))
    }

    /// The text the pieces of a whole SSE chunk add, if `matcher` (a `ChunkMatcher` made in
    /// value mode: its prefix ends before the `partialArgs` array, its suffix begins after
    /// it) frames it; None: the long way.
    fn feed_chunk(&mut self, matcher: &Bound<'_, PyAny>, chunk: &[u8]) -> PyResult<Option<String>> {
        let Ok(matcher) = matcher.cast_exact::<ChunkMatcher>() else {
            return Ok(None);
        };
        answer(self.inner.feed_chunk(&matcher.get().inner, chunk))
    }

    /// The call ended: the text that closes whatever is open (`{}` if nothing came).
    fn end(&mut self) -> String {
        self.inner.end()
    }

    /// The call ended (`end()` was called).
    #[getter]
    fn ended(&self) -> bool {
        self.inner.state.ended
    }

    /// The writer's state as the twin's `state()` gives it: `(containers, open, string,
    /// ended)`, each container `(is_array, count, frozenset of keys)`.
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let state = &self.inner.state;
        let mut containers = Vec::with_capacity(state.containers.len());
        for c in &state.containers {
            let keys = PyFrozenSet::new(py, c.keys.iter())?;
            containers.push((c.is_array, c.count, keys).into_pyobject(py)?);
        }
        let string = match &state.string {
            Some(path) => keys_tuple(py, path)?.into_any(),
            None => py.None().into_bound(py),
        };
        (
            PyTuple::new(py, containers)?,
            keys_tuple(py, &state.open)?,
            string,
            state.ended,
        )
            .into_pyobject(py)
    }

    /// A writer in the state `state` (as `state()` gives it, or the twin's); UnicodeEncodeError
    /// for a key no Rust string can hold (a lone surrogate).
    #[staticmethod]
    fn from_state(state: &Bound<'_, PyAny>) -> PyResult<Self> {
        let (containers, open, string, ended): (
            Bound<'_, PyAny>,
            Bound<'_, PyAny>,
            Bound<'_, PyAny>,
            bool,
        ) = state.extract()?;
        let mut read = State {
            ended,
            ..State::default()
        };
        for container in containers.try_iter()? {
            let (is_array, count, names): (bool, u64, Bound<'_, PyAny>) = container?.extract()?;
            let mut container = Container::new(is_array);
            container.count = count;
            for name in names.try_iter()? {
                container.keys.insert(name?.extract::<String>()?);
            }
            read.containers.push(container);
        }
        read.open = read_keys(&open)?;
        if !string.is_none() {
            read.string = Some(read_keys(&string)?);
        }
        Ok(PartialArgs {
            inner: writer::PartialArgs { state: read },
        })
    }
}

fn keys_tuple<'py>(py: Python<'py>, keys: &[Key]) -> PyResult<Bound<'py, PyTuple>> {
    let mut items = Vec::with_capacity(keys.len());
    for key in keys {
        items.push(match key {
            Key::Name(name) => PyString::new(py, name).into_any(),
            Key::Index(index) => index.into_pyobject(py)?.into_any(),
        });
    }
    PyTuple::new(py, items)
}

fn read_keys(keys: &Bound<'_, PyAny>) -> PyResult<Vec<Key>> {
    let mut out = Vec::new();
    for key in keys.try_iter()? {
        let key = key?;
        out.push(if key.is_instance_of::<PyString>() {
            Key::Name(key.extract()?)
        } else {
            Key::Index(key.extract()?)
        });
    }
    Ok(out)
}

/// Each dict entry's path (a str), leaf and `willContinue`, read as the twin's `_entry` reads
/// them; entries that are not dicts are skipped, as the twin skips them. None: the twin
/// decides (see `crate::envelope::pieces` for what it decides; here also an `int` past 64
/// bits, and a `numberValue` or `stringValue` of another type, which the twin prints with
/// `repr` or `str`).
#[allow(clippy::type_complexity)]
fn read_entries<'py>(
    entries: &Bound<'py, PyAny>,
) -> Option<Vec<(Bound<'py, PyString>, Leaf, bool)>> {
    let entries = entries.cast_exact::<PyList>().ok()?;
    let mut out = Vec::with_capacity(entries.len());
    for entry in entries.iter() {
        let Ok(entry) = entry.cast_exact::<PyDict>() else {
            continue;
        };
        let mut path = None;
        let mut leaf = None;
        let mut more = false;
        for (key, value) in entry.iter() {
            let key = key.cast_exact::<PyString>().ok()?;
            let value_leaf = match key.to_str().ok()? {
                "jsonPath" => {
                    path = Some(value.cast_exact::<PyString>().ok()?.clone());
                    continue;
                }
                "willContinue" => {
                    more = value.cast_exact::<PyBool>().is_ok_and(|b| b.is_true()); // `is True`
                    continue;
                }
                "stringValue" => {
                    if value.is_none() {
                        Leaf::Str(String::new())
                    } else {
                        Leaf::Str(
                            value
                                .cast_exact::<PyString>()
                                .ok()?
                                .to_str()
                                .ok()?
                                .to_owned(),
                        )
                    }
                }
                "numberValue" => Leaf::Literal(number(&value)?),
                "boolValue" => {
                    let value = value.cast_exact::<PyBool>().ok()?.is_true();
                    Leaf::Literal(if value { "true" } else { "false" }.to_owned())
                }
                "nullValue" => Leaf::Literal("null".to_owned()),
                _ => return None,
            };
            if leaf.replace(value_leaf).is_some() {
                return None; // two values: the twin picks one
            }
        }
        out.push((path?, leaf.unwrap_or(Leaf::Nothing), more));
    }
    Some(out)
}

/// An `int` of at most 64 bits or a finite `float`, as `repr` prints it.
fn number(value: &Bound<'_, PyAny>) -> Option<String> {
    if value.is_exact_instance_of::<PyInt>() {
        return value.extract::<i64>().ok().map(|n| n.to_string());
    }
    float_repr(value.cast_exact::<PyFloat>().ok()?.value())
}
