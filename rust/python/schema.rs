//! The schema check of a native stream: the core's checker (`crate::core::schema`) fed the
//! machine's positioned events by a sink that builds as it checks (`CheckedSink`), its oracle
//! answered by the callables the schema brings with its node table
//! (`jsondrip.schema.table.HOOKS`: the same Python the twin calls), its violation raised as
//! the `SchemaViolation` class given there, and the typed view (`progress`) read without
//! walking the document. Twin: `src/jsondrip/twin/schema/checked.py`.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use pyo3::{PyTraverseError, PyVisit};
use std::sync::Arc;

use super::builder::PySink;
use crate::core::schema::checker::{AtomText, Failure, Kind, Raised};
use crate::core::schema::node::FastMap;
use crate::core::schema::{
    prepare, Bound as Limit, Checker, Enum, Evaluated, Fail, Node, Oracle, Scalar, Seg, Shown,
    Violation,
};
use crate::core::{Atom, Cursor, Sink, Stop, Str};

/// The Python callables and classes a schema brings with its node table
/// (`jsondrip.schema.table.NativeHooks`), read once per engine.
struct Hooks {
    /// `(node, text) -> bool`: `pattern` on a complete string.
    pattern_matches: Py<PyAny>,
    /// `(node, index, key) -> bool`: a `patternProperties` regex on a key.
    pattern_property_matches: Py<PyAny>,
    /// `(node, text) -> None | (keyword, detail)`: a complete number or literal.
    atom_failure: Py<PyAny>,
    /// `(node, value) -> None | (keyword, detail)`: a complete array or object.
    container_failure: Py<PyAny>,
    /// `(text) -> value`: a number or literal as json reads it (for messages).
    atom_value: Py<PyAny>,
    /// `SchemaViolation(message, path=, pos=, keyword=)`.
    violation: Py<PyAny>,
    /// `((state, value, candidates)) -> Progress`.
    make_progress: Py<PyAny>,
    /// The three states of a `Progress`: missing, arriving, final.
    states: [Py<PyAny>; 3],
    /// `(path) -> list[str]`: a JSON Pointer's tokens (ValueError for a bad one).
    split_pointer: Py<PyAny>,
    /// `(root, tokens) -> value | MISSING`: Python's own lookup, for non-ASCII digits.
    lookup: Py<PyAny>,
}

impl Hooks {
    fn new(hooks: &Bound<'_, PyAny>) -> PyResult<Self> {
        let get = |name: &str| hooks.getattr(name).map(Bound::unbind);
        let (missing, arriving, final_): (Py<PyAny>, Py<PyAny>, Py<PyAny>) =
            hooks.getattr("states")?.extract()?;
        Ok(Hooks {
            pattern_matches: get("pattern_matches")?,
            pattern_property_matches: get("pattern_property_matches")?,
            atom_failure: get("atom_failure")?,
            container_failure: get("container_failure")?,
            atom_value: get("atom_value")?,
            violation: get("violation")?,
            make_progress: get("make_progress")?,
            states: [missing, arriving, final_],
            split_pointer: get("split_pointer")?,
            lookup: get("lookup")?,
        })
    }

    /// For the collector: every callable and class held.
    fn traverse(&self, visit: &PyVisit<'_>) -> Result<(), PyTraverseError> {
        for hook in [
            &self.pattern_matches,
            &self.pattern_property_matches,
            &self.atom_failure,
            &self.container_failure,
            &self.atom_value,
            &self.violation,
            &self.make_progress,
            &self.split_pointer,
            &self.lookup,
        ]
        .into_iter()
        .chain(&self.states)
        {
            visit.call(hook)?;
        }
        Ok(())
    }
}

/// Which of `Hooks::states`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Missing = 0,
    Arriving = 1,
    Final = 2,
}

// -- the node table ---------------------------------------------------------------------------

