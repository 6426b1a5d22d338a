//! `EngineFront`: the base of `jsondrip.Parser` and `jsondrip.OutputParser`, holding the
//! engine that reads the next fragments and forwarding `feed` (and `feed_changes`, and
//! `progress`, which a typed reader calls after every fragment) to it in one native call. A
//! Python method that only delegates (`return self._engine.feed(chunk)`) costs a frame per
//! fragment, as much as the engine's own work on a 4-character fragment (#28 item 3); this is
//! that method, native. Twin: `_engine.py`'s `PythonFront` (the same rules in Python, for
//! pure builds).

use std::cell::{Cell, UnsafeCell};
use std::ffi::CStr;

use pyo3::exceptions::PyAttributeError;
use pyo3::ffi;
use pyo3::impl_::extract_argument::{FunctionDescription, NoVarargs, NoVarkeywords};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyType};
use pyo3::Borrowed;
use pyo3::{PyTraverseError, PyVisit};

use super::engine::{EngineState, NativeEngine};

/// The base of `jsondrip.Parser` and `jsondrip.OutputParser`: holds the engine that reads
/// the next fragments (`_engine`) and forwards `feed` (and `feed_changes`) to it.
///
/// A subclass that sets `_hooks = True` (`OutputParser`) reads only str fragments the fast
/// way, and only while `_engine` is set; it takes over in Python where the engine stops:
/// `_feed_slow(chunk)` without an engine or for bytes, `_feed_ended(chunk)` when the engine's
/// `feed` returned `NotImplemented` (its document ended in `chunk`), `_feed_failed(chunk,
/// error)` when it raised.
#[pyclass(frozen, subclass, weakref, module = "jsondrip._native")]
pub struct EngineFront {
    /// `_engine`: read (a reference taken for the call) and replaced whole, only with the
    /// interpreter held. Not pyo3's borrow flag: its atomic `cmpxchg` and decrement were a
    /// tenth of an empty `feed` (#28 item 3), for a field no call keeps a reference into.
    engine: UnsafeCell<Option<Py<PyAny>>>,
    /// `_engine` is a `NativeEngine`: found once when it is set, not at every call.
    native: Cell<bool>,
    hooks: Cell<bool>,
}

// SAFETY: the cells are read and written only by this class's methods, which pyo3 runs with
// the interpreter attached; the module is `gil_used` (mod.rs), so on a free-threaded build its
// import turns the GIL back on: one thread at a time. No method keeps a reference into
// `engine` across a call that can run Python code: `held` clones the engine out, and the
// setter swaps the new one in before the old one is released (its release may run a
// finalizer, which may set `_engine` again).
unsafe impl Sync for EngineFront {}

