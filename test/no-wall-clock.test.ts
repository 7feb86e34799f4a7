// 测试不量墙钟（CURRICULUM：No timing that a slow machine breaks）。扫 test/、shared/ 下的 .ts 和练习的检查器，找两种写法：
//   读钟比大小：Date.now()、performance.now()、process.hrtime、new Date() 的读数（或由它算出来的量）和别的数比；
//   固定的短等待：setTimeout/setInterval/delay/sleep 等不到 10 秒，拿来当“等事情发生”。
// 先后和取消要靠构造证明（脚本模型说它收到了请求、工具写文件说它开始了），时限只防卡死、而且留足 5 倍。
// 真有理由的几处（每次都重查条件的轮询、卡死保护）在那一行或紧挨着的上面几行注释里写“clock-ok: 理由”。
// bench/（基准本来就是量时间）、各章代码和时间服务器（它们的超时是功能）不扫。
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { ROOT } from "../shared/scenario.ts";

const SLEEP_LIMIT_MS = 10_000; // 短于它的固定等待算“睡一会儿”；卡死保护至少这么长（还得按实测留足 5 倍）
const MARKER = "clock-ok:";

interface Finding {
  line: number; // 从 1 数
  rule: "读钟比大小" | "固定等待" | "标记没写理由";
  text: string; // 那一行源码（去掉首尾空白）
  reason?: string; // 有 clock-ok 标记时的理由
}

// 把字符串、模板字面量的文字部分、正则字面量和注释换成空格（行列不变），注释的文字按行另存
function blank(src: string): { code: string; comments: string[] } {
  const out = src.split("");
  const comments: string[] = [];
  const lineOf = (i: number) => src.slice(0, i).split("\n").length - 1;
  const wipe = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== "\n") out[k] = " ";
  };
  const templates: number[] = []; // 模板字面量里 ${ 的嵌套：每层记着它里面的大括号深度
  let i = 0;
  let last = ""; // 上一个有意义的代码字符：判断 / 是除号还是正则的开头
  let lastWord = "";
  const scanTemplate = (start: number) => {
    // 从 start（反引号之后，或 } 之后）读到反引号或 ${
    let j = start;
    while (j < src.length && src[j] !== "`" && !(src[j] === "$" && src[j + 1] === "{")) j += src[j] === "\\" ? 2 : 1;
    wipe(start, j);
    if (src[j] === "`") return j + 1;
    templates.push(0);
    return j + 2;
  };
  while (i < src.length) {
    const c = src[i];
    const d = src[i + 1];
    if (c === "/" && d === "/") {
      const end = src.indexOf("\n", i) === -1 ? src.length : src.indexOf("\n", i);
      comments[lineOf(i)] = (comments[lineOf(i)] ?? "") + src.slice(i + 2, end);
      wipe(i, end);
      i = end;
      continue;
    }
    if (c === "/" && d === "*") {
      const end = src.indexOf("*/", i + 2) === -1 ? src.length : src.indexOf("*/", i + 2) + 2;
      src
        .slice(i + 2, end - 2)
        .split("\n")
        .forEach((part, k) => (comments[lineOf(i) + k] = (comments[lineOf(i) + k] ?? "") + part));
      wipe(i, end);
      i = end;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < src.length && src[j] !== c && src[j] !== "\n") j += src[j] === "\\" ? 2 : 1;
      wipe(i + 1, j);
      i = j + 1;
      last = c;
      continue;
    }
    if (c === "`") {
      i = scanTemplate(i + 1);
      last = "`";
      continue;
    }
    if (c === "/" && (/[(,=:[!&|?{};+\-*%<>~^]/.test(last) || last === "" || /^(return|typeof|case|in|of|else|void|delete|throw|new|await|yield)$/.test(lastWord))) {
      // 正则字面量：读到不在 [...] 里、没转义的 /，再跳过标志
      let j = i + 1;
      let inClass = false;
      while (j < src.length && src[j] !== "\n" && (inClass || src[j] !== "/")) {
        if (src[j] === "\\") j++;
        else if (src[j] === "[") inClass = true;
        else if (src[j] === "]") inClass = false;
        j++;
      }
      if (src[j] === "/") {
        wipe(i + 1, j);
        i = j + 1;
        while (/[a-z]/i.test(src[i] ?? "")) i++;
        last = "/";
        continue;
      }
    }
    if (templates.length > 0) {
      if (c === "{") templates[templates.length - 1]++;
      if (c === "}") {
        if (templates[templates.length - 1] === 0) {
          templates.pop();
          i = scanTemplate(i + 1);
          last = "`";
          continue;
        }
        templates[templates.length - 1]--;
      }
    }
    if (/[\w$]/.test(c)) {
      let j = i;
      while (j < src.length && /[\w$]/.test(src[j])) j++;
      lastWord = src.slice(i, j);
      last = src[j - 1];
      i = j;
      continue;
    }
    if (!/\s/.test(c)) {
      last = c;
      lastWord = "";
    }
    i++;
  }
  return { code: out.join(""), comments };
}

