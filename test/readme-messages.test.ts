// README 就是 verify 要比的东西：每章场景的转录里，以「警告: 」「错误: 」开头、在这一章第一次出现的那类行，
// 这一章的 README 里都要能找到原话。前面某章早就会说的行（继承来的行为）归那一章的 README 管。
//
// 怎么算“原话”：一行拆成固定的措辞和变量部分。变量部分是 harness 拼进去的东西——数字和带数字的词（秒数、次数、
// HTTP 状态码、会话 id）、"…" 引号里的名字、JSON 值、路径、「现在是」「收到的是」「服务端说：」「模型服务出错（HTTP N）：」
// 「没有按流式回答（content-type: …）：」后面那段用户或服务端给的原话、系统错误（EISDIR: …、spawn … ENOENT）、「的工具」「换成的名字」后面的工具名。
// 固定的措辞一个字都不能差；变量部分在 README 里可以写成别的值（同一种：数字还是数字、路径还是路径），也可以写成 …。
// 只差变量部分的几行算同一类，README 写出一行就够；“新”也按类算：一类行在前面哪一章的转录里出现过，就不是这一章新的。
// 只看行首的「警告: 」「错误: 」：模型在回答里转述工具结果的那些行是脚本写的，不是 harness 说的。
// 不跑场景，只读 expected*.txt（本章目录下的全部，连同本章对前面场景的改写）。
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { CHAPTERS, FIXTURES, ROOT, chapterDirs } from "../shared/scenario.ts";

type Kind = "num" | "quoted" | "json" | "path" | "said" | "syserr" | "name";

// README 里这种变量部分可以写成什么（或者 …）
const SHOWN: Record<Kind, string> = {
  num: String.raw`[A-Za-z0-9_.-]*\d[A-Za-z0-9_.-]*`,
  quoted: String.raw`"[^"]*"`,
  json: String.raw`[{\[].*?[}\]]|null`,
  path: String.raw`[^\s：:，。；（）"、]+`,
  said: String.raw`.+?`,
  syserr: String.raw`(?:spawn \S+ )?E[A-Z]{2,}\b.*?`,
  name: String.raw`\S+`,
};

// 行里的变量部分，按先后试：先认“原话”一类整段的，再认零碎的
const SAID = /(?<=现在是 |收到的是 |服务端说：|模型服务出错（HTTP \d+）：|没有按流式回答（content-type: [^）]*）：|MCP 错误 -?\d+: |不是 JSON，跳过：|不是合法 JSON：).+?(?=，|（|）|——|$)/y;
const SYSERR = /(?:spawn \S+ E[A-Z]{2,}|E[A-Z]{2,}: [a-z][^，。）]*)/y;
const NAME = /(?<=的工具 |换成的名字 )\S+/y;
const QUOTED = /"[^"]*"/y;
const PATHLIKE = /[^\s：:，。；（）"、]*\/[^\s：:，。；（）"、]*/y;
const NUM = /[A-Za-z0-9_.-]*\d[A-Za-z0-9_.-]*/y;

