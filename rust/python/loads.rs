//! `loads_fast`: one whole document to Python objects, the fast path of `jsondrip.loads`.
//!
//! The core's [`Scanner`] gives tokens; this builder recurses and creates objects directly:
//! lists in one call from a shared stack, keys from a cache, ASCII strings copied without
//! decoding. Whatever the scanner cannot take (invalid text, non-UTF-8 bytes) returns
//! `NotImplemented`, and the caller re-reads the text with the standard library, which gives
//! its exact value or error. Nesting counts against the interpreter's recursion limit, as in
//! json's own C scanner, so deep documents raise the same RecursionError.

use std::ffi::CString;
use std::sync::Mutex;

use pyo3::exceptions::PyStopIteration;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString, PyTuple};

use super::keys::KeyCache;
use crate::core::scanner::{Bail, Number, Peek, Scanner, Text};

/// Past this nesting the pre-check gives up (the standard library answers; json itself raises
/// RecursionError well before).
const VALIDATE_DEPTH: usize = 4096;

/// Slots of the key cache shared by all `loads` calls.
const SHARED_KEYS: usize = 4096;

static KEYS: Mutex<Option<KeyCache>> = Mutex::new(None);

/// Why the fast path stopped.
enum Fail {
    /// Re-read with the complete parser.
    Bail,
    /// A hook (or the interpreter) raised: propagate it.
    Raised(PyErr),
}

impl From<Bail> for Fail {
    fn from(_: Bail) -> Self {
        Fail::Bail
    }
}

impl From<PyErr> for Fail {
    fn from(e: PyErr) -> Self {
        Fail::Raised(e)
    }
}

type Build<'py> = Result<Bound<'py, PyAny>, Fail>;

/// The `json.loads` hooks; None where the default applies.
struct Hooks<'py> {
    object_hook: Option<Bound<'py, PyAny>>,
    parse_float: Option<Bound<'py, PyAny>>,
    parse_int: Option<Bound<'py, PyAny>>,
    parse_constant: Option<Bound<'py, PyAny>>,
    object_pairs_hook: Option<Bound<'py, PyAny>>,
}

struct Loader<'py, 'k> {
    py: Python<'py>,
    hooks: Hooks<'py>,
    keys: &'k mut KeyCache,
    /// Elements of the arrays being read, innermost last.
    items: Vec<Bound<'py, PyAny>>,
}

/// A new reference or NULL from the C API, as a Result.
fn owned<'py>(py: Python<'py>, ptr: *mut ffi::PyObject) -> Build<'py> {
    // SAFETY: callers pass a new reference or NULL with an exception set.
    unsafe { Bound::from_owned_ptr_or_err(py, ptr) }.map_err(Fail::Raised)
}

fn string<'py>(py: Python<'py>, text: Text) -> Build<'py> {
    let bytes = text.bytes;
    if text.ascii {
        // SAFETY: PyUnicode_New gives a fresh compact ASCII str of `len` characters whose data
        // buffer holds exactly `len` bytes; ASCII input is its final content.
        unsafe {
            let object = ffi::PyUnicode_New(bytes.len() as ffi::Py_ssize_t, 127);
            if !object.is_null() {
                let data = ffi::PyUnicode_DATA(object) as *mut u8;
                std::ptr::copy_nonoverlapping(bytes.as_ptr(), data, bytes.len());
            }
            return owned(py, object);
        }
    }
    // surrogatepass: lone surrogates from escapes, and (bytes input only: a str's UTF-8 has
    // none) surrogates encoded in UTF-8, which json.loads also accepts. Invalid UTF-8 is not
    // checked beforehand: the decoder refuses it here, and json.loads gives its answer.
    // SAFETY: pointer and length describe `bytes`; the result is new or NULL.
    let object = unsafe {
        ffi::PyUnicode_DecodeUTF8(
            bytes.as_ptr().cast(),
            bytes.len() as ffi::Py_ssize_t,
            c"surrogatepass".as_ptr(),
        )
    };
    if object.is_null() {
        // SAFETY: the interpreter is held; drop the decoding error, the caller re-reads.
        unsafe { ffi::PyErr_Clear() };
        return Err(Fail::Bail);
    }
    owned(py, object)
}

