// roundtrip.ts：一次 tools/call 的往返要多久——一个接一个地调一个什么都不做的 echo 工具。
// 参照物是物理极限：同样的字节在同样的管道上一问一答（pingpong.mjs），父进程只做拆行和 JSON.parse。
// 运行：node --import tsx bench/roundtrip.ts [--quick]
import { McpTool } from "../chapters/22-mcp-client/mcp-tools.ts";
import { echoRequest, finish, fmtQuartiles, fmtRange, fmtRatio, fmtTime, integrity, measure, median, now, pairedRatio, pairedRatios, pinToOneCpu, QUICK, RawPipe, section, serverPid, startOurs, startSdk, table, textOf, verdict, type Contender } from "./lib.ts";

pinToOneCpu();

// 一个样本几十毫秒：同一轮里极限和第 22 章前后脚上场，机器负载来不及变；再短就散得更开——钉在一个核上的一问一答
// 时而顺、时而不顺（谁先占着核），一段顺或不顺要持续好几毫秒，机器安静时也这样
const CALLS = QUICK ? 20 : 2000; // 每轮每个参赛者连续调用的次数
const ROUNDS = QUICK ? 2 : 16; // 4 个参赛者：4 的倍数，出场顺序完全平衡（见 lib.ts 的 order）
const WARMUP = QUICK ? 0 : 3;

section(
  "1. 往返：顺序调用 echo 工具",
  `每轮每个参赛者连续调 ${CALLS} 次，热身 ${WARMUP} 轮后测 ${ROUNDS} 轮，轮流上场；样本是一轮的平均每次耗时`,
);

const raw = await RawPipe.start();
const ours = await startOurs();
const sdk = await startSdk();
const adapter = new McpTool(ours.client, ours.tools.find((t) => t.name === "echo"), "mcp__bench__echo");
let wrong = 0; // 答非所问的次数：应该永远是 0

const contenders: Contender[] = [
  {
    name: "管道极限（裸 ping-pong）",
    server: () => raw.child.pid,
    sample: () =>
      new Promise((resolve) => {
        let i = 0;
        const t0 = now();
        raw.onMessage = (m) => {
          if (m.id !== i || textOf(m.result) !== "ping") wrong++;
          if (++i === CALLS) resolve((now() - t0) / CALLS);
          else raw.send(echoRequest(i));
        };
        raw.send(echoRequest(0));
      }),
  },
  {
    name: "第 22 章 McpClient.request",
    server: () => serverPid(ours.client),
    sample: async () => {
      const t0 = now();
      for (let i = 0; i < CALLS; i++) {
        const r = await ours.client.request("tools/call", { name: "echo", arguments: { text: "ping" } });
        if (textOf(r) !== "ping") wrong++;
      }
      return (now() - t0) / CALLS;
    },
  },
  {
    name: "第 22 章 McpTool.execute（含适配器）",
    server: () => serverPid(ours.client),
    sample: async () => {
      const t0 = now();
      for (let i = 0; i < CALLS; i++) if ((await adapter.execute('{"text":"ping"}')) !== "ping") wrong++;
      return (now() - t0) / CALLS;
    },
  },
  {
    name: "官方 SDK Client.callTool",
    server: sdk.pid,
    sample: async () => {
      const t0 = now();
      for (let i = 0; i < CALLS; i++) if (textOf(await sdk.client.callTool({ name: "echo", arguments: { text: "ping" } })) !== "ping") wrong++;
      return (now() - t0) / CALLS;
    },
  },
];

const m = await measure(contenders, ROUNDS, WARMUP);
const limit = m.samples.get(contenders[0]!.name)!;
const cpuPerCall = (name: string) => median(m.cpu.get(name)!) / CALLS;
table(
  ["每次往返", "中位数", "最小–最大", "对极限", "逐轮四分位", "CPU/次", "CPU 对极限"],
  contenders.map((c) => {
    const s = m.samples.get(c.name)!;
    const cpu = pairedRatio(m.cpu.get(c.name)!, m.cpu.get(contenders[0]!.name)!);
    return [c.name, fmtTime(median(s)), fmtRange(s), fmtRatio(pairedRatio(s, limit)), fmtQuartiles(pairedRatios(s, limit)), fmtTime(cpuPerCall(c.name)), fmtRatio(cpu)];
  }),
);
integrity("每次调用都拿回了自己的 ping", wrong === 0, `${wrong} 次不对`);
verdict("roundtrip", "往返（第 22 章）对管道极限", m, contenders[1]!.name, contenders[0]!.name, "<=", 1.2);

await Promise.all([raw.close(), ours.client.close(), sdk.client.close()]);
finish();