/// A front's engine for the length of one call: a reference of its own (the call may run
/// Python code that sets `_engine` again), as a `Bound`, whose release is a plain decref (a
/// `Py`'s drop first reads pyo3's thread-local attach count).
enum Target<'py> {
    /// A native engine: fed without a Python call.
    Native(Bound<'py, NativeEngine>),
    /// Any other (the twin's, `multiple=`'s reader): its methods called through Python.
    Other(Bound<'py, PyAny>),
}

#[pymethods]
impl EngineFront {
    /// Takes any arguments, for the subclass's `__init__` (which sets `_engine`).
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(_args: &Bound<'_, PyAny>, _kwargs: Option<&Bound<'_, PyAny>>) -> Self {
        EngineFront {
            engine: UnsafeCell::new(None),
            native: Cell::new(false),
            hooks: Cell::new(false),
        }
    }

    /// The engine that reads the next fragments (`jsondrip._engine.Engine`), or None.
    #[getter(_engine)]
    fn engine(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.held(py).map(Bound::unbind)
    }

    #[setter(_engine)]
    fn set_engine(&self, py: Python<'_>, engine: Option<Py<PyAny>>) {
        let native = engine
            .as_ref()
            .is_some_and(|engine| engine.bind(py).is_instance_of::<NativeEngine>());
        self.native.set(native);
        // SAFETY: see the `Sync` impl: no reference into the cell is alive here, and the old
        // engine is released after the swap, when the cell no longer holds it.
        let old = unsafe { std::mem::replace(&mut *self.engine.get(), engine) };
        drop(old);
    }

    /// Whether the subclass takes over where the engine stops (see the class).
    #[getter(_hooks)]
    fn hooks(&self) -> bool {
        self.hooks.get()
    }

    #[setter(_hooks)]
    fn set_hooks(&self, hooks: bool) {
        self.hooks.set(hooks);
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        // SAFETY: the collector runs with the interpreter held, and no method of this class
        // holds a reference into the cell while Python code (the collector) can run.
        if let Some(engine) = unsafe { &*self.engine.get() } {
            visit.call(engine)?;
        }
        Ok(())
    }

    fn __clear__(&self, py: Python<'_>) {
        self.set_engine(py, None);
    }
}

impl EngineFront {
    /// `feed(chunk)` (its docstring: `FEED`'s).
    fn feed(slf: &Bound<'_, Self>, chunk: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let front = slf.get();
        let engine = front.target_or_none(py);
        let name: MethodName = |py| intern!(py, "feed");
        if !front.hooks.get() {
            let engine = engine.ok_or_else(no_engine)?;
            return forward(&engine, chunk, name, EngineState::feed_value);
        }
        let engine = match engine {
            Some(engine) if chunk.is_exact_instance_of::<PyString>() => engine,
            _ => {
                return Ok(slf
                    .call_method1(intern!(py, "_feed_slow"), (chunk,))?
                    .unbind())
            }
        };
        match forward(&engine, chunk, name, EngineState::feed_value) {
            Ok(value) if !value.is(py.NotImplemented()) => Ok(value),
            Ok(_) => Ok(slf
                .call_method1(intern!(py, "_feed_ended"), (chunk,))?
                .unbind()),
            Err(error) => Ok(slf
                .call_method1(intern!(py, "_feed_failed"), (chunk, error.into_value(py)))?
                .unbind()),
        }
    }

    /// `feed_changes(chunk)` (its docstring: `FEED_CHANGES`'s).
    fn feed_changes(&self, py: Python<'_>, chunk: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let engine = self.target(py)?;
        let name: MethodName = |py| intern!(py, "feed_changes");
        forward(&engine, chunk, name, EngineState::feed_changes_list)
    }

    /// `progress(path=None)` (its docstring: `PROGRESS`'s).
    fn progress(&self, py: Python<'_>, path: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        let engine = self.target(py)?;
        // `intern!`: made once, not a str made and interned on every call
        let path = path.unwrap_or(intern!(py, "").as_any());
        let name: MethodName = |py| intern!(py, "progress");
        forward(&engine, path, name, EngineState::progress_at)
    }

    /// `_engine`, a reference of the caller's own, or None.
    fn held<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        // SAFETY: see the `Sync` impl: the shared reference ends with the clone (an incref,
        // which runs no Python code).
        unsafe { &*self.engine.get() }
            .as_ref()
            .map(|engine| engine.bind(py).clone())
    }

    /// The engine for one call, or None.
    fn target_or_none<'py>(&self, py: Python<'py>) -> Option<Target<'py>> {
        let engine = self.held(py)?;
        Some(if self.native.get() {
            // SAFETY: `native` was set with this engine, found an instance of NativeEngine.
            Target::Native(unsafe { engine.cast_into_unchecked::<NativeEngine>() })
        } else {
            Target::Other(engine)
        })
    }

    /// The engine for one call, or the AttributeError of a front without one.
    fn target<'py>(&self, py: Python<'py>) -> PyResult<Target<'py>> {
        self.target_or_none(py).ok_or_else(no_engine)
    }
}

/// The error of a front whose `_engine` is not set (as reading the attribute would raise).
fn no_engine() -> PyErr {
    PyAttributeError::new_err("_engine")
}

