//! `loads_fast`: one whole document to Python objects, the fast path of `jsondrip.loads`.
//!
//! The core's [`Scanner`] gives tokens; this builder recurses and creates objects directly:
//! lists in one call from a shared stack, keys from a cache, ASCII strings copied without
//! decoding. Whatever the scanner cannot take (invalid text, non-UTF-8 bytes) returns
//! `NotImplemented`, and the caller re-reads the text with the standard library, which gives
//! its exact value or error. Nesting counts against the interpreter's recursion limit, as in
//! json's own C scanner; past it the standard library re-reads the text too (with hooks, which
//! must not run twice, the RecursionError is raised here), so deep documents get json's answer
//! on every version, also on 3.14+ where the limit is the C stack left.

use std::ffi::CString;
use std::ptr::NonNull;
use std::sync::Mutex;

use pyo3::exceptions::PyStopIteration;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};

use super::dicts::presized_dict;
use super::gc;
use super::keys::KeyCache;
use super::strings::{ascii_string, utf8_string};
use crate::core::scanner::{Bail, Key, Number, Peek, Scanner, Text};

/// Past this nesting the pre-check gives up (the standard library answers; json itself raises
/// RecursionError well before).
const VALIDATE_DEPTH: usize = 4096;

/// log2 of the slots of the key cache shared by all `loads` calls.
const SHARED_KEY_BITS: u8 = 12;

/// The builder's stack keeps up to this many slots between calls (1 MB).
const KEPT_STACK: usize = 1 << 17;

/// What `loads` calls share: the key cache, and the allocations of the stack (a large array's
/// stack was allocated, page-faulted in and unmapped again on every call) and of the table
/// of repeated integers (empty between calls).
struct Shared {
    keys: KeyCache,
    stack: Stack,
    ints: Repeats<i64>,
    small: SmallInts,
}

impl Shared {
    fn new() -> Self {
        Shared {
            keys: KeyCache::new(SHARED_KEY_BITS),
            stack: Stack(Vec::new()),
            ints: Repeats::default(),
            small: SmallInts::default(),
        }
    }
}

/// The integers CPython keeps one object of each itself.
const SMALL_INTS: std::ops::RangeInclusive<i64> = -5..=256;

/// References to CPython's own objects of -5..=256, taken once (through `PyLong_FromLongLong`,
/// so they are the very objects `json.loads` gives): a small integer is then an increment
/// inlined into the builder, not a call into the interpreter per value (most integers of
/// indented records are small: counts, flags, levels).
#[derive(Default)]
struct SmallInts(Option<Box<[Obj]>>);

// SAFETY: the objects are the interpreter's shared small integers, alive as long as it is
// (pyo3 refuses subinterpreters, so there is one). A table is only built, read and released
// by a thread attached to the interpreter (inside `loads_fast`) that holds `SHARED`'s lock,
// or belongs to one call (a private `Shared`): never used by two threads at once. Its
// increments and decrements are the interpreter's to make safe across threads: under the
// GIL before 3.12; from 3.12 these objects are immortal (PEP 683), reference counts left
// untouched; and on a free-threaded build (3.13t, 3.14t) the module is declared `gil_used`
// (mod.rs), so importing it turns the GIL back on, and with `PYTHON_GIL=0` the objects are
// still immortal.
unsafe impl Send for SmallInts {}

impl SmallInts {
    /// The table, taken at the first call that needs it; None if the interpreter failed to
    /// give an object (then each is made by the call, as before).
    #[inline]
    fn table(&mut self) -> Option<&[Obj]> {
        if self.0.is_none() {
            let table: Vec<Obj> = SMALL_INTS.map_while(|value| int(value).ok()).collect();
            if table.len() == SMALL_INTS.count() {
                self.0 = Some(table.into_boxed_slice());
            } else {
                table.into_iter().for_each(release);
                // SAFETY: the interpreter is held; drops the error of the failed call.
                unsafe { ffi::PyErr_Clear() };
            }
        }
        self.0.as_deref()
    }
}