fn field<'py, T: for<'a> FromPyObject<'a, 'py>>(row: &Bound<'py, PyDict>, name: &str) -> PyResult<T>
where
    for<'a> <T as FromPyObject<'a, 'py>>::Error: Into<PyErr>,
{
    let value = row
        .get_item(name)?
        .ok_or_else(|| PyValueError::new_err(format!("schema table row without {name}")))?;
    value.extract::<T>().map_err(Into::into)
}

fn limit(value: Option<(String, Bound<'_, PyAny>)>) -> PyResult<Option<Limit>> {
    Ok(match value {
        None => None,
        Some((kind, v)) if kind == "int" => Some(Limit::Int(v.extract()?)),
        Some((_, v)) => Some(Limit::Float(v.extract()?)),
    })
}

fn node_of(row: &Bound<'_, PyDict>) -> PyResult<Node> {
    let enumeration = match row.get_item("enumeration")? {
        Some(e) if !e.is_none() => {
            let e = e.cast_into::<PyDict>()?;
            let mut scalars = Vec::new();
            for (kind, value) in field::<Vec<(String, Bound<'_, PyAny>)>>(&e, "scalars")? {
                scalars.push(match kind.as_str() {
                    "int" => Scalar::Int(value.extract()?),
                    "float" => Scalar::Float(value.extract()?),
                    "true" => Scalar::True,
                    "false" => Scalar::False,
                    _ => Scalar::Null,
                });
            }
            Some(Enum {
                is_const: field(&e, "is_const")?,
                kinds: field(&e, "kinds")?,
                strings: field(&e, "strings")?,
                scalars,
                native: field(&e, "native")?,
                shown: field(&e, "shown")?,
            })
        }
        _ => None,
    };
    let properties: Option<Vec<(Vec<u8>, usize)>> = field(row, "properties")?;
    let evaluated = match row.get_item("evaluated")? {
        Some(e) if !e.is_none() => {
            let e = e.cast_into::<PyDict>()?;
            let names: Vec<Vec<u8>> = field(&e, "names")?;
            let mut sorted = names.clone();
            sorted.sort_unstable();
            Some(Box::new(Evaluated {
                names: sorted,
                name_order: names,
                names_shown: field(&e, "names_shown")?,
                patterns: field(&e, "patterns")?,
                all_keys: field(&e, "all_keys")?,
                prefix: field(&e, "prefix")?,
                all_items: field(&e, "all_items")?,
                contains: field(&e, "contains")?,
            }))
        }
        _ => None,
    };
    Ok(Node {
        never: field(row, "never")?,
        never_keyword: field(row, "never_keyword")?,
        types: field(row, "types")?,
        types_shown: field(row, "types_shown")?,
        enumeration,
        min_length: field(row, "min_length")?,
        max_length: field(row, "max_length")?,
        pattern: field(row, "pattern")?,
        pattern_shown: field(row, "pattern_shown")?,
        minimum: limit(field(row, "minimum")?)?,
        maximum: limit(field(row, "maximum")?)?,
        exclusive_minimum: limit(field(row, "exclusive_minimum")?)?,
        exclusive_maximum: limit(field(row, "exclusive_maximum")?)?,
        minimum_shown: field(row, "minimum_shown")?,
        maximum_shown: field(row, "maximum_shown")?,
        exclusive_minimum_shown: field(row, "exclusive_minimum_shown")?,
        exclusive_maximum_shown: field(row, "exclusive_maximum_shown")?,
        numbers_native: field(row, "numbers_native")?,
        negative_breaks_minimum: field(row, "negative_breaks_minimum")?,
        negative_breaks_exclusive_minimum: field(row, "negative_breaks_exclusive_minimum")?,
        property_order: properties
            .as_ref()
            .map(|p| p.iter().map(|(k, _)| k.clone()).collect())
            .unwrap_or_default(),
        properties: properties.map(|p| p.into_iter().collect::<FastMap<_, _>>()),
        properties_shown: field(row, "properties_shown")?,
        pattern_properties: field(row, "pattern_properties")?,
        additional: field(row, "additional")?,
        closed: field(row, "closed")?,
        additional_never: field(row, "additional_never")?,
        required: field(row, "required")?,
        min_properties: field(row, "min_properties")?,
        max_properties: field(row, "max_properties")?,
        property_names: field(row, "property_names")?,
        dependent_required: field(row, "dependent_required")?,
        prefix_items: field(row, "prefix_items")?,
        items: field(row, "items")?,
        min_items: field(row, "min_items")?,
        max_items: field(row, "max_items")?,
        unique_items: field(row, "unique_items")?,
        contains: field(row, "contains")?,
        min_contains: field(row, "min_contains")?,
        max_contains: field(row, "max_contains")?,
        all_of: field(row, "all_of")?,
        any_of: field(row, "any_of")?,
        one_of: field(row, "one_of")?,
        not: field(row, "not")?,
        refs: field(row, "refs")?,
        if_: field(row, "if")?,
        then: field(row, "then")?,
        else_: field(row, "else")?,
        dependent_schemas: field(row, "dependent_schemas")?,
        unevaluated_properties: field(row, "unevaluated_properties")?,
        unevaluated_items: field(row, "unevaluated_items")?,
        evaluated,
        contains_annotates: field(row, "contains_annotates")?,
        beside: false, // set by checker::prepare
        keyed: false,
        member_order: Default::default(),
        has_object_keywords: field(row, "has_object_keywords")?,
        has_array_keywords: field(row, "has_array_keywords")?,
    })
}

// -- the check of one stream ------------------------------------------------------------------

/// A path of the typed view, split once: its tokens as bytes and as Python keys.
struct Pointer {
    path: Py<PyString>,
    tokens: Vec<Vec<u8>>,
    keys: Vec<Py<PyString>>,
}

/// A schema's node table as the native checker reads it, converted once per `Schema`
/// (`jsondrip._engine.native_schema_table`, which `Schema.native_table()` keeps): every
/// engine made with the schema shares its nodes, Python nodes and hooks, so a new stream
/// converts no row (a `Parser(schema=...)` per tool call or per document stays cheap).
#[pyclass(frozen, module = "jsondrip._native")]
pub struct SchemaTable {
    nodes: Arc<[Node]>,
    /// The Python `Node`s in the table's order, for the oracle.
    py_nodes: Py<PyList>,
    hooks: Hooks,
}

#[pymethods]
impl SchemaTable {
    /// `SchemaTable((rows, nodes, hooks))`: `jsondrip.schema.table.native_table`'s answer.
    #[new]
    fn new(table: &Bound<'_, PyAny>) -> PyResult<Self> {
        let (rows, nodes, hooks): (Bound<'_, PyList>, Bound<'_, PyList>, Bound<'_, PyAny>) =
            table.extract()?;
        let mut table = Vec::with_capacity(rows.len());
        for row in rows.iter() {
            table.push(node_of(row.cast::<PyDict>()?)?);
        }
        if table.is_empty() {
            return Err(PyValueError::new_err("an empty schema table"));
        }
        Ok(SchemaTable {
            nodes: prepare(table),
            py_nodes: nodes.unbind(),
            hooks: Hooks::new(&hooks)?,
        })
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        visit.call(&self.py_nodes)?;
        self.hooks.traverse(&visit)
    }
}

/// The schema check riding on one `NativeEngine`.
pub struct SchemaCheck {
    checker: Checker,
    /// The schema's table: the Python nodes and hooks the oracle calls.
    table: Py<SchemaTable>,
    /// The violation, raised again (a fresh copy) by every later call.
    pub failure: Option<Py<PyAny>>,
    /// What stopped the check during the current read, raised once the machine has read the
    /// whole fragment (a syntax error in it comes first): the `SchemaViolation` made (true),
    /// or the exception the oracle raised (false).
    stopped: Option<(PyErr, bool)>,
    pointer: Option<Pointer>,
    /// The last Progress made, with its state and value, returned again while they hold.
    last: Option<(State, usize, Py<PyAny>)>,
    /// When `last` is an arriving dict or list: the open frames its path needs. While the
    /// checker's low water stays at or above it, that frame stayed open (the same live
    /// container, no value replaced on the way to it): `last` holds without a lookup.
    last_open: Option<usize>,
}

impl SchemaCheck {
    /// The check of a new stream against `table` (a `SchemaTable`: `Schema.native_table()`).
    pub fn new(table: &Bound<'_, PyAny>) -> PyResult<Self> {
        let table = table.cast::<SchemaTable>()?;
        Ok(SchemaCheck {
            checker: Checker::shared(table.get().nodes.clone()),
            table: table.clone().unbind(),
            failure: None,
            stopped: None,
            pointer: None,
            last: None,
            last_open: None,
        })
    }

    /// Raises the violation again, if the check failed.
    pub fn check_failed(&self, py: Python<'_>) -> PyResult<()> {
        match &self.failure {
            Some(violation) => Err(PyErr::from_value(super::configured::fresh_copy(
                violation.bind(py),
            ))),
            None => Ok(()),
        }
    }

    /// The sink of one read (a feed or the close): it builds as `inner` does and checks.
    pub fn sink<'a, 'py>(&'a mut self, inner: PySink<'a, 'py>) -> CheckedSink<'a, 'py> {
        self.stopped = None;
        CheckedSink {
            inner,
            check: self,
            cursor: Cursor::default(),
        }
    }

    /// The read went through (no syntax error): raise what stopped the check in it, a
    /// violation kept to raise again.
    pub fn end_read(&mut self, py: Python<'_>) -> PyResult<()> {
        match self.stopped.take() {
            None => Ok(()),
            Some((error, violation)) => {
                if violation {
                    let copy = super::configured::fresh_copy(error.value(py));
                    self.failure = Some(copy.unbind());
                }
                Err(error)
            }
        }
    }

    /// The typed view of the value at `path` (see `jsondrip.schema.progress`).
    pub fn progress(
        &mut self,
        py: Python<'_>,
        root: Option<&Py<PyAny>>,
        path: &Bound<'_, PyAny>,
    ) -> PyResult<Py<PyAny>> {
        // The path a reader polls is the same object each time: an identity check first.
        let same_object = self
            .pointer
            .as_ref()
            .is_some_and(|p| p.path.as_ptr() == path.as_ptr());
        let low_water = self.checker.take_low_water();
        if same_object && self.last_open.is_some_and(|open| low_water >= open) {
            if let Some((_, _, made)) = &self.last {
                return Ok(made.clone_ref(py));
            }
        }
        self.last_open = None;
        let same = same_object || {
            let Ok(path) = path.cast::<PyString>() else {
                return Err(PyTypeError::new_err(format!(
                    "progress() takes a str path (a JSON Pointer such as '/records/0'), not {}",
                    path.get_type().name()?
                )));
            };
            self.pointer
                .as_ref()
                .is_some_and(|p| p.path.bind(py).as_any().eq(path).unwrap_or(false))
        };
        if !same {
            let path = path.cast::<PyString>()?;
            let tokens = self
                .table
                .get()
                .hooks
                .split_pointer
                .bind(py)
                .call1((path,))?;
            let tokens = tokens.cast::<PyList>()?;
            let mut bytes = Vec::new();
            let mut keys = Vec::new();
            for token in tokens.iter() {
                let token = token.cast_into::<PyString>()?;
                let encoded = token.call_method1("encode", ("utf-8", "surrogatepass"))?;
                bytes.push(encoded.cast::<PyBytes>()?.as_bytes().to_vec());
                keys.push(token.unbind());
            }
            self.pointer = Some(Pointer {
                path: path.clone().unbind(),
                tokens: bytes,
                keys,
            });
            self.last = None;
        }
        let pointer = self.pointer.as_ref().expect("set above");
        let value = lookup(py, &self.table.get().hooks, root, pointer)?;
        let arriving = if self.checker.open() {
            self.checker.arriving(&pointer.tokens)
        } else {
            None
        };
        let (state, candidates) = match arriving {
            Some(innermost) => {
                let candidates = if innermost {
                    self.checker.candidates()
                } else {
                    None
                };
                (State::Arriving, candidates)
            }
            None if value.is_none() => (State::Missing, None),
            None => (State::Final, None),
        };
        let value_ptr = value.as_ref().map_or(0, |v| v.as_ptr() as usize);
        // An arriving container is the same live object while its frame stays open.
        let container = value.as_ref().is_some_and(|v| {
            let v = v.bind(py);
            v.is_exact_instance_of::<PyDict>() || v.is_exact_instance_of::<PyList>()
        });
        let open_needed =
            (state == State::Arriving && container).then_some(pointer.tokens.len() + 1);
        if candidates.is_none() {
            if let Some((s, v, made)) = &self.last {
                if *s == state && *v == value_ptr {
                    self.last_open = open_needed;
                    return Ok(made.clone_ref(py));
                }
            }
        }
        let value = match value {
            Some(v) => v,
            None => super::configured::missing(py)?,
        };
        let candidates = match candidates {
            None => py.None(),
            Some(members) => {
                let list = PyList::empty(py);
                for m in members {
                    list.append(decode(py, m)?)?;
                }
                list.into_any().unbind()
            }
        };
        let made_candidates = !candidates.is_none(py);
        let hooks = &self.table.get().hooks;
        let state_name = hooks.states[state as usize].clone_ref(py);
        let args = PyTuple::new(py, [state_name, value, candidates])?;
        let made = hooks.make_progress.bind(py).call1((args,))?.unbind();
        if !made_candidates {
            self.last = Some((state, value_ptr, made.clone_ref(py)));
            self.last_open = open_needed;
        }
        Ok(made)
    }
}

/// The live value at the pointer's tokens, as `jsondrip.schema.progress.lookup` finds it.
fn lookup(
    py: Python<'_>,
    hooks: &Hooks,
    root: Option<&Py<PyAny>>,
    pointer: &Pointer,
) -> PyResult<Option<Py<PyAny>>> {
    let Some(root) = root else { return Ok(None) };
    let mut value = root.bind(py).clone();
    for (token, key) in pointer.tokens.iter().zip(&pointer.keys) {
        let next = if let Ok(dict) = value.cast::<PyDict>() {
            dict.get_item(key.bind(py))?
        } else if let Ok(list) = value.cast::<PyList>() {
            if !token.is_ascii() {
                // Unicode digits: Python's own rules, as the twin applies them.
                let found = hooks
                    .lookup
                    .bind(py)
                    .call1((root.bind(py), PyTuple::new(py, &pointer.keys)?))?;
                let missing = super::configured::missing(py)?;
                return Ok((!found.is(missing.bind(py))).then(|| found.unbind()));
            }
            match std::str::from_utf8(token)
                .ok()
                .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|t| t.parse::<usize>().ok())
            {
                Some(i) if i < list.len() => Some(list.get_item(i)?),
                _ => None,
            }
        } else {
            None
        };
        match next {
            Some(v) => value = v,
            None => return Ok(None),
        }
    }
    Ok(Some(value.unbind()))
}

fn decode<'py>(py: Python<'py>, bytes: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    PyBytes::new(py, bytes).call_method1("decode", ("utf-8", "surrogatepass"))
}

fn value_at<'py>(
    py: Python<'py>,
    root: Option<&Py<PyAny>>,
    path: &[Seg],
) -> PyResult<Bound<'py, PyAny>> {
    let mut value = match root {
        Some(root) => root.bind(py).clone(),
        None => return super::configured::missing(py).map(|m| m.into_bound(py)),
    };
    for seg in path {
        value = match seg {
            Seg::Key(k) => value.get_item(decode(py, k)?)?,
            Seg::Index(i) => value.get_item(*i)?,
        };
    }
    Ok(value)
}

