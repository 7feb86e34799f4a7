// connect.ts：接上一个服务器要多久（起进程 + initialize + tools/list），以及第 22 章的并发启动
// （connectMcpServers 读 mcp.json、同时启动各个服务器）接三个服务器比只接最慢的那一个多花多少。
// 运行：node --import tsx bench/connect.ts [--quick]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Registry } from "../chapters/22-mcp-client/registry.ts";
import { connectViaChapter, ECHO_SERVER, echoRequest, finish, fmtRange, fmtRatio, fmtTime, integrity, interleave, median, now, pairedRatio, pinToOneCpu, QUICK, RawPipe, section, startOurs, startSdk, table, target, textOf, type Contender } from "./lib.ts";

pinToOneCpu();

const ROUNDS = QUICK ? 1 : 15;
const WARMUP = QUICK ? 0 : 2;
const ROUNDS3 = QUICK ? 1 : 8;
const WARMUP3 = QUICK ? 0 : 1;

// ---- 一个服务器 ----

section(
  "3a. 连接一个服务器：起进程 + initialize + tools/list",
  `参照物是起同一种子进程 + 一次裸 ping-pong；热身 ${WARMUP} 轮后测 ${ROUNDS} 轮，轮流上场。计时到拿到工具列表为止，关闭不计时`,
);

let broken = 0; // 连上了却没拿到该有的东西：应该永远是 0
const one: Contender[] = [
  {
    name: "管道极限（起进程 + 一次 ping-pong）",
    sample: async () => {
      const t0 = now();
      const raw = await RawPipe.start();
      const reply = await raw.call(echoRequest(0));
      const t = now() - t0;
      if (textOf(reply.result) !== "ping") broken++;
      await raw.close();
      return t;
    },
  },
  {
    name: "第 22 章 McpClient（start + 握手 + 列工具）",
    sample: async () => {
      const t0 = now();
      const { client, tools } = await startOurs();
      const t = now() - t0;
      if (tools.length !== 2) broken++;
      await client.close();
      return t;
    },
  },
  {
    name: "官方 SDK（connect + listTools）",
    sample: async () => {
      const t0 = now();
      const { client, tools } = await startSdk();
      const t = now() - t0;
      if (tools.length !== 2) broken++;
      await client.close();
      return t;
    },
  },
];

const s1 = await interleave(one, ROUNDS, WARMUP);
const limit1 = s1.get(one[0]!.name)!;
table(
  ["连接耗时", "中位数", "最小–最大", "对极限"],
  one.map((c) => [c.name, fmtTime(median(s1.get(c.name)!)), fmtRange(s1.get(c.name)!), fmtRatio(pairedRatio(s1.get(c.name)!, limit1))]),
);
target("connect", "连接一个服务器（第 22 章）对管道极限", pairedRatio(s1.get(one[1]!.name)!, limit1), "<=", 1.1);

// ---- 三个服务器 ----

// 三个 echo 服务器，进程起来以后分别再等 0、100、300 ms 才开始读 stdin——像要先连数据库、读远程配置的服务器。
// 另一组三个都不等：启动全是 CPU 活（Node 自己起来就要几十毫秒 CPU），钉在一个核上时三个只能排队
const DELAYS = QUICK ? [0, 20, 60] : [0, 100, 300];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "lh-bench-"));
function configDir(name: string, delays: number[]): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir);
  const mcpServers: Record<string, object> = {};
  delays.forEach((d, i) => {
    mcpServers[`s${i + 1}`] = { command: process.execPath, args: [ECHO_SERVER], env: { BENCH_READY_DELAY_MS: String(d) } };
  });
  fs.writeFileSync(path.join(dir, "mcp.json"), JSON.stringify({ mcpServers }));
  return dir;
}

async function viaChapter(dir: string, expectTools: number): Promise<number> {
  const registry = new Registry();
  const { connections, ms } = await connectViaChapter(registry, dir);
  if (registry.names().filter((n) => n.startsWith("mcp__")).length !== expectTools) broken++;
  await connections.close();
  return ms;
}

async function rawConcurrent(delays: number[]): Promise<number> {
  const t0 = now();
  const pipes = await Promise.all(
    delays.map(async (d) => {
      const raw = await RawPipe.start({ BENCH_READY_DELAY_MS: String(d) });
      if (textOf((await raw.call(echoRequest(0))).result) !== "ping") broken++;
      return raw;
    }),
  );
  const t = now() - t0;
  await Promise.all(pipes.map((p) => p.close()));
  return t;
}

async function threeServers(label: string, delays: number[], withSequential: boolean) {
  const slowest = Math.max(...delays);
  const threeDir = configDir(`${label}-three`, delays);
  const aloneDir = configDir(`${label}-alone`, [slowest]);
  const contenders: Contender[] = [
    { name: slowest > 0 ? `最慢的一个单独接（等 ${slowest} ms 的那个）` : "只接其中一个", sample: () => viaChapter(aloneDir, 2) },
    { name: "第 22 章 connectMcpServers 接三个", sample: () => viaChapter(threeDir, 6) },
    { name: "参照：三个裸进程同时起 + 各一次 ping-pong", sample: () => rawConcurrent(delays) },
  ];
  if (withSequential) {
    contenders.push({
      name: "对照：三个一个接一个地接（不并发）",
      sample: async () => {
        const t0 = now();
        const clients = [];
        for (const d of delays) clients.push((await startOurs({ BENCH_READY_DELAY_MS: String(d) })).client);
        const t = now() - t0;
        await Promise.all(clients.map((c) => c.close()));
        return t;
      },
    });
  }
  const s = await interleave(contenders, ROUNDS3, WARMUP3);
  const alone = s.get(contenders[0]!.name)!;
  table(
    ["启动耗时", "中位数", "最小–最大", "对单独一个"],
    contenders.map((c) => [c.name, fmtTime(median(s.get(c.name)!)), fmtRange(s.get(c.name)!), fmtRatio(pairedRatio(s.get(c.name)!, alone))]),
  );
  return pairedRatio(s.get(contenders[1]!.name)!, alone);
}

section(
  "3b. 三个服务器同时启动（mcp.json + connectMcpServers）",
  `三个 echo 服务器起来后分别等 ${DELAYS.join("、")} ms 才开始干活（模拟启动时要等 I/O）；热身 ${WARMUP3} 轮后测 ${ROUNDS3} 轮`,
);
const ratio3 = await threeServers("io", DELAYS, true);
target("connect", "三个服务器同时接（第 22 章）对最慢的一个单独接", ratio3, "<=", 1.3);

console.log("\n  另一组：三个都不等（启动全是 CPU 活）。钉在一个核上时三个 Node 进程的启动只能排队——");
console.log("  看第三行：连裸进程都做不到，这一组的比值量的是这台机器，不是客户端");
await threeServers("cpu", [0, 0, 0], false);

fs.rmSync(tmp, { recursive: true, force: true });
integrity("每次连接都拿到了该有的工具和回答", broken === 0, `${broken} 次不对`);
finish();
