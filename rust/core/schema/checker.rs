//! The incremental checker: schema checks on the value being read, settled as early as
//! certain. Twin: `src/jsondrip/twin/schema/checker.py` (the rules of each keyword are
//! written out there and in docs/schema.md; this file follows it step for step).
//!
//! Every value being read has a frame (the stack mirrors the open containers, plus the
//! string, key, number or literal still arriving); a frame holds *checks*: a subschema
//! applied to that value, linked to the check that asked for it. Checks live in one arena in
//! the frames' order, so a frame's checks are a range of it and popping a frame frees them.
//! A check's children on the same value follow it in the arena (it spawns them depth first),
//! so the subschemas applied beside one are a range too.
//!
//! Conditional children (`if`/`then`/`else`, `dependentSchemas`, the `unevaluated*` subschema
//! of a key or item some subschema may still evaluate) fail their parent only once their
//! condition is settled, from the failure they kept until then.

use super::node::FastSet;

use super::node::{Bound, Node, Scalar, ARRAY, BOOLEAN, INTEGER, NULL, NUMBER, OBJECT, STRING};
use super::numbers::{compare, is_integer, parse, Num};
use crate::core::sink::Atom;
use std::cmp::Ordering;
use std::sync::Arc;

/// How a check is tied to its parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    All,
    Any,
    One,
    Not,
    Contains,
    If,
    Then,
    Else,
    Dependent,
    Unevaluated,
}

/// How a failure reads when it fails the parent through a union or a condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wrap {
    AnyOf,
    OneOf,
    ThenFailed,
    ElseFailed,
    Neither,
    /// The node and the index of its `dependentSchemas` entry.
    Dependent(usize, usize),
    UnevaluatedProperty,
    UnevaluatedItem,
}

/// The kind of value a frame reads (`Key`: an object's key while it arrives).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Object,
    Array,
    String,
    Number,
    Boolean,
    Null,
    Key,
}

impl Kind {
    /// The kind of value a first character begins (`Sink::value_begins`), and whether it is
    /// a number's minus sign.
    pub fn of_first(first: u8) -> (Kind, bool) {
        match first {
            b'"' => (Kind::String, false),
            b'{' => (Kind::Object, false),
            b'[' => (Kind::Array, false),
            b't' | b'f' => (Kind::Boolean, false),
            b'n' => (Kind::Null, false),
            _ => (Kind::Number, first == b'-'), // a digit, `-`, NaN, Infinity
        }
    }

    fn bit(self) -> u8 {
        match self {
            Kind::Object => OBJECT,
            Kind::Array => ARRAY,
            Kind::String | Kind::Key => STRING,
            Kind::Number => NUMBER,
            Kind::Boolean => BOOLEAN,
            Kind::Null => NULL,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Object => "object",
            Kind::Array => "array",
            Kind::String | Kind::Key => "string",
            Kind::Number => "number",
            Kind::Boolean => "boolean",
            Kind::Null => "null",
        }
    }
}

/// A path segment: a key (WTF-8) or an index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    Key(Vec<u8>),
    Index(u64),
}

/// A value a message shows as Python's `repr` does (the Python layer writes it).
#[derive(Debug, Clone, PartialEq)]
pub enum Shown {
    /// A string (WTF-8), followed by `...` when `dots`.
    Str { text: Vec<u8>, dots: bool },
    /// A complete number or literal, by its JSON text.
    Atom(String),
    /// The complete value at this path of the live value.
    Value(Vec<Seg>),
}

/// Why the root check failed: what `SchemaViolation` carries. Its message is
/// `before + repr(shown) + after` (WTF-8).
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    pub path: Vec<u8>,
    pub pos: u64,
    pub keyword: String,
    pub before: Vec<u8>,
    pub shown: Option<Shown>,
    pub after: Vec<u8>,
}

/// Why the check stopped: the schema is broken, or the oracle raised (Python error pending).
#[derive(Debug, Clone, PartialEq)]
pub enum Fail {
    Violation(Box<Violation>),
    Raised,
}

/// A complete number or literal handed to the oracle: its JSON text and type bit.
#[derive(Debug, Clone, Copy)]
pub struct AtomText<'a> {
    pub text: &'a str,
    pub kind: u8,
    pub float: bool,
}

impl<'a> AtomText<'a> {
    /// A complete number or literal as the machine gives it (`Sink::atom_ends`).
    pub fn of(atom: Atom<'a>) -> Self {
        let (text, kind, float) = match atom {
            Atom::Int(text) => (text, NUMBER, false),
            Atom::Float(text) => (text, NUMBER, true),
            Atom::True => ("true", BOOLEAN, false),
            Atom::False => ("false", BOOLEAN, false),
            Atom::Null => ("null", NULL, false),
            Atom::NaN => ("NaN", NUMBER, true),
            Atom::Infinity => ("Infinity", NUMBER, true),
            Atom::NegInfinity => ("-Infinity", NUMBER, true),
        };
        AtomText { text, kind, float }
    }
}

/// The oracle could not answer: it raised (the Python layer keeps the exception).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Raised;

/// A keyword's failure as the oracle reports it: None (it holds) or (keyword, detail).
pub type Failure = Option<(String, Vec<u8>)>;

/// The keywords that compare Python values, answered by the Python layer (Err: it raised).
/// Each failure is `(keyword, message detail)`.
pub trait Oracle {
    /// Does the complete string match the node's `pattern`?
    fn pattern(&mut self, node: usize, text: &[u8]) -> Result<bool, Raised>;
    /// Does the key match the node's `patternProperties` regex number `index`?
    fn pattern_property(&mut self, node: usize, index: usize, key: &[u8]) -> Result<bool, Raised>;
    /// `enum`/`const` and the number keywords on a complete number or literal.
    fn atom(&mut self, node: usize, atom: AtomText) -> Result<Failure, Raised>;
    /// `uniqueItems` and `enum`/`const` on the complete container at `path`.
    fn container(&mut self, node: usize, path: &[Seg]) -> Result<Failure, Raised>;
}

/// A failure's message, before the path is put in front.
struct Detail {
    before: Vec<u8>,
    shown: Option<Shown>,
    after: Vec<u8>,
}

fn text(s: String) -> Detail {
    Detail {
        before: s.into_bytes(),
        shown: None,
        after: Vec::new(),
    }
}

fn showing(shown: Shown, after: String) -> Detail {
    Detail {
        before: Vec::new(),
        shown: Some(shown),
        after: after.into_bytes(),
    }
}

/// What failed, before it is worded: at a frame (keyword, detail), or a failure kept by a
/// conditional check until its condition settled.
enum Inner<'k> {
    Leaf {
        frame: usize,
        keyword: &'k str,
        detail: Detail,
    },
    Kept(Box<Violation>),
}

struct Check {
    node: usize,
    parent: Option<usize>,
    role: Role,
    frame: usize,
    alive: bool,
    any_left: u32,
    one_left: u32,
    one_checks: Option<Vec<usize>>,
    not_check: Option<usize>,
    contains_count: u64,
    /// Its place in `Checker::extras` (`NO_EXTRA`: none), for the keywords that need one:
    /// `if`, `dependentSchemas`, `unevaluated*`, and a conditional child's kept failure.
    extra: u32,
}

const NO_EXTRA: u32 = u32::MAX;

/// What a check of the conditional and `unevaluated*` keywords keeps. Made when the check is
/// spawned, so they are in the checks' order and a finished frame frees its own.
#[derive(Default)]
struct Extra {
    if_check: Option<usize>,
    then_check: Option<usize>,
    else_check: Option<usize>,
    /// By the node's `dependent_schemas`.
    dependent_checks: Vec<usize>,
    /// A conditional check that failed before its condition settled: its failure.
    kept: Option<Box<Violation>>,
    /// `unevaluated*`: each key or item that failed the unevaluated subschema while some
    /// subschema might still evaluate it, and its failure (None: the `false` schema).
    deferred: Vec<(Seg, Option<Box<Violation>>)>,
    /// Past the last of its frame's checks below it.
    end: usize,
    /// The items its `contains` passed (in order), for an `unevaluatedItems` above.
    contains_passed: Vec<u64>,
}

/// Where a frame's value sits in its container.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Root,
    /// Under its object's current key.
    Key,
    Index(u64),
    /// A key's frame: its path is its object's.
    OfObject,
}

/// What a string (or key) filter holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Members {
    /// The string members of an `enum`/`const`.
    Enum,
    /// The names of a closed object (`additionalProperties: false`).
    Names,
    /// The names an `unevaluatedProperties: false` object's subschemas can evaluate.
    Unevaluated,
}

