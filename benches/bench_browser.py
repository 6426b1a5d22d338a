"""In a real browser: applying jsondrip's changes against re-parsing the accumulated text.

    python benches/bench_browser.py [--size BYTES] [--chunk N] [--every N] [--repeats N]

A tool call whose arguments hold one 1 MB string arrives in 4-character fragments. The page
either applies each fragment's jsondrip changes (`JSON.parse` of the SSE frame's data, then
`applyChanges` from the shipped `jsondrip.js`), or does what front ends do: append the
fragment to the text so far, `JSON.parse` it, and when that fails (a cut document always
does) repair it (close the open string and containers, drop a dangling escape, key or comma)
and parse again: the Vercel AI SDK's `parsePartialJson` way. Both run on the page's main
thread in one headless Chromium, timed with `performance.now()`.

Re-parsing a megabyte a quarter of a million times would take many minutes, so that side is
sampled: every fragment is appended, and the text is parsed and repaired after every
`--every`-th fragment (250 by default, about a thousand parses spread over the stream), that
time scaled by `--every` (marked `~`). The target: at least 50x less main-thread time. A third
row is the floor of any re-parsing page: one `JSON.parse` of the text closed by hand (`+ '"}'`),
no repair at all.
Needs Chromium and Playwright (see tests/web/_browser.py). Best of N, one browser.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))

from bench_changes import document  # the same 1 MB argument as the server-side bench

import jsondrip
from jsondrip.web.server import PreviewServer

TARGET = 50.0

REPARSE = r"""
// What a front end does with raw argument text: parse it whole, repairing a cut document.
function repair(text) {
  const stack = [];
  let inString = false, escaped = false, stringStart = -1, safe = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === "\\") escaped = true;
      else if (c === '"') { inString = false; safe = i + 1; }
      continue;
    }
    if (c === '"') { inString = true; stringStart = i; }
    else if (c === "{" || c === "[") { stack.push(c === "{" ? "}" : "]"); safe = i + 1; }
    else if (c === "}" || c === "]") { stack.pop(); safe = i + 1; }
    else if (c === "," || c === ":") safe = i;
    else if (c > " ") safe = i + 1;
  }
  let out = text;
  if (inString) {
    if (escaped) out = out.slice(0, -1);
    const u = out.lastIndexOf("\\u");
    if (u > stringStart && out.length - u < 6) out = out.slice(0, u);
    out += '"';
  } else {
    out = out.slice(0, safe);
  }
  let end = out.length;
  while (end > 0 && " \t\r\n,".includes(out[end - 1])) end--;
  out = out.slice(0, end);
  if (out.endsWith(":")) out += "null";
  return out + stack.reverse().join("");
}
function parsePartial(text) {
  try { return JSON.parse(text); } catch {}
  try { return JSON.parse(repair(text)); } catch { return undefined; }
}
"""

RUN = (
    """async ({ frames, fragments, every }) => {
  const { applyChanges } = await import("/jsondrip.js");
"""
    + REPARSE
    + """
  let t0 = performance.now();
  let doc;
  for (const data of frames) doc = applyChanges(doc, JSON.parse(data).changes);
  const applyMs = performance.now() - t0;
  let text = "", value, parseMs = 0, floorMs = 0;
  for (let i = 0; i < fragments.length; i++) {
    text += fragments[i];
    if ((i + 1) % every === 0 || i === fragments.length - 1) {
      let t = performance.now();
      value = parsePartial(text);
      parseMs += performance.now() - t;
      // the floor of any re-parse: one JSON.parse of the text closed by hand (no repair)
      t = performance.now();
      try { JSON.parse(text + '"}'); } catch {}
      floorMs += performance.now() - t;
    }
  }
  return { applyMs, parseMs, floorMs, same: JSON.stringify(doc) === JSON.stringify(value) };
}"""
)


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("--size", type=int, default=1_000_000)
    options.add_argument("--chunk", type=int, default=4)
    options.add_argument("--every", type=int, default=250)
    options.add_argument("--repeats", type=int, default=3)
    args = options.parse_args()

    from _browser import INSTALL_HINT, chromium_path

    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sys.exit(INSTALL_HINT)
    if chromium_path() is None:
        sys.exit(INSTALL_HINT)

    text = document(args.size)
    fragments = [text[i : i + args.chunk] for i in range(0, len(text), args.chunk)]
    parser = jsondrip.Parser()
    frames = []
    for fragment in fragments:
        changes = [[op, path, value] for op, path, value in parser.feed_changes(fragment)]
        frames.append(json.dumps({"index": 0, "changes": changes}, separators=(",", ":")))
    assert parser.close() == json.loads(text)

    server = PreviewServer(lambda log: None)
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    best_apply = best_parse = best_floor = float("inf")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=chromium_path(), args=["--no-sandbox"]
            )
            page = browser.new_page()
            page.goto(server.url + "jsondrip.js")
            payload = {"frames": frames, "fragments": fragments, "every": args.every}
            for _ in range(args.repeats):
                result = page.evaluate(RUN, payload)
                if not result["same"]:
                    sys.exit("the two pages disagree on the final value")
                best_apply = min(best_apply, result["applyMs"])
                best_parse = min(best_parse, result["parseMs"] * args.every)
                best_floor = min(best_floor, result["floorMs"] * args.every)
            version = browser.version
            browser.close()
    finally:
        server.shutdown()
        server.server_close()

    ratio = best_parse / best_apply
    print(
        f"Chromium {version}: one {len(text) / 1e6:.2f} MB argument in {len(fragments)} "
        f"fragments of {args.chunk} characters, best of {args.repeats}"
    )
    print("| page | main-thread time |\n|---|---:|")
    print(f"| jsondrip.js applyChanges (each frame: JSON.parse + apply) | {best_apply:.0f} ms |")
    print(
        f"| re-parse: JSON.parse + repair of the whole text per fragment | "
        f"~{best_parse / 1000:.1f} s (sampled every {args.every}th, scaled) |"
    )
    print(
        "| floor of re-parsing: one JSON.parse of the text closed by hand, no repair | "
        f"~{best_floor / 1000:.1f} s (sampled the same way) |"
    )
    print(f"floor / jsondrip.js: {best_floor / best_apply:.0f}x")
    verdict = "pass" if ratio >= TARGET else "FAIL"
    print(f"ratio: {ratio:.0f}x (target >= {TARGET:.0f}x): {verdict}")
    return 0 if ratio >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
