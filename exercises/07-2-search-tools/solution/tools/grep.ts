// tools/grep.ts：grep 工具——用 JavaScript 正则在文件内容里找。不经过 shell，有界；正则在一个 worker 里跑，到点就停。
// 练习 07-2 新增。
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { ToolSpec } from "../model.ts";
import type { Tool } from "../registry.ts";
import { TRUNCATED_WALK, globToRegExp, listFiles, place } from "./walk.ts";

const DEFAULT_LIMIT = 100; // 默认最多交回这么多行
const MAX_LIMIT = 1000;
const MAX_LINE = 200; // content 模式每行最多这么多字符
const MAX_FILE_BYTES = 8 << 20; // 比这大的文件不读
const TIMEOUT_MS = setting("HARNESS_GREP_TIMEOUT_MS", 10_000); // 一次搜索最多这么久；检查器调小它

function setting(name: string, fallback: number): number {
  const n = Number(process.env[name] ?? fallback);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

const MODES = ["files_with_matches", "content", "count"];

const spec: ToolSpec = {
  name: "grep",
  description: `用 JavaScript 正则表达式在文件内容里找。output_mode：files_with_matches（默认，列出有匹配的文件）、content（路径:行号:那一行）、count（路径:匹配的行数）。只在工作目录里找，不进 .git、node_modules，不读二进制文件，不跟符号链接；最多交回 head_limit 行（默认 ${DEFAULT_LIMIT}）。`,
  parameters: {
    type: "object",
    properties: {
      pattern: { type: "string", description: "JavaScript 正则表达式，逐行匹配" },
      path: { type: "string", description: "在哪个目录（或文件）里找，默认工作目录" },
      glob: { type: "string", description: "只看文件名对得上这个模式的文件，如 *.ts（不带 / 时只比文件名）" },
      ignore_case: { type: "boolean", description: "不分大小写" },
      output_mode: { type: "string", enum: MODES, description: "files_with_matches（默认）、content 或 count" },
      head_limit: { type: "integer", description: `最多交回几行，默认 ${DEFAULT_LIMIT}，最多 ${MAX_LIMIT}` },
    },
    required: ["pattern"],
  },
};

interface Job {
  pattern: string;
  flags: string;
  mode: string;
  limit: number;
  files: [full: string, shown: string][];
  maxLine: number;
  maxBytes: number;
}

interface Found {
  lines: string[];
  total: number; // 一共多少条（不止交回的那些）
  skipped: number; // 太大没读的文件
}

async function grep(args: string): Promise<string> {
  const { pattern, path: where, glob, ignore_case, output_mode, head_limit } = JSON.parse(args);
  if (typeof pattern !== "string" || pattern === "") return "错误: 缺少参数 pattern（字符串）";
  const flags = ignore_case === true ? "i" : "";
  try {
    new RegExp(pattern, flags); // 编译很快，不会卡住；卡住的是拿它去匹配
  } catch {
    return `错误: pattern 不是合法的 JavaScript 正则表达式：${pattern}`; // 不照抄 V8 的报错原话
  }
  const mode = output_mode ?? "files_with_matches";
  if (!MODES.includes(mode)) return `错误: output_mode 只能是 ${MODES.join("、")}，收到的是 ${JSON.stringify(output_mode)}`;
  const limit = Number.isInteger(head_limit) && head_limit > 0 ? Math.min(head_limit, MAX_LIMIT) : DEFAULT_LIMIT;
  const only = typeof glob === "string" && glob !== "" ? globToRegExp(glob) : undefined;
  if (glob && !only) return `错误: glob 里的花括号没有配对：${glob}`;
  const p = await place(where);
  if (typeof p === "string") return p;
  const listed = await listFiles(p);
  // glob 不带 / 只比文件名（*.ts 对得上 src/a/b.ts），带 / 比相对于 path 的路径
  const files = listed.files.filter((f) => !only || only.test(String(glob).includes("/") ? path.relative(p.base, path.join(p.root, f)) : path.basename(f)));
  const job: Job = { pattern, flags, mode, limit, files: files.map((f) => [path.join(p.root, f), f]), maxLine: MAX_LINE, maxBytes: MAX_FILE_BYTES };
  const found = await inWorker(job);
  if (found === undefined) {
    return `错误: 搜索超过 ${TIMEOUT_MS / 1000} 秒还没完成，已经停下。多半是正则表达式在回溯里打转（比如 (a+)+$ 遇上一长串 a），换一个写法，或者用 path、glob 缩小范围`;
  }
  const notes = [
    found.total > found.lines.length ? `...（一共 ${found.total} 条，只列出前 ${found.lines.length} 条；用 head_limit、path 或 glob 缩小范围）` : "",
    found.skipped > 0 ? `注意: ${found.skipped} 个文件超过 ${MAX_FILE_BYTES >> 20} MB，没有读` : "",
    listed.truncated ? TRUNCATED_WALK : "",
  ].filter(Boolean);
  if (found.lines.length === 0) return [`没有找到匹配 ${pattern} 的内容`, ...notes].join("\n");
  return [...found.lines, ...notes].join("\n");
}

// JavaScript 的正则没有超时，一旦回溯失控，跑它的线程就再也回不来——在主线程上跑，整个 harness 就冻住了。
// 所以搜索放进一个 worker：到点 terminate()，正则跑到一半也停得下来。到点了交回 undefined
function inWorker(job: Job): Promise<Found | undefined> {
  return new Promise((resolve) => {
    // worker 的代码是下面这个函数的原文：harness 可能被打成一个文件来跑，另放一个 .ts 文件的话 worker 找不到它。
    // 它要的模块在这段字符串里 require，打包工具就不会去改它
    const source = `const { parentPort, workerData } = require("node:worker_threads");
(${searchFiles.toString()})(require("node:fs"), workerData, (found) => parentPort.postMessage(found));`;
    const worker = new Worker(source, { eval: true, workerData: job });
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve(undefined);
    }, TIMEOUT_MS);
    worker.once("message", (found: Found) => {
      clearTimeout(timer);
      resolve(found);
    });
    worker.once("error", () => {
      clearTimeout(timer);
      resolve({ lines: [], total: 0, skipped: 0 });
    });
  });
}

