//! What the machine tells the value builder. Twin: the method calls on
//! `src/jsondrip/twin/builder.py`'s `Builder`.

/// Why the sink could not take an event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// It failed (in the Python layer: a Python exception is pending).
    Raised,
    /// It refuses the value as invalid here (an integer past the interpreter's limit on
    /// digits): a syntax error at the value's first character, with this message.
    Invalid(String),
}

/// Decoded string content: UTF-8, or WTF-8 (lone surrogates encoded as three bytes) when
/// `surrogates` is set.
#[derive(Debug, Clone, Copy)]
pub struct Str<'a> {
    pub bytes: &'a [u8],
    pub surrogates: bool,
}

impl<'a> Str<'a> {
    /// The content as `&str` when it holds no lone surrogate.
    pub fn as_str(&self) -> Option<&'a str> {
        if self.surrogates {
            None
        } else {
            // SAFETY: the machine only produces valid UTF-8 when `surrogates` is false.
            Some(unsafe { std::str::from_utf8_unchecked(self.bytes) })
        }
    }
}

/// A complete number (its JSON text) or literal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Atom<'a> {
    Int(&'a str),
    Float(&'a str),
    True,
    False,
    Null,
    NaN,
    Infinity,
    NegInfinity,
}

/// Builds the value. One slot is open at a time: the string value still being read, or in
/// jiter mode a number shown before it is complete (the tentative slot).
pub trait Sink {
    /// `{` (object) or `[`: the new container takes its place in its parent.
    fn begin_container(&mut self, object: bool) -> Result<(), Stop>;
    /// `}` or `]`.
    fn end_container(&mut self);
    /// A complete key; its property appears when its value does.
    fn set_key(&mut self, key: Str) -> Result<(), Stop>;
    /// The string value so far: shown new, or replacing the shorter one shown before.
    fn string(&mut self, text: Str, complete: bool) -> Result<(), Stop>;
    /// A complete number or literal (taking over the tentative slot if there is one).
    fn atom(&mut self, atom: Atom) -> Result<(), Stop>;
    /// jiter mode: show a number still arriving, ready to be taken back.
    fn show_tentative(&mut self, atom: Atom) -> Result<(), Stop>;
    /// jiter mode: take back the number shown, restoring what its key held before.
    fn hide_tentative(&mut self) -> Result<(), Stop>;
    /// The machine read all of `text` (whole code points, WTF-8): the schema check reads it
    /// next. Nothing to do for a sink that only builds.
    #[inline]
    fn accepted(&mut self, _text: &[u8]) {}
}