type NativeCall =
    for<'py> fn(&mut EngineState, Python<'py>, &Bound<'py, PyAny>) -> PyResult<Py<PyAny>>;

/// The name of the method that `forward` calls on an engine that is not native (interned
/// only then).
type MethodName = for<'py> fn(Python<'py>) -> &'py Bound<'py, PyString>;

/// Calls the engine's method `name` with `chunk`: a native engine directly, any other (the
/// twin's, `multiple=`'s reader) through Python.
fn forward(
    engine: &Target<'_>,
    chunk: &Bound<'_, PyAny>,
    name: MethodName,
    native: NativeCall,
) -> PyResult<Py<PyAny>> {
    match engine {
        Target::Native(engine) => native(&mut *engine.get().enter()?, engine.py(), chunk),
        Target::Other(engine) => Ok(engine.call_method1(name(engine.py()), (chunk,))?.unbind()),
    }
}

/// The docstrings of the front's per-fragment methods, each after its text signature (the
/// first line, up to `--`, is what `inspect.signature` and `help` read).
const FEED: &CStr = c"feed($self, chunk)
--

Read a fragment (str, or UTF-8 bytes) and return the current best-effort value.

Raises `JSONDecodeError` as soon as the text cannot be the start of a valid document,
and again on every later call. With `schema=`, raises `SchemaViolation` as soon as
the text cannot be completed into a document the schema accepts (and again later).";

const FEED_CHANGES: &CStr = c"feed_changes($self, chunk)
--

Read a fragment like `feed`, and return the changes it made to the value.

Each is a `Change(op, path, value)` with a JSON Pointer `path`: `add` (a new property,
element or root, containers announced empty), `append` (text added to a string:
`value` is only the new text), `replace` (a value set anew: a repeated key, or in
jiter mode a number whose digits grew) and, in jiter mode only, `remove` (a number
taken back). `apply_changes` replays them. A string growing in this mode costs only
its new text: its slot in the live value is brought up to date when `value` is read.";

const PROGRESS: &CStr = c"progress($self, path=None)
--

The typed view of the value at a JSON Pointer `path` (needs `schema=`): whether it
is missing, still arriving or final (and valid), its live value, and for an enum
string still arriving the members it can still become. After a `SchemaViolation` it
raises that violation again.";