/// `before + repr(shown) + after`, as the twin writes it (a str: paths may hold surrogates).
fn message<'py>(
    py: Python<'py>,
    hooks: &Hooks,
    root: Option<&Py<PyAny>>,
    before: &[u8],
    shown: Option<&Shown>,
    after: &[u8],
) -> PyResult<Bound<'py, PyAny>> {
    let parts = PyList::empty(py);
    parts.append(decode(py, before)?)?;
    match shown {
        None => {}
        Some(Shown::Str { text, dots }) => {
            parts.append(decode(py, text)?.repr()?)?;
            if *dots {
                parts.append("...")?;
            }
        }
        Some(Shown::Atom(text)) => {
            parts.append(hooks.atom_value.bind(py).call1((text,))?.repr()?)?;
        }
        Some(Shown::Value(path)) => parts.append(value_at(py, root, path)?.repr()?)?,
    }
    parts.append(decode(py, after)?)?;
    PyString::new(py, "").call_method1("join", (parts,))
}

/// The `SchemaViolation` for the checker's violation (`root`: the live value).
fn violation_error(
    py: Python<'_>,
    hooks: &Hooks,
    root: Option<&Py<PyAny>>,
    v: &Violation,
) -> PyResult<PyErr> {
    let message = message(py, hooks, root, &v.before, v.shown.as_ref(), &v.after)?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("path", decode(py, &v.path)?)?;
    kwargs.set_item("pos", v.pos)?;
    kwargs.set_item("keyword", &v.keyword)?;
    let violation = hooks.violation.bind(py).call((message,), Some(&kwargs))?;
    Ok(PyErr::from_value(violation))
}

