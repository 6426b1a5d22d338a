//! A small cache of Python strings for object keys: records repeat the same few keys, and a
//! cached key is neither created nor hashed again (CPython keeps a str's hash). Values are not
//! cached: in a direct-mapped cache they evict the keys (measured on github_events.json).
//!
//! ASCII keys are cached as compact ASCII strs, whose own data is the key's bytes: a slot is
//! just the string, eight bytes, so the table stays small enough to be in cache between
//! documents (a table of copies and hashes beside the strings missed there on most lookups),
//! and a hit reads one line, the one its reference count is on anyway. Other keys hold
//! UCS-1/2/4, not their UTF-8 bytes: they have a table of their own, the bytes kept beside
//! each string, so that a repeated non-ASCII key is one object too, as `json.loads` gives
//! (CPython's `test_keys_reuse`). It is allocated at the first such key.
//!
//! Each table is read in pairs of slots: a key is looked for in its slot (the hit inlined)
//! and then in the slot beside it (`index ^ 1`), and a new key goes to whichever of the two
//! is free. Direct-mapped, two keys whose hashes share their top bits share a slot at every
//! size (the index is those bits), so growing never parts them: in the records benchmark
//! `parent` and `tags` evicted each other at every record, at 256 slots.

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyString;

use super::strings::{ascii_string, utf8_string};

/// Longer keys are created every time (they seldom repeat, and would hash slowly).
const MAX_KEY_LEN: usize = 64;

/// A non-ASCII key's bytes and its str.
type WideKey = (Box<[u8]>, Py<PyString>);

/// An ASCII key of fewer than sixteen bytes as two little-endian words, the bytes past it
/// zeroed. ASCII keys hold no NUL, so the words alone tell the key (its length too).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShortKey(u64, u64);

impl ShortKey {
    /// The key of the first `len` (below 16) bytes of `window`.
    #[inline(always)]
    pub fn new(window: &[u8; 16], len: usize) -> Self {
        let (low, high) = window.split_at(8);
        let low = u64::from_le_bytes(low.try_into().expect("8 bytes"));
        let high = u64::from_le_bytes(high.try_into().expect("8 bytes"));
        let [low_mask, high_mask] = KEY_MASKS[len & 15];
        ShortKey(low & low_mask, high & high_mask)
    }

    #[inline(always)]
    fn index(self, bits: u32) -> usize {
        let mixed = (self.0 ^ self.1.rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (mixed >> (64 - bits)) as usize
    }
}

/// The masks of the two words of a short key's window that keep its `len` bytes, by `len`.
static KEY_MASKS: [[u64; 2]; 16] = {
    let mut masks = [[0; 2]; 16];
    let mut len = 0;
    while len < 16 {
        masks[len] = if len < 8 {
            [(1 << (8 * len)) - 1, 0]
        } else {
            [u64::MAX, (1 << (8 * (len - 8))) - 1]
        };
        len += 1;
    }
    masks
};

/// Every open stream holds one (#28: memory per open stream): its tables are boxed slices
/// (allocated on first use, never over-allocated) and the rare one, of keys that are not
/// ASCII, is behind one more box.
pub struct KeyCache {
    /// Compact ASCII strs, by hash of their bytes.
    slots: Box<[Option<Py<PyString>>]>,
    /// Short ASCII keys with their words, by hash of the words (`lookup_short`); allocated
    /// at the first such lookup.
    short: Box<[(ShortKey, Option<Py<PyString>>)]>,
    /// Non-ASCII keys with their UTF-8 (or WTF-8) bytes, by the same hash.
    wide: Option<Box<WideTable>>,
    /// log2 of the number of slots.
    bits: u8,
    /// A growing cache (`growing`) doubles up to `1 << max_bits` slots; a fixed one has
    /// `max_bits == bits`.
    max_bits: u8,
    /// Misses since the table last grew: a table that keeps missing is too small for the
    /// document's keys (or two of them share a slot), and doubles.
    misses: u16,
}

type WideTable = Box<[Option<WideKey>]>;

/// Two words that, with the length, determine a key of up to 16 bytes (and sample a longer
/// one): overlapping loads of its first and last bytes, without a byte-by-byte loop. Up to 16
/// bytes, every byte is in one of them (`fragment_text.rs` tests a fragment for ASCII so).
#[inline]
pub(super) fn words(bytes: &[u8]) -> (u64, u64) {
    let len = bytes.len();
    let load8 = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    let load4 =
        |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes")) as u64;
    match len {
        8.. => (load8(0), load8(len - 8)),
        4..=7 => (load4(0), load4(len - 4)),
        1..=3 => {
            let spread =
                bytes[0] as u64 | (bytes[len / 2] as u64) << 8 | (bytes[len - 1] as u64) << 16;
            (spread, 0)
        }
        0 => (0, 0),
    }
}

/// The first and the last sixteen bytes of `bytes` (16 to 32 of them), as four words.
#[inline(always)]
fn halves(bytes: &[u8]) -> [u64; 4] {
    let len = bytes.len();
    let load8 = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    [load8(0), load8(8), load8(len - 16), load8(len - 8)]
}

/// Whether a cached string holds exactly `key`.
///
/// # Safety
/// `string` must be a live compact ASCII str.
#[inline]
unsafe fn holds(string: *mut ffi::PyObject, key: &[u8], words_of_key: (u64, u64)) -> bool {
    // SAFETY: as the caller promised: its length is its byte count, its data those bytes.
    unsafe {
        let len = ffi::PyUnicode_GET_LENGTH(string) as usize;
        if len != key.len() {
            return false;
        }
        let data = std::slice::from_raw_parts(ffi::PyUnicode_DATA(string) as *const u8, len);
        if len <= 16 {
            words(data) == words_of_key
        } else if len <= 32 {
            // The first and the last sixteen bytes (overlapping) cover the key: two compares
            // of two words, no call.
            halves(data) == halves(key)
        } else {
            data == key
        }
    }
}

impl KeyCache {
    /// An empty cache of `1 << bits` slots, allocated on first use (most parsers read few
    /// keys).
    pub fn new(bits: u8) -> Self {
        Self::growing(bits, bits)
    }