// 在 worker 里跑：自成一体，只用传进来的 fs 模块和 job，结果交给 reply
function searchFiles(fs: typeof import("node:fs"), job: Job, reply: (found: Found) => void) {
  const { pattern, flags, mode, limit, files, maxLine, maxBytes } = job;
  const re = new RegExp(pattern, flags);
  const lines: string[] = [];
  let total = 0;
  let skipped = 0;
  // 长行截断：从匹配的地方前面一点开始取，模型看得见对上的是什么；不把一个 emoji 切成两半
  const cut = (line: string) => {
    if (line.length <= maxLine) return line;
    let start = Math.max(0, line.search(re) - 40);
    if (/[\udc00-\udfff]/.test(line[start] ?? "")) start++;
    let end = Math.min(line.length, start + maxLine);
    if (/[\ud800-\udbff]/.test(line[end - 1] ?? "")) end--;
    return `${start > 0 ? "…" : ""}${line.slice(start, end)}${end < line.length ? "…" : ""}（这一行有 ${line.length} 个字符，只显示第 ${start + 1}–${end} 个）`;
  };
  const read = (file: string): string | undefined => {
    // O_NONBLOCK + fstat：打开以后再确认是普通文件（走目录和打开之间，它可能被换成了 FIFO）
    const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile()) return undefined;
      if (stat.size > maxBytes) {
        skipped++;
        return undefined;
      }
      const bytes = Buffer.alloc(stat.size);
      const n = fs.readSync(fd, bytes, 0, bytes.length, 0);
      if (bytes.subarray(0, Math.min(n, 8000)).includes(0)) return undefined; // 开头有 NUL 字节：二进制文件，不看
      return bytes.subarray(0, n).toString("utf8");
    } finally {
      fs.closeSync(fd);
    }
  };
  for (const [file, shown] of files) {
    let text: string | undefined;
    try {
      text = read(file);
    } catch {
      continue;
    }
    if (text === undefined) continue;
    const all = text.split(/\r?\n/);
    if (all.at(-1) === "") all.pop();
    let count = 0;
    for (let i = 0; i < all.length; i++) {
      if (!re.test(all[i]!)) continue;
      count++;
      if (mode === "content") {
        total++;
        if (lines.length < limit) lines.push(`${shown}:${i + 1}:${cut(all[i]!)}`);
      } else if (mode === "files_with_matches") break;
    }
    if (count === 0 || mode === "content") continue;
    total++;
    if (lines.length < limit) lines.push(mode === "count" ? `${shown}:${count}` : shown);
  }
  reply({ lines, total, skipped });
}

export const grepTool: Tool = {
  definition: () => spec,
  execute: grep,
};