impl Drop for SmallInts {
    /// Only a private `Shared` (made inside `loads_fast`, the interpreter held) is dropped.
    fn drop(&mut self) {
        self.0.take().into_iter().flatten().for_each(release);
    }
}

/// The builder's stack between calls: an empty Vec, kept for its capacity.
struct Stack(Vec<Obj>);

// SAFETY: the stack holds no reference between calls (each call drains what it pushes, on
// every path, and `loads_fast` checks it is empty before giving it back), so only its
// allocation moves between threads.
unsafe impl Send for Stack {}

/// log2 of the slots of a table of repeated values.
const REPEAT_BITS: u32 = 8;

/// Values repeated in one document, each one object: here the integers that CPython does not
/// keep itself (outside -5..=256), by value. Documents repeat them (a mesh's vertex indices,
/// a catalogue's ids, colours, counts): nine in ten integers of mesh.json are repeats, as are
/// most of citm_catalog.json's. A repeat costs a reference instead of an allocation, and the
/// value's deallocation later. Ints are immutable, and `json.loads` promises no identity
/// (CPython shares the small ones too).
///
/// Direct-mapped by the low bits of the value, which keeps near values apart. A table lives
/// for one call: its references are released before `loads` returns, so no object outlives
/// its document in it and nothing is shared between documents. (Short strings were tried the
/// same way: a third of apache_builds.json's repeat, but the lookup on every string cost
/// more than it saved on github_events.json.)
struct Repeats<K> {
    /// (key, its object), or no object; allocated at the first value that needs it.
    slots: Box<[(K, Option<Obj>)]>,
    /// Whether any slot is filled (else the call's end has nothing to release).
    used: bool,
}

// SAFETY: as `Stack`: between calls every slot is empty (`release_all` runs on every path
// before the shared tables are given back), so only the allocation moves between threads.
unsafe impl<K: Send> Send for Repeats<K> {}

impl<K> Default for Repeats<K> {
    fn default() -> Self {
        Repeats {
            slots: Box::default(),
            used: false,
        }
    }
}

impl<K: Copy + Eq + Default> Repeats<K> {
    /// A new reference to the object of `key` (in slot `index`), from the table, or made by
    /// `make` and kept there.
    #[inline(always)]
    fn get(&mut self, key: K, index: usize, make: impl FnOnce() -> Build) -> Build {
        if let Some(&(held, Some(object))) = self.slots.get(index) {
            if held == key {
                // SAFETY: the slot keeps its reference; this new one is the caller's.
                unsafe { ffi::Py_INCREF(object.as_ptr()) };
                return Ok(object);
            }
        }
        let object = make()?;
        self.keep(index, key, object);
        Ok(object)
    }

    /// `get`'s miss: `object` is kept in slot `index`, whose old object is released (the
    /// document holds it still).
    #[inline(never)]
    fn keep(&mut self, index: usize, key: K, object: Obj) {
        if self.slots.is_empty() {
            self.slots = vec![(K::default(), None); 1 << REPEAT_BITS].into_boxed_slice();
        }
        // SAFETY: a second reference, for the slot.
        unsafe { ffi::Py_INCREF(object.as_ptr()) };
        if let (_, Some(old)) = std::mem::replace(&mut self.slots[index], (key, Some(object))) {
            release(old);
        }
        self.used = true;
    }

    /// Releases every object held: the table is empty again.
    fn release_all(&mut self) {
        if !self.used {
            return;
        }
        for slot in self.slots.iter_mut() {
            if let Some(object) = slot.1.take() {
                release(object);
            }
        }
        self.used = false;
    }
}

static SHARED: Mutex<Option<Shared>> = Mutex::new(None);