const CLOCK = /\b(?:Date\.now|performance\.now)\s*\(|\bprocess\.hrtime\b|\bhrtime(?:\.bigint)?\s*\(|\bnew\s+Date\s*\(\s*\)/;

// 读钟得来的数：读钟，或者由它们加减乘除出来的量（new Date().toISOString() 那样拿去取日期的不算）
const CLOCK_NUMBER = /\b(?:Date\.now|performance\.now|process\.hrtime\.bigint)\s*\(\s*\)|\bnew\s+Date\s*\(\s*\)\s*\.\s*(?:getTime|valueOf)\s*\(\s*\)/g;
const numeric = (rhs: string) => /^[\w$\s+\-*/%(),]*$/.test(rhs.replace(CLOCK_NUMBER, "CLOCK").replace(/\bMath\./g, ""));

// 读钟得来的变量：等号右边是读钟或这样的变量的算术（一个文件里按名字算，反复传到不再变）
function clockNames(code: string): Set<string> {
  const names = new Set<string>();
  const assignments = [...code.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*)\s*(?::[^=\n;]+)?=(?![=>])([^;\n]*)/g)].map((m) => [m[1], m[2]] as const);
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, rhs] of assignments) {
      if (names.has(name) || !numeric(rhs)) continue;
      if (new RegExp(CLOCK_NUMBER.source).test(rhs) || [...names].some((n) => mentions(rhs, n))) {
        names.add(name);
        changed = true;
      }
    }
  }
  return names;
}

function mentions(text: string, name: string): boolean {
  return new RegExp(`(?<![\\w$.])${name.replace(/\$/g, "\\$")}(?![\\w$])`).test(text);
}

// 比较运算符两边的操作数：往两头读，括号配平，遇到逗号、分号、换行、&&、||、?、: 或者没配上的括号就停
function operands(code: string, at: number, width: number): [string, string] {
  let depth = 0;
  let j = at - 1;
  for (; j >= 0; j--) {
    const c = code[j];
    if (c === ")" || c === "]") depth++;
    else if (c === "(" || c === "[" || c === "{") {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0 && (/[,;\n?:}]/.test(c) || ((c === "&" || c === "|") && code[j - 1] === c) || (c === "=" && !/[=!<>]/.test(code[j - 1] ?? "") && code[j + 1] !== "="))) break;
  }
  const left = code.slice(j + 1, at);
  depth = 0;
  let k = at + width;
  for (; k < code.length; k++) {
    const c = code[k];
    if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]" || c === "}") {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0 && (/[,;\n?:{]/.test(c) || ((c === "&" || c === "|") && code[k + 1] === c))) break;
  }
  return [left, code.slice(at + width, k)];
}