    /// An empty cache of `1 << bits` slots that doubles, up to `1 << max_bits`, when it
    /// misses more than twice per slot: a stream's cache starts at eight slots (64 bytes)
    /// and grows only for a document whose keys need more (#28: memory per open stream).
    pub fn growing(bits: u8, max_bits: u8) -> Self {
        // `misses` counts to twice the slots before the last doubling.
        assert!(max_bits <= 15, "a key cache has at most 2^15 slots");
        KeyCache {
            slots: Box::default(),
            short: Box::default(),
            wide: None,
            bits,
            max_bits,
            misses: 0,
        }
    }

    /// The bytes this cache holds outside its owner (its tables, not the strs).
    pub fn heap_bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Option<Py<PyString>>>()
            + self.short.len() * std::mem::size_of::<(ShortKey, Option<Py<PyString>>)>()
            + self.wide.as_ref().map_or(0, |wide| {
                std::mem::size_of::<WideTable>()
                    + wide.len() * std::mem::size_of::<Option<WideKey>>()
            })
    }

    /// Counts a miss, and doubles the tables once they have missed more than twice per slot
    /// (a fixed cache never does). The strs kept move to their slots in the larger table;
    /// the other tables are emptied (they are refilled on use).
    #[cold]
    fn missed(&mut self) {
        if self.bits >= self.max_bits {
            return; // full grown, or fixed (`loads`' shared cache): nothing to count
        }
        self.misses += 1;
        if u32::from(self.misses) <= 2 << self.bits {
            return;
        }
        self.bits += 1;
        self.misses = 0;
        let old = std::mem::take(&mut self.slots);
        self.slots = (0..1usize << self.bits).map(|_| None).collect();
        for string in old.into_vec().into_iter().flatten() {
            // SAFETY: the slots hold compact ASCII strs (made by `ascii_string`), alive.
            let key = unsafe {
                let ptr = string.as_ptr();
                let len = ffi::PyUnicode_GET_LENGTH(ptr) as usize;
                std::slice::from_raw_parts(ffi::PyUnicode_DATA(ptr) as *const u8, len)
            };
            let (head, tail) = words(key);
            let index = self.index(key.len(), head, tail);
            let index = free_of_pair(&self.slots, index, Option::is_none);
            self.slots[index] = Some(string);
        }
        self.short = Box::default();
        self.wide = None;
    }