impl<'py> Loader<'py, '_> {
    fn value(&mut self, scanner: &mut Scanner) -> Build<'py> {
        let py = self.py;
        match scanner.peek()? {
            Peek::String => string(py, scanner.string()?),
            Peek::Number => self.number(scanner.number()?),
            Peek::Object => self.nested(
                c" while decoding a JSON object from a unicode string",
                |this| this.object(scanner),
            ),
            Peek::Array => self.nested(
                c" while decoding a JSON array from a unicode string",
                |this| this.array(scanner),
            ),
            Peek::Null => Ok(py.None().into_bound(py)),
            Peek::True => Ok(true
                .into_pyobject(py)
                .expect("infallible")
                .to_owned()
                .into_any()),
            Peek::False => Ok(false
                .into_pyobject(py)
                .expect("infallible")
                .to_owned()
                .into_any()),
            Peek::NaN => self.constant("NaN", f64::NAN),
            Peek::Infinity => self.constant("Infinity", f64::INFINITY),
        }
    }

    /// Builds a container one level deeper, counted against the interpreter's recursion
    /// limit as json's C scanner counts it (so the same documents raise RecursionError).
    fn nested(
        &mut self,
        what: &std::ffi::CStr,
        build: impl FnOnce(&mut Self) -> Build<'py>,
    ) -> Build<'py> {
        // SAFETY: called with the interpreter held; every successful Enter is paired with a
        // Leave below.
        if unsafe { ffi::Py_EnterRecursiveCall(what.as_ptr()) } != 0 {
            return Err(Fail::Raised(PyErr::fetch(self.py)));
        }
        let built = build(self);
        // SAFETY: pairs the Enter above.
        unsafe { ffi::Py_LeaveRecursiveCall() };
        built
    }

    fn constant(&self, name: &str, value: f64) -> Build<'py> {
        match &self.hooks.parse_constant {
            Some(hook) => Ok(hook.call1((name,))?),
            None => owned(self.py, unsafe { ffi::PyFloat_FromDouble(value) }),
        }
    }

    fn number(&self, number: Number) -> Build<'py> {
        let py = self.py;
        match number {
            Number::Int(value, text) => match &self.hooks.parse_int {
                Some(hook) => Ok(hook.call1((text,))?),
                // SAFETY: returns a new reference or NULL.
                None => owned(py, unsafe { ffi::PyLong_FromLongLong(value) }),
            },
            Number::BigInt(text) => match &self.hooks.parse_int {
                Some(hook) => Ok(hook.call1((text,))?),
                None => {
                    let digits = CString::new(text).expect("number text has no NUL");
                    // SAFETY: a NUL-terminated string; new reference or NULL (for instance
                    // past sys.get_int_max_str_digits(), as json.loads raises).
                    owned(py, unsafe {
                        ffi::PyLong_FromString(digits.as_ptr(), std::ptr::null_mut(), 10)
                    })
                }
            },
            Number::Float(text, exact) => match &self.hooks.parse_float {
                Some(hook) => Ok(hook.call1((text,))?),
                None => {
                    let value = match exact {
                        Some(value) => value,
                        None => text.parse().map_err(|_| Fail::Bail)?,
                    };
                    // SAFETY: returns a new reference or NULL.
                    owned(py, unsafe { ffi::PyFloat_FromDouble(value) })
                }
            },
            Number::NegInfinity => self.constant("-Infinity", f64::NEG_INFINITY),
        }
    }

    fn array(&mut self, scanner: &mut Scanner) -> Build<'py> {
        let base = self.items.len();
        if scanner.array_first()? {
            loop {
                let item = self.value(scanner)?;
                self.items.push(item);
                if !scanner.array_next()? {
                    break;
                }
            }
        }
        let count = self.items.len() - base;
        // SAFETY: PyList_New(n) gives a list of n NULL slots; each SET_ITEM fills one with a
        // reference handed over by `into_ptr`, so every slot is set before the list is used.
        unsafe {
            let list = ffi::PyList_New(count as ffi::Py_ssize_t);
            if list.is_null() {
                return owned(self.py, list);
            }
            for (index, item) in self.items.drain(base..).enumerate() {
                ffi::PyList_SET_ITEM(list, index as ffi::Py_ssize_t, item.into_ptr());
            }
            owned(self.py, list)
        }
    }

    fn key(&mut self, text: Text) -> Result<Bound<'py, PyString>, Fail> {
        if text.ascii {
            // SAFETY: ASCII is valid UTF-8.
            let text = unsafe { std::str::from_utf8_unchecked(text.bytes) };
            return Ok(self.keys.get(self.py, text));
        }
        Ok(string(self.py, text)?
            .cast_into::<PyString>()
            .map_err(PyErr::from)?)
    }

    fn object(&mut self, scanner: &mut Scanner) -> Build<'py> {
        let py = self.py;
        if self.hooks.object_pairs_hook.is_some() {
            return self.object_pairs(scanner);
        }
        let dict = PyDict::new(py);
        let mut next = scanner
            .object_first()?
            .map(|text| self.key(text))
            .transpose()?;
        while let Some(key) = next {
            let value = self.value(scanner)?;
            // SAFETY: a live dict, a str key and a value; SetItem takes its own references.
            if unsafe { ffi::PyDict_SetItem(dict.as_ptr(), key.as_ptr(), value.as_ptr()) } != 0 {
                return Err(Fail::Raised(PyErr::fetch(py)));
            }
            next = scanner
                .object_next()?
                .map(|text| self.key(text))
                .transpose()?;
        }
        match &self.hooks.object_hook {
            Some(hook) => Ok(hook.call1((dict,))?),
            None => Ok(dict.into_any()),
        }
    }

    fn object_pairs(&mut self, scanner: &mut Scanner) -> Build<'py> {
        let py = self.py;
        let pairs = PyList::empty(py);
        let mut next = scanner
            .object_first()?
            .map(|text| self.key(text))
            .transpose()?;
        while let Some(key) = next {
            let value = self.value(scanner)?;
            pairs.append(PyTuple::new(py, [key.into_any(), value])?)?;
            next = scanner
                .object_next()?
                .map(|text| self.key(text))
                .transpose()?;
        }
        let hook = self
            .hooks
            .object_pairs_hook
            .as_ref()
            .expect("checked by the caller");
        Ok(hook.call1((pairs,))?)
    }
}