/// A new (owned) reference. The builder works on raw references rather than `Bound`s so that
/// a value or its error fits in one register on the hot path; whoever holds one either
/// passes it on or releases it.
type Obj = NonNull<ffi::PyObject>;

/// The fast path stopped. Why is the interpreter's to tell: with an exception set, a hook
/// (or the interpreter) raised and it propagates; without one, the complete parser re-reads
/// the text. So `Stop` holds nothing and a [`Build`] is one pointer, NULL for a stop (a
/// two-way reason spilled every value's result to the stack).
#[derive(Debug, Clone, Copy)]
struct Stop;

impl Stop {
    /// Re-read with the complete parser: no exception is set (any met was cleared).
    const BAIL: Stop = Stop;
    /// A hook or the interpreter raised: its exception is set, to propagate.
    const RAISED: Stop = Stop;
}

impl From<Bail> for Stop {
    fn from(_: Bail) -> Self {
        Stop::BAIL
    }
}

type Build = Result<Obj, Stop>;
const _: () = assert!(std::mem::size_of::<Build>() == std::mem::size_of::<Obj>());

/// A result of the C API (a new reference, or NULL with an exception set) as a Build.
#[inline]
fn checked(ptr: *mut ffi::PyObject) -> Build {
    NonNull::new(ptr).ok_or(Stop::RAISED)
}

/// A hook's result as a Build: its error is set again in the interpreter.
fn hooked(py: Python<'_>, result: PyResult<Bound<'_, PyAny>>) -> Build {
    match result {
        Ok(value) => Ok(NonNull::new(value.into_ptr()).expect("a Bound is never NULL")),
        Err(err) => {
            err.restore(py);
            Err(Stop::RAISED)
        }
    }
}

/// A new int.
#[inline]
fn int(value: i64) -> Build {
    // SAFETY: returns a new reference or NULL.
    checked(unsafe { ffi::PyLong_FromLongLong(value) })
}

/// Releases a reference the builder owns.
#[inline]
fn release(obj: Obj) {
    // SAFETY: every Obj is an owned reference, given up here exactly once.
    unsafe { ffi::Py_DECREF(obj.as_ptr()) }
}

/// A new reference to a singleton (None, True, False).
#[inline]
fn singleton(ptr: *mut ffi::PyObject) -> Build {
    // SAFETY: the singletons live as long as the interpreter; this reference is the caller's.
    unsafe { ffi::Py_INCREF(ptr) };
    Ok(NonNull::new(ptr).expect("singletons are never NULL"))
}

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
    /// Integers of this document met before, by value.
    ints: &'k mut Repeats<i64>,
    /// The interpreter's small integers, by value + 5.
    small: Option<&'k [Obj]>,
    /// Elements of the arrays, and keys and values of the objects, being read; innermost
    /// last.
    items: &'k mut Vec<Obj>,
    /// Whether nesting past the interpreter's limit hands the text to the standard library
    /// (no hooks: nothing the user sees runs twice) rather than raising RecursionError here.
    reread_deep: bool,
}

#[inline]
fn string(text: Text) -> Build {
    let bytes = text.bytes;
    if text.ascii {
        // SAFETY: the interpreter is held (the builder only runs inside `loads_fast`); the
        // bytes are ASCII.
        return checked(unsafe { ascii_string(bytes) });
    }
    // Invalid UTF-8 is not checked beforehand: the decoder refuses it here, and json.loads
    // gives its answer. Lone surrogates (from escapes, or encoded in bytes input) are read
    // as json.loads reads them.
    // SAFETY: the interpreter is held; the result is new or NULL.
    let object = unsafe { utf8_string(bytes) };
    NonNull::new(object).ok_or_else(|| {
        // SAFETY: the interpreter is held; drop the decoding error, the caller re-reads.
        unsafe { ffi::PyErr_Clear() };
        Stop::BAIL
    })
}

