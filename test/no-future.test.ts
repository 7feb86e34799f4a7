// 快照不知道未来：第 C 章的代码和 README 不提后面第 L 章（L > C）才引入的文件、工具和概念。
// 名字从仓库本身来：各章目录里第一次出现的文件；CURRICULUM 的内置工具表（和各章 tools/ 里的定义对得上）；
// 一小张概念词表（只收在这本书里没有别的意思的词）；还有“第 L 章”这种直接点名后面章节的写法。
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { CHAPTERS, chapterDirs, chapterFiles } from "../shared/scenario.ts";


interface Name {
  name: string;
  chapter: number; // 引入它的那一章
  kind: string;
  re: RegExp;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// 内置工具和引入它们的章（CURRICULUM「Builtin tool interfaces」）
const TOOLS: Record<string, number> = {
  read_file: 5,
  bash: 7,
  write_file: 8,
  edit_file: 8,
  load_skill: 17,
  sub_agent: 18,
  todo_write: 19,
  workflow: 21,
};

// 工具名按代码和 README 里用它的样子匹配：带下划线的名字本身就是一个词；bash、workflow 是普通的词，
// 只认 "bash"、`bash`、bash(…) 这几种写法——README 里 ```bash 代码块、"在 bash 里"都不算
function toolPattern(tool: string): RegExp {
  if (tool.includes("_")) return new RegExp(`(?<![\\w])${escape(tool)}(?![\\w])`);
  return new RegExp(`["'\`]${tool}["'\`]|(?<![\\w])${tool}\\(`, "i");
}

// 概念词：每个都只在引入它的那一章起才有意义；宁缺毋滥，一个误报就会让人不信这个测试
const CONCEPTS: [number, string, RegExp][] = [
  [2, "REPL", /\bREPL\b/],
  [3, "流式", /流式/],
  [3, "SSE", /\bSSE\b/],
  [4, "system prompt", /system prompt/i],
  [4, "AGENTS.md", /AGENTS\.md/],
  [6, "注册表", /注册表/],
  [6, "registry", /\bregistry\b/i],
  [9, "权限", /权限/],
  [9, "settings.json", /settings\.json/],
  [10, "session", /\bsessions?\b/i],
  [10, "--resume", /--resume\b/],
  [10, "JSONL", /\bJSONL\b/i],
  [11, "重试", /重试/],
  [11, "退避", /退避/],
  [11, "Retry-After", /Retry-After/i],
  [12, "Ctrl-C", /Ctrl-C/i],
  [13, "命中缓存", /命中缓存/],
  [13, "cached_tokens", /cached_tokens|prompt_cache/],
  [14, "预算", /预算/],
  [15, "压缩", /压缩/],
  [15, "compaction", /\bcompact/i],
  [16, "SKILL.md", /SKILL\.md/i],
  [16, "skill", /\bskills?\b/i],
  [18, "子 agent", /子 ?agent|sub-?agent/i],
  [20, "并发", /并发/],
  [21, "工作流", /工作流/],
  [21, "depends_on", /\bdepends_on\b/],
  [22, "MCP", /(?<![A-Za-z0-9])mcp/i],
  [22, "JSON-RPC", /json-?rpc/i],
  [23, "bwrap", /\bbwrap\b/],
  [23, "Seatbelt", /seatbelt|sandbox-exec/i],
  [23, "denyRead", /\bdenyRead\b/],
];

// 各章第一次出现的文件，按文件名（tools/bash.ts → bash.ts）
function introducedFiles(): Map<string, number> {
  const first = new Map<string, number>();
  for (const chapter of chapterDirs()) {
    for (const f of chapterFiles(path.join(CHAPTERS, chapter))) {
      const base = path.posix.basename(f);
      if (base !== "README.md" && !first.has(base)) first.set(base, Number(chapter.slice(0, 2)));
    }
  }
  return first;
}

// 各章 tools/ 里 name: "…" 定义的工具，第一次出现在哪一章
function definedTools(): Map<string, number> {
  const first = new Map<string, number>();
  for (const chapter of chapterDirs()) {
    const dir = path.join(CHAPTERS, chapter, "tools");
    if (!fs.existsSync(dir)) continue;
    for (const f of fs.readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
      for (const m of fs.readFileSync(path.join(dir, f), "utf8").matchAll(/\bname: "(\w+)"/g)) {
        if (!first.has(m[1])) first.set(m[1], Number(chapter.slice(0, 2)));
      }
    }
  }
  return first;
}

function introducedNames(): Name[] {
  const names: Name[] = [];
  for (const [file, chapter] of introducedFiles()) {
    names.push({ name: file, chapter, kind: "文件", re: new RegExp(`(?<![\\w.-])${escape(file)}(?![\\w-])`) });
  }
  for (const [tool, chapter] of Object.entries(TOOLS)) names.push({ name: tool, chapter, kind: "工具", re: toolPattern(tool) });
  for (const [chapter, name, re] of CONCEPTS) names.push({ name, chapter, kind: "概念", re });
  return names;
}

// “第 13 章会把……”：直接点名后面的章，几乎总是在预告它加的东西
const CHAPTER_REF = /第 ?(\d{1,2}) ?章/g;

// 一段文字（第 chapter 章里的 file）里提到的、后面的章才引入的名字
function futureMentions(chapter: number, file: string, text: string, names: Name[]): string[] {
  const problems: string[] = [];
  const later = names.filter((n) => n.chapter > chapter);
  text.split("\n").forEach((line, i) => {
    const where = `${file}:${i + 1}`;
    for (const n of later) {
      const m = line.match(n.re);
      if (m) problems.push(`${where} 提到了${n.kind}「${n.name}」（“${m[0]}”），它是第 ${String(n.chapter).padStart(2, "0")} 章才引入的`);
    }
    for (const m of line.matchAll(CHAPTER_REF)) {
      if (Number(m[1]) > chapter) problems.push(`${where} 点名了后面的第 ${m[1]} 章（“${m[0]}”）：快照只说到这一章为止`);
    }
  });
  return problems;
}

describe("快照不知道未来", () => {
  const names = introducedNames();

  it("工具表和各章 tools/ 里的定义一致：每个工具在表上写的那一章第一次定义", () => {
    assert.deepEqual(Object.fromEntries([...definedTools()].sort()), Object.fromEntries(Object.entries(TOOLS).sort()));
  });

  it("从仓库里推出的名字齐全（推导没有悄悄变空）", () => {
    const files = introducedFiles();
    for (const [file, chapter] of [["repl.ts", 2], ["bash.ts", 7], ["permissions.ts", 9], ["session.ts", 10], ["mcp.ts", 22]] as const) {
      assert.equal(files.get(file), chapter, `${file} 应是第 ${chapter} 章第一次出现的文件`);
    }
  });

  it("检查本身会报错：后面章节的名字被认出来，普通的写法不误报", () => {
    const hit = (chapter: number, line: string) => futureMentions(chapter, "x", line, names).length > 0;
    assert.ok(hit(9, "写 `mcp.json` 也要问"));
    assert.ok(hit(9, '"mcp__fs__read_*"'));
    assert.ok(hit(6, "下一章加 `bash` 时"));
    assert.ok(hit(6, '[round 1] bash({"command": "ls"})'));
    assert.ok(hit(8, "import { guard } from \"./permissions.ts\";"));
    assert.ok(hit(15, "第 16 章会发现 SKILL.md"));
    assert.ok(hit(17, "交给 sub_agent 去做"));
    assert.ok(!hit(1, "```bash"));
    assert.ok(!hit(1, "在 bash 里运行 `npm run ch -- 1`"));
    assert.ok(!hit(9, "第 09 章新增：deny > ask > allow；第 08 章已经把写关在工作目录里"));
    assert.ok(!hit(8, "workspace.ts 里的 resolveInside"));
  });

  for (const chapter of chapterDirs()) {
    const nn = Number(chapter.slice(0, 2));
    it(`${chapter} 不提后面各章才有的文件、工具和概念`, () => {
      const dir = path.join(CHAPTERS, chapter);
      const problems = chapterFiles(dir).flatMap((f) => futureMentions(nn, `chapters/${chapter}/${f}`, fs.readFileSync(path.join(dir, f), "utf8"), names));
      if (problems.length > 0) assert.fail(`${problems.length} 处提到了后面的章：\n${problems.join("\n")}`);
    });
  }
});
