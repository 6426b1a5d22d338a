//! `FragmentLane`: the tool-call accumulator's common event (an argument fragment for the call
//! that had the last one) in one native call, from the SSE chunk or JSON line to the
//! `ToolCallDelta`. It does what the long way (`EnvelopeShortcut.match_chunk` -> the format's
//! `take` -> `CallTable.append`) does for that event: the envelope check, the call's clock and
//! size, its raw text, the parser's feed and the delta. Twin: that long way itself, which the
//! python backend always takes; `tests/toolcalls/test_lane.py` compares the two event for
//! event. `src/jsondrip/toolcalls/lane.py` says when a lane may be armed and who disarms it.

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple, PyType};

use super::dict_match::DictMatcher;
use super::engine::NativeEngine;
use super::envelope::ChunkMatcher;

/// How to fill a `ToolCallDelta` without running Python: its type and, for each field in
/// order (`index`, `id`, `name`, `arguments_delta`, `preview`, `changes`), the offset of its
/// slot, read from the slot's member descriptor.
#[pyclass(frozen, module = "jsondrip._native")]
pub struct DeltaLayout {
    kind: Py<PyType>,
    offsets: [isize; 6],
}

#[pymethods]
impl DeltaLayout {
    /// `DeltaLayout(ToolCallDelta, slots)`: `slots` are the six fields' member descriptors
    /// (`__slots__` entries of the type itself, object slots). TypeError otherwise: then the
    /// accumulator never arms a lane.
    #[new]
    fn new(kind: Bound<'_, PyType>, slots: Vec<Bound<'_, PyAny>>) -> PyResult<Self> {
        let mut offsets = [0isize; 6];
        if slots.len() != offsets.len() {
            return Err(PyTypeError::new_err("a ToolCallDelta has six fields"));
        }
        for (offset, slot) in offsets.iter_mut().zip(&slots) {
            *offset = slot_offset(&kind, slot)?;
        }
        Ok(DeltaLayout {
            kind: kind.unbind(),
            offsets,
        })
    }
}

/// The offset of an object slot of `kind` from its member descriptor.
fn slot_offset(kind: &Bound<'_, PyType>, slot: &Bound<'_, PyAny>) -> PyResult<isize> {
    // SAFETY: the descriptor's type is checked to be the member descriptor type before its
    // struct is read; its `d_member` is then the `PyMemberDef` CPython made for the slot.
    unsafe {
        let descr = slot.as_ptr();
        if ffi::Py_TYPE(descr) != std::ptr::addr_of_mut!(ffi::PyMemberDescr_Type) {
            return Err(PyTypeError::new_err("not a slot's member descriptor"));
        }
        let descr = descr.cast::<ffi::PyMemberDescrObject>();
        let member = (*descr).d_member.cast::<ffi::PyMemberDef>();
        let own = (*descr).d_common.d_type == kind.as_type_ptr();
        if !own || (*member).type_code != ffi::Py_T_OBJECT_EX || (*member).flags != 0 {
            return Err(PyTypeError::new_err(
                "not a writable object slot of this type",
            ));
        }
        Ok((*member).offset)
    }
}

/// Writes `value` into the object slot at `offset` of `object`, as the slot's setter does
/// (the old value, if any, released).
///
/// # Safety
/// `offset` must be an object slot of `object`'s type (a `slot_offset` of it).
unsafe fn write_slot(object: &Bound<'_, PyAny>, offset: isize, value: Py<PyAny>) {
    let slot = object.as_ptr().cast::<u8>().offset(offset);
    let slot = slot.cast::<*mut ffi::PyObject>();
    let old = std::mem::replace(&mut *slot, value.into_ptr());
    ffi::Py_XDECREF(old);
}

/// The slots of a call's `CallState` that the lane writes at every fragment, its clock and
/// size, read from the descriptors of the state's own type: a write costs a store where
/// `setattr` looks the name up in the type first.
struct StateSlots {
    last_active: isize,
    size: isize,
}

impl StateSlots {
    /// The slots of `state`, or None when its type does not hold them as plain object slots
    /// of its own (the lane then uses `setattr`).
    fn of(state: &Bound<'_, PyAny>) -> Option<StateSlots> {
        let kind = state.get_type();
        let own = kind.getattr(intern!(state.py(), "__dict__")).ok()?;
        let offset = |name: &str| slot_offset(&kind, &own.get_item(name).ok()?).ok();
        Some(StateSlots {
            last_active: offset("last_active")?,
            size: offset("size")?,
        })
    }
}