    /// The str of `key`, from the cache or created.
    pub fn get<'py>(&mut self, py: Python<'py>, key: &str) -> Bound<'py, PyString> {
        // SAFETY: the token proves the interpreter is held; the bytes are UTF-8 and flagged
        // ASCII only when they are. `lookup` gives a new reference or NULL, which panics
        // here as PyString::new would.
        unsafe {
            let string = self.lookup(key.as_bytes(), key.is_ascii());
            Bound::from_owned_ptr(py, string).cast_into_unchecked()
        }
    }

    /// A new reference to the str of `key`, from the cache or created; NULL with an exception
    /// set when the interpreter cannot make one, or when `key` is not UTF-8 (surrogates
    /// encoded in it are read, as `surrogatepass` does).
    ///
    /// The hit of an ASCII key is inlined into the caller (a hash, one slot, one compare);
    /// everything else goes out of line.
    ///
    /// # Safety
    /// The interpreter must be held by this thread, and `key` must be ASCII if `ascii`.
    #[inline(always)]
    pub unsafe fn lookup(&mut self, key: &[u8], ascii: bool) -> *mut ffi::PyObject {
        if ascii && key.len() <= MAX_KEY_LEN {
            let (head, tail) = words(key);
            let index = self.index(key.len(), head, tail);
            if let Some(Some(string)) = self.slots.get(index) {
                let string = string.as_ptr();
                // SAFETY: the cache holds compact ASCII strs only (made by `ascii_string`),
                // kept alive by their slots.
                if unsafe { holds(string, key, (head, tail)) } {
                    // SAFETY: the interpreter is held, as the caller promised.
                    return unsafe { shared(string) };
                }
            }
        }
        // SAFETY: as the caller promised.
        unsafe { self.lookup_slow(key, ascii) }
    }

    /// A new reference to the str of the first `len` bytes of `window`, ASCII and fewer than
    /// 16, from the cache or created (NULL with an exception set when the interpreter cannot
    /// make one). A hit is a hash of two words and one compare, inlined into the caller; the
    /// key's bytes are never looped over.
    ///
    /// # Safety
    /// The interpreter must be held by this thread; the key's bytes must be ASCII.
    #[inline(always)]
    pub unsafe fn lookup_short(&mut self, window: &[u8; 16], len: usize) -> *mut ffi::PyObject {
        let key = ShortKey::new(window, len);
        let index = key.index(self.short_bits());
        if let Some((held, Some(string))) = self.short.get(index) {
            if *held == key {
                let string = string.as_ptr();
                // SAFETY: the interpreter is held, as the caller promised.
                return unsafe { shared(string) };
            }
        }
        // SAFETY: as the caller promised.
        unsafe { self.insert_short(key, index, &window[..len]) }
    }

    /// `lookup_short`'s miss: the str is made and kept in slot `index`.
    ///
    /// # Safety
    /// As `lookup_short`; `bytes` are the key's.
    #[inline(never)]
    unsafe fn insert_short(
        &mut self,
        key: ShortKey,
        index: usize,
        bytes: &[u8],
    ) -> *mut ffi::PyObject {
        if let Some((held, Some(string))) = self.short.get(index ^ 1) {
            if *held == key {
                let string = string.as_ptr();
                // SAFETY: the interpreter is held, as the caller promised.
                return unsafe { shared(string) };
            }
        }
        if self.short.is_empty() {
            self.short = (0..1usize << self.short_bits())
                .map(|_| (ShortKey(0, 0), None))
                .collect();
        }
        let index = free_of_pair(&self.short, index, |(_, string)| string.is_none());
        // SAFETY: as the caller promised (ASCII bytes).
        let string = unsafe { ascii_string(bytes) };
        if !string.is_null() {
            // SAFETY: a new str, the interpreter held (the caller's promise, under which the
            // slot's old string, if any, is released by its drop).
            self.short[index] = (key, Some(unsafe { kept(string) }));
        }
        string
    }

    /// log2 of the slots of the table of short keys: a quarter of the others. Its slots are
    /// 24 bytes (the key's words beside the str), so at 12 bits it is 24 KB, not 96: a hit's
    /// slot is then mostly in the first-level cache (1% of instruments.json and twitter.json).
    #[inline(always)]
    fn short_bits(&self) -> u32 {
        u32::from(self.bits.saturating_sub(2).max(1))
    }

    /// The slot of a key of `len` bytes whose `words` are `head` and `tail`.
    #[inline(always)]
    fn index(&self, len: usize, head: u64, tail: u64) -> usize {
        let mixed = (head ^ tail.rotate_left(29) ^ len as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (mixed >> (64 - u32::from(self.bits))) as usize
    }

    /// `lookup` past its inlined hit: a miss (the key is created and cached), a key that is
    /// not ASCII, or a long one.
    ///
    /// # Safety
    /// As `lookup`.
    #[inline(never)]
    unsafe fn lookup_slow(&mut self, key: &[u8], ascii: bool) -> *mut ffi::PyObject {
        if key.len() > MAX_KEY_LEN {
            // SAFETY: as the caller promised.
            return unsafe { new_string(key, ascii) };
        }
        let (head, tail) = words(key);
        if ascii {
            let index = self.index(key.len(), head, tail);
            if let Some(Some(string)) = self.slots.get(index ^ 1) {
                let string = string.as_ptr();
                // SAFETY: the cache holds compact ASCII strs only (made by `ascii_string`),
                // kept alive by their slots.
                if unsafe { holds(string, key, (head, tail)) } {
                    // SAFETY: the interpreter is held, as the caller promised.
                    return unsafe { shared(string) };
                }
            }
            if !self.slots.is_empty() {
                self.missed();
            }
        }
        let index = self.index(key.len(), head, tail);
        if !ascii {
            // SAFETY: as the caller promised.
            return unsafe { self.lookup_wide(key, index) };
        }
        if self.slots.is_empty() {
            self.slots = (0..1usize << self.bits).map(|_| None).collect();
        }
        let index = free_of_pair(&self.slots, index, Option::is_none);
        // SAFETY: as the caller promised (ASCII here).
        let string = unsafe { ascii_string(key) };
        if !string.is_null() {
            // SAFETY: as in `insert_short`.
            self.slots[index] = Some(unsafe { kept(string) });
        }
        string
    }

    /// `lookup` of a key that is not ASCII, in slot `index` of the table of such keys.
    ///
    /// # Safety
    /// The interpreter must be held by this thread.
    #[cold]
    unsafe fn lookup_wide(&mut self, key: &[u8], index: usize) -> *mut ffi::PyObject {
        let bits = self.bits;
        let wide = self
            .wide
            .get_or_insert_with(|| Box::new((0..1usize << bits).map(|_| None).collect()));
        for at in [index, index ^ 1] {
            if let Some((bytes, string)) = &wide[at] {
                if **bytes == *key {
                    let string = string.as_ptr();
                    // SAFETY: the interpreter is held, as the caller promised.
                    return unsafe { shared(string) };
                }
            }
        }
        let slot = &mut wide[free_of_pair(wide, index, Option::is_none)];
        // SAFETY: the interpreter is held, as the caller promised.
        let string = unsafe { new_string(key, false) };
        if !string.is_null() {
            // SAFETY: as in `insert_short`.
            *slot = Some((key.into(), unsafe { kept(string) }));
        }
        string
    }
}