/// The keywords that need Python values, answered by the schema's hooks (its
/// `jsondrip.schema.complete` functions).
struct PyOracle<'a, 'py> {
    py: Python<'py>,
    nodes: &'a Bound<'py, PyList>,
    hooks: &'a Hooks,
    root: Option<&'a Py<PyAny>>,
    error: Option<PyErr>,
}

impl PyOracle<'_, '_> {
    fn keep<T>(&mut self, result: PyResult<T>) -> Result<T, Raised> {
        result.map_err(|e| {
            self.error = Some(e);
            Raised
        })
    }

    /// `None` or `(keyword, detail)` from `complete.py`, the detail as WTF-8.
    fn failure(&mut self, answer: PyResult<Bound<'_, PyAny>>) -> Result<Failure, Raised> {
        let parsed = answer.and_then(|a| {
            if a.is_none() {
                return Ok(None);
            }
            let (keyword, detail): (String, Bound<'_, PyString>) = a.extract()?;
            let bytes = detail.call_method1("encode", ("utf-8", "surrogatepass"))?;
            Ok(Some((
                keyword,
                bytes.cast::<PyBytes>()?.as_bytes().to_vec(),
            )))
        });
        self.keep(parsed)
    }
}

impl Oracle for PyOracle<'_, '_> {
    fn pattern(&mut self, node: usize, text: &[u8]) -> Result<bool, Raised> {
        let py = self.py;
        let answer = (|| {
            let text = decode(py, text)?;
            self.hooks
                .pattern_matches
                .bind(py)
                .call1((self.nodes.get_item(node)?, text))?
                .is_truthy()
        })();
        self.keep(answer)
    }