/// Puts the front's per-fragment methods (`feed`, `feed_changes`, `progress`) on the class,
/// once, when the module is made (mod.rs): CPython method descriptors of our own over pyo3's
/// trampoline, in place of `#[pymethods]`' entries (#28 item 3).
///
/// What `#[pymethods]` would add per call and these do not: pyo3's argument parsing (a
/// `FunctionDescription` walked for one positional argument) and its receiver check (`slf`
/// cast to the class, a subclass's MRO walked again after CPython's descriptor did). Counted
/// (callgrind, LTO-off release builds, 20,000 records fragments, the whole program less a
/// `dict.get` loop): `feed` 1100 → 930 instructions a call, `feed_changes` 2095 → 1906,
/// `progress("/records")` 368 → 161, `OutputParser.feed` 1065 → 910.
///
/// What they keep is pyo3's own: the trampoline pyo3 builds every method on
/// (`get_trampoline_function!(fastcall_cfunction_with_keywords, ..)`, the function its macros
/// emit for these methods), which raises pyo3's attach count for the call (the engine's
/// builder drops `Py`s, an open container's when it closes: at a count of 0 they would go to
/// pyo3's deferred pool, not be freed), catches a panic into a `PanicException` (never
/// unwinding into C) and restores an error with `PyErr::restore`. The calling convention is
/// the one pyo3 gave these methods (`METH_FASTCALL | METH_KEYWORDS`), so `feed(chunk=...)`,
/// `progress(path=...)` and every error for wrong arguments are as before: any call but one
/// positional argument is parsed by pyo3's own `FunctionDescription`.
///
/// `pyo3::impl_` (the trampoline, `FunctionDescription`) is the module pyo3's macros expand
/// to: public, documented hidden, outside pyo3's semver promise. Cargo.toml takes pyo3 0.30.x;
/// an upgrade that moves it fails to compile here, and any pyo3 upgrade should read
/// `impl_/trampoline.rs` again (tests/test_backends.py's count test fails if the attach count
/// is no longer raised).
/// A trampoline of our own would have to raise the attach count with `Python::attach`, which
/// from a C caller takes `PyGILState_Ensure` and `Release`: counted, 1022 instructions a
/// `feed`, 92 more than pyo3's.
pub(super) fn add_entries(class: &Bound<'_, PyType>) -> PyResult<()> {
    let entries: [(&CStr, &CStr, ffi::PyCFunctionFastWithKeywords); 3] = [
        (
            c"feed",
            FEED,
            pyo3::get_trampoline_function!(fastcall_cfunction_with_keywords, feed_entry),
        ),
        (
            c"feed_changes",
            FEED_CHANGES,
            pyo3::get_trampoline_function!(fastcall_cfunction_with_keywords, feed_changes_entry),
        ),
        (
            c"progress",
            PROGRESS,
            pyo3::get_trampoline_function!(fastcall_cfunction_with_keywords, progress_entry),
        ),
    ];
    for (name, doc, entry) in entries {
        // The descriptor points at its definition for as long as it lives: a definition of its
        // own, leaked (three per process: pyo3 makes a module once per process).
        let def = Box::leak(Box::new(ffi::PyMethodDef {
            ml_name: name.as_ptr(),
            ml_meth: ffi::PyMethodDefPointer {
                PyCFunctionFastWithKeywords: entry,
            },
            ml_flags: ffi::METH_FASTCALL | ffi::METH_KEYWORDS,
            ml_doc: doc.as_ptr(),
        }));
        // SAFETY: `class` is a live type object and `def` a valid definition that lives
        // forever; the answer is a new reference or NULL with an exception set.
        let descriptor = unsafe {
            Bound::from_owned_ptr_or_err(
                class.py(),
                ffi::PyDescr_NewMethod(class.as_type_ptr(), def),
            )?
        };
        class.setattr(name.to_str().expect("ASCII names"), descriptor)?;
    }
    Ok(())
}

/// `FunctionDescription`s of the three methods, for the calls that are not one positional
/// argument: the same errors pyo3 raised for them (`EngineFront.feed() missing 1 required
/// positional argument: 'chunk'`...).
const FEED_ARGS: FunctionDescription =
    FunctionDescription::new(Some("EngineFront"), "feed", &["chunk"], 0, 1, &[]);
const FEED_CHANGES_ARGS: FunctionDescription =
    FunctionDescription::new(Some("EngineFront"), "feed_changes", &["chunk"], 0, 1, &[]);
const PROGRESS_ARGS: FunctionDescription =
    FunctionDescription::new(Some("EngineFront"), "progress", &["path"], 0, 0, &[]);

/// The argument of a one-argument method in CPython's fastcall convention: a call with one
/// positional argument (every per-fragment call) reads it from `args`; any other is parsed
/// by pyo3's `FunctionDescription` (keywords, the errors). None when an optional argument
/// was not passed.
///
/// # Safety
///
/// `args`, `nargs` and `kwnames` are a fastcall call's, as CPython passes them to a
/// `METH_FASTCALL | METH_KEYWORDS` function, with the interpreter attached.
#[inline(always)]
unsafe fn one_argument<'py>(
    py: Python<'py>,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
    description: &FunctionDescription,
) -> PyResult<Option<Borrowed<'py, 'py, PyAny>>> {
    if nargs == 1 && kwnames.is_null() {
        // SAFETY: one positional argument: `args[0]` is a valid object that the caller holds
        // for the length of the call.
        return Ok(Some(unsafe { Borrowed::from_ptr(py, *args) }));
    }
    // SAFETY: as this function's.
    unsafe { parsed_argument(py, args, nargs, kwnames, description) }
}

