// tools/glob.ts：glob 工具——按文件名模式找文件，新改的排在前面。不经过 shell：模型不必为了找文件去拼 find 命令。
// 练习 07-2 新增。
import fs from "node:fs/promises";
import path from "node:path";
import type { ToolSpec } from "../model.ts";
import type { Tool } from "../registry.ts";
import { TRUNCATED_WALK, globToRegExp, listFiles, place } from "./walk.ts";

const MAX_RESULTS = 100;

const spec: ToolSpec = {
  name: "glob",
  description: `按文件名模式找文件（* 不跨目录，** 跨任意层，? 一个字符，{a,b} 任选其一），新改的排在前面，最多 ${MAX_RESULTS} 个。只在工作目录里找，不进 .git、node_modules，不跟符号链接。`,
  parameters: {
    type: "object",
    properties: {
      pattern: { type: "string", description: "文件名模式，相对于 path，如 **/*.ts、src/{a,b}/*.json" },
      path: { type: "string", description: "从哪个目录找起，默认工作目录" },
    },
    required: ["pattern"],
  },
};

async function glob(args: string): Promise<string> {
  const { pattern, path: where } = JSON.parse(args);
  if (typeof pattern !== "string" || pattern === "") return "错误: 缺少参数 pattern（字符串）";
  const re = globToRegExp(pattern);
  if (!re) return `错误: pattern 里的花括号没有配对：${pattern}`;
  const p = await place(where);
  if (typeof p === "string") return p;
  const { files, truncated } = await listFiles(p);
  const matched = files.filter((f) => re.test(path.relative(p.base, path.join(p.root, f)).split(path.sep).join("/")));
  if (matched.length === 0) return `没有文件对得上 ${pattern}${truncated ? `\n${TRUNCATED_WALK}` : ""}`;
  // 新改的在前：模型多半想看刚动过的那几个。lstat 不跟链接，走到这里的本来也都是普通文件
  const times = new Map<string, number>();
  for (const f of matched) times.set(f, (await fs.lstat(path.join(p.root, f)).catch(() => undefined))?.mtimeMs ?? 0);
  matched.sort((a, b) => times.get(b)! - times.get(a)! || (a < b ? -1 : 1));
  const lines = matched.slice(0, MAX_RESULTS);
  if (matched.length > MAX_RESULTS) lines.push(`...（还有 ${matched.length - MAX_RESULTS} 个没有列出：换一个更具体的 pattern 或 path）`);
  if (truncated) lines.push(TRUNCATED_WALK);
  return lines.join("\n");
}

export const globTool: Tool = {
  definition: () => spec,
  execute: glob,
};
