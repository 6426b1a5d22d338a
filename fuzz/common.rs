//! Helpers shared by the fuzz targets: run the streaming core, compare values exactly.

#![allow(dead_code)]

use _native::core::value::{Value, ValueBuilder};
use _native::core::{Failure, Mode, ParseError, Stream};

/// Depth limit of the targets: deep enough that the fuzzer's inputs rarely reach it.
pub const MAX_DEPTH: usize = 1024;

/// What a stream answers: the final value, or the error.
pub type Answer = Result<Option<Value>, ParseError>;

/// Feeds `chunks` as bytes, then closes.
pub fn run_stream(chunks: &[&[u8]], mode: Mode, max_depth: usize, max_size: Option<u64>) -> Answer {
    let mut stream = Stream::new(mode, max_depth, max_size);
    let mut sink = ValueBuilder::default();
    for chunk in chunks {
        if let Err(failure) = stream.feed_bytes(chunk, &mut sink) {
            return Err(sticky(&mut stream, &mut sink, invalid(failure)));
        }
    }
    match stream.close(&mut sink) {
        Ok(()) => Ok(sink.root),
        Err(failure) => Err(sticky(&mut stream, &mut sink, invalid(failure))),
    }
}

/// Feeds `chunks` as text (each whole code points), then closes.
pub fn run_text(chunks: &[&[u8]], mode: Mode, max_depth: usize, max_size: Option<u64>) -> Answer {
    let mut stream = Stream::new(mode, max_depth, max_size);
    let mut sink = ValueBuilder::default();
    for chunk in chunks {
        stream.feed_text(chunk, false, &mut sink).map_err(invalid)?;
    }
    stream.close(&mut sink).map_err(invalid)?;
    Ok(sink.root)
}

/// A failed stream stays failed: every later feed and close gives the same error.
fn sticky(stream: &mut Stream, sink: &mut ValueBuilder, error: ParseError) -> ParseError {
    assert_eq!(stream.error(), Some(&error));
    assert_eq!(
        stream.feed_bytes(b"[", sink).map_err(invalid),
        Err(error.clone())
    );
    assert_eq!(
        stream.feed_text(b"1", false, sink).map_err(invalid),
        Err(error.clone())
    );
    assert_eq!(stream.close(sink).map_err(invalid), Err(error.clone()));
    error
}

/// The core's failure for a value builder: only `Invalid` is possible.
pub fn invalid(failure: Failure) -> ParseError {
    match failure {
        Failure::Invalid(e) => *e,
        other => panic!("a value builder never stops and nothing feeds after close: {other:?}"),
    }
}

/// The error's position is inside the input and its line/column agree with it.
pub fn check_error(e: &ParseError, input_len: usize) {
    assert!(
        e.pos <= input_len as u64,
        "position {} past the input ({input_len})",
        e.pos
    );
    assert!(
        e.line >= 1 && e.column >= 1,
        "line and column are 1-based: {e:?}"
    );
    assert!(e.column <= e.pos + 1, "column past the position: {e:?}");
    assert!(e.line <= e.pos + 1, "more lines than characters: {e:?}");
    assert!(!e.kind.to_string().is_empty());
    let doc_chars = e.doc.iter().filter(|&&b| (b as i8) >= -0x40).count();
    assert!(
        doc_chars <= 2 * _native::core::error::DOC_WINDOW,
        "doc past its window: {e:?}"
    );
}

/// Exact equality: floats by bits (NaN equals NaN, -0.0 differs from 0.0), objects in order.
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Float(x), Value::Float(y)) => {
            (x.is_nan() && y.is_nan()) || x.to_bits() == y.to_bits()
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.0 == q.0 && same(&p.1, &q.1))
        }
        _ => a == b,
    }
}

pub fn same_answer(a: &Answer, b: &Answer) -> bool {
    match (a, b) {
        (Ok(None), Ok(None)) => true,
        (Ok(Some(x)), Ok(Some(y))) => same(x, y),
        (Err(x), Err(y)) => same_error(x, y),
        _ => false,
    }
}

/// The same error however the stream was cut: all but `doc` and `doc_start`, the window of
/// text kept around it, which holds the last fragments and so depends on the cuts
/// (docs/semantics.md); [`check_window`] checks that window instead.
fn same_error(x: &ParseError, y: &ParseError) -> bool {
    (&x.kind, x.pos, x.line, x.column, &x.expected)
        == (&y.kind, y.pos, y.line, y.column, &y.expected)
}

/// An error's window is a piece of the input, as it was read.
pub fn check_window(answer: &Answer, input: &[u8]) {
    if let Err(e) = answer {
        assert!(
            e.doc.is_empty() || input.windows(e.doc.len()).any(|w| w == e.doc.as_slice()),
            "doc is not a piece of the input: {e:?}"
        );
    }
}

/// Splits `data` at the cut points drawn from `cuts` (each byte a fraction of the length).
pub fn split<'a>(data: &'a [u8], cuts: &[u8]) -> Vec<&'a [u8]> {
    let mut points: Vec<usize> = cuts
        .iter()
        .map(|&c| {
            if data.is_empty() {
                0
            } else {
                c as usize * data.len() / 255
            }
        })
        .collect();
    points.sort_unstable();
    let mut chunks = Vec::new();
    let mut last = 0;
    for p in points {
        chunks.push(&data[last..p]);
        last = p;
    }
    chunks.push(&data[last..]);
    chunks
}

/// Cut points moved back to character boundaries (for text feeds of valid UTF-8).
pub fn split_chars<'a>(text: &'a str, cuts: &[u8]) -> Vec<&'a [u8]> {
    let bytes = text.as_bytes();
    let mut points: Vec<usize> = cuts
        .iter()
        .map(|&c| {
            let mut p = if bytes.is_empty() {
                0
            } else {
                c as usize * bytes.len() / 255
            };
            while !text.is_char_boundary(p) {
                p -= 1;
            }
            p
        })
        .collect();
    points.sort_unstable();
    let mut chunks = Vec::new();
    let mut last = 0;
    for p in points {
        chunks.push(&bytes[last..p]);
        last = p;
    }
    chunks.push(&bytes[last..]);
    chunks
}
