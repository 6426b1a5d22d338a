//! One compiled (sub)schema, as the checker reads it: indexes into the table for subschemas,
//! and every text a message shows of the schema already written (Python's `repr`, by the
//! compiler in `src/jsondrip/schema/table.py`). Twin: `src/jsondrip/schema/nodes.py`.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// FNV-1a: property names are short and chosen by the schema or the model, so a fast hash
/// beats SipHash here (a hostile document can only make keys collide in its own object).
#[derive(Default, Clone, Copy)]
pub struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for &b in bytes {
            h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<Fnv>>;
pub type FastSet<K> = HashSet<K, BuildHasherDefault<Fnv>>;

/// JSON types as bits: the first character of a value settles all but "integer".
pub const OBJECT: u8 = 1;
pub const ARRAY: u8 = 2;
pub const STRING: u8 = 4;
pub const NUMBER: u8 = 8;
pub const INTEGER: u8 = 16;
pub const BOOLEAN: u8 = 32;
pub const NULL: u8 = 64;

/// A numeric bound of the schema (an integer past i64 makes its node's numbers the oracle's).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    Int(i64),
    Float(f64),
}

/// A scalar enum member the checker compares natively.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scalar {
    Int(i64),
    Float(f64),
    True,
    False,
    Null,
}

/// `enum` (or `const`, a one-member enum).
#[derive(Debug, Clone, Default)]
pub struct Enum {
    pub is_const: bool,
    /// The JSON types of its members, as bits.
    pub kinds: u8,
    /// Its string members (WTF-8), in order.
    pub strings: Vec<Vec<u8>>,
    /// Its scalar members; `native` is false when one of them is a number past i64.
    pub scalars: Vec<Scalar>,
    pub native: bool,
    /// The members as a message shows them: `'C', 'F'`.
    pub shown: String,
}

/// `dependentRequired`: a name, how a message shows it, and the names it needs (each shown).
pub type Dependency = (Vec<u8>, String, Vec<(Vec<u8>, String)>);

/// `dependentSchemas`: a name, how a message shows it, and its subschema.
pub type DependentSchema = (Vec<u8>, String, usize);

/// What a node with `unevaluatedProperties`/`unevaluatedItems` and the subschemas applied
/// beside it can ever evaluate (twin: `Evaluated` in `src/jsondrip/schema/nodes.py`): a key or
/// an item outside it is certainly unevaluated, so checked at once.
#[derive(Debug, Clone, Default)]
pub struct Evaluated {
    /// The property names, sorted (searched: a few names, and no second hash set type in
    /// the checker's hot code).
    pub names: Vec<Vec<u8>>,
    /// The names in order, and as a message shows them (`'a', 'b'` or `no names`).
    pub name_order: Vec<Vec<u8>>,
    pub names_shown: String,
    /// `(node, index of its patternProperties)` (the regexes are the oracle's).
    pub patterns: Vec<(usize, usize)>,
    /// An `additionalProperties` or `unevaluatedProperties` below.
    pub all_keys: bool,
    /// The longest `prefixItems`.
    pub prefix: u64,
    /// An `items` or `unevaluatedItems` below.
    pub all_items: bool,
    /// A `contains` (it evaluates the items it passes).
    pub contains: bool,
}

/// A subschema (see `src/jsondrip/schema/nodes.py` for each keyword's meaning).
#[derive(Debug, Clone, Default)]
pub struct Node {
    pub never: bool,
    /// The keyword a `false` schema is reported under.
    pub never_keyword: String,
    /// None: no `type`. Else the type bits, and their names as a message shows them.
    pub types: Option<u8>,
    pub types_shown: String,
    pub enumeration: Option<Enum>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub pattern: bool,
    /// The pattern as a message shows it.
    pub pattern_shown: String,
    pub minimum: Option<Bound>,
    pub maximum: Option<Bound>,
    pub exclusive_minimum: Option<Bound>,
    pub exclusive_maximum: Option<Bound>,
    /// The bounds as a message shows them (`show(node.minimum)`...).
    pub minimum_shown: String,
    pub maximum_shown: String,
    pub exclusive_minimum_shown: String,
    pub exclusive_maximum_shown: String,
    /// Numbers compared here (false: a bound past i64 or a `multipleOf`: the oracle's).
    pub numbers_native: bool,
    /// A leading `-` already breaks `minimum` / `exclusiveMinimum`.
    pub negative_breaks_minimum: bool,
    pub negative_breaks_exclusive_minimum: bool,
    pub properties: Option<FastMap<Vec<u8>, usize>>,
    /// The property names in order, and as a message shows them (`'a', 'b'` or `no names`).
    pub property_order: Vec<Vec<u8>>,
    pub properties_shown: String,
    /// How many `patternProperties` (their regexes are the oracle's), and their subschemas.
    pub pattern_properties: Vec<usize>,
    pub additional: Option<usize>,
    /// `additionalProperties: false` and no `patternProperties`: a closed set of names.
    pub closed: bool,
    /// `additionalProperties` is the `false` schema.
    pub additional_never: bool,
    /// Required names and how a message shows each.
    pub required: Vec<(Vec<u8>, String)>,
    pub min_properties: Option<u64>,
    pub max_properties: Option<u64>,
    pub property_names: Option<usize>,
    pub dependent_required: Vec<Dependency>,
    pub prefix_items: Vec<usize>,
    pub items: Option<usize>,
    pub min_items: Option<u64>,
    pub max_items: Option<u64>,
    pub unique_items: bool,
    pub contains: Option<usize>,
    pub min_contains: u64,
    pub max_contains: Option<u64>,
    pub all_of: Vec<usize>,
    pub any_of: Vec<usize>,
    pub one_of: Vec<usize>,
    pub not: Option<usize>,
    /// `$ref` and `$dynamicRef` targets (resolved by the compiler).
    pub refs: Vec<usize>,
    /// `if` with its `then` and `else` (all None without `if`).
    pub if_: Option<usize>,
    pub then: Option<usize>,
    pub else_: Option<usize>,
    pub dependent_schemas: Vec<DependentSchema>,
    /// None too when `additionalProperties` (or `items`) evaluates everything.
    pub unevaluated_properties: Option<usize>,
    pub unevaluated_items: Option<usize>,
    /// With `unevaluated*`: what its subschemas can evaluate.
    pub evaluated: Option<Box<Evaluated>>,
    /// Some `unevaluatedItems` reads which items its `contains` passed.
    pub contains_annotates: bool,
    /// Set by `checker::prepare`: it applies subschemas beside it (`allOf`, `$ref`, `if`...).
    pub beside: bool,
    /// Set by `checker::prepare`: a new key may settle its `unevaluatedProperties` or
    /// `dependentSchemas`.
    pub keyed: bool,
    /// Set by `checker::prepare`: the string members of its `enum`, its property names and
    /// its evaluated names (`Evaluated::name_order`), each as indexes in their bytes' order.
    pub member_order: [Vec<u32>; 3],
    pub has_object_keywords: bool,
    pub has_array_keywords: bool,
}
