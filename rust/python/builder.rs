//! Builds the live Python value from the core's events. Twin: `src/jsondrip/twin/builder.py`.
//!
//! Containers are created once and updated in place through the C API, so an event costs
//! work in proportion to what it adds, never to the size of the document.
//!
//! In change mode (its `Recorder` active, see `changes.rs`) every event also records a `Change`.
//! A growing string then records only its new text and its slot is left behind: it is
//! `stale` until `refresh` (when the value is read) or its end, which grow it in place.

use std::ffi::CString;

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyList, PyString};
use pyo3::{PyTraverseError, PyVisit};

use super::changes::{empty, New, Op, Recorder, Slot};
use super::keys::KeyCache;
use super::strings::{grown_string, utf8_string};
use crate::core::{Atom, Sink, Stop, Str};

/// A growing string up to this many bytes is made anew at each fragment rather than
/// appended to (`PySink::grow`): below it, decoding it whole costs less than the append's
/// extra string, stores and resize; above it the append keeps a fragment's cost in proportion
/// to the fragment.
const REBUILT_STRING_MAX: usize = 128;

/// The value under construction, kept between feeds.
pub struct Builder {
    pub root: Option<Py<PyAny>>,
    /// Open containers, innermost last, with `true` for a dict.
    containers: Vec<(Py<PyAny>, bool)>,
    /// The key read last in the innermost dict, None once a container opens or closes (its
    /// next key comes before any value); its bytes end the recorder's path.
    key: Option<Py<PyString>>,
    /// Change mode (`changes.rs`): where each open container sits (and the key's pointer
    /// token), and the changes a feed records.
    pub recorder: Recorder,
    /// Bytes of the open string already recorded as changes, and its path once made.
    recorded_len: usize,
    open_path: Option<Py<PyAny>>,
    /// The open string's slot lags behind its recorded changes.
    pub stale: bool,
    /// The string value still open, as shown, and how many bytes of its content it holds:
    /// the next one is this one plus the new bytes (one copy, as `s + chunk` costs).
    open_string: Option<(Py<PyAny>, usize)>,
    tentative_shown: bool,
    /// What the key of the tentative number held before it (None: nothing).
    tentative_prev: Option<Py<PyAny>>,
    keys: KeyCache,
    /// The Python exception that stopped the core, raised by the engine (boxed: seldom set).
    pub error: Option<Box<PyErr>>,
}

impl Builder {
    /// Shows the collector the containers of the live value it holds: a value the caller
    /// made refer back to its parser is a cycle through the engine (the twin's are plain
    /// attributes, which the collector sees anyway).
    pub fn traverse(&self, visit: &PyVisit<'_>) -> Result<(), PyTraverseError> {
        for object in self.root.iter().chain(self.tentative_prev.iter()) {
            visit.call(object)?;
        }
        for (container, _) in &self.containers {
            visit.call(container)?;
        }
        Ok(())
    }

    /// Lets go of what `traverse` shows, to break such a cycle (the engine is garbage then).
    pub fn clear(&mut self) {
        self.root = None;
        self.tentative_prev = None;
        self.containers.clear();
    }

    pub fn new() -> Self {
        Builder {
            root: None,
            containers: Vec::new(),
            key: None,
            recorder: Recorder::default(),
            recorded_len: 0,
            open_path: None,
            stale: false,
            open_string: None,
            tentative_shown: false,
            tentative_prev: None,
            keys: KeyCache::growing(3, 8), // 8 slots, up to 256 as the keys need
            error: None,
        }
    }

    /// The bytes this builder holds outside itself, the key cache's tables apart (`keys_bytes`)
    /// and Python objects apart (the value is the user's; its own size is `sys.getsizeof`'s).
    pub fn heap_bytes(&self) -> usize {
        self.containers.capacity() * std::mem::size_of::<(Py<PyAny>, bool)>()
            + self.recorder.heap_bytes()
            + self
                .error
                .as_ref()
                .map_or(0, |_| std::mem::size_of::<PyErr>())
    }

    /// The key cache's tables, in bytes.
    pub fn keys_bytes(&self) -> usize {
        self.keys.heap_bytes()
    }

    /// A sink that builds with the interpreter held.
    pub fn sink<'a, 'py>(&'a mut self, py: Python<'py>) -> PySink<'a, 'py> {
        PySink { py, b: self }
    }
}