impl DeltaLayout {
    /// A new delta holding `fields` (in the layout's order), as `ToolCallDelta(*fields)`
    /// would make it.
    fn make(&self, py: Python<'_>, fields: [Py<PyAny>; 6]) -> PyResult<Py<PyAny>> {
        let kind = self.kind.bind(py).as_type_ptr();
        // SAFETY: `tp_alloc` gives a zeroed, tracked instance whose slots are null; each slot
        // is an object slot at its descriptor's offset (checked in `new`) and takes one
        // reference. The instance is complete before any Python code can see it.
        unsafe {
            let alloc = (*kind).tp_alloc.unwrap_or(ffi::PyType_GenericAlloc);
            let made = Bound::from_owned_ptr_or_err(py, alloc(kind, 0))?;
            for (offset, field) in self.offsets.iter().zip(fields) {
                write_slot(&made, *offset, field);
            }
            Ok(made.unbind())
        }
    }
}

/// One call's fast way: the envelope check of its events (SSE chunks or JSON lines with a
/// `ChunkMatcher`, dicts with a `DictMatcher`) and everything `CallTable.append` does with a
/// fragment on its hot path. Made by `toolcalls/lane.py` for a call whose fragments go
/// straight to its parser (content begun, no fence, no error), and dropped by the accumulator
/// before any event goes the long way.
#[pyclass(module = "jsondrip._native")]
pub struct FragmentLane {
    matcher: Matcher,
    engine: Py<NativeEngine>,
    layout: Py<DeltaLayout>,
    /// The call's `CallState` (its `last_active` and `size`, written through `slots`) and
    /// `ToolCall` (`arguments`).
    state: Py<PyAny>,
    slots: Option<StateSlots>,
    call: Py<PyAny>,
    /// The call's `_parts`: its raw text not yet joined.
    parts: Py<PyList>,
    /// Characters received, and the most the call may have.
    size: usize,
    limit: usize,
    /// The delta's `index`, `id` and `name`.
    head: [Py<PyAny>; 3],
    /// The value last stored in `call.arguments` (the live preview: the same object while
    /// the root is a container).
    shown: Py<PyAny>,
    /// The fragment of a chunk whose feed raised: the long way's error handling needs it.
    failed_fragment: Option<Py<PyString>>,
}

/// The check of the events a lane takes.
enum Matcher {
    Chunk(Py<ChunkMatcher>),
    Dict(Py<DictMatcher>),
}

#[pymethods]
impl FragmentLane {
    #[new]
    #[pyo3(signature = (matcher, parser, layout, state, size, limit))]
    fn new(
        py: Python<'_>,
        matcher: &Bound<'_, PyAny>,
        parser: &Bound<'_, PyAny>,
        layout: Py<DeltaLayout>,
        state: &Bound<'_, PyAny>,
        size: usize,
        limit: usize,
    ) -> PyResult<Self> {
        let engine = parser
            .getattr(intern!(py, "_engine"))?
            .cast_into::<NativeEngine>()?;
        let call = state.getattr(intern!(py, "call"))?;
        let parts = call.getattr(intern!(py, "_parts"))?.cast_into::<PyList>()?;
        let matcher = match matcher.cast::<ChunkMatcher>() {
            Ok(chunks) => Matcher::Chunk(chunks.clone().unbind()),
            Err(_) => Matcher::Dict(matcher.cast::<DictMatcher>()?.clone().unbind()),
        };
        Ok(FragmentLane {
            matcher,
            engine: engine.unbind(),
            layout,
            head: [
                call.getattr(intern!(py, "index"))?.unbind(),
                call.getattr(intern!(py, "id"))?.unbind(),
                call.getattr(intern!(py, "name"))?.unbind(),
            ],
            shown: call.getattr(intern!(py, "arguments"))?.unbind(),
            slots: StateSlots::of(state),
            state: state.clone().unbind(),
            call: call.unbind(),
            parts: parts.unbind(),
            size,
            limit,
            failed_fragment: None,
        })
    }