    fn pattern_property(&mut self, node: usize, index: usize, key: &[u8]) -> Result<bool, Raised> {
        let py = self.py;
        let answer = (|| {
            let key = decode(py, key)?;
            self.hooks
                .pattern_property_matches
                .bind(py)
                .call1((self.nodes.get_item(node)?, index, key))?
                .is_truthy()
        })();
        self.keep(answer)
    }

    fn atom(&mut self, node: usize, atom: AtomText) -> Result<Failure, Raised> {
        let py = self.py;
        let answer = (|| {
            self.hooks
                .atom_failure
                .bind(py)
                .call1((self.nodes.get_item(node)?, atom.text))
        })();
        self.failure(answer)
    }

    fn container(&mut self, node: usize, path: &[Seg]) -> Result<Failure, Raised> {
        let py = self.py;
        let root = self.root;
        let answer = (|| {
            let value = value_at(py, root, path)?;
            self.hooks
                .container_failure
                .bind(py)
                .call1((self.nodes.get_item(node)?, value))
        })();
        self.failure(answer)
    }
}

/// The sink of a read with a schema: it builds as `inner` does, and hands the machine's
/// positioned events to the checker, asking the oracle with the value built so far. The
/// first failure stops the check (`SchemaCheck::stopped`) but not the machine. Twin:
/// `src/jsondrip/twin/schema/checked.py`'s `CheckedSink`.
pub struct CheckedSink<'a, 'py> {
    inner: PySink<'a, 'py>,
    check: &'a mut SchemaCheck,
    /// Where the machine counted characters last in the fragment being read.
    cursor: Cursor,
}

impl CheckedSink<'_, '_> {
    /// Runs one event on the checker, unless the check stopped; keeps what stops it.
    #[inline]
    fn event(&mut self, run: impl FnOnce(&mut Checker, &mut dyn Oracle) -> Result<(), Fail>) {
        if self.check.stopped.is_some() {
            return;
        }
        let py = self.inner.py();
        let check = &mut *self.check;
        let table = check.table.get();
        let root = self.inner.root();
        let mut oracle = PyOracle {
            py,
            nodes: table.py_nodes.bind(py),
            hooks: &table.hooks,
            root,
            error: None,
        };
        let stopped = match run(&mut check.checker, &mut oracle) {
            Ok(()) => return,
            Err(Fail::Raised) => oracle
                .error
                .take()
                .unwrap_or_else(|| PyValueError::new_err("the schema check failed")),
            Err(Fail::Violation(v)) => match violation_error(py, &table.hooks, root, &v) {
                Ok(violation) => {
                    check.stopped = Some((violation, true));
                    return;
                }
                Err(error) => error,
            },
        };
        check.stopped = Some((stopped, false));
    }
}

impl Sink for CheckedSink<'_, '_> {
    const EVENTS: bool = true;