pub struct PySink<'a, 'py> {
    py: Python<'py>,
    b: &'a mut Builder,
}

/// Where the open slot of `containers` is: its key, or its index (a new element when
/// `appending`). A function of the field, not of the builder, so that the recorder (another
/// field) can be written while it is borrowed.
fn slot_of(py: Python<'_>, containers: &[(Py<PyAny>, bool)], appending: bool) -> Slot {
    match containers.last() {
        None => Slot::Root,
        Some((_, true)) => Slot::Key,
        Some((top, false)) => {
            let len = top
                .bind(py)
                .cast::<PyList>()
                .expect("recorded as a list")
                .len();
            Slot::Index(if appending { len } else { len - 1 })
        }
    }
}

/// Turns a C API status into Result, keeping the Python exception for the engine (inline:
/// each store of a fragment's value asks, and the error is the cold path).
#[inline(always)]
fn check(py: Python<'_>, status: i32, b: &mut Builder) -> Result<(), Stop> {
    if status == 0 {
        return Ok(());
    }
    raised(py, b)
}

/// `check`'s failure: the Python exception kept for the engine.
#[cold]
#[inline(never)]
fn raised(py: Python<'_>, b: &mut Builder) -> Result<(), Stop> {
    b.error = Some(Box::new(PyErr::fetch(py)));
    Err(Stop::Raised)
}

