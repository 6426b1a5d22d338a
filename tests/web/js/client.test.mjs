// ToolCallClient on the SSE frames that jsondrip.web.SSEEncoder makes of every recorded stream
// (tests/web/test_node.py writes them, with the Python accumulator's final calls).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { ToolCallClient } from "../../../src/jsondrip/web/jsondrip.js";

const fixtures = JSON.parse(readFileSync(process.env.JSONDRIP_JS_FIXTURES, "utf-8"));

function run(frames, client, order = frames) {
  for (const frame of order) client.handle(frame.event, frame.data, frame.id);
  return client;
}

function counting() {
  const done = new Map();
  const once = new Set();
  const handlers = { once, onDone: (call) => done.set(call.index, (done.get(call.index) || 0) + 1) };
  return { handlers, done };
}

function checkCalls(name, client, expected) {
  assert.strictEqual(client.calls.size, expected.length, `${name}: number of calls`);
  for (const want of expected) {
    const call = client.calls.get(want.index);
    assert.ok(call, `${name}: call ${want.index} missing`);
    assert.strictEqual(call.id, want.id, `${name}: call ${want.index} id`);
    assert.strictEqual(call.name, want.name, `${name}: call ${want.index} name`);
    assert.strictEqual(call.kind, want.kind, `${name}: call ${want.index} kind`);
    const args = want.arguments.missing ? undefined : want.arguments.value;
    assert.deepStrictEqual(call.arguments, args, `${name}: call ${want.index} arguments`);
    assert.strictEqual(call.status, want.complete ? "complete" : "error", `${name}: status`);
    assert.strictEqual(call.error, want.error, `${name}: call ${want.index} error`);
  }
}

for (const stream of fixtures.streams) {
  test(`${stream.name}: the final calls are the Python accumulator's, done once each`, () => {
    const { handlers, done } = counting();
    const client = run(stream.frames, new ToolCallClient(handlers));
    checkCalls(stream.name, client, stream.calls);
    for (const call of stream.calls) assert.strictEqual(done.get(call.index), 1, stream.name);
    assert.strictEqual(client.text, stream.text);
    assert.strictEqual(client.reasoning, stream.reasoning);
    assert.deepStrictEqual(client.finishReasons, stream.finish_reasons);
    assert.ok(client.ended);
  });

  test(`${stream.name}: a reconnect that resumes early, at any frame, changes nothing`, () => {
    const frames = stream.frames;
    for (let cut = 1; cut <= frames.length; cut++) {
      const { handlers, done } = counting();
      // the connection dropped after frame `cut`; the server resumed three frames early
      const order = [...frames.slice(0, cut), ...frames.slice(Math.max(0, cut - 3))];
      const client = run(frames, new ToolCallClient(handlers), order);
      checkCalls(`${stream.name} (cut at ${cut})`, client, stream.calls);
      for (const call of stream.calls) assert.strictEqual(done.get(call.index), 1);
      assert.strictEqual(client.replays, cut - Math.max(0, cut - 3));
    }
  });

  test(`${stream.name}: the whole stream delivered twice is applied once`, () => {
    const { handlers, done } = counting();
    const client = run(stream.frames, new ToolCallClient(handlers), [...stream.frames, ...stream.frames]);
    checkCalls(stream.name, client, stream.calls);
    for (const call of stream.calls) assert.strictEqual(done.get(call.index), 1);
    assert.strictEqual(client.replays, stream.frames.length);
  });

  test(`${stream.name}: a second client sharing the page's registry does not run a tool again`, () => {
    const { handlers, done } = counting();
    run(stream.frames, new ToolCallClient(handlers));
    run(stream.frames, new ToolCallClient(handlers)); // a component mounted twice
    for (const call of stream.calls) assert.strictEqual(done.get(call.index), 1);
  });
}

test("frames without ids are all applied (nothing to deduplicate by)", () => {
  const client = new ToolCallClient({ once: new Set() });
  client.handle("tool-call-start", { index: 0, id: "a", name: "f" });
  client.handle("tool-call-delta", { index: 0, changes: [["add", "", "x"]] });
  client.handle("tool-call-delta", { index: 0, changes: [["append", "", "y"]] });
  assert.strictEqual(client.calls.get(0).arguments, "xy");
});

test("a delta for a call that never started is an error naming the event", () => {
  const client = new ToolCallClient({ once: new Set() });
  assert.throws(() => client.handle("tool-call-delta", { index: 4, changes: [] }, "9"), {
    message: "event 9: tool-call-delta for call 4, which never started",
  });
});
