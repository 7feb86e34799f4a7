// 练习 05-1 的检查器：read_file 按行读。只有一个场景 checks/ranges：模型一口气发 14 个 read_file（顺序见 CALLS），
// 第二次请求带着它们的结果。不比对措辞：带行号的行按 cat -n 的样子解析（空格、行号、一个 Tab、内容），
// “接着读”那一行只看它是不是最后一行、有没有 offset 和下一个行号，错误只看是不是以“错误”开头、有没有说出那个数。
import { describe, toolResults, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

// 场景里 13 个调用的顺序（从 0 数）
const CALLS = {
  first: 0, // {"offset": 1}：默认 2000 行
  middle: 1, // {"offset": 2001, "limit": 3}
  oneLeft: 2, // {"offset": 4998, "limit": 2}：读完还剩最后一行
  last: 3, // {"offset": 5000, "limit": null}：正好是最后一行
  past: 4, // {"offset": 5001}
  zero: 5, // {"offset": 0}
  fraction: 6, // {"offset": 1.5}
  negative: 7, // {"limit": -2}
  text: 8, // {"offset": "10"}
  crlf: 9, // crlf.txt，{"limit": 10}
  long: 10, // long.txt，{"offset": 1}
  empty: 11, // empty.txt，{"offset": 1}
  whole: 12, // big.txt，只给 path
  wide: 13, // wide.txt（300 行、每行 1500 个字符），{"offset": 1}
} as const;
const ARGS = ['{"path": "big.txt", "offset": 1}', '{"path": "big.txt", "offset": 2001, "limit": 3}', '{"path": "big.txt", "offset": 4998, "limit": 2}', '{"path": "big.txt", "offset": 5000, "limit": null}', '{"path": "big.txt", "offset": 5001}', '{"path": "big.txt", "offset": 0}', '{"path": "big.txt", "offset": 1.5}', '{"path": "big.txt", "limit": -2}', '{"path": "big.txt", "offset": "10"}', '{"path": "crlf.txt", "limit": 10}', '{"path": "long.txt", "offset": 1}', '{"path": "empty.txt", "offset": 1}', '{"path": "big.txt"}', '{"path": "wide.txt", "offset": 1}'];

const ROW = /^ *(\d+)\t(.*)$/s;
interface Parsed {
  rows: { n: number; text: string }[]; // 带行号的行
  after: string[]; // 最后一个带行号的行后面的行（“接着读”的那一行就在这里）
}
function parse(result: string): Parsed {
  const lines = result.split("\n");
  const rows: Parsed["rows"] = [];
  let lastRow = -1;
  lines.forEach((line, i) => {
    const m = ROW.exec(line);
    if (m) {
      rows.push({ n: Number(m[1]), text: m[2]! });
      lastRow = i;
    }
  });
  return { rows, after: lines.slice(lastRow + 1).filter((l) => l.trim() !== "") };
}

// 第 i 个调用的结果；没有就说清 harness 怎么了
function result(run: RunResult, i: number): { text?: string; missing?: string } {
  const results = toolResults(run, 2);
  if (results[i] !== undefined) return { text: results[i] };
  const why = run.timedOut ? "harness 卡住了，被场景的时限终止" : `模型只收到 ${run.requests} 次请求、${results.length} 个工具结果`;
  return { missing: `期望：第 ${i + 1} 个调用 read_file(${ARGS[i]}) 有结果；实际：没有（${why}）` };
}
const quote = (s: string) => `“${(s.length > 160 ? s.slice(0, 160) + "…" : s).replace(/\n/g, "\\n").replace(/\t/g, "\\t")}”`; // 一行引完：换行、Tab 写成 \n、\t
const isError = (s: string) => s.trimStart().startsWith("错误");
const continues = (after: string[], next: number) => after.length === 1 && /offset/i.test(after[0]!) && new RegExp(`(?<!\\d)${next}(?!\\d)`).test(after[0]!);

// 第 i 个调用应当给出第 from..to 行，行号和内容都对（big.txt 的第 N 行写着“第 N 行”）
function range(run: RunResult, i: number, from: number, to: number): string | undefined {
  const { text, missing } = result(run, i);
  if (missing) return missing;
  if (isError(text!)) return `期望：read_file(${ARGS[i]}) 给出第 ${from}–${to} 行；实际：${quote(text!)}`;
  const { rows } = parse(text!);
  if (rows.length === 0) return `期望：read_file(${ARGS[i]}) 的每一行像 cat -n 那样带行号：行号右对齐、一个 Tab、这一行的内容；实际：没有一行是这个样子，结果开头是 ${quote(text!)}`;
  const want = to - from + 1;
  const first = rows[0]!;
  if (first.n !== from || first.text !== `第 ${from} 行`) {
    const zeroBased = first.text === `第 ${from + 1} 行` ? "——offset 被当成了从 0 数（第一行是 1，offset=2001 就从写着“第 2001 行”的那一行读起）" : "";
    return `期望：read_file(${ARGS[i]}) 的第一行是行号 ${from}、内容“第 ${from} 行”；实际：行号 ${first.n}、内容 ${quote(first.text)}${zeroBased}`;
  }
  const wrong = rows.find((r, k) => r.n !== from + k || r.text !== `第 ${from + k} 行`);
  if (wrong) return `期望：行号一行一行往下数，每个行号对着它自己那一行；实际：行号 ${wrong.n} 对着 ${quote(wrong.text)}`;
  if (rows.length !== want) return `期望：read_file(${ARGS[i]}) 给出 ${want} 行（第 ${from}–${to} 行）；实际：给了 ${rows.length} 行（第 ${first.n}–${rows.at(-1)!.n} 行）`;
  return undefined;
}

// 第 i 个调用应当以一行“接着读”结尾，里面有下一个 offset；next 为 undefined 时，读到了文件末尾，就不该有这一行
function ending(run: RunResult, i: number, next: number | undefined): string | undefined {
  const { text, missing } = result(run, i);
  if (missing) return missing;
  const { after } = parse(text!);
  if (next === undefined) {
    if (after.length === 0) return undefined;
    return `期望：read_file(${ARGS[i]}) 读到了文件的最后一行，后面没有可读的了，就不说“接着读”；实际：最后还有 ${quote(after.join(" / "))}`;
  }
  if (continues(after, next)) return undefined;
  return `期望：read_file(${ARGS[i]}) 之后文件还有没读的行，最后一行说怎么接着读：带上 offset 和下一次的起点 ${next}；实际：${after.length === 0 ? "最后一个带行号的行后面什么也没有" : `最后是 ${quote(after.join(" / "))}`}`;
}

const first = (...checks: (() => string | undefined)[]) => {
  for (const check of checks) {
    const problem = check();
    if (problem) return problem;
  }
  return undefined;
};

export const requirements: Requirement[] = [
  {
    name: "按行读：每行带行号（像 cat -n），offset 是从 1 数的行号，limit 是几行，不给 limit 最多 2000 行",
    scenario: "ranges",
    check: (run) =>
      first(
        () => range(run, CALLS.middle, 2001, 2003),
        () => range(run, CALLS.first, 1, 2000),
        () => range(run, CALLS.oneLeft, 4998, 4999),
        () => range(run, CALLS.last, 5000, 5000),
      ),
  },
  {
    name: "还有没读的行，最后一行说怎么接着读（下一个 offset）；读到末尾就不说",
    scenario: "ranges",
    check: (run) =>
      first(
        () => ending(run, CALLS.first, 2001),
        () => ending(run, CALLS.middle, 2004),
        () => ending(run, CALLS.oneLeft, 5000),
        () => ending(run, CALLS.last, undefined),
      ),
  },
  {
    name: "offset 超出行数、不是正整数：一行“错误:”，说出文件有几行或那个不对的值",
    scenario: "ranges",
    check(run) {
      const cases: [number, RegExp, string][] = [
        [CALLS.past, /(?<!\d)5000(?!\d)/, "文件一共 5000 行"],
        [CALLS.zero, /(?<![\d.])0(?![\d.])/, "收到的值 0（行号从 1 数起）"],
        [CALLS.fraction, /1\.5/, "收到的值 1.5"],
        [CALLS.negative, /-2(?!\d)/, "收到的值 -2"],
        [CALLS.text, /"10"|“10”|10/, "收到的值 \"10\"（是字符串，不是数）"],
      ];
      for (const [i, says, what] of cases) {
        const { text, missing } = result(run, i);
        if (missing) return missing;
        if (!isError(text!)) return `期望：read_file(${ARGS[i]}) 返回一行以“错误”开头的结果，说出${what}，不要猜一个行号去读；实际：${quote(text!)}`;
        if (!says.test(text!)) return `期望：read_file(${ARGS[i]}) 的错误说出${what}，模型才知道该怎么改；实际：${quote(text!)}`;
      }
      return undefined;
    },
  },
  {
    name: "超过 2000 个字符的行截断，不把一个 4 字节的字劈成两半",
    scenario: "ranges",
    check(run) {
      const { text, missing } = result(run, CALLS.long);
      if (missing) return missing;
      const { rows } = parse(text!);
      const [line1, line2] = rows;
      if (!line1 || line1.n !== 1) return `期望：read_file(${ARGS[CALLS.long]}) 给出带行号的第 1 行（截短了的）；实际：${quote(text!)}`;
      if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(line1.text)) {
        return `期望：第 1 行在第 2000 个字符处截断，那里正好是一个 4 字节的 emoji（UTF-16 里占两个位置）：要么整个留下，要么整个不要；实际：截断处留下了半个字（落单的代理项），交给模型就是乱码——slice(0, 2000) 之前看一眼第 2000 个位置是不是代理对的前一半`;
      }
      if (!line1.text.startsWith("x".repeat(1999))) return `期望：截短的第 1 行从原来的开头留起（1999 个 x……）；实际：${quote(line1.text)}`;
      if (line1.text.length > 2200) return `期望：超过 2000 个字符的行截短（最多 2000 个字符，再加一句说明也行），不是十万个字符整行交给模型；实际：这一行交回了 ${line1.text.length} 个字符`;
      if (!line2 || line2.n !== 2 || line2.text !== "第二行") return `期望：截短的只是那一行，下一行照常是行号 2、“第二行”；实际：${line2 ? `行号 ${line2.n}、${quote(line2.text)}` : "没有第 2 行"}`;
      return undefined;
    },
  },
  {
    name: "CRLF 的行尾不带回车；空文件不是错误",
    scenario: "ranges",
    check(run) {
      const crlf = result(run, CALLS.crlf);
      if (crlf.missing) return crlf.missing;
      const rows = parse(crlf.text!).rows;
      if (rows.map((r) => r.text).join("|") !== "一|二|三") {
        return `期望：crlf.txt 的三行（Windows 的 \\r\\n 行尾）读成 1 一、2 二、3 三，行尾的 \\r 不留在内容里；实际：${describe(JSON.stringify(crlf.text))}`;
      }
      const empty = result(run, CALLS.empty);
      if (empty.missing) return empty.missing;
      if (isError(empty.text!) || parse(empty.text!).rows.length > 0) {
        return `期望：empty.txt 是空的，从第 1 行读不是错误，说一声它是空的就好（没有一行带行号的内容）；实际：${quote(empty.text!)}`;
      }
      return undefined;
    },
  },
  {
    name: "一次交回的总量有上限（256 KiB）：2000 行以内也会停下，剩下的交给“接着读”",
    scenario: "ranges",
    check(run) {
      const { text, missing } = result(run, CALLS.wide);
      if (missing) return missing;
      const { rows, after } = parse(text!);
      const bytes = Buffer.byteLength(text!);
      if (rows.length === 0 || rows[0]!.n !== 1) return `期望：read_file(${ARGS[CALLS.wide]}) 从第 1 行给起；实际：${quote(text!)}`;
      if (bytes > 300 * 1024) return `期望：wide.txt 有 300 行、每行 1500 个字符，一次交回的内容不超过 256 KiB（参考答案攒到 256 KiB 就停），剩下的让模型接着读——一次调用塞进几 MB，模型的上下文就满了；实际：交回了 ${rows.length} 行、${bytes} 字节`;
      const next = rows.at(-1)!.n + 1;
      if (!continues(after, next)) return `期望：在 256 KiB 处停下以后，最后一行说怎么接着读，offset 是下一行 ${next}；实际：${after.length === 0 ? "最后一个带行号的行后面什么也没有" : quote(after.join(" / "))}`;
      return undefined;
    },
  },
  {
    name: "只给 path 时和第 05 章一样：返回全文，不带行号",
    scenario: "ranges",
    check(run) {
      const { text, missing } = result(run, CALLS.whole);
      if (missing) return missing;
      if (text!.startsWith("第 1 行\n第 2 行\n") && text!.endsWith("第 5000 行\n")) return undefined;
      return `期望：read_file({"path": "big.txt"}) 没给 offset、limit，照第 05 章原样返回全文（第 05 章自己的场景还要用模板从结果里取原文）；实际：结果开头是 ${quote(text!)}`;
    },
  },
];