/// The string members a string (or key) can still become, for one check: positions
/// `lo..hi` of the members in their bytes' order (`member_order`). Members that begin with
/// the text read so far are neighbours in that order, so narrowing by a piece is two binary
/// searches and a filter allocates nothing.
struct Filter {
    check: usize,
    lo: u32,
    hi: u32,
    kind: Members,
}

impl Filter {
    /// A filter of every member of `kind` at node `n`.
    fn all(check: usize, n: &Node, kind: Members) -> Self {
        Filter {
            check,
            lo: 0,
            hi: member_order(n, kind).len() as u32,
            kind,
        }
    }
}

/// The members a filter of `kind` draws from, for node `n`.
#[inline]
fn all_members(n: &Node, kind: Members) -> &[Vec<u8>] {
    match kind {
        Members::Enum => {
            &n.enumeration
                .as_ref()
                .expect("an enum filter has an enum")
                .strings
        }
        Members::Names => &n.property_order,
        Members::Unevaluated => &n.evaluated.as_ref().expect("evaluated names").name_order,
    }
}

/// The members a filter of `kind` draws from, for node `n`, as indexes into `all_members` in
/// their bytes' order (made by `prepare`).
#[inline]
fn member_order(n: &Node, kind: Members) -> &[u32] {
    match kind {
        Members::Enum => &n.member_order[0],
        Members::Names => &n.member_order[1],
        Members::Unevaluated => &n.member_order[2],
    }
}

/// The indexes of `members` in their bytes' order.
fn bytes_order(members: &[Vec<u8>]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..members.len() as u32).collect();
    order.sort_by(|&a, &b| members[a as usize].cmp(&members[b as usize]));
    order
}

/// Is `index` among the sorted items a `contains` passed?
fn passed(items: &[u64], index: u64) -> bool {
    items.binary_search(&index).is_ok()
}

struct Frame {
    kind: Kind,
    slot: Slot,
    first: usize,
    count: u64,
    keys: FastSet<Vec<u8>>,
    key: Vec<u8>,
    length: u64,
    limit: u64,
    text: Vec<u8>,
    /// A string whose checks need its text (else its content is not even counted).
    keep_text: bool,
    /// An object whose checks read its keys (else only the current key is kept).
    track_keys: bool,
    filters: Vec<Filter>,
    /// Where its checks' extras start in `Checker::extras`.
    first_extra: usize,
    /// A check of it has something to settle at the value's end (`not`, `oneOf`, `if`,
    /// `unevaluated*`...): else its end skips that pass.
    settle: bool,
}

const NO_LIMIT: u64 = u64::MAX;

/// At most this many key buffers are kept for reuse: enough for the next object of a
/// records-like document to take its keys' buffers back, while an object of a million keys
/// read once does not keep them all (each spare costs its allocation in every typed stream).
const SPARE_KEYS: usize = 32;

fn count_chars(bytes: &[u8]) -> u64 {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count() as u64
}

/// The first `n` characters of WTF-8 text.
fn first_chars(bytes: &[u8], n: u64) -> &[u8] {
    let mut seen = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if (b as i8) >= -0x40 {
            if seen == n {
                return &bytes[..i];
            }
            seen += 1;
        }
    }
    bytes
}

/// Is `token` the decimal digits of `n` (as Python's `str(n)` writes it)?
fn is_decimal(token: &[u8], mut n: u64) -> bool {
    let mut end = token.len();
    loop {
        if end == 0 || token[end - 1] != b'0' + (n % 10) as u8 {
            return false;
        }
        end -= 1;
        n /= 10;
        if n == 0 {
            return end == 0;
        }
    }
}

fn article(kind: Kind) -> &'static str {
    match kind {
        Kind::Key => "a key",
        Kind::Object => "an object",
        Kind::Array => "an array",
        Kind::String => "a string",
        Kind::Number => "a number",
        Kind::Boolean => "a boolean",
        Kind::Null => "a null",
    }
}

fn escape_token(token: &[u8], out: &mut Vec<u8>) {
    for &b in token {
        match b {
            b'~' => out.extend_from_slice(b"~0"),
            b'/' => out.extend_from_slice(b"~1"),
            _ => out.push(b),
        }
    }
}

fn bound(b: Bound) -> Num {
    match b {
        Bound::Int(i) => Num::Int(i),
        Bound::Float(f) => Num::Float(f),
    }
}

fn is(value: Num, b: Option<Bound>, want: &[Ordering]) -> bool {
    match b {
        Some(b) => compare(value, bound(b)).is_some_and(|o| want.contains(&o)),
        None => false,
    }
}

/// A literal's value against a scalar enum member (`true` is not `1`).
fn scalar_equal(value: Scalar, member: Scalar) -> bool {
    let num = |s: Scalar| match s {
        Scalar::Int(i) => Some(Num::Int(i)),
        Scalar::Float(f) => Some(Num::Float(f)),
        _ => None,
    };
    match (num(value), num(member)) {
        (Some(a), Some(b)) => compare(a, b) == Some(Ordering::Equal),
        (None, None) => value == member,
        _ => false,
    }
}

/// Checks one document against one node table, event by event (see `scanner`).
pub struct Checker {
    /// The schema's table, shared by every stream checked against it (see [`prepare`]).
    nodes: Arc<[Node]>,
    checks: Vec<Check>,
    extras: Vec<Extra>,
    /// The open frames are `frames[..depth]`; the rest are kept for reuse.
    frames: Vec<Frame>,
    depth: usize,
    /// Emptied key buffers of popped objects, for the next object's keys: a key seen costs
    /// no allocation once the first objects have been read.
    spare_keys: Vec<Vec<u8>>,
    /// The lowest `depth` since [`Checker::take_low_water`] last read it: while it stays at or
    /// above a frame's depth, that frame and every frame below it are the same open values.
    low_water: usize,
    pub root_done: bool,
}

/// A node table made ready for checking, once per schema: each node learns whether it
/// applies subschemas beside it and whether a new key can settle one of its keywords. Every
/// stream's [`Checker`] shares it (`Checker::shared`): a new stream copies no node.
pub fn prepare(mut nodes: Vec<Node>) -> Arc<[Node]> {
    for n in &mut nodes {
        n.beside = !(n.all_of.is_empty()
            && n.refs.is_empty()
            && n.any_of.is_empty()
            && n.one_of.is_empty()
            && n.not.is_none()
            && n.if_.is_none()
            && n.dependent_schemas.is_empty()
            && n.evaluated.is_none()
            && !n.contains_annotates);
        n.keyed = n.unevaluated_properties.is_some() || !n.dependent_schemas.is_empty();
        n.member_order = [
            n.enumeration
                .as_ref()
                .map_or_else(Vec::new, |e| bytes_order(&e.strings)),
            bytes_order(&n.property_order),
            n.evaluated
                .as_ref()
                .map_or_else(Vec::new, |e| bytes_order(&e.name_order)),
        ];
    }
    nodes.into()
}

impl Checker {
    /// A checker of the table whose root is node 0.
    pub fn new(nodes: Vec<Node>) -> Self {
        Self::shared(prepare(nodes))
    }

    /// A checker of a table made by [`prepare`] (root: node 0).
    pub fn shared(nodes: Arc<[Node]>) -> Self {
        Checker {
            nodes,
            checks: Vec::new(),
            extras: Vec::new(),
            frames: Vec::new(),
            depth: 0,
            spare_keys: Vec::new(),
            low_water: 0,
            root_done: false,
        }
    }

    // -- failing ------------------------------------------------------------------------------

    /// The path of frame `index` as a JSON Pointer.
    fn pointer(&self, index: usize) -> Vec<u8> {
        let mut out = Vec::new();
        for seg in self.segments(index) {
            out.push(b'/');
            match seg {
                Seg::Key(k) => escape_token(&k, &mut out),
                Seg::Index(i) => out.extend_from_slice(i.to_string().as_bytes()),
            }
        }
        out
    }

    /// The keys and indexes from the root to frame `index`.
    fn segments(&self, index: usize) -> Vec<Seg> {
        let last = if self.frames[index].slot == Slot::OfObject {
            index.wrapping_sub(1)
        } else {
            index
        };
        let mut out = Vec::new();
        if last == usize::MAX {
            return out;
        }
        for j in 1..=last {
            match self.frames[j].slot {
                Slot::Index(i) => out.push(Seg::Index(i)),
                Slot::Key => out.push(Seg::Key(self.frames[j - 1].key.clone())),
                Slot::Root | Slot::OfObject => {}
            }
        }
        out
    }

