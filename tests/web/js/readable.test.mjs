// readable.js (the page's drawing of tool-call arguments) against the terminal's live view
// (jsondrip/cli/readable.py) on the values tests/web/test_node.py sends, and its own rules.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  languageOf,
  readableRuns,
  renderArguments,
  visibleText,
} from "../../../src/jsondrip/web/readable.js";

const fixtures = JSON.parse(readFileSync(process.env.JSONDRIP_JS_FIXTURES, "utf-8"));
const text = (value) => readableRuns(value).map(([piece]) => piece).join("");
const trimmed = (drawn) => drawn.split("\n").map((line) => line.trimEnd()).join("\n");

test("#30 item 16: the page draws every value as the terminal's live view does", () => {
  for (const [number, { value, terminal }] of fixtures.cases.entries()) {
    assert.equal(trimmed(text(value)), terminal, `case ${number}`);
  }
});

test("a multi-line string is text between fences, one step deeper than its key", () => {
  const drawn = text({ path: "a.py", content: "def f():\n    return 1\n", n: 2 });
  assert.equal(
    drawn,
    '{\n  "path": "a.py",\n  "content": """\n    def f():\n        return 1\n    \n  """,\n  "n": 2\n}',
  );
  assert.equal(text({ one: "no line break" }), '{\n  "one": "no line break"\n}');
  assert.equal(text("top\nlevel"), '"""\n  top\n  level\n"""');
});

test("code is highlighted by what its key, a sibling or a #! line says", () => {
  const kinds = (value) => readableRuns(value).filter(([, kind]) => kind);
  const python = kinds({ file_path: "x/y.py", content: "import os  # why\nx = 'a' + 1\n" });
  assert.deepEqual(
    python.filter(([, kind]) => !["key", "string", "fence"].includes(kind)),
    [["import", "keyword"], ["# why", "comment"], ["'a'", "code-string"], ["1", "code-number"]],
  );
  const sql = kinds({ sql: "select a\nFROM t -- all" });
  assert.deepEqual(sql.filter(([, kind]) => kind === "keyword" || kind === "comment"), [
    ["select", "keyword"],
    ["FROM", "keyword"],
    ["-- all", "comment"],
  ]);
  assert.equal(languageOf("body", "#!/usr/bin/env bash\necho hi", null), "shell");
  assert.equal(languageOf("body", "x\ny", { language: "TypeScript" }), "typescript");
  assert.equal(languageOf("body", "x\ny", { path: "notes.txt" }), null);
  assert.equal(languageOf("python", "x\ny", null), "python");
  assert.equal(languageOf("note", "plain\ntext", { title: "x" }), null);
  const diff = kinds({ patch: "@@ -1 +1 @@\n-old\n+new" });
  assert.deepEqual(diff.slice(2, 5).map(([, kind]) => kind), ["heading", "removed", "added"]);
});

test("control characters are drawn as their pictures, lone surrogates as escapes", () => {
  assert.equal(visibleText("a\r\nb\x1b[31m\x07\tc\x7f"), "a\nb\u241b[31m\u2407\tc\u2421");
  assert.equal(visibleText("x\ud800y\udc00z\ud83d\ude80"), "x\\ud800y\\udc00z\ud83d\ude80");
});

test("the fragment holds text nodes and spans, never parsed HTML", () => {
  const made = [];
  const doc = {
    createDocumentFragment: () => ({ children: [], append(node) { this.children.push(node); } }),
    createTextNode: (data) => ({ data }),
    createElement: (tag) => {
      const element = { tag, className: "", textContent: "" };
      made.push(element);
      return element;
    },
  };
  const fragment = renderArguments({ html: "<b>x</b>\n<script>alert(1)</script>" }, doc);
  assert.ok(made.every((element) => element.tag === "span"));
  assert.ok(made.some((element) => element.className === "j-tag" && element.textContent === "<script>"));
  const joined = fragment.children.map((node) => node.data ?? node.textContent).join("");
  assert.equal(joined, text({ html: "<b>x</b>\n<script>alert(1)</script>" }));
});

test("a value nested too deep to draw says so", () => {
  let deep = [];
  for (let i = 0; i < 100000; i++) deep = [deep];
  assert.deepEqual(readableRuns(deep), [["(nested too deep to draw)", "comment"]]);
});
