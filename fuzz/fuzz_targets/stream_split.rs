//! Any bytes, cut anywhere, through the streaming core: no panic, no overflow, and the same
//! answer (final value or error) whether the document is fed whole or in pieces, as bytes or
//! (when it is UTF-8) as text. Errors are positioned inside the input and stay sticky.
//!
//! Input layout: a flags byte (bit 0: jiter mode; bit 1: a max_size from the next byte;
//! bit 2: a small max_depth from the next byte; bits 3-5: the number of cuts), those option
//! bytes, the cut points (each a fraction of the document's length), then the document.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../common.rs"]
mod common;

use _native::core::Mode;
use common::*;

fuzz_target!(|input: &[u8]| {
    let Some((&flags, mut rest)) = input.split_first() else {
        return;
    };
    let mode = if flags & 1 != 0 {
        Mode::Jiter
    } else {
        Mode::Stable
    };
    let mut max_size = None;
    if flags & 2 != 0 {
        let Some((&size, tail)) = rest.split_first() else {
            return;
        };
        max_size = Some(size as u64);
        rest = tail;
    }
    let mut max_depth = MAX_DEPTH;
    if flags & 4 != 0 {
        let Some((&depth, tail)) = rest.split_first() else {
            return;
        };
        max_depth = 1 + depth as usize % 8;
        rest = tail;
    }
    let ncuts = ((flags >> 3) & 7) as usize;
    if rest.len() < ncuts {
        return;
    }
    let (cuts, doc) = rest.split_at(ncuts);

    let whole = run_stream(&[doc], mode, max_depth, max_size);
    if let Err(e) = &whole {
        check_error(e, doc.len());
    }
    let pieces = split(doc, cuts);
    let split_answer = run_stream(&pieces, mode, max_depth, max_size);
    check_window(&whole, doc);
    check_window(&split_answer, doc);
    assert!(
        same_answer(&whole, &split_answer),
        "whole {whole:?} != split {split_answer:?} ({pieces:?})"
    );
    // One byte at a time too (short documents: it is the slowest way).
    if doc.len() <= 256 {
        let bytes: Vec<&[u8]> = doc.chunks(1).collect();
        let bytewise = run_stream(&bytes, mode, max_depth, max_size);
        assert!(
            same_answer(&whole, &bytewise),
            "whole {whole:?} != bytewise {bytewise:?}"
        );
    }
    // The same document as text: a str never skips a BOM, everything else is the same.
    if let Ok(text) = std::str::from_utf8(doc) {
        if !text.starts_with('\u{feff}') {
            let chunks = split_chars(text, cuts);
            let as_text = run_text(&chunks, mode, max_depth, max_size);
            assert!(
                same_answer(&whole, &as_text),
                "bytes {whole:?} != text {as_text:?}"
            );
        }
    }
});
