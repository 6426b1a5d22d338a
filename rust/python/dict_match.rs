//! `DictMatcher`: is a decoded event (a dict, as boto3 yields Bedrock's) the last routed
//! fragment event again, with another fragment? The lane's check for `feed(dict)`, as
//! `ChunkMatcher` is for SSE chunks (`src/jsondrip/toolcalls/lane.py`). Twin: none; without
//! it the dicts go the long way, and `tests/toolcalls/test_lane.py` compares the two.
//!
//! The template is copied out of the event it is made from, so a caller that later changes
//! that dict changes nothing here: its dicts become a tree of keys, and its other values must
//! be immutable scalars (str, int, float, bool, None), kept by reference.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString};

/// A dict of the template: its keys and what each holds.
enum Node {
    Dict(Vec<(Py<PyString>, Node)>),
    Scalar(Py<PyAny>),
    Fragment,
}

/// An event equal to the template but for the fragment (a str at `path`) and the values of
/// `ignored` keys, which may be present or not at any level.
#[pyclass(frozen, module = "jsondrip._native")]
pub struct DictMatcher {
    template: Node,
    ignored: Vec<Py<PyString>>,
}

#[pymethods]
impl DictMatcher {
    /// `DictMatcher(event, path, ignored)`: the template is `event` with the str at the keys
    /// `path` as the fragment. TypeError if the event holds anything but dicts and scalars
    /// (a list, say), or no str at `path`: then no lane is armed.
    #[new]
    fn new(
        event: &Bound<'_, PyAny>,
        path: Vec<Bound<'_, PyString>>,
        ignored: Vec<Bound<'_, PyString>>,
    ) -> PyResult<Self> {
        let ignored: Vec<Py<PyString>> = ignored.into_iter().map(Bound::unbind).collect();
        Ok(DictMatcher {
            template: copy(event, Some(&path), &ignored)?,
            ignored,
        })
    }

    /// The fragment of `event` (the str itself) if it matches the template, else None.
    /// `head` is not read: the lane calls every matcher as it calls a `ChunkMatcher`.
    #[pyo3(signature = (event, head = None))]
    fn fragment<'py>(
        &self,
        event: &Bound<'py, PyAny>,
        head: Option<&Bound<'py, PyAny>>,
    ) -> Option<Bound<'py, PyString>> {
        let _ = head;
        let mut found = None;
        self.matches(&self.template, event, &mut found)
            .then_some(found?)
    }
}

impl DictMatcher {
    fn matches<'py>(
        &self,
        node: &Node,
        value: &Bound<'py, PyAny>,
        found: &mut Option<Bound<'py, PyString>>,
    ) -> bool {
        match node {
            Node::Fragment => match value.cast_exact::<PyString>() {
                Ok(text) => {
                    *found = Some(text.clone());
                    true
                }
                Err(_) => false,
            },
            Node::Scalar(scalar) => {
                let scalar = scalar.bind(value.py());
                scalar.get_type().is(value.get_type())
                    && PyAnyMethods::eq(scalar, value).unwrap_or(false)
            }
            Node::Dict(entries) => {
                let Ok(dict) = value.cast_exact::<PyDict>() else {
                    return false;
                };
                let extra = self
                    .ignored
                    .iter()
                    .filter(|key| dict.contains(key).unwrap_or(false))
                    .count();
                dict.len() == entries.len() + extra
                    && entries.iter().all(|(key, child)| match dict.get_item(key) {
                        Ok(Some(item)) => self.matches(child, &item, found),
                        _ => false,
                    })
            }
        }
    }
}

/// The template node of `value`; `path` (Some on the way to the fragment) names the keys
/// that lead to it.
fn copy(
    value: &Bound<'_, PyAny>,
    path: Option<&[Bound<'_, PyString>]>,
    ignored: &[Py<PyString>],
) -> PyResult<Node> {
    if let Some([]) = path {
        value.cast_exact::<PyString>()?;
        return Ok(Node::Fragment);
    }
    if let Ok(dict) = value.cast_exact::<PyDict>() {
        let mut entries = Vec::with_capacity(dict.len());
        let mut on_path = false;
        for (key, item) in dict.iter() {
            let key = key.cast_into_exact::<PyString>()?;
            if ignored.iter().any(|name| same(name.bind(key.py()), &key)) {
                continue;
            }
            let next = match path {
                Some([first, rest @ ..]) if same(first, &key) => {
                    on_path = true;
                    Some(rest)
                }
                _ => None,
            };
            entries.push((key.unbind(), copy(&item, next, ignored)?));
        }
        if path.is_some() && !on_path {
            return Err(PyTypeError::new_err("no fragment at the path"));
        }
        return Ok(Node::Dict(entries));
    }
    if path.is_some() {
        return Err(PyTypeError::new_err("no fragment at the path"));
    }
    let scalar = value.is_none()
        || value.is_exact_instance_of::<PyString>()
        || value.is_exact_instance_of::<PyInt>()
        || value.is_exact_instance_of::<PyFloat>()
        || value.is_exact_instance_of::<PyBool>();
    if !scalar {
        return Err(PyTypeError::new_err("only dicts and scalars are kept"));
    }
    Ok(Node::Scalar(value.clone().unbind()))
}

/// Two keys equal as Python compares them.
fn same(a: &Bound<'_, PyString>, b: &Bound<'_, PyString>) -> bool {
    PyAnyMethods::eq(a.as_any(), b).unwrap_or(false)
}
