// Tool-call arguments drawn for a reader, as the terminal's live view draws them
// (jsondrip/cli/readable.py): the JSON structure indented, every multi-line string shown as the
// text it is (real line breaks, between `"""` fences, one step deeper than its key) and
// highlighted as code when its key or a sibling says the language (`"path": "x.py"`,
// `"language": "sql"`, a key named `python`, a `#!` line). Single-line strings stay JSON
// strings. Control characters in a text block are shown as their pictures (U+2400...).
//
//   import { renderArguments } from "./readable.js";
//   pre.replaceChildren(renderArguments(call.arguments, document));
//
// `readableRuns(value)` gives the drawing as [text, kind] runs: kind "" for plain text, else
// key, string, number, literal, fence, or in a text block keyword, comment, code-string,
// code-number, tag, added, removed, heading. `renderArguments` makes them text nodes and
// <span class="j-KIND"> elements (textContent only: a model's text is never read as HTML).

const INDENT = 2;
const FENCE = '"""';
const PATH_KEYS = ["path", "file", "file_path", "filepath", "filename", "file_name", "target_file"];
const LANGUAGE_KEYS = ["language", "lang"];
// keys that are themselves a language's name (`{"sql": "SELECT ..."}`), as readable.py's
const LANGUAGE_NAMES = new Set([
  "python", "javascript", "typescript", "js", "ts", "sql", "html", "css", "bash", "sh", "shell",
  "zsh", "json", "yaml", "toml", "markdown", "diff", "patch", "rust", "go", "java", "c", "cpp",
  "ruby", "php", "xml",
]);

const words = (text) => new Set(text.split(" "));
const C_LIKE = { line: ["//"], block: [["/*", "*/"]], strings: ['"', "'", "`"] };
const JS_WORDS =
  "async await break case catch class const continue debugger default delete do else export " +
  "extends false finally for from function if import in instanceof let new null of return " +
  "static super switch this throw true try typeof undefined var void while with yield";
const C_WORDS =
  "auto break case char const continue default do double else enum extern float for goto if " +
  "inline int long register return short signed sizeof static struct switch typedef union " +
  "unsigned void volatile while";
// How each language's text is cut into tokens: comments, strings, keywords (or a line-based
// or markup reading). A small reading, not a parser: enough to tell code from its words.
const LANGUAGES = {
  python: {
    line: ["#"],
    strings: ['"""', "'''", '"', "'"],
    keywords: words(
      "False None True and as assert async await break class continue def del elif else " +
        "except finally for from global if import in is lambda nonlocal not or pass raise " +
        "return try while with yield match case self",
    ),
  },
  javascript: { ...C_LIKE, keywords: words(JS_WORDS) },
  typescript: {
    ...C_LIKE,
    keywords: words(
      JS_WORDS + " interface type enum implements private public protected readonly abstract " +
        "declare namespace as keyof",
    ),
  },
  shell: {
    line: ["#"],
    strings: ['"', "'"],
    keywords: words(
      "if then else elif fi for while until do done case esac in function return export " +
        "local readonly exit set unset shift source",
    ),
  },
  sql: {
    line: ["--"],
    block: [["/*", "*/"]],
    strings: ["'", '"'],
    nocase: true,
    keywords: words(
      "select from where and or not insert into values update set delete create table alter " +
        "drop index join left right inner outer full on group by order having limit offset as " +
        "distinct union all null is in like between case when then else end primary key " +
        "references default with returning exists asc desc",
    ),
  },
  css: { block: [["/*", "*/"]], strings: ['"', "'"], keywords: words("important") },
  json: { strings: ['"'], keywords: words("true false null") },
  yaml: { line: ["#"], strings: ['"', "'"], keywords: words("true false null yes no") },
  toml: { line: ["#"], strings: ['"""', "'''", '"', "'"], keywords: words("true false") },
  rust: {
    ...C_LIKE,
    strings: ['"'],
    keywords: words(
      "as async await break const continue crate dyn else enum extern false fn for if impl in " +
        "let loop match mod move mut pub ref return self Self static struct super trait true " +
        "type unsafe use where while",
    ),
  },
  go: {
    ...C_LIKE,
    keywords: words(
      "break case chan const continue default defer else fallthrough for func go goto if " +
        "import interface map package range return select struct switch type var nil true false",
    ),
  },
  java: {
    ...C_LIKE,
    keywords: words(
      "abstract boolean break byte case catch char class continue default do double else enum " +
        "extends final finally float for if implements import instanceof int interface long " +
        "new null package private protected public return short static super switch this " +
        "throw throws true false try void while var",
    ),
  },
  c: { ...C_LIKE, keywords: words(C_WORDS + " include define ifdef ifndef endif") },
  cpp: {
    ...C_LIKE,
    keywords: words(
      C_WORDS + " include define class namespace template typename public private protected " +
        "virtual new delete this true false nullptr using try catch throw operator auto",
    ),
  },
  ruby: {
    line: ["#"],
    strings: ['"', "'"],
    keywords: words(
      "begin class def do else elsif end ensure false for if in module next nil not or and " +
        "redo rescue retry return self super then true undef unless until when while yield " +
        "require",
    ),
  },
  php: {
    ...C_LIKE,
    line: ["//", "#"],
    keywords: words(
      "echo function if else elseif return class public private protected new foreach as " +
        "while for array null true false use namespace",
    ),
  },
  html: { markup: true },
  xml: { markup: true },
  diff: { lines: "diff" },
  markdown: { lines: "markdown" },
};
const ALIASES = {
  py: "python", python3: "python", py3: "python", js: "javascript", node: "javascript",
  jsx: "javascript", mjs: "javascript", ts: "typescript", tsx: "typescript", sh: "shell",
  bash: "shell", zsh: "shell", console: "shell", postgresql: "sql", mysql: "sql", sqlite: "sql",
  htm: "html", svg: "xml", yml: "yaml", md: "markdown", patch: "diff", rs: "rust",
  golang: "go", h: "c", "c++": "cpp", cc: "cpp", cxx: "cpp", hpp: "cpp", rb: "ruby",
};
const EXTENSIONS = {
  py: "python", pyi: "python", js: "javascript", mjs: "javascript", cjs: "javascript",
  jsx: "javascript", ts: "typescript", tsx: "typescript", sh: "shell", bash: "shell",
  zsh: "shell", sql: "sql", html: "html", htm: "html", xml: "xml", svg: "xml", css: "css",
  json: "json", yaml: "yaml", yml: "yaml", toml: "toml", md: "markdown", markdown: "markdown",
  diff: "diff", patch: "diff", rs: "rust", go: "go", java: "java", c: "c", h: "c", cpp: "cpp",
  cc: "cpp", cxx: "cpp", hpp: "cpp", hh: "cpp", rb: "ruby", php: "php",
};