impl<'py> PySink<'_, 'py> {
    /// The interpreter this sink builds with.
    pub fn py(&self) -> Python<'py> {
        self.py
    }

    /// The value built so far (a check that compares complete values reads them there).
    pub fn root(&self) -> Option<&Py<PyAny>> {
        self.b.root.as_ref()
    }

    pub(super) fn stop(&mut self, err: PyErr) -> Stop {
        self.b.error = Some(Box::new(err));
        Stop::Raised
    }

    /// The JSON Pointer of the open slot as a Python str.
    fn slot_path(&mut self, appending: bool) -> Result<Bound<'py, PyAny>, Stop> {
        let b = &*self.b;
        let slot = slot_of(self.py, &b.containers, appending);
        let path = b.recorder.slot_path(self.py, slot);
        path.map_err(|e| self.stop(e))
    }

    /// Records a change, in change mode.
    fn record(
        &mut self,
        op: Op,
        path: Bound<'py, PyAny>,
        value: Bound<'py, PyAny>,
    ) -> Result<(), Stop> {
        let recorded = self.b.recorder.record(self.py, op, path, value);
        recorded.map_err(|e| self.stop(e))
    }

    /// Records a value taking a new slot: `add`, or `replace` for a repeated key.
    fn record_new(&mut self, value: New<'py>) -> Result<(), Stop> {
        if !self.b.recorder.active() {
            return Ok(());
        }
        let mut replacing = false;
        if let Some((top, true)) = self.b.containers.last() {
            let key = self.b.key.as_ref().expect("a key precedes every property");
            // SAFETY: a live dict and a str key; Contains returns 1, 0 or -1 with an error.
            match unsafe { ffi::PyDict_Contains(top.as_ptr(), key.as_ptr()) } {
                1 => replacing = true,
                0 => {}
                _ => return Err(self.stop(PyErr::fetch(self.py))),
            }
        }
        let b = &mut *self.b;
        let slot = slot_of(self.py, &b.containers, true);
        let recorded = b.recorder.record_new(self.py, slot, replacing, value);
        recorded.map_err(|e| self.stop(e))
    }

    fn key_ptr(&self) -> *mut ffi::PyObject {
        self.b
            .key
            .as_ref()
            .expect("a key precedes every property")
            .as_ptr()
    }

    /// Puts `value` in the open slot: the root, a new property or a new element.
    fn insert(&mut self, value: Bound<'py, PyAny>) -> Result<(), Stop> {
        let Some((top, is_dict)) = self.b.containers.last() else {
            self.b.root = Some(value.unbind());
            return Ok(());
        };
        // SAFETY: `top` is a live dict or list (its kind recorded when it was created), the
        // key is a str, and both calls take new references, leaving ours untouched.
        let status = unsafe {
            if *is_dict {
                ffi::PyDict_SetItem(top.as_ptr(), self.key_ptr(), value.as_ptr())
            } else {
                ffi::PyList_Append(top.as_ptr(), value.as_ptr())
            }
        };
        check(self.py, status, self.b)
    }

    /// Replaces the value in the open slot (the last element, or the current key's value).
    fn replace(&mut self, value: Bound<'py, PyAny>) -> Result<(), Stop> {
        let Some((top, is_dict)) = self.b.containers.last() else {
            self.b.root = Some(value.unbind());
            return Ok(());
        };
        if *is_dict {
            return self.insert(value);
        }
        // SAFETY: `top` is a live, non-empty list (the slot was shown); SetItem steals the
        // reference that `into_ptr` hands over.
        let status = unsafe {
            let last = ffi::PyList_GET_SIZE(top.as_ptr()) - 1;
            ffi::PyList_SetItem(top.as_ptr(), last, value.into_ptr())
        };
        check(self.py, status, self.b)
    }

    fn string_object(&mut self, text: Str) -> Result<Bound<'py, PyAny>, Stop> {
        // SAFETY: the interpreter is held; a new reference, or NULL with an exception set
        // (bytes that are not WTF-8: never from the core), which `from_owned_ptr_or_err`
        // turns into the error.
        unsafe { Bound::from_owned_ptr_or_err(self.py, utf8_string(text.bytes)) }
            .map_err(|e| self.stop(e))
    }

    /// Brings a stale string slot up to date with the string's content so far.
    pub fn refresh(&mut self, text: Str) -> Result<(), Stop> {
        if !self.b.stale {
            return Ok(());
        }
        self.b.stale = false;
        let object = match self.b.open_string.take() {
            Some((previous, len)) if !text.surrogates => self.grow(previous, len, text)?,
            _ => {
                let object = self.string_object(text)?;
                self.replace(object.clone())?;
                object
            }
        };
        self.b.open_string = Some((object.unbind(), text.bytes.len()));
        Ok(())
    }

    /// The open string's slot, which shows `previous` (the first `len` bytes of `text`), made
    /// to show all of `text` (no surrogates). The slot lets go of the string first: holding
    /// its only reference, PyUnicode_Append resizes it in place (a realloc, as CPython's
    /// `s += t`, which the allocator mostly does without copying), so the growth costs the
    /// fragment, not the whole string. A string the reader still holds is copied, as it must
    /// be. Twin: `Builder.string`.
    fn grow(
        &mut self,
        previous: Py<PyAny>,
        len: usize,
        text: Str,
    ) -> Result<Bound<'py, PyAny>, Stop> {
        if text.bytes.len() <= REBUILT_STRING_MAX {
            // short: one new string and one store cost less than the fragment's own string,
            // two stores and the resize (most strings models write are short: names, enums).
            // The new string copies the shown one's characters and decodes only the new bytes.
            // let go of as a `Bound`, which needs no check that the interpreter is held
            let previous = previous.into_bound(self.py);
            // SAFETY: the interpreter is held; `previous` is the str of `text.bytes[..len]`
            // this module made (the slot's string, `open_string`), `len` a character boundary.
            let object = unsafe { grown_string(previous.as_ptr(), text.bytes, len) };
            drop(previous);
            // SAFETY: a new reference, or NULL with an exception set.
            let object = unsafe { Bound::from_owned_ptr_or_err(self.py, object) }
                .map_err(|e| self.stop(e))?;
            self.replace(object.clone())?;
            return Ok(object);
        }
        let delta = self.string_object(Str {
            bytes: text.bytes.get(len..).expect("strings only grow"),
            surrogates: false,
        })?;
        self.replace(self.py.None().into_bound(self.py))?;
        let mut joined = previous.into_ptr();
        // SAFETY: `joined` is an owned reference to a str and `delta` a live str; Append
        // replaces `joined` by a new owned reference, or NULL with an exception set,
        // releasing the old one either way.
        unsafe { ffi::PyUnicode_Append(&mut joined, delta.as_ptr()) };
        // SAFETY: an owned reference or NULL, as above.
        let joined =
            unsafe { Bound::from_owned_ptr_or_err(self.py, joined) }.map_err(|e| self.stop(e))?;
        self.replace(joined.clone())?;
        Ok(joined)
    }

    fn atom_object(&mut self, atom: Atom) -> Result<Bound<'py, PyAny>, Stop> {
        let py = self.py;
        Ok(match atom {
            Atom::Int(text) => match text.parse::<i64>() {
                Ok(small) => small.into_pyobject(py).expect("infallible").into_any(),
                Err(_) => self.big_int(text)?,
            },
            Atom::Float(text) => {
                PyFloat::new(py, text.parse().expect("the core gives numbers")).into_any()
            }
            Atom::True => true
                .into_pyobject(py)
                .expect("infallible")
                .to_owned()
                .into_any(),
            Atom::False => false
                .into_pyobject(py)
                .expect("infallible")
                .to_owned()
                .into_any(),
            Atom::Null => py.None().into_bound(py),
            Atom::NaN => PyFloat::new(py, f64::NAN).into_any(),
            Atom::Infinity => PyFloat::new(py, f64::INFINITY).into_any(),
            Atom::NegInfinity => PyFloat::new(py, f64::NEG_INFINITY).into_any(),
        })
    }

    /// An integer too big for i64: CPython parses it, within its limit on digits (past it, a
    /// positioned decode error naming the limit, as the issue of hostile input asks).
    fn big_int(&mut self, text: &str) -> Result<Bound<'py, PyAny>, Stop> {
        let digits = text.trim_start_matches('-').len();
        if digits > MIN_DIGIT_LIMIT {
            let limit = self.digit_limit()?;
            if limit > 0 && digits > limit {
                return Err(Stop::Invalid(format!(
                    "Exceeds the limit ({limit} digits) for integer string conversion: value has {digits} digits"
                )));
            }
        }
        let digits = CString::new(text).expect("number text has no NUL");
        // SAFETY: a NUL-terminated string; the result is a new reference or NULL with an
        // exception set.
        let object = unsafe { ffi::PyLong_FromString(digits.as_ptr(), std::ptr::null_mut(), 10) };
        // SAFETY: as above.
        unsafe { Bound::from_owned_ptr_or_err(self.py, object) }.map_err(|e| self.stop(e))
    }

    /// sys.get_int_max_str_digits(), read at each use (a program may change it), 0: no limit.
    fn digit_limit(&mut self) -> Result<usize, Stop> {
        let sys = self.py.import("sys").map_err(|e| self.stop(e))?;
        match sys.getattr("get_int_max_str_digits") {
            Ok(get) => get
                .call0()
                .and_then(|n| n.extract())
                .map_err(|e| self.stop(e)),
            Err(_) => Ok(0), // before Python 3.11: no limit
        }
    }
}