// 从 at 起的一段 JSON（对象或数组，括号配平，引号里的不算）；不是就返回 0
function jsonLength(line: string, at: number): number {
  const open = line[at];
  if (!((open === "{" && line[at + 1] === '"') || (open === "[" && /["\]\d{]/.test(line[at + 1] ?? "")))) return 0;
  let depth = 0;
  let inString = false;
  for (let i = at; i < line.length; i++) {
    const c = line[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") if (--depth === 0) return i + 1 - at;
  }
  return 0;
}

interface Piece {
  kind?: Kind; // 没有 kind 就是固定的措辞
  text: string;
}

// 带数字的词、路径只从词的开头认：不把 mcp__evil____0_PWNED 这种名字拆开
const wordStart = (line: string, at: number) => at === 0 || !/[A-Za-z0-9_.$~-]/.test(line[at - 1]);

// 从 at 起是不是一段变量部分，是就返回它
function variableAt(line: string, at: number): Piece | undefined {
  const sticky = (re: RegExp) => {
    re.lastIndex = at;
    return re.exec(line)?.[0] ?? "";
  };
  const json = jsonLength(line, at);
  const tries: [Kind, () => string][] = [
    ["said", () => sticky(SAID)],
    ["syserr", () => sticky(SYSERR)],
    ["name", () => sticky(NAME)],
    ["json", () => line.slice(at, at + json)],
    ["quoted", () => sticky(QUOTED)],
    ["path", () => (wordStart(line, at) && /[.$~]/.test(sticky(PATHLIKE)) ? sticky(PATHLIKE) : "")],
    ["num", () => (wordStart(line, at) ? sticky(NUM) : "")],
  ];
  for (const [kind, text] of tries) {
    const t = text();
    if (t) return { kind, text: t };
  }
  return undefined;
}

export function pieces(line: string): Piece[] {
  const out: Piece[] = [];
  let fixed = "";
  for (let at = 0; at < line.length; ) {
    const v = variableAt(line, at);
    if (!v) {
      fixed += line[at++];
      continue;
    }
    if (fixed) out.push({ text: fixed });
    fixed = "";
    out.push(v);
    at += v.text.length;
  }
  if (fixed) out.push({ text: fixed });
  return out;
}

// 同一类行的钥匙：固定的措辞原样，变量部分换成 ‹种类›
export function messageKey(line: string): string {
  return pieces(line)
    .map((p) => (p.kind ? `‹${p.kind}›` : p.text))
    .join("");
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// README 里认这一类行的正则：固定的措辞逐字，变量部分是同一种的别的值或者 …
export function shownAs(line: string): RegExp {
  const body = pieces(line)
    .map((p) => (p.kind ? `(?:${SHOWN[p.kind]}|…)` : escape(p.text)))
    .join("");
  // 变量部分在行尾时，README 里它后面可能紧跟着反引号或句号：行尾不锚定，只要求开头和固定的措辞都对
  return new RegExp(body);
}

const MESSAGE = /^(警告|错误): /;

interface Said {
  line: string;
  where: string; // 哪个场景的哪份转录
}

// 某章目录下全部转录里的警告、错误行
function messagesOf(chapter: string): Said[] {
  const base = path.join(FIXTURES, chapter);
  if (!fs.existsSync(base)) return [];
  const out: Said[] = [];
  for (const scenario of fs.readdirSync(base).sort()) {
    const dir = path.join(base, scenario);
    if (!fs.statSync(dir).isDirectory()) continue;
    for (const file of fs.readdirSync(dir).filter((f) => /^expected(\.[\w-]+)?\.txt$/.test(f)).sort()) {
      for (const line of fs.readFileSync(path.join(dir, file), "utf8").split("\n")) {
        if (MESSAGE.test(line)) out.push({ line, where: `${scenario}/${file}` });
      }
    }
  }
  return out;
}

// 这一章新的每一类行各取一个例子
function newMessages(chapter: string): Said[] {
  const earlier = new Set(chapterDirs().filter((c) => c < chapter).flatMap((c) => messagesOf(c).map((m) => messageKey(m.line))));
  const seen = new Map<string, Said>();
  for (const m of messagesOf(chapter)) {
    const key = messageKey(m.line);
    if (!earlier.has(key) && !seen.has(key)) seen.set(key, m);
  }
  return [...seen.values()];
}

// README 里找不到的那些（每类一个例子）
export function missingFrom(chapter: string, readme: string): Said[] {
  const lines = readme.replace(/\r\n/g, "\n").split("\n");
  return newMessages(chapter).filter((m) => {
    const re = shownAs(m.line);
    return !lines.some((l) => re.test(l));
  });
}

function report(chapter: string, missing: Said[]): string {
  const list = missing.map((m) => `  ${m.line}\n    （${m.where}）`).join("\n");
  return `chapters/${chapter}/README.md 里找不到这一章新的 ${missing.length} 类警告、错误行（verify 要逐字比它们，读者照 README 写就该写得出）：\n${list}\n` +
    `在讲这个行为的地方（常常是「测试会检查什么」）用一行写出它的原话；变量部分（数字、路径、引号里的名字、用户给的值）可以写成 …`;
}

describe("README 写出本章新的警告、错误行", () => {
  it("一行怎么拆：固定的措辞逐字比，变量部分可以写成别的值或 …", () => {
    const line = "错误: HARNESS_RETRIES 要是不小于 0 的整数，现在是 很多";
    assert.equal(messageKey(line), "错误: HARNESS_RETRIES 要是不小于 ‹num› 的整数，现在是 ‹said›");
    assert.match("- 一行 `错误: HARNESS_RETRIES 要是不小于 0 的整数，现在是 …`", shownAs(line));
    assert.match("错误: HARNESS_RETRIES 要是不小于 0 的整数，现在是 abc", shownAs(line));
    assert.doesNotMatch("错误: HARNESS_RETRIES 要是不小于 0 的整数，现在 是 很多", shownAs(line));
    assert.doesNotMatch("错误: HARNESS_RETRIES 要是 0 以上的整数，现在是 很多", shownAs(line));
    const retry = "警告: 模型服务出错（HTTP 503）：The server had an error while processing your request——约 0.2 秒后重试（第 3/3 次）";
    assert.equal(messageKey(retry), "警告: 模型服务出错（HTTP ‹num›）：‹said›——约 ‹num› 秒后重试（第 ‹num›/‹num› 次）");
    assert.match("警告: 模型服务出错（HTTP 500）：…——约 0.1 秒后重试（第 1/3 次）", shownAs(retry));
    assert.doesNotMatch("警告: 模型服务出错（HTTP 500）：…——约 0.1 秒后重试（第 一/3 次）", shownAs(retry)); // 数字的位置不能写字
    const path8 = "错误: ../escape.txt 在工作目录之外（实际指向 $TMP/escape.txt），不能写";
    assert.equal(messageKey(path8), "错误: ‹path› 在工作目录之外（实际指向 ‹path›），不能写");
  });

  // 证明它会失败：第 11 章的 README 在 9288ec1 时还没有这两行（issue 22）
  it("认得出缺的行：9288ec1 的第 11 章 README 缺 HARNESS_RETRIES 那行和超时的警告", (t) => {
    let old: string;
    try {
      old = execFileSync("git", ["show", "9288ec1:chapters/11-retry/README.md"], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    } catch {
      t.skip("这份副本里没有 9288ec1（浅克隆？）");
      return;
    }
    const missing = missingFrom("11-retry", old).map((m) => m.line);
    assert.ok(missing.some((l) => l.startsWith("错误: HARNESS_RETRIES 要是不小于 0 的整数，现在是 ")), missing.join("\n"));
    assert.ok(missing.some((l) => /^警告: 模型服务 \d+ 秒内没有回答完（HARNESS_TIMEOUT_MS）/.test(l)), missing.join("\n"));
  });

  for (const chapter of chapterDirs()) {
    it(chapter, () => {
      const file = path.join(CHAPTERS, chapter, "README.md");
      const missing = missingFrom(chapter, fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "");
      if (missing.length) assert.fail(report(chapter, missing));
    });
  }
});