impl<'py> Loader<'py, '_> {
    /// The value at the scanner (whitespace skipped).
    fn value(&mut self, scanner: &mut Scanner) -> Build {
        let first = scanner.peek_byte().ok_or(Bail)?;
        self.value_at(scanner, first)
    }

    /// The value whose first byte, `first`, the scanner stands on. Strings, numbers and
    /// literals are built here, inlined into the loops of the containers that hold them;
    /// containers recurse out of line.
    #[inline(always)]
    fn value_at(&mut self, scanner: &mut Scanner, first: u8) -> Build {
        match first {
            b'"' => string(scanner.string()?),
            b'-' | b'0'..=b'9' => self.number(scanner.number()?),
            b'{' => self.nested_object(scanner),
            b'[' => self.nested_array(scanner),
            // SAFETY (the singletons): the interpreter is held.
            _ => match scanner.word(first)? {
                Peek::Null => singleton(unsafe { ffi::Py_None() }),
                Peek::True => singleton(unsafe { ffi::Py_True() }),
                Peek::False => singleton(unsafe { ffi::Py_False() }),
                Peek::NaN => self.constant("NaN", f64::NAN),
                Peek::Infinity => self.constant("Infinity", f64::INFINITY),
                _ => Err(Stop::BAIL),
            },
        }
    }

    #[inline(never)]
    fn nested_object(&mut self, scanner: &mut Scanner) -> Build {
        self.nested(
            c" while decoding a JSON object from a unicode string",
            |this| this.object(scanner),
        )
    }

    #[inline(never)]
    fn nested_array(&mut self, scanner: &mut Scanner) -> Build {
        self.nested(
            c" while decoding a JSON array from a unicode string",
            |this| this.array(scanner),
        )
    }

    /// Builds a container one level deeper, counted against the interpreter's recursion
    /// limit as json's C scanner counts it.
    #[inline]
    fn nested(&mut self, what: &std::ffi::CStr, build: impl FnOnce(&mut Self) -> Build) -> Build {
        // SAFETY: called with the interpreter held; every successful Enter is paired with a
        // Leave below. A failed Enter sets RecursionError.
        if unsafe { ffi::Py_EnterRecursiveCall(what.as_ptr()) } != 0 {
            // Without hooks, the standard library reads the text again and answers as json
            // does at this depth: from 3.14 the limit is the C stack left, which json's
            // smaller frames reach later (a value where this builder would overflow).
            if self.reread_deep {
                // SAFETY: the interpreter is held; drops the RecursionError just set.
                unsafe { ffi::PyErr_Clear() };
                return Err(Stop::BAIL);
            }
            return Err(Stop::RAISED);
        }
        let built = build(self);
        // SAFETY: pairs the Enter above.
        unsafe { ffi::Py_LeaveRecursiveCall() };
        built
    }

    fn constant(&self, name: &str, value: f64) -> Build {
        match &self.hooks.parse_constant {
            Some(hook) => hooked(self.py, hook.call1((name,))),
            // SAFETY: returns a new reference or NULL.
            None => checked(unsafe { ffi::PyFloat_FromDouble(value) }),
        }
    }

    #[inline(always)]
    fn number(&mut self, number: Number) -> Build {
        let py = self.py;
        match number {
            Number::Int(value, text) => match &self.hooks.parse_int {
                Some(hook) => hooked(py, hook.call1((text,))),
                // CPython keeps one object of each of -5..=256 itself.
                None if SMALL_INTS.contains(&value) => match self.small {
                    Some(table) => {
                        let object = table[(value - SMALL_INTS.start()) as usize];
                        // SAFETY: the table keeps its reference; this new one is the caller's.
                        unsafe { ffi::Py_INCREF(object.as_ptr()) };
                        Ok(object)
                    }
                    None => int(value),
                },
                None => {
                    let index = value as usize & ((1 << REPEAT_BITS) - 1);
                    self.ints.get(value, index, || int(value))
                }
            },
            Number::BigInt(text) => match &self.hooks.parse_int {
                Some(hook) => hooked(py, hook.call1((text,))),
                None => {
                    let digits = CString::new(text).expect("number text has no NUL");
                    // SAFETY: a NUL-terminated string; new reference or NULL (for instance
                    // past sys.get_int_max_str_digits(), as json.loads raises).
                    checked(unsafe {
                        ffi::PyLong_FromString(digits.as_ptr(), std::ptr::null_mut(), 10)
                    })
                }
            },
            Number::Float(text, exact) => match &self.hooks.parse_float {
                Some(hook) => hooked(py, hook.call1((text,))),
                None => {
                    let value = match exact {
                        Some(value) => value,
                        None => text.parse().map_err(|_| Stop::BAIL)?,
                    };
                    // SAFETY: returns a new reference or NULL.
                    checked(unsafe { ffi::PyFloat_FromDouble(value) })
                }
            },
            Number::NegInfinity => self.constant("-Infinity", f64::NEG_INFINITY),
        }
    }

    fn array(&mut self, scanner: &mut Scanner) -> Build {
        let base = self.items.len();
        let read = self.elements(scanner);
        let items = self.items.drain(base..);
        if let Err(stop) = read {
            items.for_each(release);
            return Err(stop);
        }
        list(items)
    }

    /// Reads the elements of an array (the scanner on its `[`) onto `items`.
    #[inline(always)]
    fn elements(&mut self, scanner: &mut Scanner) -> Result<(), Stop> {
        scanner.bump();
        let mut next = scanner.peek_byte().ok_or(Bail)?;
        if next == b']' {
            scanner.bump();
            return Ok(());
        }
        loop {
            let item = self.value_at(scanner, next)?;
            self.items.push(item);
            // Numbers packed one after another: no whitespace or separator to dispatch on.
            if matches!(next, b'-' | b'0'..=b'9') {
                // Runs of floats in one tight loop, entered after a float (or the first
                // number), so that arrays of integers never try it.
                let mut floats = self.hooks.parse_float.is_none();
                loop {
                    if floats {
                        self.float_run(scanner)?;
                    }
                    let Some(number) = scanner.packed_number() else {
                        break;
                    };
                    let number = number?;
                    floats =
                        matches!(number, Number::Float(..)) && self.hooks.parse_float.is_none();
                    let item = self.number(number)?;
                    self.items.push(item);
                }
            }
            match scanner.peek_byte() {
                Some(b',') => {
                    scanner.bump();
                    next = scanner.peek_byte().ok_or(Bail)?;
                }
                Some(b']') => {
                    scanner.bump();
                    return Ok(());
                }
                _ => return Err(Stop::BAIL),
            }
        }
    }

    /// The floats `Scanner::float_run` reads, made and pushed onto `items` (no `parse_float`
    /// hook: the caller checks).
    #[inline(always)]
    fn float_run(&mut self, scanner: &mut Scanner) -> Result<(), Stop> {
        let items = &mut *self.items;
        scanner.float_run(|value| {
            // SAFETY: returns a new reference or NULL.
            let item = checked(unsafe { ffi::PyFloat_FromDouble(value) })?;
            items.push(item);
            Ok(())
        })
    }

    #[inline(always)]
    fn key(&mut self, key: Key) -> Build {
        let text = key.text;
        if let Some(window) = key.window {
            // SAFETY: the interpreter is held; a key with a window is ASCII.
            return checked(unsafe { self.keys.lookup_short(window, text.bytes.len()) });
        }
        if text.ascii {
            // SAFETY: the interpreter is held; the bytes are ASCII.
            return checked(unsafe { self.keys.lookup(text.bytes, true) });
        }
        // SAFETY: the interpreter is held.
        let key = unsafe { self.keys.lookup(text.bytes, false) };
        // As `string`: bytes that are not UTF-8 leave the answer to json.loads.
        NonNull::new(key).ok_or_else(|| {
            // SAFETY: the interpreter is held; drop the decoding error, the caller re-reads.
            unsafe { ffi::PyErr_Clear() };
            Stop::BAIL
        })
    }

    fn object(&mut self, scanner: &mut Scanner) -> Build {
        if self.hooks.object_pairs_hook.is_some() {
            return self.object_pairs(scanner);
        }
        let base = self.items.len();
        let read = self.properties(scanner);
        let items = self.items.drain(base..);
        if let Err(stop) = read {
            items.for_each(release);
            return Err(stop);
        }
        let dict = dict(items)?;
        match &self.hooks.object_hook {
            // SAFETY: the dict reference is handed to the Bound.
            Some(hook) => hooked(
                self.py,
                hook.call1((unsafe { Bound::from_owned_ptr(self.py, dict.as_ptr()) },)),
            ),
            None => Ok(dict),
        }
    }

    /// Reads the properties of an object (the scanner on its `{`) onto `items`, key then
    /// value: the dict is made once their number is known.
    #[inline(always)]
    fn properties(&mut self, scanner: &mut Scanner) -> Result<(), Stop> {
        scanner.bump();
        let mut next = scanner.peek_byte();
        if next == Some(b'}') {
            scanner.bump();
            return Ok(());
        }
        loop {
            if next != Some(b'"') {
                return Err(Stop::BAIL);
            }
            let key = self.key(scanner.key_token()?)?;
            self.items.push(key);
            let first = scanner.peek_byte().ok_or(Bail)?;
            let value = self.value_at(scanner, first)?;
            self.items.push(value);
            match scanner.peek_byte() {
                Some(b',') => {
                    scanner.bump();
                    next = scanner.peek_byte();
                }
                Some(b'}') => {
                    scanner.bump();
                    return Ok(());
                }
                _ => return Err(Stop::BAIL),
            }
        }
    }

    /// An object for `object_pairs_hook`: a list of (key, value) tuples, given to the hook.
    fn object_pairs(&mut self, scanner: &mut Scanner) -> Build {
        let base = self.items.len();
        let read = self.pairs(scanner);
        let items = self.items.drain(base..);
        if let Err(stop) = read {
            items.for_each(release);
            return Err(stop);
        }
        let pairs = list(items)?;
        let hook = self
            .hooks
            .object_pairs_hook
            .as_ref()
            .expect("checked by the caller");
        // SAFETY: the list reference is handed to the Bound.
        hooked(
            self.py,
            hook.call1((unsafe { Bound::from_owned_ptr(self.py, pairs.as_ptr()) },)),
        )
    }

    /// Reads the properties of an object (after `{`) onto `items`, as (key, value) tuples.
    fn pairs(&mut self, scanner: &mut Scanner) -> Result<(), Stop> {
        let mut next = match scanner.object_first()? {
            Some(text) => Some(self.key(text)?),
            None => None,
        };
        while let Some(key) = next {
            let value = match self.value(scanner) {
                Ok(value) => value,
                Err(stop) => {
                    release(key);
                    return Err(stop);
                }
            };
            // SAFETY: PyTuple_New(2) gives two NULL slots; SET_ITEM fills each with a
            // reference handed over. On failure both are released.
            unsafe {
                let Some(pair) = NonNull::new(ffi::PyTuple_New(2)) else {
                    release(key);
                    release(value);
                    return Err(Stop::RAISED);
                };
                ffi::PyTuple_SET_ITEM(pair.as_ptr(), 0, key.as_ptr());
                ffi::PyTuple_SET_ITEM(pair.as_ptr(), 1, value.as_ptr());
                self.items.push(pair);
            }
            next = match scanner.object_next()? {
                Some(text) => Some(self.key(text)?),
                None => None,
            };
        }
        Ok(())
    }
}