/// CPython's smallest allowed limit on integer digits: shorter integers never reach it.
const MIN_DIGIT_LIMIT: usize = 640;

impl Sink for PySink<'_, '_> {
    fn begin_container(&mut self, object: bool) -> Result<(), Stop> {
        self.record_new(New::Empty(object))?;
        let b = &mut *self.b;
        let slot = slot_of(self.py, &b.containers, true);
        b.recorder.open(slot);
        let container = empty(self.py, object);
        self.insert(container.clone())?;
        let containers = &mut self.b.containers;
        if containers.len() == containers.capacity() {
            // Room for two levels first (a tool call's arguments seldom nest deeper), then
            // doubling as Vec does, whose first allocation would hold four (#28).
            containers.reserve_exact(containers.capacity().max(2));
        }
        containers.push((container.unbind(), object));
        self.b.key = None;
        Ok(())
    }

    fn end_container(&mut self) {
        let keyed = self.b.key.take().is_some();
        self.b.containers.pop();
        self.b.recorder.close(keyed);
    }

    fn set_key(&mut self, key: Str) -> Result<(), Stop> {
        let object = match key.as_str() {
            Some(text) => self.b.keys.get(self.py, text),
            None => self
                .string_object(key)?
                .cast_into::<PyString>()
                .expect("decoding gives a str"),
        };
        let replacing = self.b.key.replace(object.unbind()).is_some();
        self.b.recorder.set_key(key.bytes, replacing);
        Ok(())
    }

