// http.ts：练习 22-5 的 Streamable HTTP 传输，一次 tools/call 的往返要多久——一个接一个地调 echo。
// 参照物是同一个服务器上的裸 HTTP 往返：同样的请求体、同样的头，fetch 发出去、读回 JSON，什么别的也不做。
// 运行：node --import tsx bench/http.ts [--quick]
import { spawn } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerConfig } from "../chapters/22-mcp-client/mcp-config.ts";
import { fullTree } from "../shared/overlay.ts";
import { BENCH, childEnv, echoRequest, finish, fmtRange, fmtRatio, fmtTime, integrity, interleave, median, now, pairedRatio, pinToOneCpu, QUICK, ROOT, section, table, target, textOf, type Contender } from "./lib.ts";

pinToOneCpu();

// 练习 22-5 的答案只放它改了的文件：从叠在第 22 章上的整份里取。类型按第 22 章的写（接口一样，配置多了 url 这几项）
const solution = fullTree(path.join(ROOT, "exercises", "22-5-remote-http", "solution"));
const load = (file: string) => import(pathToFileURL(path.join(solution, file)).href);
const { McpClient } = (await load("mcp-client.ts")) as typeof import("../chapters/22-mcp-client/mcp-client.ts");
const { McpTool } = (await load("mcp-tools.ts")) as typeof import("../chapters/22-mcp-client/mcp-tools.ts");
type HttpConfig = ServerConfig & { url: string; headers: Record<string, string>; timeoutMs: number; startupTimeoutMs: number };

const CALLS = QUICK ? 20 : 500; // 每轮每个参赛者连续调用的次数
const ROUNDS = QUICK ? 2 : 15;
const WARMUP = QUICK ? 0 : 3;

section(
  "7. HTTP 往返：练习 22-5 的传输，顺序调用 echo 工具",
  `每轮每个参赛者连续调 ${CALLS} 次，热身 ${WARMUP} 轮后测 ${ROUNDS} 轮，轮流上场；样本是一轮的平均每次耗时`,
);

const server = spawn(process.execPath, [path.join(BENCH, "servers", "http-echo.mjs")], { env: childEnv(), stdio: ["ignore", "ignore", "pipe"] });
const url = await new Promise<string>((resolve) => {
  let said = "";
  server.stderr.setEncoding("utf8").on("data", (d: string) => {
    said += d;
    const found = said.match(/http:\/\/\S+/)?.[0];
    if (found) resolve(found);
  });
});

const config: HttpConfig = { command: url, args: [], env: {}, url, headers: {}, timeoutMs: 60_000, startupTimeoutMs: 30_000 };
const client = await McpClient.start("bench", config, () => {});
const info = await client.request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } });
client.notify("notifications/initialized");
const tools = (await client.request("tools/list", {})).tools;
const adapter = new McpTool(client, tools[0], "mcp__bench__echo");
let wrong = 0; // 答非所问的次数：应该永远是 0

// 裸 HTTP：和传输发的一模一样的头（会话号、版本头），一样的请求体
const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Session-Id": "s1", "MCP-Protocol-Version": String(info.protocolVersion) };

const contenders: Contender[] = [
  {
    name: "裸 HTTP 往返（fetch + JSON.parse）",
    sample: async () => {
      const t0 = now();
      for (let i = 0; i < CALLS; i++) {
        const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(echoRequest(i)) });
        const m = JSON.parse(await response.text());
        if (m.id !== i || textOf(m.result) !== "ping") wrong++;
      }
      return (now() - t0) / CALLS;
    },
  },
  {
    name: "练习 22-5 McpClient.request（HTTP）",
    sample: async () => {
      const t0 = now();
      for (let i = 0; i < CALLS; i++) if (textOf(await client.request("tools/call", { name: "echo", arguments: { text: "ping" } })) !== "ping") wrong++;
      return (now() - t0) / CALLS;
    },
  },
  {
    name: "练习 22-5 McpTool.execute（含适配器）",
    sample: async () => {
      const t0 = now();
      for (let i = 0; i < CALLS; i++) if ((await adapter.execute('{"text":"ping"}')) !== "ping") wrong++;
      return (now() - t0) / CALLS;
    },
  },
];

const samples = await interleave(contenders, ROUNDS, WARMUP);
const limit = samples.get(contenders[0]!.name)!;
table(
  ["每次往返", "中位数", "最小–最大", "对裸 HTTP"],
  contenders.map((c) => {
    const s = samples.get(c.name)!;
    return [c.name, fmtTime(median(s)), fmtRange(s), fmtRatio(pairedRatio(s, limit))];
  }),
);
integrity("每次调用都拿回了自己的 ping", wrong === 0, `${wrong} 次不对`);
target("http", "HTTP 往返（练习 22-5）对裸 HTTP 往返", pairedRatio(samples.get(contenders[1]!.name)!, limit), "<=", 1.3);

await client.close();
server.kill();
finish();
