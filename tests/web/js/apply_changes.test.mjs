// applyChanges against Python's jsondrip.apply_changes, on the change lists that the Python
// tests generate (tests/web/test_node.py writes them to $JSONDRIP_JS_FIXTURES).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { applyChanges } from "../../../src/jsondrip/web/jsondrip.js";

const fixtures = JSON.parse(readFileSync(process.env.JSONDRIP_JS_FIXTURES, "utf-8"));
const value = (wrapped) => (wrapped.missing ? undefined : wrapped.value);

test("every feed's changes rebuild Python's value after that feed", () => {
  for (const [number, stream] of (fixtures.streams || []).entries()) {
    let doc;
    for (const [step, feed] of stream.feeds.entries()) {
      doc = applyChanges(doc, feed.changes);
      assert.deepStrictEqual(doc, value(feed.after), `stream ${number}, feed ${step}`);
    }
  }
});

test("applying the same changes twice shares no container between the two documents", () => {
  for (const stream of fixtures.streams || []) {
    const all = stream.feeds.flatMap((feed) => feed.changes);
    const first = applyChanges(undefined, all);
    const second = applyChanges(undefined, all);
    assert.deepStrictEqual(first, second);
    if (first !== null && typeof first === "object") assert.notStrictEqual(first, second);
  }
});

test("a wrong change is the error Python raises, and the changes before it stay applied", () => {
  for (const [number, wrong] of (fixtures.errors || []).entries()) {
    const doc = structuredClone(value(wrong.doc));
    let applied = doc;
    assert.throws(
      () => {
        applied = applyChanges(doc, wrong.changes);
      },
      { message: wrong.message },
      `error case ${number}: ${JSON.stringify(wrong.changes)}`,
    );
    if (wrong.after !== undefined) assert.deepStrictEqual(doc, value(wrong.after));
    assert.strictEqual(applied, doc);
  }
});

test('"__proto__" is an ordinary key, as JSON.parse makes it', () => {
  const doc = applyChanges(undefined, [
    ["add", "", {}],
    ["add", "/__proto__", { polluted: true }],
    ["add", "/__proto__/x", "y"],
  ]);
  assert.deepStrictEqual(Object.keys(doc), ["__proto__"]);
  assert.deepStrictEqual(doc, JSON.parse('{"__proto__": {"polluted": true, "x": "y"}}'));
  assert.strictEqual({}.polluted, undefined);
  assert.strictEqual(Object.getPrototypeOf(doc), Object.prototype);
});

test("changes may be objects as well as [op, path, value] triples", () => {
  const doc = applyChanges(undefined, [
    { op: "add", path: "", value: [] },
    { op: "add", path: "/-", value: "a" },
    { op: "append", path: "/0", value: "b" },
  ]);
  assert.deepStrictEqual(doc, ["ab"]);
  // #30 item 5: JSON Patch's remove carries no value
  assert.deepStrictEqual(applyChanges(doc, [{ op: "add", path: "/-", value: 1 }, { op: "remove", path: "/0" }]), [1]);
});