    fn string(&mut self, text: Str, complete: bool) -> Result<(), Stop> {
        if self.b.recorder.active() {
            if self.b.open_string.is_some() {
                let delta = &text.bytes[self.b.recorded_len..];
                if !delta.is_empty() {
                    let delta = Str {
                        bytes: delta,
                        surrogates: text.surrogates,
                    };
                    // The lazy form keeps the path as bytes per change; change mode makes
                    // the path's str once per open string and shares it.
                    let kept = self.b.open_path.is_none() && {
                        let slot = slot_of(self.py, &self.b.containers, false);
                        self.b.recorder.record_pending_append(slot, delta)
                    };
                    if !kept {
                        let path = match &self.b.open_path {
                            Some(path) => path.bind(self.py).clone(),
                            None => {
                                let path = self.slot_path(false)?;
                                self.b.open_path = Some(path.clone().unbind());
                                path
                            }
                        };
                        let recorded = self.b.recorder.record_append(self.py, path, delta);
                        recorded.map_err(|e| self.stop(e))?;
                    }
                }
                self.b.recorded_len = text.bytes.len();
                if !complete {
                    // The slot waits for `refresh`: no copy of the whole string per flush.
                    self.b.stale = true;
                    return Ok(());
                }
            } else {
                let initial = self.string_object(text)?;
                self.record_new(New::Value(initial))?;
            }
        }
        self.b.recorded_len = text.bytes.len();
        self.b.stale = false;
        self.b.open_path = None;
        let shown = self.b.open_string.take();
        let object = match shown {
            Some((previous, len)) if !text.surrogates => self.grow(previous, len, text)?,
            Some(_) => {
                let object = self.string_object(text)?;
                self.replace(object.clone())?;
                object
            }
            None => {
                let object = self.string_object(text)?;
                self.insert(object.clone())?;
                object
            }
        };
        if !complete {
            self.b.open_string = Some((object.unbind(), text.bytes.len()));
        }
        Ok(())
    }

    fn atom(&mut self, atom: Atom) -> Result<(), Stop> {
        let object = self.atom_object(atom)?;
        if self.b.tentative_shown {
            self.b.tentative_shown = false;
            self.b.tentative_prev = None;
            let path = self.slot_path(false)?;
            self.record(Op::Replace, path, object.clone())?;
            self.replace(object)
        } else {
            self.record_new(New::Value(object.clone()))?;
            self.insert(object)
        }
    }

    fn show_tentative(&mut self, atom: Atom) -> Result<(), Stop> {
        let object = self.atom_object(atom)?;
        if self.b.tentative_shown {
            let path = self.slot_path(false)?;
            self.record(Op::Replace, path, object.clone())?;
            return self.replace(object);
        }
        if let Some((top, true)) = self.b.containers.last() {
            let dict = top
                .bind(self.py)
                .cast::<PyDict>()
                .expect("recorded as a dict");
            let key = self
                .b
                .key
                .as_ref()
                .expect("a key precedes every property")
                .bind(self.py);
            self.b.tentative_prev = dict
                .get_item(key)
                .map_err(|e| self.stop(e))?
                .map(Bound::unbind);
        }
        self.b.tentative_shown = true;
        self.record_new(New::Value(object.clone()))?;
        self.insert(object)
    }

    fn hide_tentative(&mut self) -> Result<(), Stop> {
        if !self.b.tentative_shown {
            return Ok(());
        }
        self.b.tentative_shown = false;
        let previous = self.b.tentative_prev.take();
        if self.b.recorder.active() {
            let py = self.py;
            let path = self.slot_path(false)?;
            match &previous {
                Some(value) => {
                    let snapshot = py
                        .import("copy")
                        .and_then(|copy| copy.call_method1("deepcopy", (value,)))
                        .map_err(|e| self.stop(e))?;
                    self.record(Op::Replace, path, snapshot)?;
                }
                None => self.record(Op::Remove, path, py.None().into_bound(py))?,
            }
        }
        let Some((top, is_dict)) = self.b.containers.last() else {
            self.b.root = None;
            return Ok(());
        };
        let py = self.py;
        let top = top.bind(py);
        // Restoring or removing an entry we put there ourselves cannot fail.
        if *is_dict {
            let dict = top.cast::<PyDict>().expect("recorded as a dict");
            let key = self
                .b
                .key
                .as_ref()
                .expect("a key precedes every property")
                .bind(py);
            match previous {
                Some(value) => dict.set_item(key, value).expect("restoring a shown key"),
                None => dict.del_item(key).expect("removing a shown key"),
            }
        } else {
            let list = top.cast::<PyList>().expect("recorded as a list");
            list.del_item(list.len() - 1)
                .expect("removing a shown element");
        }
        Ok(())
    }
}