    fn kill(&mut self, check: usize, keyword: &str, pos: u64, detail: Detail) -> Result<(), Fail> {
        let frame = self.checks[check].frame;
        let inner = Inner::Leaf {
            frame,
            keyword,
            detail,
        };
        self.fail(check, inner, Vec::new(), pos)
    }

    /// Fails `at` for `inner` (wrapped in `wraps` on its way up), then its parents as far as
    /// they depend on it; the root failing is the violation.
    fn fail(
        &mut self,
        mut at: usize,
        mut inner: Inner,
        mut wraps: Vec<(usize, Wrap)>,
        pos: u64,
    ) -> Result<(), Fail> {
        while self.checks[at].alive {
            self.checks[at].alive = false;
            let (parent, role) = (self.checks[at].parent, self.checks[at].role);
            let Some(parent) = parent else {
                let mut violation = self.failure(inner, &wraps);
                violation.pos = pos;
                return Err(Fail::Violation(Box::new(violation)));
            };
            match role {
                Role::All => at = parent,
                Role::Any | Role::One => {
                    let p = &mut self.checks[parent];
                    let left = if role == Role::Any {
                        p.any_left -= 1;
                        p.any_left
                    } else {
                        p.one_left -= 1;
                        p.one_left
                    };
                    if left > 0 {
                        return Ok(());
                    }
                    let wrap = if role == Role::Any {
                        Wrap::AnyOf
                    } else {
                        Wrap::OneOf
                    };
                    wraps.push((self.checks[parent].frame, wrap));
                    at = parent;
                }
                Role::Not | Role::Contains => return Ok(()),
                Role::If | Role::Then | Role::Else | Role::Dependent | Role::Unevaluated => {
                    if !self.checks[parent].alive {
                        return Ok(());
                    }
                    let Some(wrap) = self.settled(at, parent, role) else {
                        // its condition is open: keep the failure for later
                        if role != Role::If {
                            let kept = Box::new(self.failure(inner, &wraps));
                            if role == Role::Unevaluated {
                                let slot = self.slot(self.checks[at].frame);
                                self.extra(parent).deferred.push((slot, Some(kept)));
                            } else {
                                self.extra(at).kept = Some(kept);
                            }
                        }
                        return Ok(());
                    };
                    if role == Role::If {
                        // `if` failed and `else` had already: report `else`'s failure
                        let other = self.extra(parent).else_check;
                        inner = Inner::Kept(self.take_kept(other, parent));
                        wraps.clear();
                    }
                    wraps.push((self.checks[parent].frame, wrap));
                    at = parent;
                }
            }
        }
        Ok(())
    }

    /// A conditional child `check` failed: how the failure reads if it fails `parent` now,
    /// or None while its condition is open (or it no longer matters).
    fn settled(&self, check: usize, parent: usize, role: Role) -> Option<Wrap> {
        let extra = self.extra_of(parent)?;
        let dead = |c: Option<usize>| c.is_some_and(|c| !self.checks[c].alive);
        let if_failed = dead(extra.if_check);
        match role {
            Role::If => dead(extra.else_check).then_some(Wrap::ElseFailed),
            Role::Then if if_failed => None, // `else` decides
            Role::Then => dead(extra.else_check).then_some(Wrap::Neither),
            Role::Else if if_failed => Some(Wrap::ElseFailed),
            Role::Else => dead(extra.then_check).then_some(Wrap::Neither),
            Role::Dependent => {
                let index = extra.dependent_checks.iter().position(|&c| c == check)?;
                let node = self.checks[parent].node;
                let name = &self.nodes[node].dependent_schemas[index].0;
                let frame = self.checks[parent].frame;
                self.frames[frame]
                    .keys
                    .contains(name)
                    .then_some(Wrap::Dependent(node, index))
            }
            _ => None, // Unevaluated: settled at the value's end
        }
    }

    /// The failure a conditional check kept (always there when its parent is still alive;
    /// a plain one otherwise).
    fn take_kept(&mut self, check: Option<usize>, parent: usize) -> Box<Violation> {
        let kept = check.and_then(|c| self.extra_mut(c)?.kept.take());
        kept.unwrap_or_else(|| {
            let frame = self.checks[parent].frame;
            Box::new(self.failure(
                Inner::Leaf {
                    frame,
                    keyword: "if",
                    detail: text("not valid under the conditional schema".into()),
                },
                &[],
            ))
        })
    }

    fn extra_of(&self, check: usize) -> Option<&Extra> {
        self.extras.get(self.checks[check].extra as usize)
    }

    fn extra_mut(&mut self, check: usize) -> Option<&mut Extra> {
        self.extras.get_mut(self.checks[check].extra as usize)
    }

    /// The extra of a check that has one (made by `spawn` for its node or role).
    fn extra(&mut self, check: usize) -> &mut Extra {
        self.extra_mut(check).expect("spawned with an extra")
    }

    /// Where frame `index` sits in its container.
    fn slot(&self, index: usize) -> Seg {
        match self.frames[index].slot {
            Slot::Index(i) => Seg::Index(i),
            _ => Seg::Key(self.frames[index - 1].key.clone()),
        }
    }

    fn wrap_words(&self, wrap: Wrap) -> (&'static str, Vec<u8>) {
        let (keyword, words): (&'static str, &str) = match wrap {
            Wrap::AnyOf => (
                "anyOf",
                "not valid under any of the given schemas (anyOf); the last ruled out: ",
            ),
            Wrap::OneOf => (
                "oneOf",
                "not valid under any of the given schemas (oneOf); the last ruled out: ",
            ),
            Wrap::ThenFailed => ("then", "valid under 'if' but not under 'then': "),
            Wrap::ElseFailed => ("else", "not valid under 'if' nor under 'else': "),
            Wrap::Neither => (
                "if",
                "valid under neither 'then' nor 'else' (if/then/else); the last ruled out: ",
            ),
            Wrap::Dependent(node, index) => {
                let shown = &self.nodes[node].dependent_schemas[index].1;
                let words = format!("{shown} is present, so its dependentSchemas entry applies: ");
                return ("dependentSchemas", words.into_bytes());
            }
            Wrap::UnevaluatedProperty => (
                "unevaluatedProperties",
                "not valid under unevaluatedProperties: ",
            ),
            Wrap::UnevaluatedItem => ("unevaluatedItems", "not valid under unevaluatedItems: "),
        };
        (keyword, words.as_bytes().to_vec())
    }

    /// A failure worded from its cause outwards through the unions and conditions it passed
    /// (its `pos` is set by the caller).
    fn failure(&self, inner: Inner, wraps: &[(usize, Wrap)]) -> Violation {
        let where_ = |path: &[u8]| -> Vec<u8> {
            if path.is_empty() {
                b"(root)".to_vec()
            } else {
                path.to_vec()
            }
        };
        let mut violation = match inner {
            Inner::Kept(kept) => *kept,
            Inner::Leaf {
                frame,
                keyword,
                detail,
            } => {
                let path = self.pointer(frame);
                let mut before = where_(&path);
                before.extend_from_slice(b": ");
                before.extend_from_slice(&detail.before);
                Violation {
                    path,
                    pos: 0,
                    keyword: keyword.to_string(),
                    before,
                    shown: detail.shown,
                    after: detail.after,
                }
            }
        };
        for &(frame, wrap) in wraps {
            let (keyword, words) = self.wrap_words(wrap);
            violation.keyword = keyword.to_string();
            violation.path = self.pointer(frame);
            let mut wrapped = where_(&violation.path);
            wrapped.extend_from_slice(b": ");
            wrapped.extend_from_slice(&words);
            wrapped.extend_from_slice(&violation.before);
            violation.before = wrapped;
        }
        violation
    }

    // -- frames and checks --------------------------------------------------------------------

