//! What the machine tells the value builder, and, when a check rides on it, where each token
//! begins and ends. Twin: the method calls on `src/jsondrip/twin/builder.py`'s `Builder`
//! (the events: `src/jsondrip/twin/schema/checked.py`'s `CheckedSink`).

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

/// For a sink that takes events (`Sink::EVENTS`): the last byte index of the fragment being
/// read whose character position was asked, and how many characters precede it there, so
/// that each event counts on from the last.
#[derive(Debug, Clone, Copy, Default)]
pub struct Cursor {
    pub byte: usize,
    pub chars: u64,
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

    // -- positioned events, for a sink that checks as it builds (the schema check) ----------
    // Positions are in characters from the stream's start. The machine works them out and
    // sends these only when `EVENTS` is set: a sink that only builds pays nothing for them
    // (the constant is read at compile time, once per token site). A check's failure is the
    // sink's to keep: the machine reads on, so that a syntax error later in the same
    // fragment comes first, as json reads the text before anything checks it.

    /// The sink takes the positioned events below.
    const EVENTS: bool = false;
    /// With `EVENTS`: where the machine counted characters last in the fragment being read
    /// (kept by the sink, made for one read, not by every open stream).
    fn cursor(&mut self) -> &mut Cursor {
        unreachable!("only a sink that takes events is asked where its positions are")
    }
    /// A value begins at `pos` with the character `first` (`"`, `{`, `[`, `-`, a digit, or a
    /// literal's first letter: it settles the value's JSON type).
    #[inline]
    fn value_begins(&mut self, _first: u8, _pos: u64) {}
    /// An object's key begins: its opening quote at `pos`.
    #[inline]
    fn key_begins(&mut self, _pos: u64) {}
    /// More content of the string or key being read, decoded (UTF-8, or WTF-8 for a lone
    /// surrogate): a plain run that begins at `start` (`plain`; `closes` when the closing
    /// quote follows it), or the character of one escape that ends at `start`.
    #[inline]
    fn string_text(&mut self, _piece: &[u8], _start: u64, _plain: bool, _closes: bool) {}
    /// The closing quote at `pos` of a string or key.
    #[inline]
    fn string_ends(&mut self, _pos: u64) {}
    /// A number or literal is complete, `pos` where that became certain: the character after
    /// a number (the stream's end after a root number), a literal's last letter.
    #[inline]
    fn atom_ends(&mut self, _atom: Atom, _pos: u64) {}
    /// `}` or `]` at `pos`.
    #[inline]
    fn container_ends(&mut self, _pos: u64) {}
}
