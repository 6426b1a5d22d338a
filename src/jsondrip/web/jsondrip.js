// jsondrip in the browser: apply jsondrip's change events, follow tool calls over SSE.
// A dependency-free ES module shipped inside the Python package (jsondrip.web.module_path()).
//
//   import { applyChanges, ToolCallClient } from "/jsondrip.js";
//   const client = new ToolCallClient({ onUpdate: render, onDone: (call) => run(call) });
//   client.subscribe("/events");            // an EventSource URL, or an EventSource
//
// The document before any value is `undefined` (Python's jsondrip.MISSING).

const OPS = ["add", "append", "replace", "remove"];
const INDEX = /^(0|[1-9][0-9]*)$/;

// Python's repr of a str, so that errors read exactly as jsondrip.apply_changes's.
function repr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0);
    if (ch === quote || ch === "\\") out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += "\\x" + code.toString(16).padStart(2, "0");
    else out += ch;
  }
  return out + quote;
}

function typeName(value) {
  if (value === null) return "NoneType";
  if (Array.isArray(value)) return "list";
  switch (typeof value) {
    case "string": return "str";
    case "boolean": return "bool";
    case "number": return Number.isInteger(value) ? "int" : "float";
    case "object": return "dict";
    default: return typeof value;
  }
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const has = (obj, key) => Object.prototype.hasOwnProperty.call(obj, key);

// `obj[key] = value`, except that "__proto__" is an own key, as in JSON.parse, not the prototype.
function setKey(obj, key, value) {
  if (key === "__proto__") {
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

// A container from a change is copied, so applying the same changes twice shares nothing.
function fresh(value) {
  if (Array.isArray(value)) return value.slice();
  if (isObject(value)) {
    const copy = {};
    for (const key of Object.keys(value)) setKey(copy, key, value[key]);
    return copy;
  }
  return value;
}

function missingPath(op, path, why) {
  return new Error(`cannot ${op} ${repr(path)}: ${why}`);
}

function noMembers(value) {
  return value === undefined ? "the document has not begun" : `${typeName(value)} has no members`;
}

function escapeToken(token) {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

function tokens(path) {
  if (path === "") return [];
  if (path[0] !== "/") throw new Error(`a JSON Pointer starts with '/': ${repr(path)}`);
  return path.slice(1).split("/").map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
}

function arrayIndex(op, path, token, size, endOk) {
  if (token === "-" && endOk) return size;
  if (!INDEX.test(token)) throw missingPath(op, path, `${repr(token)} is not an array index`);
  const index = Number(token);
  if (index > size || (index === size && !endOk)) {
    throw missingPath(op, path, `index ${token} is past the end (length ${size})`);
  }
  return index;
}

function parentOf(doc, op, path, parts) {
  let parent = doc;
  for (let depth = 0; depth < parts.length - 1; depth++) {
    const token = parts[depth];
    if (Array.isArray(parent)) {
      parent = parent[arrayIndex(op, path, token, parent.length, false)];
    } else if (isObject(parent)) {
      if (!has(parent, token)) {
        const where = "/" + parts.slice(0, depth + 1).map(escapeToken).join("/");
        throw missingPath(op, path, `${repr(where)} does not exist`);
      }
      parent = parent[token];
    } else {
      throw missingPath(op, path, noMembers(parent));
    }
  }
  if (!Array.isArray(parent) && !isObject(parent)) throw missingPath(op, path, noMembers(parent));
  return parent;
}

function appended(target, text, op, path) {
  if (typeof target !== "string" || typeof text !== "string") {
    const found = `${typeName(target)} there, ${typeName(text)} value`;
    throw missingPath(op, path, `append takes a str onto a str, not (${found})`);
  }
  return target + text;
}

// [op, path, value] of a change: an array, or an object {op, path, value} (JSON Patch's shape:
// `value` may be left out for remove), with Python's errors for an object that lacks a key.
function unpack(change) {
  if (Array.isArray(change)) return change;
  for (const key of ["op", "path"]) {
    if (!has(change, key)) {
      const keys = Object.keys(change).map(repr).join(", ") || "none";
      throw new Error(`a change object lacks ${repr(key)} (its keys: ${keys})`);
    }
  }
  if (has(change, "value")) return [change.op, change.path, change.value];
  if (change.op === "remove") return [change.op, change.path, null];
  const op = typeof change.op === "string" ? repr(change.op) : String(change.op);
  throw new Error(`a change object lacks 'value' (op ${op} at ${repr(String(change.path))})`);
}

/**
 * Apply jsondrip change events to `doc` (start from `undefined`) and return the new document,
 * exactly as Python's `jsondrip.apply_changes` does, with the same errors. A change is
 * `[op, path, value]` or `{op, path, value}` (`value` may be left out for `remove`).
 * Containers are updated in place; the root may be replaced, so use the returned value.
 * Changes before a failing one stay applied.
 */
export function applyChanges(doc, changes) {
  for (const change of changes) {
    const [op, path, value] = unpack(change);
    if (!OPS.includes(op)) {
      const name = typeof op === "string" ? repr(op) : String(op);
      throw new Error(
        `unknown change op ${name} (at ${repr(String(path))}): expected add, append, replace or remove`,
      );
    }
    const parts = tokens(path);
    if (parts.length === 0) {
      if (op !== "add" && doc === undefined) throw missingPath(op, path, "the document has not begun");
      if (op === "append") doc = appended(doc, value, op, path);
      else if (op === "remove") doc = undefined;
      else doc = fresh(value);
      continue;
    }
    const parent = parentOf(doc, op, path, parts);
    const last = parts[parts.length - 1];
    if (Array.isArray(parent)) {
      const index = arrayIndex(op, path, last, parent.length, op === "add");
      if (op === "add") parent.splice(index, 0, fresh(value));
      else if (op === "append") parent[index] = appended(parent[index], value, op, path);
      else if (op === "remove") parent.splice(index, 1);
      else parent[index] = fresh(value);
    } else {
      if (op !== "add" && !has(parent, last)) throw missingPath(op, path, "no such key");
      if (op === "append") setKey(parent, last, appended(parent[last], value, op, path));
      else if (op === "remove") delete parent[last];
      else setKey(parent, last, fresh(value));
    }
  }
  return doc;
}

// Calls whose `done` already fired in this page, keyed by call id: shared by every client
// unless one is given its own `once` set, so a component mounted twice runs a tool once.
const FIRED = new Set();

const EVENT_TYPES = [
  "tool-call-start",
  "tool-call-delta",
  "tool-call-done",
  "text",
  "reasoning",
  "stream-done",
  "end",
];

/**
 * Follows one stream of jsondrip tool-call events (jsondrip.web.SSELog on the server). Keeps,
 * per call (by index), `{index, id, name, kind, arguments, status, error}`; `status` is
 * "streaming", "complete" or "error". Every event is applied once: events are numbered by
 * their SSE id and one at or below the last applied is skipped (a replay after a reconnect,
 * or the same events from a second subscription). `onDone(call)` fires once per call id.
 */
export class ToolCallClient {
  constructor(handlers = {}) {
    this.handlers = handlers;
    this.once = handlers.once || FIRED;
    this.calls = new Map();
    this.text = "";
    this.reasoning = "";
    this.finishReasons = [];
    this.ended = false;
    this.error = null;
    this.lastId = -1;
    this.replays = 0; // events skipped because they were applied already
    this.sources = new Set();
  }

  /** Apply one event (its SSE type, its parsed data, its SSE id); false if it was a replay. */
  handle(type, data, id) {
    if (id !== undefined && id !== null && id !== "") {
      const seq = Number(id);
      if (seq <= this.lastId) {
        this.replays += 1;
        return false;
      }
      this.lastId = seq;
    }
    const on = this.handlers;
    if (type === "tool-call-start") {
      const call = {
        index: data.index, id: data.id, name: data.name, kind: data.kind ?? "function",
        arguments: undefined, status: "streaming", error: null,
      };
      this.calls.set(data.index, call);
      on.onStart?.(call);
    } else if (type === "tool-call-delta" || type === "tool-call-done") {
      const call = this.calls.get(data.index);
      if (!call) throw new Error(`event ${id}: ${type} for call ${data.index}, which never started`);
      call.arguments = applyChanges(call.arguments, data.changes || []);
      if (type === "tool-call-done") {
        call.status = data.complete ? "complete" : "error";
        call.kind = data.kind ?? call.kind;
        call.error = data.error ?? null;
        const key = call.id ?? `${this.url ?? ""}#${call.index}`;
        on.onUpdate?.(call, data.changes || []);
        if (!this.once.has(key)) {
          this.once.add(key);
          on.onDone?.(call);
        }
        return true;
      }
      on.onUpdate?.(call, data.changes);
    } else if (type === "text") {
      if (typeof data.text === "string") this.text += data.text;
      on.onText?.(data.text, data.choice ?? 0);
    } else if (type === "reasoning") {
      if (typeof data.text === "string") this.reasoning += data.text;
      on.onReasoning?.(data.text, data.choice ?? 0);
    } else if (type === "stream-done") {
      this.finishReasons.push(data.finish_reason);
      on.onFinish?.(data.finish_reason);
    } else if (type === "end") {
      this.ended = true;
      this.error = data.error ?? null;
      for (const source of this.sources) source.close();
      on.onEnd?.(this.error);
    }
    return true;
  }

  /**
   * Listen to an EventSource (or open one on a URL); returns a function that stops listening.
   * The stream's `end` event closes it, so that the browser does not reconnect for ever.
   */
  subscribe(source) {
    if (typeof source === "string") {
      this.url = source;
      source = new EventSource(source);
    }
    this.sources.add(source);
    const listeners = EVENT_TYPES.map((type) => {
      const listener = (message) => this.handle(type, JSON.parse(message.data), message.lastEventId);
      source.addEventListener(type, listener);
      return [type, listener];
    });
    return () => {
      for (const [type, listener] of listeners) source.removeEventListener(type, listener);
      this.sources.delete(source);
      source.close();
    };
  }
}