    fn spawn(
        &mut self,
        node: usize,
        parent: Option<usize>,
        role: Role,
        frame: usize,
        depth: u32,
    ) -> usize {
        let check = self.checks.len();
        self.checks.push(Check {
            node,
            parent,
            role,
            frame,
            alive: true,
            any_left: 0,
            one_left: 0,
            one_checks: None,
            not_check: None,
            contains_count: 0,
            extra: NO_EXTRA,
        });
        let n = &self.nodes[node];
        if matches!(role, Role::Then | Role::Else | Role::Dependent) // the failure it may keep
            || (n.beside
                && (n.if_.is_some()
                    || !n.dependent_schemas.is_empty()
                    || n.evaluated.is_some()
                    || n.contains_annotates))
        {
            self.new_extra(check);
        }
        if depth > 64 {
            // a $ref cycle that never reaches a value: jsonschema recurses forever
            return check;
        }
        let n = &self.nodes[node];
        if !n.beside {
            return check; // the common case: no applicators
        }
        self.frames[frame].settle = true;
        let (all_of, refs, any_of, one_of, not) = (
            n.all_of.clone(),
            n.refs.clone(),
            n.any_of.clone(),
            n.one_of.clone(),
            n.not,
        );
        for sub in all_of {
            self.spawn(sub, Some(check), Role::All, frame, depth + 1);
        }
        for target in refs {
            self.spawn(target, Some(check), Role::All, frame, depth + 1);
        }
        if !any_of.is_empty() {
            self.checks[check].any_left = any_of.len() as u32;
            for sub in any_of {
                self.spawn(sub, Some(check), Role::Any, frame, depth + 1);
            }
        }
        if !one_of.is_empty() {
            self.checks[check].one_left = one_of.len() as u32;
            let ones = one_of
                .into_iter()
                .map(|sub| self.spawn(sub, Some(check), Role::One, frame, depth + 1))
                .collect();
            self.checks[check].one_checks = Some(ones);
        }
        if let Some(sub) = not {
            let c = self.spawn(sub, Some(check), Role::Not, frame, depth + 1);
            self.checks[check].not_check = Some(c);
        }
        let n = &self.nodes[node];
        let (if_, then, else_) = (n.if_, n.then, n.else_);
        if let Some(sub) = if_ {
            let c = self.spawn(sub, Some(check), Role::If, frame, depth + 1);
            self.extra(check).if_check = Some(c);
            if let Some(sub) = then {
                let c = self.spawn(sub, Some(check), Role::Then, frame, depth + 1);
                self.extra(check).then_check = Some(c);
            }
            if let Some(sub) = else_ {
                let c = self.spawn(sub, Some(check), Role::Else, frame, depth + 1);
                self.extra(check).else_check = Some(c);
            }
        }
        let n = &self.nodes[node];
        if !n.dependent_schemas.is_empty() && self.frames[frame].kind == Kind::Object {
            let subs: Vec<usize> = n.dependent_schemas.iter().map(|d| d.2).collect();
            let checks = subs
                .into_iter()
                .map(|sub| self.spawn(sub, Some(check), Role::Dependent, frame, depth + 1))
                .collect();
            self.extra(check).dependent_checks = checks;
        }
        let n = &self.nodes[node];
        if n.evaluated.is_some() || n.contains_annotates {
            let end = self.checks.len();
            self.extra(check).end = end;
        }
        check
    }

    fn new_extra(&mut self, check: usize) {
        if self.checks[check].extra == NO_EXTRA {
            self.checks[check].extra = self.extras.len() as u32;
            self.extras.push(Extra::default());
        }
    }

    /// Pushes a frame (reusing a kept one) whose checks start at the arena's end.
    fn push(&mut self, kind: Kind, slot: Slot) -> usize {
        let first = self.checks.len();
        let first_extra = self.extras.len();
        let index = self.depth;
        if index == self.frames.len() {
            self.frames.push(Frame {
                kind,
                slot,
                first,
                count: 0,
                keys: FastSet::default(),
                key: Vec::new(),
                length: 0,
                limit: NO_LIMIT,
                text: Vec::new(),
                keep_text: kind == Kind::Key,
                track_keys: false,
                filters: Vec::new(),
                first_extra,
                settle: false,
            });
        } else {
            let f = &mut self.frames[index];
            f.kind = kind;
            f.slot = slot;
            f.first = first;
            f.count = 0;
            for mut key in f.keys.drain() {
                if self.spare_keys.len() < SPARE_KEYS {
                    key.clear();
                    self.spare_keys.push(key);
                }
            }
            f.key.clear();
            f.length = 0;
            f.limit = NO_LIMIT;
            f.text.clear();
            f.keep_text = kind == Kind::Key;
            f.track_keys = false;
            f.filters.clear();
            f.first_extra = first_extra;
            f.settle = false;
        }
        self.depth += 1;
        index
    }

    /// The arena range of frame `index`'s checks.
    fn range(&self, index: usize) -> std::ops::Range<usize> {
        let end = if index + 1 < self.depth {
            self.frames[index + 1].first
        } else {
            self.checks.len()
        };
        self.frames[index].first..end
    }

    /// A value begins at `pos`: its first character settled its JSON type.
    pub fn begin(
        &mut self,
        kind: Kind,
        pos: u64,
        negative: bool,
        oracle: &mut dyn Oracle,
    ) -> Result<(), Fail> {
        if self.depth == 0 {
            let frame = self.push(kind, Slot::Root);
            self.spawn(0, None, Role::All, frame, 0);
        } else {
            let parent = self.depth - 1;
            let parent_checks = self.range(parent);
            if self.frames[parent].kind == Kind::Object {
                let frame = self.push(kind, Slot::Key);
                for check in parent_checks {
                    let c = &self.checks[check];
                    if c.alive && self.nodes[c.node].has_object_keywords {
                        self.property_checks(check, frame, oracle)?;
                    }
                }
            } else {
                let index = self.frames[parent].count;
                self.frames[parent].count = index + 1;
                let frame = self.push(kind, Slot::Index(index));
                for check in parent_checks {
                    let c = &self.checks[check];
                    if c.alive && self.nodes[c.node].has_array_keywords {
                        self.item_checks(check, index, frame, pos, oracle)?;
                    }
                }
            }
        }
        self.first_character(self.depth - 1, kind, pos, negative)
    }

    fn property_checks(
        &mut self,
        check: usize,
        frame: usize,
        oracle: &mut dyn Oracle,
    ) -> Result<(), Fail> {
        let node = self.checks[check].node;
        let key = &self.frames[frame - 1].key;
        let mut matched = false;
        let n = &self.nodes[node];
        if let Some(sub) = n.properties.as_ref().and_then(|p| p.get(key)).copied() {
            matched = true;
            self.spawn(sub, Some(check), Role::All, frame, 0);
        }
        let patterns = self.nodes[node].pattern_properties.len();
        for i in 0..patterns {
            let sub = self.nodes[node].pattern_properties[i];
            let key = &self.frames[frame - 1].key;
            if oracle
                .pattern_property(node, i, key)
                .map_err(|_| Fail::Raised)?
            {
                matched = true;
                self.spawn(sub, Some(check), Role::All, frame, 0);
            }
        }
        if !matched {
            if let Some(sub) = self.nodes[node].additional {
                self.spawn(sub, Some(check), Role::All, frame, 0);
            }
        }
        if let Some(unevaluated) = self.nodes[node].unevaluated_properties.filter(|_| !matched) {
            let key = Seg::Key(self.frames[frame - 1].key.clone());
            if self.nodes[unevaluated].never {
                // settled at the object's end: `key_done` fails it at the key only when no
                // subschema could evaluate the key then, but one that could may have failed
                // at the same key after this check's turn (anyOf's branch, closed by
                // additionalProperties: false)
                self.extra(check).deferred.push((key, None));
            } else if self.surely_unevaluated(check, &key, oracle)? {
                self.spawn(unevaluated, Some(check), Role::All, frame, 0);
            } else {
                self.spawn(unevaluated, Some(check), Role::Unevaluated, frame, 0);
            }
        }
        Ok(())
    }

