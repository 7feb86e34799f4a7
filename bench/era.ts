// era.ts：探路要花多少（练习 22-6）。两个时代都说的客户端（练习 22-6 的参考答案）接上一个服务器之前先发 server/discover：
// 对老服务器，这是多出来的一个来回（它答 -32601，才退回 initialize）；对新版服务器，探路顶替了 initialize + notifications/initialized。
// 同一次运行里轮流上场，比的是第 22 章的 McpClient（只会握手）和 22-6 的 McpClient（先探路）。
// 一声不吭的老服务器不在这里测：它让启动多等的就是探路时限（参考答案的 PROBE_MS，3 秒），那是定出来的数，不用量。
// 运行：node --import tsx bench/era.ts [--quick]
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { McpClient as Handshake } from "../chapters/22-mcp-client/mcp-client.ts";
import { pathToFileURL } from "node:url";
import { fullTree } from "../shared/overlay.ts";
import { ECHO_SERVER, finish, fmtRange, fmtRatio, fmtTime, integrity, interleave, median, now, pairedRatio, pinToOneCpu, QUICK, ROOT, section, table, target, type Contender } from "./lib.ts";

pinToOneCpu();

// 练习 22-6 的答案只放它改了的文件：从叠在第 22 章上的整份里取（接口和第 22 章的一样）
const solution = fullTree(path.join(ROOT, "exercises", "22-6-two-eras", "solution"));
const { McpClient: DualEra } = (await import(pathToFileURL(path.join(solution, "mcp-client.ts")).href)) as { McpClient: typeof Handshake };

// 一个来回不到一毫秒，起一个进程要几十毫秒：6a 多测几轮，差别才不被起进程的抖动盖住。6b 的服务器起得慢（SDK v2），少测几轮
const ROUNDS = QUICK ? 1 : 30;
const ROUNDS_SDK = QUICK ? 1 : 10;
const WARMUP = QUICK ? 0 : 2;
const HELLO = { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "learnharness", version: "0.1" } };

// SDK v2 的服务器是 TypeScript 写的（shared/mcp-servers/era.ts）：先打成一个 .mjs，免得每次起进程都先经过 tsx 编译
async function bundled(entry: string): Promise<string> {
  const out = path.join(ROOT, ".cache", "bench", "era.mjs");
  const esbuild = createRequire(import.meta.resolve("tsx"))("esbuild") as typeof import("esbuild");
  await esbuild.build({ entryPoints: [entry], outfile: out, bundle: true, platform: "node", format: "esm", target: "node20", packages: "external", logLevel: "silent" });
  return out;
}
const ERA_SERVER = await bundled(path.join(ROOT, "shared", "mcp-servers", "era.ts"));

// 和 connect() 一样的几步：起进程、“握手”（22-6 的客户端在这一步里先探路）、列工具；计时到拿到工具列表为止
let broken = 0;
async function connect(Client: typeof Handshake | typeof DualEra, args: string[], tools: number, era: string | undefined): Promise<number> {
  const t0 = now();
  const client = await Client.start("bench", { command: process.execPath, args, env: {} });
  await client.request("initialize", HELLO);
  if ((client as { era?: string }).era !== "modern") client.notify("notifications/initialized");
  const list = await client.request("tools/list", {});
  const t = now() - t0;
  if (list?.tools?.length !== tools || (client as { era?: string }).era !== era) broken++;
  await client.close();
  return t;
}

async function pair(title: string, detail: string, args: string[], tools: number, dualEra: string, rounds: number) {
  section(title, detail);
  const contenders: Contender[] = [
    { name: "第 22 章：initialize 握手", sample: () => connect(Handshake, args, tools, undefined) },
    { name: `练习 22-6：先探路（结果：${dualEra === "modern" ? "新版" : "旧版"}）`, sample: () => connect(DualEra, args, tools, dualEra) },
  ];
  const s = await interleave(contenders, rounds, WARMUP);
  const base = s.get(contenders[0]!.name)!;
  table(
    ["连接耗时", "中位数", "最小–最大", "对第 22 章"],
    contenders.map((c) => [c.name, fmtTime(median(s.get(c.name)!)), fmtRange(s.get(c.name)!), fmtRatio(pairedRatio(s.get(c.name)!, base))]),
  );
  return pairedRatio(s.get(contenders[1]!.name)!, base);
}

const legacy = await pair(
  "6a. 探路的代价：接一个老服务器（bench 的 echo 服务器，server/discover 答 -32601）",
  `起进程 + 握手 + tools/list；热身 ${WARMUP} 轮后测 ${ROUNDS} 轮，轮流上场。22-6 多一个来回：探路碰壁，再 initialize`,
  [ECHO_SERVER],
  2,
  "legacy",
  ROUNDS,
);
target("era", "探路的代价：接老服务器，22-6 对第 22 章", legacy, "<=", 1.2);

const modern = await pair(
  "6b. 接一个两个时代都说的服务器（官方 SDK v2 的 serveStdio，shared/mcp-servers/era.ts dual）",
  `第 22 章用 initialize 握手（它也答应）；22-6 探路拿到 DiscoverResult 就说新版，不再握手；热身 ${WARMUP} 轮后测 ${ROUNDS_SDK} 轮`,
  [ERA_SERVER, "dual"],
  4,
  "modern",
  ROUNDS_SDK,
);
// 这一项不设目标：比的多半是 SDK v2 服务器自己两条路径的快慢，客户端这边只是少发一个 notifications/initialized
console.log(`  双时代服务器上，说新版对握手：${fmtRatio(modern)}（不设目标，只记下来）`);

integrity("每次连接都拿到了该有的工具、定下了该有的时代", broken === 0, `${broken} 次不对`);
fs.rmSync(path.join(ROOT, ".cache", "bench", "era.mjs"), { force: true });
finish();