/// UTF-8 bytes of `data` (a str, or bytes json would read as UTF-8), or None to bail.
/// Bytes are not validated here: outside strings the scanner takes ASCII only, and strings
/// are validated as they are decoded.
fn utf8_input<'a>(data: &'a Bound<'_, PyAny>, copy: &'a mut Vec<u8>) -> Option<&'a [u8]> {
    if let Ok(text) = data.cast::<PyString>() {
        return text.to_str().ok().map(str::as_bytes);
    }
    let bytes: &[u8] = if let Ok(bytes) = data.cast::<PyBytes>() {
        bytes.as_bytes()
    } else if let Ok(array) = data.cast::<PyByteArray>() {
        *copy = array.to_vec();
        copy
    } else {
        return None;
    };
    // json.loads detects UTF-16 and UTF-32 by NUL bytes and BOMs, and skips a UTF-8 BOM
    // with utf-8-sig: leave all of those to it.
    let plain_utf8 = !bytes.is_empty()
        && bytes[0] != 0
        && bytes.get(1) != Some(&0)
        && !bytes.starts_with(b"\xef\xbb\xbf");
    if !plain_utf8 {
        return None;
    }
    Some(bytes)
}

/// Parses a whole document as `json.loads` would, or returns `NotImplemented` when the caller
/// must re-read it with the standard library (invalid text, exotic encodings, deep nesting).
#[pyfunction]
#[pyo3(signature = (data, object_hook=None, parse_float=None, parse_int=None, parse_constant=None, object_pairs_hook=None))]
pub fn loads_fast<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    object_hook: Option<Bound<'py, PyAny>>,
    parse_float: Option<Bound<'py, PyAny>>,
    parse_int: Option<Bound<'py, PyAny>>,
    parse_constant: Option<Bound<'py, PyAny>>,
    object_pairs_hook: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let bail = || Ok(py.NotImplemented().into_bound(py));
    let mut copy = Vec::new();
    let Some(bytes) = utf8_input(data, &mut copy) else {
        return bail();
    };
    let hooks = Hooks {
        object_hook,
        parse_float,
        parse_int,
        parse_constant,
        object_pairs_hook,
    };
    let no_hooks = [
        &hooks.object_hook,
        &hooks.parse_float,
        &hooks.parse_int,
        &hooks.parse_constant,
        &hooks.object_pairs_hook,
    ]
    .iter()
    .all(|hook| hook.is_none());
    // The shared key cache, unless it is in use (a hook calling loads, another thread):
    // then a private one, so no lock is ever waited for while holding the interpreter.
    let mut private;
    let mut guard = KEYS.try_lock();
    let keys = match guard.as_mut() {
        Ok(shared) => shared.get_or_insert_with(|| KeyCache::new(SHARED_KEYS)),
        Err(_) => {
            private = KeyCache::new(SHARED_KEYS);
            &mut private
        }
    };
    let mut loader = Loader {
        py,
        hooks,
        keys,
        items: Vec::new(),
    };
    let mut scanner = Scanner::new(bytes);
    // Nothing built here is garbage until it is returned, so a collection in the middle only
    // walks the new lists and dicts (a fifth of the time on canada.json): pause it, unless a
    // hook runs user code, which must see the interpreter as json.loads leaves it.
    // SAFETY: called with the interpreter held; the previous state is restored below.
    let collecting = no_hooks && unsafe { ffi::PyGC_Disable() } == 1;
    // Hooks are user code: a text json would reject must not call them before the standard
    // library reads it again (and calls them again), so it is checked first.
    if !no_hooks && !valid(&mut Scanner::new(bytes)) {
        return bail();
    }
    let result = loader.value(&mut scanner).and_then(|value| {
        scanner.finish()?;
        Ok(value)
    });
    if collecting {
        // SAFETY: as above.
        unsafe { ffi::PyGC_Enable() };
    }
    match result {
        Ok(value) => Ok(value),
        Err(Fail::Bail) => bail(),
        // json's scanner turns a StopIteration from a hook into its own error: let it answer.
        Err(Fail::Raised(err)) if err.is_instance_of::<PyStopIteration>(py) => bail(),
        Err(Fail::Raised(err)) => Err(err),
    }
}

/// Whether the scanner takes the whole text, building nothing (the check before hooks run).
fn valid(scanner: &mut Scanner) -> bool {
    fn value(scanner: &mut Scanner, depth: usize) -> Result<(), Bail> {
        if depth > VALIDATE_DEPTH {
            return Err(Bail); // the builder counts depth against the interpreter's limit
        }
        match scanner.peek()? {
            Peek::String => scanner.string().map(drop),
            Peek::Number => scanner.number().map(drop),
            Peek::Array => {
                if scanner.array_first()? {
                    loop {
                        value(scanner, depth + 1)?;
                        if !scanner.array_next()? {
                            break;
                        }
                    }
                }
                Ok(())
            }
            Peek::Object => {
                let mut key = scanner.object_first()?.is_some();
                while key {
                    value(scanner, depth + 1)?;
                    key = scanner.object_next()?.is_some();
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
    value(scanner, 0).and_then(|()| scanner.finish()).is_ok()
}