/// `one_argument`'s other calls, by pyo3's parser.
///
/// # Safety
///
/// As `one_argument`'s.
#[cold]
#[inline(never)]
unsafe fn parsed_argument<'py>(
    py: Python<'py>,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
    description: &FunctionDescription,
) -> PyResult<Option<Borrowed<'py, 'py, PyAny>>> {
    let mut output = [None];
    // SAFETY: the arguments are a fastcall call's (this function's contract); `output` has
    // one slot for the description's one parameter.
    unsafe {
        description.extract_arguments_fastcall::<NoVarargs, NoVarkeywords>(
            py,
            args,
            nargs,
            kwnames,
            &mut output,
        )?;
    }
    Ok(output[0])
}

/// The receiver of a method of the front, as the class.
///
/// # Safety
///
/// `slf` is the receiver CPython passes to a method of `EngineFront`'s descriptors
/// (`add_entries`), with the interpreter attached. CPython checks it: a method descriptor
/// called unbound (`Parser.feed(p, chunk)`) or bound (`p.feed`, `Parser.feed.__get__(p)`)
/// raises TypeError for an object that is not an instance of the descriptor's class
/// (`descr_check`, Objects/descrobject.c), before the function is reached.
#[inline(always)]
unsafe fn receiver<'py>(
    py: Python<'py>,
    slf: *mut ffi::PyObject,
) -> Borrowed<'py, 'py, EngineFront> {
    // SAFETY: as this function's: a live instance of the class (or a subclass), borrowed
    // from the caller for the call.
    unsafe { Borrowed::from_ptr(py, slf).cast_unchecked::<EngineFront>() }
}

/// `EngineFront.feed`'s entry (`add_entries`: pyo3's trampoline calls it).
///
/// # Safety
///
/// Called only by CPython through `EngineFront`'s `feed` descriptor (`receiver`,
/// `one_argument`).
unsafe fn feed_entry(
    py: Python<'_>,
    slf: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> PyResult<*mut ffi::PyObject> {
    // SAFETY: a fastcall call of the `feed` descriptor (this function's contract).
    let chunk = unsafe { one_argument(py, args, nargs, kwnames, &FEED_ARGS) }?;
    let chunk = chunk.expect("a required argument");
    // SAFETY: as above.
    let slf = unsafe { receiver(py, slf) };
    EngineFront::feed(&slf, &chunk).map(Py::into_ptr)
}

/// `EngineFront.feed_changes`'s entry (as `feed_entry`).
///
/// # Safety
///
/// As `feed_entry`'s, for the `feed_changes` descriptor.
unsafe fn feed_changes_entry(
    py: Python<'_>,
    slf: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> PyResult<*mut ffi::PyObject> {
    // SAFETY: a fastcall call of the `feed_changes` descriptor (this function's contract).
    let chunk = unsafe { one_argument(py, args, nargs, kwnames, &FEED_CHANGES_ARGS) }?;
    let chunk = chunk.expect("a required argument");
    // SAFETY: as above.
    let slf = unsafe { receiver(py, slf) };
    slf.get().feed_changes(py, &chunk).map(Py::into_ptr)
}

/// `EngineFront.progress`'s entry (as `feed_entry`): `path` None or left out is `""`.
///
/// # Safety
///
/// As `feed_entry`'s, for the `progress` descriptor.
unsafe fn progress_entry(
    py: Python<'_>,
    slf: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> PyResult<*mut ffi::PyObject> {
    // SAFETY: a fastcall call of the `progress` descriptor (this function's contract).
    let path = unsafe { one_argument(py, args, nargs, kwnames, &PROGRESS_ARGS) }?;
    let path = path.filter(|path| !path.is_none());
    // SAFETY: as above.
    let slf = unsafe { receiver(py, slf) };
    slf.get().progress(py, path.as_deref()).map(Py::into_ptr)
}