/// A dict of the given keys and values (alternating), sized for them up front: filling a
/// new dict grows its table at 6, 11, 22... entries, each time moving every entry.
#[inline]
fn dict(mut items: impl ExactSizeIterator<Item = Obj>) -> Build {
    // SAFETY: a new dict or NULL.
    let Some(dict) = NonNull::new(unsafe { presized_dict(items.len() / 2) }) else {
        items.for_each(release);
        return Err(Stop::RAISED);
    };
    while let (Some(key), Some(value)) = (items.next(), items.next()) {
        // SAFETY: a live dict, a str key and a value; SetItem takes its own references, and
        // ours are released. In order, so a repeated key keeps its first place and its last
        // value, as json's.
        let failed =
            unsafe { ffi::PyDict_SetItem(dict.as_ptr(), key.as_ptr(), value.as_ptr()) } != 0;
        release(key);
        release(value);
        if failed {
            items.for_each(release);
            release(dict);
            return Err(Stop::RAISED);
        }
    }
    Ok(dict)
}

/// A list of the given references, made in one call.
#[inline]
fn list(items: impl ExactSizeIterator<Item = Obj>) -> Build {
    // SAFETY: PyList_New(n) gives a list of n NULL slots; each SET_ITEM fills one with a
    // reference handed over, so every slot is set before the list is used. On failure the
    // references are released.
    unsafe {
        let Some(list) = NonNull::new(ffi::PyList_New(items.len() as ffi::Py_ssize_t)) else {
            items.for_each(release);
            return Err(Stop::RAISED);
        };
        for (index, item) in items.enumerate() {
            ffi::PyList_SET_ITEM(list.as_ptr(), index as ffi::Py_ssize_t, item.as_ptr());
        }
        Ok(list)
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
    // The shared key cache and stack, unless in use (a hook calling loads, another thread):
    // then private ones, so no lock is ever waited for while holding the interpreter.
    let mut private;
    let mut guard = SHARED.try_lock();
    let shared = match guard.as_mut() {
        Ok(shared) => shared.get_or_insert_with(Shared::new),
        Err(_) => {
            private = Shared::new();
            &mut private
        }
    };
    let mut loader = Loader {
        py,
        hooks,
        keys: &mut shared.keys,
        ints: &mut shared.ints,
        small: shared.small.table(),
        items: &mut shared.stack.0,
        reread_deep: no_hooks,
    };
    let mut scanner = Scanner::new(bytes);
    // Nothing built here is garbage until it is returned, so a collection in the middle only
    // walks the new lists and dicts (a fifth of the time on canada.json): pause it, unless a
    // hook runs user code, which must see the interpreter as json.loads leaves it.
    let collecting = no_hooks && gc::pause(py);
    // Hooks are user code: a text json would reject must not call them before the standard
    // library reads it again (and calls them again), so it is checked first.
    if !no_hooks && !valid(&mut Scanner::new(bytes)) {
        return bail();
    }
    let result = loader
        .value(&mut scanner)
        .and_then(|value| match scanner.finish() {
            Ok(()) => Ok(value),
            Err(Bail) => {
                release(value);
                Err(Stop::BAIL)
            }
        });
    shared.ints.release_all();
    if collecting {
        gc::resume(py);
    }
    let stack = &mut shared.stack.0;
    debug_assert!(stack.is_empty(), "every container drains what it pushed");
    stack.drain(..).for_each(release);
    stack.shrink_to(KEPT_STACK);
    match result {
        // SAFETY: the reference is handed to the Bound.
        Ok(value) => Ok(unsafe { Bound::from_owned_ptr(py, value.as_ptr()) }),
        // SAFETY: the interpreter is held.
        Err(Stop) if unsafe { ffi::PyErr_Occurred() }.is_null() => bail(),
        Err(Stop) => {
            let err = PyErr::fetch(py);
            // json's scanner turns a StopIteration from a hook into its own error: let it
            // answer.
            if err.is_instance_of::<PyStopIteration>(py) {
                bail()
            } else {
                Err(err)
            }
        }
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