// 表达式是不是一个写死的毫秒数：数字（可以带 _），或者数字的四则运算；名字按本文件里的 const 常量代换
function fixedMs(expr: string, constants: Map<string, string>): number | undefined {
  let e = expr.trim();
  for (let n = 0; n < 5 && /[A-Za-z_$]/.test(e); n++) e = e.replace(/[A-Za-z_$][\w$]*/g, (w) => (constants.has(w) ? `(${constants.get(w)})` : w));
  e = e.replace(/(\d)_(?=\d)/g, "$1");
  if (!/^[\d.\s*+\-/()]+$/.test(e) || !/\d/.test(e)) return undefined;
  try {
    const v = Function(`"use strict"; return (${e});`)();
    return typeof v === "number" && Number.isFinite(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

// 从 open（左括号的位置）起按顶层逗号切开参数
function callArgs(code: string, open: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let from = open + 1;
  for (let k = open + 1; k < code.length; k++) {
    const c = code[k];
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") {
      if (depth === 0) {
        args.push(code.slice(from, k));
        break;
      }
      depth--;
    } else if (c === "," && depth === 0) {
      args.push(code.slice(from, k));
      from = k + 1;
    }
  }
  return args.filter((a, n) => n < args.length - 1 || a.trim() !== ""); // 去掉尾随逗号留下的空参数
}

function scan(src: string): Finding[] {
  const { code, comments } = blank(src);
  const lines = src.split("\n");
  const codeLines = code.split("\n");
  const lineAt = (index: number) => code.slice(0, index).split("\n").length; // 从 1 数
  const found = new Map<string, Finding>();
  const report = (index: number, rule: Finding["rule"]) => {
    const line = lineAt(index);
    if (!found.has(`${line} ${rule}`)) found.set(`${line} ${rule}`, { line, rule, text: lines[line - 1].trim() });
  };

  // (1) 读钟比大小
  const names = clockNames(code);
  for (const m of code.matchAll(/(?<![<>=!])(<=|>=|<|>)(?![<>=])/g)) {
    if (m[1] === ">" && code[m.index - 1] === "=") continue; // 箭头函数
    const [left, right] = operands(code, m.index, m[1].length);
    const clocky = (side: string) => CLOCK.test(side) || [...names].some((n) => mentions(side, n));
    if (clocky(left) || clocky(right)) report(m.index, "读钟比大小");
  }

  // (2) 固定的短等待：全局的 setTimeout/setInterval 第二个参数是毫秒，timers/promises 的 setTimeout（常改名叫 delay）和 sleep 是第一个
  const msArg = new Map<string, number>([
    ["setTimeout", 1],
    ["setInterval", 1],
    ["delay", 0],
    ["sleep", 0],
  ]);
  for (const imp of code.matchAll(/import\s*\{([^}]*)\}\s*from\s*["'`]\s*/g)) {
    const from = src.slice(imp.index + imp[0].length - 1, src.indexOf("\n", imp.index));
    if (!/^["'](node:)?timers\/promises["']/.test(from)) continue;
    for (const part of imp[1].split(",")) {
      const [orig, alias] = part.trim().split(/\s+as\s+/);
      if (orig === "setTimeout" || orig === "setInterval") msArg.set(alias ?? orig, 0);
    }
  }
  const constants = new Map([...code.matchAll(/\bconst\s+([A-Za-z_$][\w$]*)\s*(?::\s*number\s*)?=\s*([\d_.\s*+\-/()]+)[;\n]/g)].map((m) => [m[1], m[2]] as const));
  for (const m of code.matchAll(/(?<![\w$.])(?:(?:globalThis|timers|scheduler)\.)?([A-Za-z_$][\w$]*)\s*\(/g)) {
    const name = m[0].startsWith("scheduler.") && m[1] === "wait" ? "delay" : m[1];
    const at = msArg.get(name);
    if (at === undefined || (m[0].includes(".") && !m[0].startsWith("scheduler.") && !m[0].startsWith("globalThis.") && !m[0].startsWith("timers."))) continue;
    if (/\bfunction\s*$/.test(code.slice(Math.max(0, m.index - 20), m.index))) continue; // 自己定义的同名函数
    const args = callArgs(code, m.index + m[0].length - 1);
    const ms = args.length > at ? fixedMs(args[at], constants) : 0; // 不写毫秒数就是“下一轮事件循环”
    if (ms !== undefined && ms < SLEEP_LIMIT_MS) report(m.index, "固定等待");
  }

  // 标记：那一行，或紧挨在上面、只有注释的几行
  const result: Finding[] = [];
  for (const f of [...found.values()].sort((a, b) => a.line - b.line)) {
    const candidates = [f.line - 1];
    for (let k = f.line - 2; k >= 0 && codeLines[k].trim() === "" && comments[k] !== undefined; k--) candidates.push(k);
    const marked = candidates.map((k) => comments[k]).find((c) => c?.includes(MARKER));
    if (marked === undefined) {
      result.push(f);
      continue;
    }
    const reason = marked.slice(marked.indexOf(MARKER) + MARKER.length).trim();
    if ([...reason].length < 2) result.push({ ...f, rule: "标记没写理由" });
    else result.push({ ...f, reason });
  }
  return result;
}

// ---- 扫这个仓库 ----

function sources(): string[] {
  const inDir = (dir: string) =>
    fs
      .readdirSync(path.join(ROOT, dir))
      .filter((f) => f.endsWith(".ts"))
      .map((f) => `${dir}/${f}`);
  const exercises = fs
    .readdirSync(path.join(ROOT, "exercises"), { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(ROOT, "exercises", e.name, "check.ts")))
    .map((e) => `exercises/${e.name}/check.ts`);
  return [...inDir("test"), ...inDir("shared"), "exercises/checker.ts", ...exercises].sort();
}

describe("测试不量墙钟", () => {
  const files = sources();

  it("扫到了该扫的文件", () => {
    for (const f of ["test/scripted-model.test.ts", "shared/scripted-model.ts", "shared/scenario.ts", "exercises/checker.ts", "test/no-wall-clock.test.ts"]) assert.ok(files.includes(f), f);
    assert.ok(files.some((f) => /^exercises\/[^/]+\/check\.ts$/.test(f)));
  });

  it("test/、shared/、练习检查器里没有读钟比大小、没有不到 10 秒的固定等待（clock-ok 标记的除外）", (t) => {
    const offenders: string[] = [];
    for (const file of files) {
      for (const f of scan(fs.readFileSync(path.join(ROOT, file), "utf8"))) {
        const where = `${file}:${f.line}: ${f.rule}: ${f.text}`;
        if (f.reason !== undefined) t.diagnostic(`允许 ${file}:${f.line}：${f.reason}`);
        else offenders.push(where);
      }
    }
    assert.deepEqual(offenders, [], `量了墙钟（改成按事实等：脚本模型的 received/finished、工具写的文件、进程退出；真是卡死保护或轮询就写 // ${MARKER} 理由）：\n${offenders.join("\n")}`);
  });
});

describe("扫描器自己", () => {
  const rules = (src: string) => scan(src).map((f) => [f.line, f.rule, f.reason ?? null]);

  it("读钟比大小：直接比、算出来的变量再比、hrtime、跨行的断言", () => {
    assert.deepEqual(rules("const started = Date.now();\nawait client.close();\nassert.ok(Date.now() - started < 1500);"), [[3, "读钟比大小", null]]);
    assert.deepEqual(rules("const t0 = performance.now();\nawait work();\nconst elapsed = performance.now() - t0;\nassert.ok(elapsed >= 140, `只等了 ${elapsed} ms`);"), [[4, "读钟比大小", null]]);
    assert.deepEqual(rules("const t0 = process.hrtime.bigint();\nif (process.hrtime.bigint() - t0 > 5_000_000n) throw new Error();"), [[2, "读钟比大小", null]]);
    assert.deepEqual(rules("assert.ok(\n  Math.abs(Date.now() - then) <= 50,\n  \"太慢\",\n);"), [[2, "读钟比大小", null]]);
    assert.deepEqual(rules("while (Date.now() < deadline) {}"), [[1, "读钟比大小", null]]);
    assert.deepEqual(rules("const start = new Date().getTime();\nconst ms = Number(Date.now() - start);\nassert.ok(ms < 5);"), [[3, "读钟比大小", null]]);
  });

  it("固定等待：睡一会儿、隔一会儿再放弃、timers/promises 改名、常量、跨行的 setInterval、不写毫秒数", () => {
    assert.deepEqual(rules("await new Promise((r) => setTimeout(r, 50));"), [[1, "固定等待", null]]);
    assert.deepEqual(rules("const ac = new AbortController();\nsetTimeout(() => ac.abort(), 50);"), [[2, "固定等待", null]]);
    assert.deepEqual(rules('import { setTimeout as delay } from "node:timers/promises";\nawait delay(50);'), [[2, "固定等待", null]]);
    assert.deepEqual(rules("const GRACE_MS = 2 * 1000;\nawait new Promise((r) => setTimeout(r, GRACE_MS));"), [[2, "固定等待", null]]);
    assert.deepEqual(rules("const timer = setInterval(() => {\n  check();\n}, 20);"), [[1, "固定等待", null]]);
    assert.deepEqual(rules("await new Promise((r) => setTimeout(r));"), [[1, "固定等待", null]]);
    assert.deepEqual(rules("const timer = setTimeout(() => reject(new Error(`3 秒内没有答复`)), 3000);"), [[1, "固定等待", null]]);
  });

  it("不算：卡死保护（≥ 10 秒）、毫秒数是变量、只打印时长、字符串和注释和正则里的字、不读钟的比较、别人的 .setTimeout", () => {
    const clean = [
      "const limit = setTimeout(() => reject(new Error(`等不到${what}`)), 120_000);",
      "const timer = setTimeout(() => { timedOut = true; running.kill(); }, limit);",
      "const t0 = Date.now();\nawait run();\nt.diagnostic(`用了 ${Date.now() - t0} ms`);",
      'const from = "entry.timer = setTimeout(() => x, 50)";\nconst s = \'assert.ok(Date.now() - t0 < 5)\';',
      "// 以前是 await new Promise((r) => setTimeout(r, 50))，Date.now() - t0 < 1500\nawait m.received(1);",
      "/* setTimeout(r, 20) */ await m.finished(1);",
      "assert.match(out, /setTimeout\\(r, 50\\) \"<\" Date.now()/);",
      "const before = activeTimers();\nassert.ok(activeTimers() <= before);",
      "const today = new Date().toISOString().slice(0, 10);\nconst paths = { today };\nlet t = normalize(text, paths);\nif (t.length > 0) t += today;",
      "const list: Array<Promise<void>> = [];\nfor (let i = 0; i < n; i++) list.push(f(i));",
      "socket.setTimeout(500);\nchild.stdout.on(\"data\", (d) => (out += d));",
      "const s = `${a}${`嵌套 ${b} setTimeout(r, 5)`}`;\nconst ok = x => x > 0;",
    ];
    for (const src of clean) assert.deepEqual(rules(src), [], src);
  });

  it("clock-ok 标记：同一行或紧挨着的上面几行注释里，带着理由才算；理由空着要报", () => {
    assert.deepEqual(rules("const timer = setInterval(check, 20); // clock-ok: 轮询，每次都重查条件"), [[1, "固定等待", "轮询，每次都重查条件"]]);
    assert.deepEqual(rules("// 卡住的进程给它一点时间\n// clock-ok: 夹在前后两次读钟之间，机器越慢区间越宽\nassert.ok(shown >= before && shown <= Date.now());"), [[3, "读钟比大小", "夹在前后两次读钟之间，机器越慢区间越宽"]]);
    assert.deepEqual(rules("// clock-ok:\nawait new Promise((r) => setTimeout(r, 50));"), [[2, "标记没写理由", null]]);
    // 隔着一行代码的标记不管下面
    assert.deepEqual(rules("// clock-ok: 说的是下一行\nconst x = 1;\nawait new Promise((r) => setTimeout(r, 50));"), [[3, "固定等待", null]]);
  });

  it("扫描报告的行号就是源码里的行号（多行字符串、模板、注释之后也对）", () => {
    const src = "const a = `第一行\n第二行 ${x}\n第三行`;\n/* 注释\n还是注释 */\nconst t0 = Date.now();\nif (Date.now() - t0 > 10) fail();";
    assert.deepEqual(rules(src), [[7, "读钟比大小", null]]);
  });
});