    #[inline]
    fn cursor(&mut self) -> &mut Cursor {
        &mut self.cursor
    }

    #[inline]
    fn begin_container(&mut self, object: bool) -> Result<(), Stop> {
        self.inner.begin_container(object)
    }
    #[inline]
    fn end_container(&mut self) {
        self.inner.end_container()
    }
    #[inline]
    fn set_key(&mut self, key: Str) -> Result<(), Stop> {
        self.inner.set_key(key)
    }
    #[inline]
    fn string(&mut self, text: Str, complete: bool) -> Result<(), Stop> {
        self.inner.string(text, complete)
    }
    #[inline]
    fn atom(&mut self, atom: Atom) -> Result<(), Stop> {
        self.inner.atom(atom)
    }
    #[inline]
    fn show_tentative(&mut self, atom: Atom) -> Result<(), Stop> {
        self.inner.show_tentative(atom)
    }
    #[inline]
    fn hide_tentative(&mut self) -> Result<(), Stop> {
        self.inner.hide_tentative()
    }

    fn value_begins(&mut self, first: u8, pos: u64) {
        let (kind, negative) = Kind::of_first(first);
        self.event(|checker, oracle| checker.begin(kind, pos, negative, oracle));
    }
    fn key_begins(&mut self, pos: u64) {
        self.event(|checker, _| checker.begin_key(pos));
    }
    #[inline]
    fn string_text(&mut self, piece: &[u8], start: u64, plain: bool, closes: bool) {
        if self.check.stopped.is_none() && !self.check.checker.reads_text() {
            return; // the common string: nothing checks its text
        }
        self.event(|checker, _| checker.text(piece, start, plain, closes));
    }
    fn string_ends(&mut self, pos: u64) {
        self.event(|checker, oracle| checker.end_string(pos, oracle));
    }
    fn atom_ends(&mut self, atom: Atom, pos: u64) {
        self.event(|checker, oracle| checker.end_atom(AtomText::of(atom), pos, oracle));
    }
    fn container_ends(&mut self, pos: u64) {
        self.event(|checker, oracle| checker.end_container(pos, oracle));
    }
}
