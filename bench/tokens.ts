// tokens.ts：实验二的配置（时间服务器 + 官方 filesystem 服务器）下，MCP 工具的声明每一轮要占多少 tokens，
// 以及练习 22-3 的工具搜索（MCP 工具撤出 tools 数组，换成 mcp_describe / mcp_call 两个桥接工具，
// 外加 system prompt 里的名字清单）能省下多少。这里数的是 tokens，不是时间，所以不钉 CPU、不轮流。
// 运行：node --import tsx bench/tokens.ts [--quick]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { Registry } from "../chapters/22-mcp-client/registry.ts";
import { estimateText } from "../chapters/22-mcp-client/tokens.ts";
import { fullTree } from "../shared/overlay.ts";
import { CHAPTERS, FIXTURES, runScenario, type Scenario, type ScenarioSpec } from "../shared/scenario.ts";
import { check, connectViaChapter, finish, integrity, ROOT, table } from "./lib.ts";

const TSX = import.meta.resolve("tsx");
const experiment = JSON.parse(fs.readFileSync(path.join(FIXTURES, "22-mcp-client", "experiment-2", "scenario.json"), "utf8")) as ScenarioSpec;
const SOLUTION = path.join(ROOT, "exercises", "22-3-tool-search", "solution");

console.log("\n== 5. tokens：实验二的配置下，MCP 工具声明每轮占多少 ==");
console.log("  时间服务器（2 个工具）+ 官方 filesystem 服务器（node_modules 里的那个）；估算规则是第 15 章的 estimateText");

// ---- 第 22 章：直接走 connectMcpServers，数登记进来的 MCP 工具 ----

const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "lh-bench-tokens-")));
execFileSync("bash", ["-c", experiment.setup!], { cwd: work });
const values: Record<string, string> = { $NODE: process.execPath, $TSX: TSX, $ROOT: ROOT, $WORK: work };
fs.writeFileSync(path.join(work, "mcp.json"), JSON.stringify(experiment.mcp).replace(/\$(NODE|TSX|ROOT|WORK)/g, (v) => values[v]!));

const registry = new Registry();
console.log("  （接下来两行是 filesystem 服务器自己的 stderr 日志，第 22 章让它直通终端）");
const { connections, logged } = await connectViaChapter(registry, work);
const perServer = new Map<string, { count: number; tokens: number }>();
let chapterTokens = 0;
for (const def of registry.definitions()) {
  const server = /^mcp__(.+?)__/.exec(def.name)?.[1];
  if (!server) continue;
  const tokens = estimateText(JSON.stringify(def)); // 和 mcp.ts 打印“声明约 N tokens”的算法一样
  chapterTokens += tokens;
  const s = perServer.get(server) ?? { count: 0, tokens: 0 };
  perServer.set(server, { count: s.count + 1, tokens: s.tokens + tokens });
}
await connections.close();
fs.rmSync(work, { recursive: true, force: true });

table(
  ["第 22 章（全部进 tools 数组）", "工具数", "每轮 tokens"],
  [...[...perServer].map(([name, s]) => [`MCP 服务 ${name}`, String(s.count), String(s.tokens)]), ["合计", String([...perServer.values()].reduce((n, s) => n + s.count, 0)), String(chapterTokens)]],
);
// 交叉核对：第 22 章启动时自己打印的账，应该和这里数的一样
const printed = logged.map((l) => Number(/声明约 (\d+) tokens/.exec(l)?.[1] ?? 0)).reduce((a, b) => a + b, 0);
integrity("第 22 章启动时打印的“声明约 N tokens”之和等于这里数的", printed === chapterTokens, `打印 ${printed}，数得 ${chapterTokens}`);
integrity("实验二的两个服务器都接上了", perServer.has("time") && perServer.has("fs"), [...perServer.keys()].join("、"));

// ---- 练习 22-3：把第 22 章和参考答案各跑一轮，看脚本模型收到的第一个请求 ----

// 一轮就答完的场景：只为了拿到第一个请求里的 tools 数组和 system prompt
function oneRound(): Scenario {
  const spec: ScenarioSpec = { mcp: experiment.mcp, setup: experiment.setup, args: ["你好"], turns: [{ content: "你好。" }] };
  return { chapter: "22-mcp-client", name: "bench-tokens", dir: path.join(os.tmpdir(), "lh-bench-no-fixture"), spec };
}

const fnDef = (t: any) => t.function ?? t; // 请求里是 {type: "function", function: ToolSpec}
const toolsOf = (body: any): any[] => (body?.tools ?? []).map(fnDef);
const systemOf = (body: any): string => String(body?.messages?.find((m: any) => m.role === "system")?.content ?? "");

if (!fs.existsSync(SOLUTION)) {
  console.log("  练习 22-3 还没完成，跳过");
} else {
  const base = await runScenario(oneRound(), path.join(CHAPTERS, "22-mcp-client"));
  const solved = await runScenario(oneRound(), fullTree(SOLUTION)); // 答案叠在第 22 章上的整份
  const b = base.bodies[0];
  const s = solved.bodies[0];
  const names = toolsOf(s).map((t) => t.name);
  if (!b || !s) {
    console.log(`  练习 22-3：有一边没发出请求，跳过（第 22 章 ${base.requests} 个请求，参考答案 ${solved.requests} 个）`);
  } else if (!names.includes("mcp_describe") || !names.includes("mcp_call")) {
    console.log("  练习 22-3 的参考答案里还没有 mcp_describe / mcp_call 这两个桥接工具（还没完成），跳过");
  } else {
    const declared = (body: any, prefix: string) => toolsOf(body).filter((t) => t.name.startsWith(prefix)).reduce((n, t) => n + estimateText(JSON.stringify(t)), 0);
    const baseDecl = declared(b, "mcp__");
    const bridge = declared(s, "mcp_describe") + declared(s, "mcp_call");
    const leftover = declared(s, "mcp__"); // 门槛以下时 MCP 工具会留在 tools 数组里
    const list = Math.max(0, estimateText(systemOf(s)) - estimateText(systemOf(b))); // system prompt 里多出来的名字清单
    const after = bridge + leftover + list;
    const cut = 1 - after / baseDecl;
    table(
      ["每轮的 MCP 声明", "tokens"],
      [
        ["第 22 章：tools 数组里的 mcp__ 工具", String(baseDecl)],
        ["练习 22-3：两个桥接工具", String(bridge)],
        ["练习 22-3：留在 tools 数组里的 mcp__ 工具", String(leftover)],
        ["练习 22-3：system prompt 里多出的名字清单", String(list)],
        ["练习 22-3：合计", String(after)],
      ],
    );
    integrity("脚本模型收到的第 22 章声明和直接数的一样", baseDecl === chapterTokens, `请求里 ${baseDecl}，直接数 ${chapterTokens}`);
    check("tokens", "工具搜索省掉的 MCP 声明 tokens ≥ 75%", cut >= 0.75, `省掉 ${(cut * 100).toFixed(1)}%（${baseDecl} → ${after}）`);
  }
}
finish();
