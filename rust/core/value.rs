//! A plain Rust value tree built from the machine's events: the sink `cargo test` uses.
//!
//! Containers are addressed by their path of indexes from the root, so the tree can be
//! updated in place like the Python builder updates its live objects.

use super::sink::{Atom, Sink, Stop, Str};

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// An integer, as its decimal text (JSON integers have no size limit).
    Int(String),
    Float(f64),
    /// String content as WTF-8 bytes (lone surrogates are kept, as `json.loads` keeps them).
    Str(Vec<u8>),
    Array(Vec<Value>),
    /// Properties in insertion order; a repeated key replaces the earlier value in place.
    Object(Vec<(Vec<u8>, Value)>),
}

/// Builds a [`Value`]; `root` is None until a value has begun.
#[derive(Debug, Default)]
pub struct ValueBuilder {
    pub root: Option<Value>,
    path: Vec<usize>,
    key: Vec<u8>,
    string_shown: bool,
    tentative_shown: bool,
    tentative_prev: Option<Value>,
}

fn atom_value(atom: Atom) -> Value {
    match atom {
        Atom::Int(text) => {
            Value::Int(text.trim_start_matches('-').to_string()).negate_if(text.starts_with('-'))
        }
        Atom::Float(text) => Value::Float(text.parse().expect("the machine only gives numbers")),
        Atom::True => Value::Bool(true),
        Atom::False => Value::Bool(false),
        Atom::Null => Value::Null,
        Atom::NaN => Value::Float(f64::NAN),
        Atom::Infinity => Value::Float(f64::INFINITY),
        Atom::NegInfinity => Value::Float(f64::NEG_INFINITY),
    }
}

impl Value {
    fn negate_if(self, negative: bool) -> Value {
        match self {
            Value::Int(digits) if negative && digits.bytes().any(|b| b != b'0') => {
                Value::Int(format!("-{digits}"))
            }
            other => other,
        }
    }
}

impl ValueBuilder {
    fn top(&mut self) -> Option<&mut Value> {
        let mut node = self.root.as_mut()?;
        for &index in &self.path {
            node = match node {
                Value::Array(items) => &mut items[index],
                Value::Object(props) => &mut props[index].1,
                _ => unreachable!("paths lead through containers"),
            };
        }
        Some(node)
    }

    /// Puts `value` in the open slot; returns the index it took in its parent.
    fn insert(&mut self, value: Value, replace: bool) -> usize {
        if self.path.is_empty() && !matches!(self.root, Some(Value::Array(_) | Value::Object(_))) {
            self.root = Some(value);
            return 0;
        }
        let key = self.key.clone();
        match self.top().expect("a container is open") {
            Value::Array(items) => {
                if replace {
                    *items.last_mut().expect("a slot was shown") = value;
                } else {
                    items.push(value);
                }
                items.len() - 1
            }
            Value::Object(props) => match props.iter().position(|(k, _)| *k == key) {
                Some(index) => {
                    props[index].1 = value;
                    index
                }
                None => {
                    props.push((key, value));
                    props.len() - 1
                }
            },
            _ => unreachable!("the top is a container"),
        }
    }

    fn previous(&mut self) -> Option<Value> {
        let key = self.key.clone();
        match self.top() {
            Some(Value::Object(props)) => props
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v.clone()),
            _ => None,
        }
    }
}

impl Sink for ValueBuilder {
    fn begin_container(&mut self, object: bool) -> Result<(), Stop> {
        let container = if object {
            Value::Object(Vec::new())
        } else {
            Value::Array(Vec::new())
        };
        if self.root.is_none() {
            self.root = Some(container);
        } else {
            let index = self.insert(container, false);
            self.path.push(index);
        }
        Ok(())
    }

    fn end_container(&mut self) {
        self.path.pop();
    }

    fn set_key(&mut self, key: Str) -> Result<(), Stop> {
        self.key = key.bytes.to_vec();
        Ok(())
    }

    fn string(&mut self, text: Str, complete: bool) -> Result<(), Stop> {
        self.insert(Value::Str(text.bytes.to_vec()), self.string_shown);
        self.string_shown = !complete;
        Ok(())
    }

    fn atom(&mut self, atom: Atom) -> Result<(), Stop> {
        self.insert(atom_value(atom), self.tentative_shown);
        self.tentative_shown = false;
        self.tentative_prev = None;
        Ok(())
    }

    fn show_tentative(&mut self, atom: Atom) -> Result<(), Stop> {
        if !self.tentative_shown {
            self.tentative_prev = self.previous();
        }
        self.insert(atom_value(atom), self.tentative_shown);
        self.tentative_shown = true;
        Ok(())
    }

    fn hide_tentative(&mut self) -> Result<(), Stop> {
        if !self.tentative_shown {
            return Ok(());
        }
        self.tentative_shown = false;
        let previous = self.tentative_prev.take();
        if self.path.is_empty() && !matches!(self.root, Some(Value::Array(_) | Value::Object(_))) {
            self.root = None;
            return Ok(());
        }
        let key = self.key.clone();
        match self.top().expect("a container is open") {
            Value::Array(items) => {
                items.pop();
            }
            Value::Object(props) => {
                let index = props
                    .iter()
                    .position(|(k, _)| *k == key)
                    .expect("the key was shown");
                match previous {
                    Some(value) => props[index].1 = value,
                    None => {
                        props.remove(index);
                    }
                }
            }
            _ => unreachable!("the top is a container"),
        }
        Ok(())
    }
}