    /// The `ToolCallDelta` of a chunk (bytes) framed as the `ChunkMatcher`'s, or None when
    /// the chunk is not one (or its fragment is empty, or would pass the size limit): the
    /// long way then reads it, before anything was changed. `now` is the accumulator's clock
    /// reading. A fragment the parser refuses raises its error after the call's clock, size
    /// and raw text took it, as the long way's do; `failed_fragment()` then gives it.
    fn chunk(
        &mut self,
        py: Python<'_>,
        chunk: &[u8],
        now: &Bound<'_, PyAny>,
    ) -> PyResult<Option<Py<PyAny>>> {
        let Matcher::Chunk(matcher) = &self.matcher else {
            return Ok(None);
        };
        match matcher.get().inner.fragment(chunk) {
            Some(fragment) => self.take(py, PyString::new(py, &fragment), now),
            None => Ok(None),
        }
    }

    /// `chunk` for a decoded event (a dict) that the `DictMatcher` knows.
    fn event(
        &mut self,
        py: Python<'_>,
        event: &Bound<'_, PyAny>,
        now: &Bound<'_, PyAny>,
    ) -> PyResult<Option<Py<PyAny>>> {
        let Matcher::Dict(matcher) = &self.matcher else {
            return Ok(None);
        };
        match matcher.get().fragment(event) {
            Some(fragment) => self.take(py, fragment, now),
            None => Ok(None),
        }
    }

    /// The fragment of the event whose feed raised, once.
    fn failed_fragment(&mut self) -> Option<Py<PyString>> {
        self.failed_fragment.take()
    }

    fn __traverse__(&self, visit: pyo3::PyVisit<'_>) -> Result<(), pyo3::PyTraverseError> {
        match &self.matcher {
            Matcher::Chunk(matcher) => visit.call(matcher)?,
            Matcher::Dict(matcher) => visit.call(matcher)?,
        }
        visit.call(&self.engine)?;
        visit.call(&self.layout)?;
        visit.call(&self.state)?;
        visit.call(&self.call)?;
        visit.call(&self.parts)?;
        visit.call(&self.shown)?;
        for field in &self.head {
            visit.call(field)?;
        }
        if let Some(fragment) = &self.failed_fragment {
            visit.call(fragment)?;
        }
        Ok(())
    }
}

impl FragmentLane {
    /// What the long way does with a fragment on the call's hot path (`CallTable.append`),
    /// and its delta; None, changing nothing, for an empty one or one past the limit.
    fn take(
        &mut self,
        py: Python<'_>,
        fragment: Bound<'_, PyString>,
        now: &Bound<'_, PyAny>,
    ) -> PyResult<Option<Py<PyAny>>> {
        let count = fragment.len()?; // characters, as Python counts them
        let size = self.size + count;
        if count == 0 || size > self.limit {
            return Ok(None);
        }
        let state = self.state.bind(py);
        let size_object = size.into_pyobject(py)?.into_any();
        match &self.slots {
            // SAFETY: the offsets are slots of the state's type (`StateSlots::of`).
            Some(slots) => unsafe {
                write_slot(state, slots.last_active, now.clone().unbind());
                write_slot(state, slots.size, size_object.unbind());
            },
            None => {
                state.setattr(intern!(py, "last_active"), now)?;
                state.setattr(intern!(py, "size"), size_object)?;
            }
        }
        self.size = size;
        self.parts.bind(py).append(&fragment)?;
        let mut engine = self.engine.bind(py).borrow_mut();
        let pending = match engine.feed_pending(py, fragment.as_any()) {
            Ok(pending) => pending,
            Err(error) => {
                self.failed_fragment = Some(fragment.unbind());
                return Err(error);
            }
        };
        let preview = engine.value(py)?;
        drop(engine);
        if !preview.is(&self.shown) {
            self.call
                .bind(py)
                .setattr(intern!(py, "arguments"), &preview)?;
            self.shown = preview.clone_ref(py);
        }
        let changes = if pending.is_none(py) {
            PyTuple::empty(py).into_any().unbind()
        } else {
            pending
        };
        let [index, id, name] = &self.head;
        let fields = [
            index.clone_ref(py),
            id.clone_ref(py),
            name.clone_ref(py),
            fragment.into_any().unbind(),
            preview,
            changes,
        ];
        self.layout.get().make(py, fields).map(Some)
    }
}