/// A new reference to `string`, a slot's str, for the caller (the slot keeps its own).
///
/// # Safety
/// The interpreter must be held by this thread, and `string` must be a slot's.
#[inline(always)]
unsafe fn shared(string: *mut ffi::PyObject) -> *mut ffi::PyObject {
    // SAFETY: as the caller promised: a live object, its slot holding it.
    unsafe { ffi::Py_INCREF(string) };
    string
}

/// A slot's own reference to `string`, a new str whose reference stays the caller's.
///
/// # Safety
/// The interpreter must be held by this thread, and `string` must be a live str.
#[inline(always)]
unsafe fn kept(string: *mut ffi::PyObject) -> Py<PyString> {
    // SAFETY: as the caller promised; the new reference is the slot's.
    unsafe {
        ffi::Py_INCREF(string);
        Bound::from_owned_ptr(Python::assume_attached(), string)
            .cast_into_unchecked()
            .unbind()
    }
}

/// Where a new entry of the pair of slots `index` and `index ^ 1` goes: `index` if it is
/// free, else the other if that one is, else `index` (its entry is evicted).
#[inline]
fn free_of_pair<T>(table: &[T], index: usize, free: impl Fn(&T) -> bool) -> usize {
    if !free(&table[index]) && free(&table[index ^ 1]) {
        index ^ 1
    } else {
        index
    }
}

/// A new str from UTF-8 `bytes` (surrogates encoded in them read, as `surrogatepass` does),
/// or NULL with an exception set (also when `bytes` are not UTF-8).
///
/// # Safety
/// The interpreter must be held, and `bytes` must be ASCII if `ascii`.
#[inline]
unsafe fn new_string(bytes: &[u8], ascii: bool) -> *mut ffi::PyObject {
    // SAFETY: as the caller promised.
    unsafe {
        if ascii {
            ascii_string(bytes)
        } else {
            utf8_string(bytes)
        }
    }
}