const byName = (name) => {
  const found = ALIASES[name] ?? name;
  return Object.prototype.hasOwnProperty.call(LANGUAGES, found) ? found : null;
};

/** The language a string at `key` is written in, as its key, its siblings or a `#!` line say
 * (readable.py's `language_of`), or null for plain text. */
export function languageOf(key, text, siblings) {
  const others = siblings && typeof siblings === "object" && !Array.isArray(siblings) ? siblings : {};
  for (const name of LANGUAGE_KEYS) {
    const value = others[name];
    if (typeof value === "string" && value && byName(value.toLowerCase())) return byName(value.toLowerCase());
  }
  for (const name of PATH_KEYS) {
    const value = others[name];
    if (typeof value !== "string") continue;
    const base = value.split("/").pop();
    if (!base.includes(".")) continue;
    const found = EXTENSIONS[base.split(".").pop().toLowerCase()];
    if (found) return found;
  }
  if (typeof key === "string" && LANGUAGE_NAMES.has(key.toLowerCase())) return byName(key.toLowerCase());
  if (text.startsWith("#!")) {
    const parts = text.slice(2).split("\n", 1)[0].trim().split(/\s+/);
    let program = (parts[0] || "").split("/").pop();
    if (program === "env" && parts.length > 1) program = parts[1];
    return program ? byName(program.replace(/[0-9.]+$/, "")) : null;
  }
  return null;
}

/** `text` safe to draw: CRLF as a line break, other control characters as their pictures
 * (U+2400...), lone surrogates as `\udXXX`; line breaks and tabs kept (readable.py's). */
export function visibleText(text) {
  return text.replaceAll("\r\n", "\n").replace(
    /[\x00-\x08\x0b-\x1f\x7f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    (ch) => {
      const code = ch.charCodeAt(0);
      if (code < 0x20) return String.fromCharCode(0x2400 + code);
      if (code === 0x7f) return "\u2421";
      return "\\u" + code.toString(16).padStart(4, "0");
    },
  );
}

const IDENT = /[A-Za-z_$][\w$]*/y;
const NUMBER = /[0-9][\w.]*/y;

function startsAt(text, at, options) {
  return options?.find((token) => text.startsWith(token, at));
}

// The runs of code in one of LANGUAGES: comments, strings, keywords, numbers, the rest plain.
function codeRuns(text, language) {
  const spec = LANGUAGES[language];
  if (spec.lines) return lineRuns(text, spec.lines);
  if (spec.markup) return markupRuns(text);
  const runs = [];
  let plain = "";
  const push = (piece, kind) => {
    if (plain) runs.push([plain, ""]);
    plain = "";
    runs.push([piece, kind]);
  };
  let at = 0;
  while (at < text.length) {
    const line = startsAt(text, at, spec.line);
    if (line) {
      const end = text.indexOf("\n", at);
      const stop = end < 0 ? text.length : end;
      push(text.slice(at, stop), "comment");
      at = stop;
      continue;
    }
    const block = spec.block?.find(([open]) => text.startsWith(open, at));
    if (block) {
      const end = text.indexOf(block[1], at + block[0].length);
      const stop = end < 0 ? text.length : end + block[1].length;
      push(text.slice(at, stop), "comment");
      at = stop;
      continue;
    }
    const quote = startsAt(text, at, spec.strings);
    if (quote) {
      let end = at + quote.length;
      while (end < text.length && !text.startsWith(quote, end)) {
        if (quote.length === 1 && text[end] === "\n") break; // an unclosed one-line string
        end += text[end] === "\\" ? 2 : 1;
      }
      const stop = Math.min(text.length, text.startsWith(quote, end) ? end + quote.length : end);
      push(text.slice(at, stop), "code-string");
      at = stop;
      continue;
    }
    IDENT.lastIndex = at;
    const word = IDENT.exec(text);
    if (word) {
      const name = spec.nocase ? word[0].toLowerCase() : word[0];
      if (spec.keywords?.has(name)) push(word[0], "keyword");
      else plain += word[0];
      at += word[0].length;
      continue;
    }
    NUMBER.lastIndex = at;
    const number = NUMBER.exec(text);
    if (number) {
      push(number[0], "code-number");
      at += number[0].length;
      continue;
    }
    plain += text[at];
    at += 1;
  }
  if (plain) runs.push([plain, ""]);
  return runs;
}

// Markup (HTML, XML): comments and tags.
function markupRuns(text) {
  const runs = [];
  const pattern = /<!--[\s\S]*?(?:-->|$)|<[^<>]*>?/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) runs.push([text.slice(last, match.index), ""]);
    runs.push([match[0], match[0].startsWith("<!--") ? "comment" : "tag"]);
    last = match.index + match[0].length;
  }
  if (last < text.length) runs.push([text.slice(last), ""]);
  return runs;
}

