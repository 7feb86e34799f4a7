// 录线路：在场景自己的那一章上真跑一遍（deepseek 的形状），留下脚本模型收到的每个请求和它的回答；
// 有 mcp.json 的场景，每个服务器前面插一个窃听器（tap.ts），录下 JSON-RPC 的每一行。不重新推算任何东西。
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CHAPTERS, ROOT, expectedFor, runScenario, type Scenario } from "../../shared/scenario.ts";
import type { RecordedRequest } from "../../shared/scripted-model.ts";
import type { TapLine } from "./tap.ts";

export interface Recording {
  scenario: Scenario;
  impl: string; // 在哪个目录上跑的：场景自己那一章，或者练习的参考答案
  records: RecordedRequest[];
  rpc: TapLine[]; // 按时间排好
  transcript: string;
  matches: boolean; // 这次运行的转录和 expected.txt 一字不差（否则网页上要说一声）；练习的检查场景没有 expected.txt，算一致
}

const TAP = path.join(ROOT, "scripts", "site", "tap.ts");
const HTTP_TAP = path.join(ROOT, "scripts", "site", "http-tap.ts");

// 场景先起好的 HTTP 服务器（远程 MCP 服务）：前面各插一个 HTTP 窃听器，它替服务器报地址
function wrapHttpServers(servers: Record<string, string[]> | undefined, log: string): Record<string, string[]> | undefined {
  if (!servers) return undefined;
  return Object.fromEntries(Object.entries(servers).map(([name, argv]) => [name, ["$NODE", "--import", "$TSX", HTTP_TAP, log, name, ...argv]]));
}

// 只包住写对了、用本机 node 启动的 stdio 服务器：命令不存在（command-not-found）要的正是 spawn 失败本身，
// 形状不对的配置（mcp-args-not-array）要的是那一行点名原样 args 的警告
function wrapServers(mcp: any, log: string): object {
  const servers = mcp?.mcpServers;
  if (!servers || typeof servers !== "object" || Array.isArray(servers)) return mcp;
  const wrapped: Record<string, unknown> = {};
  for (const [name, cfg] of Object.entries<any>(servers)) {
    const wellFormed = cfg?.command === "$NODE" && (cfg.type === undefined || cfg.type === "stdio") &&
      Array.isArray(cfg.args) && cfg.args.every((a: unknown) => typeof a === "string");
    wrapped[name] = wellFormed ? { ...cfg, args: ["--import", "$TSX", TAP, log, name, "$NODE", ...cfg.args] } : cfg;
  }
  return { ...mcp, mcpServers: wrapped };
}

export async function recordScenario(s: Scenario, impl = path.join(CHAPTERS, s.chapter)): Promise<Recording> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "lh-site-"));
  const log = path.join(tmp, "rpc.jsonl");
  try {
    const spec = { ...s.spec, mcp: s.spec.mcp && wrapServers(s.spec.mcp, log), servers: wrapHttpServers(s.spec.servers, log) };
    const result = await runScenario({ ...s, spec }, impl, { profile: "deepseek" });
    const rpc = fs.existsSync(log)
      ? fs.readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as TapLine).sort((a, b) => a.t - b.t)
      : [];
    const expected = expectedFor(s, "deepseek");
    const own = s.dir.startsWith(path.join(ROOT, "shared") + path.sep);
    const matches = !own || (fs.existsSync(expected) && fs.readFileSync(expected, "utf8") === result.transcript);
    return { scenario: s, impl, records: result.records, rpc, transcript: result.transcript, matches };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