    /// No subschema applied beside `owner` can evaluate this key or item any more, whatever
    /// the rest holds: none could ever (the node's `evaluated`), or every one that could has
    /// failed or can no longer count (under `not`, `then` once `if` failed).
    fn surely_unevaluated(
        &self,
        owner: usize,
        slot: &Seg,
        oracle: &mut dyn Oracle,
    ) -> Result<bool, Fail> {
        let n = &self.nodes[self.checks[owner].node];
        let evaluated = n.evaluated.as_ref().expect("unevaluated*");
        match slot {
            Seg::Index(i) => {
                if !(evaluated.all_items || evaluated.contains || *i < evaluated.prefix) {
                    return Ok(true);
                }
                if n.contains.is_some() || *i < n.prefix_items.len() as u64 {
                    return Ok(false); // its own keywords
                }
            }
            Seg::Key(key) => {
                let mut could = evaluated.all_keys
                    || evaluated.names.binary_search_by(|n| n[..].cmp(key)).is_ok();
                for &(node, i) in &evaluated.patterns {
                    if could {
                        break;
                    }
                    could = oracle
                        .pattern_property(node, i, key)
                        .map_err(|_| Fail::Raised)?;
                }
                if !could {
                    return Ok(true);
                }
                if n.properties.as_ref().is_some_and(|p| p.contains_key(key)) {
                    return Ok(false); // its own keywords
                }
                let node = self.checks[owner].node;
                for i in 0..n.pattern_properties.len() {
                    if oracle
                        .pattern_property(node, i, key)
                        .map_err(|_| Fail::Raised)?
                    {
                        return Ok(false);
                    }
                }
            }
        }
        let end = self.extra_of(owner).map_or(owner + 1, |e| e.end);
        let mut could = vec![true]; // by place after `owner`: may its annotations still count?
        for c in owner + 1..end {
            let check = &self.checks[c];
            let parent = check.parent.expect("below the owner");
            let mut here = could[parent - owner] && check.alive;
            if here {
                let p = self.extra_of(parent);
                here = match check.role {
                    Role::Not => false,
                    Role::Then => p
                        .and_then(|e| e.if_check)
                        .is_some_and(|i| self.checks[i].alive),
                    _ => true,
                };
            }
            could.push(here);
            if here && self.evaluates(c, slot, false, oracle)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn item_checks(
        &mut self,
        check: usize,
        index: u64,
        frame: usize,
        pos: u64,
        oracle: &mut dyn Oracle,
    ) -> Result<(), Fail> {
        let node = self.checks[check].node;
        let n = &self.nodes[node];
        if let Some(max) = n.max_items {
            if index >= max {
                let detail = text(format!("the array has more than {max} items"));
                return self.kill(check, "maxItems", pos, detail);
            }
        }
        if let Some(unevaluated) = n
            .unevaluated_items
            .filter(|_| index >= n.prefix_items.len() as u64)
        {
            let never = self.nodes[unevaluated].never;
            if self.surely_unevaluated(check, &Seg::Index(index), oracle)? {
                if never {
                    let detail = text(format!(
                        "unevaluated items are not allowed (item {index} was unexpected)"
                    ));
                    return self.kill(check, "unevaluatedItems", pos, detail);
                }
                self.spawn(unevaluated, Some(check), Role::All, frame, 0);
            } else if never {
                self.extra(check).deferred.push((Seg::Index(index), None));
            } else {
                self.spawn(unevaluated, Some(check), Role::Unevaluated, frame, 0);
            }
        }
        let n = &self.nodes[node];
        let (prefix, items, contains) = (
            n.prefix_items.get(index as usize).copied(),
            n.items,
            n.contains,
        );
        if let Some(sub) = prefix {
            self.spawn(sub, Some(check), Role::All, frame, 0);
        } else if let Some(sub) = items {
            self.spawn(sub, Some(check), Role::All, frame, 0);
        }
        if let Some(sub) = contains {
            self.spawn(sub, Some(check), Role::Contains, frame, 0);
        }
        Ok(())
    }

    fn first_character(
        &mut self,
        frame: usize,
        kind: Kind,
        pos: u64,
        negative: bool,
    ) -> Result<(), Fail> {
        for check in self.range(frame) {
            if !self.checks[check].alive {
                continue;
            }
            let node = self.checks[check].node;
            let n = &self.nodes[node];
            if let Some(max) = n.max_length {
                if max < self.frames[frame].limit {
                    self.frames[frame].limit = max;
                }
            }
            if n.max_length.is_some()
                || n.min_length.is_some()
                || n.pattern
                || n.enumeration.is_some()
            {
                self.frames[frame].keep_text = true;
            }
            if n.has_object_keywords {
                self.frames[frame].track_keys = true;
            }
            if n.never {
                let keyword = n.never_keyword.clone();
                let detail = text("no value is allowed here (false schema)".into());
                self.kill(check, &keyword, pos, detail)?;
                continue;
            }
            if let Some(types) = n.types {
                let seen = kind.bit();
                if types & seen == 0 && !(seen == NUMBER && types & INTEGER != 0) {
                    let detail = text(format!("expected {}, got {}", n.types_shown, article(kind)));
                    self.kill(check, "type", pos, detail)?;
                    continue;
                }
            }
            if let Some(e) = &n.enumeration {
                if e.kinds & kind.bit() == 0 {
                    let keyword = if e.is_const { "const" } else { "enum" };
                    let detail = text(format!("a {} is not one of {}", kind.name(), e.shown));
                    self.kill(check, keyword, pos, detail)?;
                    continue;
                }
                if kind.bit() == STRING {
                    let filter = Filter::all(check, n, Members::Enum);
                    self.frames[frame].filters.push(filter);
                }
            }
            let n = &self.nodes[node];
            if negative && kind == Kind::Number {
                if n.negative_breaks_minimum {
                    let detail = text(format!(
                        "a negative number is less than the minimum of {}",
                        n.minimum_shown
                    ));
                    self.kill(check, "minimum", pos, detail)?;
                } else if n.negative_breaks_exclusive_minimum {
                    let detail = text(format!(
                        "a negative number is less than or equal to the minimum of {}",
                        n.exclusive_minimum_shown
                    ));
                    self.kill(check, "exclusiveMinimum", pos, detail)?;
                }
            }
        }
        Ok(())
    }

    // -- strings and keys ---------------------------------------------------------------------

    /// An object's key begins (its quote at `pos`): propertyNames and a closed set of names.
    pub fn begin_key(&mut self, pos: u64) -> Result<(), Fail> {
        let object = self.depth - 1;
        let object_checks = self.range(object);
        let frame = self.push(Kind::Key, Slot::OfObject);
        for check in object_checks {
            if !self.checks[check].alive {
                continue;
            }
            let node = self.checks[check].node;
            if let Some(sub) = self.nodes[node].property_names {
                self.spawn(sub, Some(check), Role::All, frame, 0);
            }
            let n = &self.nodes[node];
            if n.closed {
                let filter = Filter::all(check, n, Members::Names);
                self.frames[frame].filters.push(filter);
            }
            if let (Some(unevaluated), Some(evaluated)) = (n.unevaluated_properties, &n.evaluated) {
                if self.nodes[unevaluated].never
                    && !evaluated.all_keys
                    && evaluated.patterns.is_empty()
                {
                    let filter = Filter::all(check, n, Members::Unevaluated);
                    self.frames[frame].filters.push(filter);
                }
            }
        }
        self.first_character(frame, Kind::Key, pos, false)
    }

    /// The members a filter still allows, in its bytes' order.
    #[inline]
    fn members<'a>(&'a self, filter: &Filter) -> impl Iterator<Item = &'a [u8]> + 'a {
        let n = &self.nodes[self.checks[filter.check].node];
        let all = all_members(n, filter.kind);
        member_order(n, filter.kind)[filter.lo as usize..filter.hi as usize]
            .iter()
            .map(move |&m| all[m as usize].as_slice())
    }

    /// The text of the top frame as a message shows it (at most 60 characters).
    fn shown(&self, frame: usize, complete: bool) -> Shown {
        let f = &self.frames[frame];
        if f.length > 60 {
            Shown::Str {
                text: first_chars(&f.text, 60).to_vec(),
                dots: true,
            }
        } else {
            Shown::Str {
                text: f.text.clone(),
                dots: !complete,
            }
        }
    }

    /// Does a check read the text of the string (or key) being read? If not, `text` need not
    /// be called: most strings of a schema without `enum`, lengths or patterns.
    #[inline]
    pub fn reads_text(&self) -> bool {
        self.frames[self.depth - 1].keep_text
    }

    /// More string content: `piece` began at `start` (a plain run), or is one escape.
    pub fn text(
        &mut self,
        piece: &[u8],
        start: u64,
        plain: bool,
        closes: bool,
    ) -> Result<(), Fail> {
        let frame = self.depth - 1;
        let f = &mut self.frames[frame];
        if !f.keep_text {
            return Ok(()); // no check reads this string's text
        }
        let old = f.length;
        let old_bytes = f.text.len();
        f.text.extend_from_slice(piece);
        let length = old + count_chars(piece);
        f.length = length;
        if !f.filters.is_empty() {
            self.filter(frame, piece, old_bytes, start, plain, closes)?;
        }
        if length <= self.frames[frame].limit {
            return Ok(());
        }
        for check in self.range(frame) {
            let n = &self.nodes[self.checks[check].node];
            if let Some(max) = n.max_length {
                if length > max && self.checks[check].alive {
                    let at = if plain { start + max - old } else { start };
                    let detail = showing(
                        self.shown(frame, closes),
                        format!(" is longer than {max} characters"),
                    );
                    self.kill(check, "maxLength", at, detail)?;
                }
            }
        }
        Ok(())
    }

    fn filter(
        &mut self,
        frame: usize,
        piece: &[u8],
        old: usize,
        start: u64,
        plain: bool,
        closes: bool,
    ) -> Result<(), Fail> {
        for index in 0..self.frames[frame].filters.len() {
            let filter = &self.frames[frame].filters[index];
            if !self.checks[filter.check].alive {
                continue;
            }
            {
                // Every member left begins with the text before `piece`, and they are in
                // their bytes' order: so are their next `piece.len()` bytes, and the members
                // that go on with `piece` are the run of them equal to it.
                let n = &self.nodes[self.checks[filter.check].node];
                let (all, order) = (all_members(n, filter.kind), member_order(n, filter.kind));
                // a member's next bytes against `piece`, by a byte loop: they are a few
                // bytes, and a memcmp call costs more
                let next = |m: &u32| {
                    let m = &all[*m as usize];
                    let next = &m[old.min(m.len())..(old + piece.len()).min(m.len())];
                    next.iter()
                        .zip(piece)
                        .find(|(a, b)| a != b)
                        .map_or(next.len().cmp(&piece.len()), |(a, b)| a.cmp(b))
                };
                let (lo, hi) = (filter.lo as usize, filter.hi as usize);
                let (first, end) = if hi - lo == 1 {
                    // one member left (a key or enum string soon has): is it still agreeing?
                    (lo, if next(&order[lo]).is_eq() { hi } else { lo })
                } else {
                    let first = lo + order[lo..hi].partition_point(|m| next(m).is_lt());
                    (
                        first,
                        first + order[first..hi].partition_point(|m| next(m).is_eq()),
                    )
                };
                if first < end {
                    let filter = &mut self.frames[frame].filters[index];
                    filter.lo = first as u32;
                    filter.hi = end as u32;
                    continue;
                }
            }
            let filter = &self.frames[frame].filters[index];
            // How far into `piece` the longest member still agreed, in whole characters.
            let mut reach = 0u64;
            for m in self.members(filter) {
                let tail = if m.len() > old { &m[old..] } else { &[][..] };
                let mut same = tail.iter().zip(piece).take_while(|(a, b)| a == b).count();
                while same > 0 && same < piece.len() && (piece[same] as i8) < -0x40 {
                    same -= 1;
                }
                reach = reach.max(count_chars(&piece[..same]));
            }
            let at = if plain { start + reach } else { start };
            let (check, kind) = (filter.check, filter.kind);
            let n = &self.nodes[self.checks[check].node];
            if kind != Members::Enum {
                let (keyword, words, shown) = if kind == Members::Names {
                    ("additionalProperties", "additional", &n.properties_shown)
                } else {
                    let evaluated = n.evaluated.as_ref().expect("evaluated names");
                    (
                        "unevaluatedProperties",
                        "unevaluated",
                        &evaluated.names_shown,
                    )
                };
                let detail = Detail {
                    before: format!("{words} properties are not allowed (").into_bytes(),
                    shown: Some(self.shown(frame, closes)),
                    after: format!(" is not one of {shown})").into_bytes(),
                };
                self.kill(check, keyword, at, detail)?;
            } else {
                let e = n.enumeration.as_ref().expect("an enum filter has an enum");
                let keyword = if e.is_const { "const" } else { "enum" };
                let detail = showing(
                    self.shown(frame, closes),
                    format!(" is not one of {}", e.shown),
                );
                self.kill(check, keyword, at, detail)?;
            }
        }
        Ok(())
    }

    /// The closing quote at `pos` of a string value or key.
    pub fn end_string(&mut self, pos: u64, oracle: &mut dyn Oracle) -> Result<(), Fail> {
        let frame = self.depth - 1;
        for index in 0..self.frames[frame].filters.len() {
            let filter = &self.frames[frame].filters[index];
            let check = filter.check;
            if !self.checks[check].alive {
                continue;
            }
            let text_ = &self.frames[frame].text;
            if self.members(filter).any(|m| m == text_.as_slice()) {
                continue;
            }
            let whole = Shown::Str {
                text: text_.clone(),
                dots: false,
            };
            if filter.kind != Members::Enum {
                let (keyword, words) = if filter.kind == Members::Names {
                    ("additionalProperties", "additional")
                } else {
                    ("unevaluatedProperties", "unevaluated")
                };
                let detail = Detail {
                    before: format!("{words} properties are not allowed (").into_bytes(),
                    shown: Some(whole),
                    after: b" was unexpected)".to_vec(),
                };
                self.kill(check, keyword, pos, detail)?;
            } else {
                let e = self.nodes[self.checks[check].node]
                    .enumeration
                    .as_ref()
                    .expect("enum");
                let keyword = if e.is_const { "const" } else { "enum" };
                let detail = showing(whole, format!(" is not one of {}", e.shown));
                self.kill(check, keyword, pos, detail)?;
            }
        }
        for check in self.range(frame) {
            if !self.checks[check].alive {
                continue;
            }
            let node = self.checks[check].node;
            let n = &self.nodes[node];
            let whole = || Shown::Str {
                text: self.frames[frame].text.clone(),
                dots: false,
            };
            if n.min_length
                .is_some_and(|min| self.frames[frame].length < min)
            {
                let min = n.min_length.unwrap_or(0);
                let detail = showing(whole(), format!(" is shorter than {min} characters"));
                self.kill(check, "minLength", pos, detail)?;
            } else if n.pattern {
                let shown = n.pattern_shown.clone();
                if !oracle
                    .pattern(node, &self.frames[frame].text)
                    .map_err(|_| Fail::Raised)?
                {
                    let detail = showing(whole(), format!(" does not match {shown}"));
                    self.kill(check, "pattern", pos, detail)?;
                }
            }
        }
        if self.frames[frame].kind == Kind::Key {
            self.complete(frame, pos, oracle)?;
            // the key frame is popped but kept: its text is the key
            let key = std::mem::take(&mut self.frames[frame].text);
            let result = self.key_done(&key, pos, oracle);
            self.frames[frame].text = key;
            result
        } else {
            self.complete(frame, pos, oracle)
        }
    }

    fn key_done(&mut self, key: &[u8], pos: u64, oracle: &mut dyn Oracle) -> Result<(), Fail> {
        let object = self.depth - 1;
        let o = &mut self.frames[object];
        o.key.clear();
        o.key.extend_from_slice(key);
        if !o.track_keys {
            return Ok(()); // no check of this object reads its keys or their count
        }
        let mut owned = self.spare_keys.pop().unwrap_or_default();
        owned.extend_from_slice(key);
        if let Some(mut repeated) = o.keys.replace(owned) {
            repeated.clear();
            self.spare_keys.push(repeated);
            return Ok(()); // a repeated key
        }
        o.count += 1;
        let count = o.count;
        for check in self.range(object) {
            let node = self.checks[check].node;
            let n = &self.nodes[node];
            if !self.checks[check].alive || !n.has_object_keywords {
                continue;
            }
            if let Some(max) = n.max_properties.filter(|&max| count > max) {
                let detail = text(format!("the object has more than {max} properties"));
                self.kill(check, "maxProperties", pos, detail)?;
            } else if n.additional_never
                && !n.properties.as_ref().is_some_and(|p| p.contains_key(key))
            {
                let mut matched = false;
                for i in 0..n.pattern_properties.len() {
                    if oracle
                        .pattern_property(node, i, key)
                        .map_err(|_| Fail::Raised)?
                    {
                        matched = true;
                        break;
                    }
                }
                if !matched {
                    let detail = Detail {
                        before: b"additional properties are not allowed (".to_vec(),
                        shown: Some(Shown::Str {
                            text: key.to_vec(),
                            dots: false,
                        }),
                        after: b" was unexpected)".to_vec(),
                    };
                    self.kill(check, "additionalProperties", pos, detail)?;
                }
            }
            if self.nodes[node].keyed && self.checks[check].alive {
                self.key_conditions(check, object, key, pos, oracle)?;
            }
        }
        Ok(())
    }

    /// A new key of an object whose check has `unevaluatedProperties` or `dependentSchemas`:
    /// a key no subschema can evaluate any more, or a dependent schema that already failed.
    #[inline(never)]
    fn key_conditions(
        &mut self,
        check: usize,
        object: usize,
        key: &[u8],
        pos: u64,
        oracle: &mut dyn Oracle,
    ) -> Result<(), Fail> {
        let node = self.checks[check].node;
        let n = &self.nodes[node];
        if n.unevaluated_properties
            .is_some_and(|u| self.nodes[u].never)
            && self.surely_unevaluated(check, &Seg::Key(key.to_vec()), oracle)?
        {
            let detail = Detail {
                before: b"unevaluated properties are not allowed (".to_vec(),
                shown: Some(Shown::Str {
                    text: key.to_vec(),
                    dots: false,
                }),
                after: b" was unexpected)".to_vec(),
            };
            return self.kill(check, "unevaluatedProperties", pos, detail);
        }
        let Some(index) = n.dependent_schemas.iter().position(|d| d.0 == key) else {
            return Ok(());
        };
        let dependent = self
            .extra_of(check)
            .and_then(|e| e.dependent_checks.get(index).copied());
        if dependent.is_some_and(|d| !self.checks[d].alive) {
            let kept = self.take_kept(dependent, check);
            let wraps = vec![(object, Wrap::Dependent(node, index))];
            self.fail(check, Inner::Kept(kept), wraps, pos)?;
        }
        Ok(())
    }

    // -- numbers and literals -----------------------------------------------------------------

    /// A number or literal is complete; `pos` is where that became certain.
    pub fn end_atom(
        &mut self,
        atom: AtomText,
        pos: u64,
        oracle: &mut dyn Oracle,
    ) -> Result<(), Fail> {
        let frame = self.depth - 1;
        let read = || -> Option<Scalar> {
            match atom.kind {
                BOOLEAN => Some(if atom.text == "true" {
                    Scalar::True
                } else {
                    Scalar::False
                }),
                NULL => Some(Scalar::Null),
                _ => match atom.text {
                    "NaN" => Some(Scalar::Float(f64::NAN)),
                    "Infinity" => Some(Scalar::Float(f64::INFINITY)),
                    "-Infinity" => Some(Scalar::Float(f64::NEG_INFINITY)),
                    text => parse(text, atom.float).map(|n| match n {
                        Num::Int(i) => Scalar::Int(i),
                        Num::Float(f) => Scalar::Float(f),
                    }),
                },
            }
        };
        let mut value: Option<Option<Scalar>> = None; // read once, when a keyword needs it
        for check in self.range(frame) {
            if !self.checks[check].alive {
                continue;
            }
            let node = self.checks[check].node;
            let n = &self.nodes[node];
            let needed = n.enumeration.is_some()
                || (atom.kind == NUMBER
                    && (n.minimum.is_some()
                        || n.maximum.is_some()
                        || n.exclusive_minimum.is_some()
                        || n.exclusive_maximum.is_some()
                        || !n.numbers_native
                        || n.types.is_some_and(|t| t & NUMBER == 0)));
            if !needed {
                continue;
            }
            let value = *value.get_or_insert_with(read);
            let native = value.is_some()
                && n.enumeration.as_ref().is_none_or(|e| e.native)
                && (atom.kind != NUMBER || n.numbers_native);
            if !native {
                if let Some((keyword, detail)) =
                    oracle.atom(node, atom).map_err(|_| Fail::Raised)?
                {
                    self.kill(
                        check,
                        &keyword,
                        pos,
                        Detail {
                            before: detail,
                            shown: None,
                            after: Vec::new(),
                        },
                    )?;
                }
                continue;
            }
            let value = value.expect("native");
            let shown = || Shown::Atom(atom.text.to_string());
            if let Some(e) = &n.enumeration {
                if !e.scalars.iter().any(|&m| scalar_equal(value, m)) {
                    let keyword = if e.is_const { "const" } else { "enum" };
                    let detail = showing(shown(), format!(" is not one of {}", e.shown));
                    self.kill(check, keyword, pos, detail)?;
                    continue;
                }
            }
            if atom.kind != NUMBER {
                continue;
            }
            let num = match value {
                Scalar::Int(i) => Num::Int(i),
                Scalar::Float(f) => Num::Float(f),
                _ => unreachable!("a number"),
            };
            use Ordering::{Equal, Greater, Less};
            let failure = if n.types.is_some_and(|t| t & NUMBER == 0) && !is_integer(num) {
                Some(("type", " is not of type 'integer'".to_string()))
            } else if is(num, n.minimum, &[Less]) {
                Some((
                    "minimum",
                    format!(" is less than the minimum of {}", n.minimum_shown),
                ))
            } else if is(num, n.maximum, &[Greater]) {
                Some((
                    "maximum",
                    format!(" is greater than the maximum of {}", n.maximum_shown),
                ))
            } else if is(num, n.exclusive_minimum, &[Less, Equal]) {
                let s = format!(
                    " is less than or equal to the minimum of {}",
                    n.exclusive_minimum_shown
                );
                Some(("exclusiveMinimum", s))
            } else if is(num, n.exclusive_maximum, &[Greater, Equal]) {
                let s = format!(
                    " is greater than or equal to the maximum of {}",
                    n.exclusive_maximum_shown
                );
                Some(("exclusiveMaximum", s))
            } else {
                None
            };
            if let Some((keyword, after)) = failure {
                self.kill(check, keyword, pos, showing(shown(), after))?;
            }
        }
        self.complete(frame, pos, oracle)
    }

    // -- containers ---------------------------------------------------------------------------

    /// `}` or `]` at `pos`.
    pub fn end_container(&mut self, pos: u64, oracle: &mut dyn Oracle) -> Result<(), Fail> {
        let frame = self.depth - 1;
        let kind = self.frames[frame].kind;
        let mut path: Option<Vec<Seg>> = None;
        for check in self.range(frame) {
            if !self.checks[check].alive {
                continue;
            }
            let node = self.checks[check].node;
            let n = &self.nodes[node];
            if kind == Kind::Object {
                if n.has_object_keywords && !self.object_complete(check, frame, pos)? {
                    continue;
                }
            } else if n.has_array_keywords {
                let count = self.frames[frame].count;
                if let Some(min) = n.min_items.filter(|&min| count < min) {
                    let detail = text(format!("the array has fewer than {min} items"));
                    self.kill(check, "minItems", pos, detail)?;
                    continue;
                }
                if n.contains.is_some() && self.checks[check].contains_count < n.min_contains {
                    let keyword = if n.min_contains == 1 {
                        "contains"
                    } else {
                        "minContains"
                    };
                    let detail = text(format!(
                        "the array has fewer than {} items matching contains",
                        n.min_contains
                    ));
                    self.kill(check, keyword, pos, detail)?;
                    continue;
                }
            }
            let n = &self.nodes[node];
            if (kind == Kind::Array && n.has_array_keywords && n.unique_items)
                || n.enumeration.is_some()
            {
                let path = path.get_or_insert_with(|| self.segments(frame));
                if let Some((keyword, detail)) =
                    oracle.container(node, path).map_err(|_| Fail::Raised)?
                {
                    self.kill(
                        check,
                        &keyword,
                        pos,
                        Detail {
                            before: detail,
                            shown: None,
                            after: Vec::new(),
                        },
                    )?;
                }
            }
        }
        self.complete(frame, pos, oracle)
    }

    fn object_complete(&mut self, check: usize, frame: usize, pos: u64) -> Result<bool, Fail> {
        let n = &self.nodes[self.checks[check].node];
        let keys = &self.frames[frame].keys;
        for (name, shown) in &n.required {
            if !keys.contains(name) {
                let detail = text(format!("{shown} is a required property"));
                self.kill(check, "required", pos, detail)?;
                return Ok(false);
            }
        }
        if let Some(min) = n
            .min_properties
            .filter(|&min| self.frames[frame].count < min)
        {
            let detail = text(format!("the object has fewer than {min} properties"));
            self.kill(check, "minProperties", pos, detail)?;
            return Ok(false);
        }
        for (name, name_shown, needed) in &n.dependent_required {
            if keys.contains(name) {
                for (other, other_shown) in needed {
                    if !keys.contains(other) {
                        let detail = text(format!("{other_shown} is a dependency of {name_shown}"));
                        self.kill(check, "dependentRequired", pos, detail)?;
                        return Ok(false);
                    }
                }
            }
        }
        Ok(true)
    }

    // -- completion ---------------------------------------------------------------------------

    /// The value is complete: settle `not`, `oneOf`'s "only one" and `contains`, pop it.
    fn complete(&mut self, frame: usize, pos: u64, oracle: &mut dyn Oracle) -> Result<(), Fail> {
        let range = self.range(frame);
        let settle = if self.frames[frame].settle {
            range.clone()
        } else {
            range.start..range.start // nothing to settle: `not`, `oneOf`... spawn children
        };
        for check in settle.rev() {
            if !self.checks[check].alive {
                continue;
            }
            if self.checks[check]
                .not_check
                .is_some_and(|c| self.checks[c].alive)
            {
                let detail = text("the value must not be valid under the schema in 'not'".into());
                self.kill(check, "not", pos, detail)?;
                continue;
            }
            if let Some(ones) = &self.checks[check].one_checks {
                let passing = ones.iter().filter(|&&c| self.checks[c].alive).count();
                if passing > 1 {
                    let detail = text(format!(
                        "the value is valid under {passing} of the schemas in oneOf (only one may match)"
                    ));
                    self.kill(check, "oneOf", pos, detail)?;
                    continue;
                }
            }
            if self.checks[check].extra != NO_EXTRA && self.checks[check].alive {
                self.complete_extra(check, frame, pos, oracle)?;
            }
        }
        self.depth -= 1;
        self.low_water = self.low_water.min(self.depth);
        if self.frames[frame].kind != Kind::Key {
            for check in range.clone() {
                let c = &self.checks[check];
                if c.role != Role::Contains || !c.alive {
                    continue;
                }
                let Some(owner) = c.parent else { continue };
                if !self.checks[owner].alive {
                    continue;
                }
                self.checks[owner].contains_count += 1;
                if self.nodes[self.checks[owner].node].contains_annotates {
                    if let Slot::Index(i) = self.frames[frame].slot {
                        self.extra(owner).contains_passed.push(i);
                    }
                }
                let max = self.nodes[self.checks[owner].node].max_contains;
                if let Some(max) = max.filter(|&max| self.checks[owner].contains_count > max) {
                    let detail = text(format!(
                        "the array has more than {max} items matching contains"
                    ));
                    self.kill(owner, "maxContains", pos, detail)?;
                }
            }
            if self.depth == 0 {
                self.root_done = true;
            }
        }
        self.checks.truncate(range.start);
        self.extras.truncate(self.frames[frame].first_extra);
        Ok(())
    }

    /// At the value's end: `then` once `if` passed, and the unevaluated keys or items.
    fn complete_extra(
        &mut self,
        check: usize,
        frame: usize,
        pos: u64,
        oracle: &mut dyn Oracle,
    ) -> Result<(), Fail> {
        let extra = self.extra_of(check).expect("checked");
        let (if_check, then_check) = (extra.if_check, extra.then_check);
        if let (Some(if_check), Some(then)) = (if_check, then_check) {
            if !self.checks[then].alive && self.checks[if_check].alive {
                let kept = self.take_kept(Some(then), check);
                let wraps = vec![(frame, Wrap::ThenFailed)];
                return self.fail(check, Inner::Kept(kept), wraps, pos);
            }
        }
        let deferred = std::mem::take(&mut self.extra(check).deferred);
        for (slot, kept) in deferred {
            if self.evaluated(check, &slot, oracle)? {
                continue;
            }
            return match (slot, kept) {
                (Seg::Key(key), None) => {
                    let detail = Detail {
                        before: b"unevaluated properties are not allowed (".to_vec(),
                        shown: Some(Shown::Str {
                            text: key,
                            dots: false,
                        }),
                        after: b" was unexpected)".to_vec(),
                    };
                    self.kill(check, "unevaluatedProperties", pos, detail)
                }
                (Seg::Key(_), Some(kept)) => {
                    let wraps = vec![(frame, Wrap::UnevaluatedProperty)];
                    self.fail(check, Inner::Kept(kept), wraps, pos)
                }
                (Seg::Index(index), None) => {
                    let detail = text(format!(
                        "unevaluated items are not allowed (item {index} was unexpected)"
                    ));
                    self.kill(check, "unevaluatedItems", pos, detail)
                }
                (Seg::Index(_), Some(kept)) => {
                    let wraps = vec![(frame, Wrap::UnevaluatedItem)];
                    self.fail(check, Inner::Kept(kept), wraps, pos)
                }
            };
        }
        Ok(())
    }

    /// Did a subschema applied beside `owner`, and valid, evaluate this key or item? Its
    /// checks follow it in the arena, each after its parent: one pass marks whose
    /// annotations count (alive, not under `not`, `then`/`else` as `if` went, a dependent
    /// schema whose property is present).
    fn evaluated(&self, owner: usize, slot: &Seg, oracle: &mut dyn Oracle) -> Result<bool, Fail> {
        let extra = self.extra_of(owner).expect("unevaluated*");
        if let Seg::Index(i) = slot {
            if passed(&extra.contains_passed, *i) {
                return Ok(true);
            }
        }
        let keys = &self.frames[self.checks[owner].frame].keys;
        let mut counts = vec![true];
        for c in owner + 1..extra.end {
            let check = &self.checks[c];
            let parent = check.parent.expect("below the owner");
            let mut here = counts[parent - owner] && check.alive;
            if here {
                let p = self.extra_of(parent);
                let if_alive = || {
                    p.and_then(|e| e.if_check)
                        .is_some_and(|i| self.checks[i].alive)
                };
                here = match check.role {
                    Role::Not => false,
                    Role::Then => if_alive(),
                    Role::Else => !if_alive(),
                    Role::Dependent => p
                        .and_then(|e| e.dependent_checks.iter().position(|&d| d == c))
                        .is_some_and(|index| {
                            let node = &self.nodes[self.checks[parent].node];
                            keys.contains(&node.dependent_schemas[index].0)
                        }),
                    _ => true,
                };
            }
            counts.push(here);
            if here && self.evaluates(c, slot, true, oracle)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Does this (valid) subschema evaluate the key or item? (`passed_yet` false: might its
    /// `contains` still pass the item?)
    fn evaluates(
        &self,
        check: usize,
        slot: &Seg,
        passed_yet: bool,
        oracle: &mut dyn Oracle,
    ) -> Result<bool, Fail> {
        let node = self.checks[check].node;
        let n = &self.nodes[node];
        match slot {
            Seg::Index(i) => Ok(n.items.is_some()
                || n.unevaluated_items.is_some()
                || *i < n.prefix_items.len() as u64
                || (n.contains.is_some()
                    && (!passed_yet
                        || self
                            .extra_of(check)
                            .is_some_and(|e| passed(&e.contains_passed, *i))))),
            Seg::Key(key) => {
                if n.additional.is_some()
                    || n.unevaluated_properties.is_some()
                    || n.properties.as_ref().is_some_and(|p| p.contains_key(key))
                {
                    return Ok(true);
                }
                for i in 0..n.pattern_properties.len() {
                    if oracle
                        .pattern_property(node, i, key)
                        .map_err(|_| Fail::Raised)?
                    {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
        }
    }

    // -- the typed view -----------------------------------------------------------------------

    /// Whether the value at the path `tokens` (JSON Pointer tokens, unescaped) is still
    /// arriving: None if not, Some(true) if it is the innermost value still arriving.
    pub fn arriving(&self, tokens: &[Vec<u8>]) -> Option<bool> {
        let mut top = self.depth;
        while top > 0 && self.frames[top - 1].kind == Kind::Key {
            top -= 1;
        }
        if top == 0 {
            return None;
        }
        let open = top - 1; // the frames 1..=open have slots: the arriving path
        if tokens.len() > open {
            return None;
        }
        for (j, token) in tokens.iter().enumerate() {
            let frame = &self.frames[j + 1];
            let matches = match frame.slot {
                Slot::Key => self.frames[j].key == *token,
                Slot::Index(i) => is_decimal(token, i),
                Slot::Root | Slot::OfObject => false,
            };
            if !matches {
                return None;
            }
        }
        Some(tokens.len() == open)
    }

    /// For a string value still arriving under an enum or const: the members still possible.
    pub fn candidates(&self) -> Option<Vec<&[u8]>> {
        if self.depth == 0 {
            return None;
        }
        let frame = &self.frames[self.depth - 1];
        if frame.kind != Kind::String {
            return None;
        }
        let mut possible: Option<Vec<&[u8]>> = None;
        for filter in &frame.filters {
            if !self.checks[filter.check].alive {
                continue;
            }
            // in the members' own order, as the schema lists them
            let n = &self.nodes[self.checks[filter.check].node];
            let all = all_members(n, filter.kind);
            let mut left =
                member_order(n, filter.kind)[filter.lo as usize..filter.hi as usize].to_vec();
            left.sort_unstable();
            let members: Vec<&[u8]> = left.iter().map(|&m| all[m as usize].as_slice()).collect();
            possible = Some(match possible {
                None => members,
                Some(p) => p.into_iter().filter(|m| members.contains(m)).collect(),
            });
        }
        possible
    }

    /// Is any value open?
    pub fn open(&self) -> bool {
        self.depth > 0
    }

    /// The lowest number of open frames since the last call (then starts again from now): a
    /// reader that saw the value at a path of `n` tokens arriving sees the same open value
    /// while this stays above `n`.
    pub fn take_low_water(&mut self) -> usize {
        std::mem::replace(&mut self.low_water, self.depth)
    }
}