// Line-based readings: a diff's added, removed and hunk lines; markdown's headings and fences.
function lineRuns(text, kind) {
  return text.split("\n").map((line, number, lines) => {
    const piece = number < lines.length - 1 ? line + "\n" : line;
    if (kind === "diff") {
      if (line.startsWith("@@") || line.startsWith("+++") || line.startsWith("---")) return [piece, "heading"];
      if (line.startsWith("+")) return [piece, "added"];
      if (line.startsWith("-")) return [piece, "removed"];
      return [piece, ""];
    }
    if (/^#{1,6}\s/.test(line)) return [piece, "heading"];
    if (line.startsWith("```")) return [piece, "comment"];
    return [piece, ""];
  });
}

class Writer {
  constructor() {
    this.runs = [];
  }

  write(text, kind = "") {
    if (!text) return;
    const last = this.runs[this.runs.length - 1];
    if (last && last[1] === kind) last[0] += text;
    else this.runs.push([text, kind]);
  }

  // `text` between fences, each of its lines indented one step more than its key at `indent`.
  block(text, language, indent) {
    this.write(FENCE, "fence");
    this.write("\n");
    const shown = visibleText(text);
    const pad = " ".repeat(indent + INDENT);
    this.write(pad);
    const runs = language ? codeRuns(shown, language) : [[shown, ""]];
    for (const [piece, kind] of runs) {
      const lines = piece.split("\n");
      lines.forEach((line, number) => {
        if (number > 0) {
          this.write("\n");
          this.write(pad);
        }
        this.write(line, kind);
      });
    }
    this.write("\n" + " ".repeat(indent));
    this.write(FENCE, "fence");
  }
}

function draw(out, value, indent, key, siblings) {
  if (Array.isArray(value) && value.length) {
    out.write("[\n");
    value.forEach((item, number) => {
      out.write(" ".repeat(indent + INDENT));
      draw(out, item, indent + INDENT, null, null);
      out.write(number < value.length - 1 ? ",\n" : "\n");
    });
    out.write(" ".repeat(indent) + "]");
  } else if (value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length) {
    const names = Object.keys(value);
    out.write("{\n");
    names.forEach((name, number) => {
      out.write(" ".repeat(indent + INDENT));
      out.write(JSON.stringify(name), "key");
      out.write(": ");
      draw(out, value[name], indent + INDENT, name, value);
      out.write(number < names.length - 1 ? ",\n" : "\n");
    });
    out.write(" ".repeat(indent) + "}");
  } else if (typeof value === "string") {
    if (value.includes("\n")) out.block(value, languageOf(key, value, siblings), indent);
    else out.write(JSON.stringify(value), "string");
  } else if (typeof value === "number") {
    out.write(JSON.stringify(value), "number");
  } else if (typeof value === "boolean" || value === null) {
    out.write(String(value), "literal");
  } else {
    out.write(JSON.stringify(value)); // an empty object or array
  }
}

/** The arguments drawn as [text, kind] runs (see the module's head). */
export function readableRuns(value) {
  const out = new Writer();
  try {
    draw(out, value, 0, null, null);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return [["(nested too deep to draw)", "comment"]];
  }
  return out.runs;
}

/** The arguments drawn as a DocumentFragment of text nodes and `<span class="j-KIND">`. */
export function renderArguments(value, doc = globalThis.document) {
  const fragment = doc.createDocumentFragment();
  for (const [text, kind] of readableRuns(value)) {
    if (!kind) {
      fragment.append(doc.createTextNode(text));
      continue;
    }
    const span = doc.createElement("span");
    span.className = `j-${kind}`;
    span.textContent = text;
    fragment.append(span);
  }
  return fragment;
}
