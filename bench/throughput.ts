// throughput.ts：同时有 64 个调用在途时，一秒能做多少次 tools/call，以及单次调用的 p50/p99 延迟。
// 场景是几个并行的子 agent 共用一个 MCP 服务器。参照物是同一条管道上 64 个在途的裸 ping-pong。
// 运行：node --import tsx bench/throughput.ts [--quick]
import { echoRequest, finish, fmtQuartiles, fmtRange, fmtRate, fmtRatio, fmtTime, integrity, measure, median, now, pairedRatio, pairedRatios, percentile, pinToOneCpu, QUICK, RawPipe, section, serverPid, startOurs, startSdk, table, textOf, verdict, type Contender } from "./lib.ts";

pinToOneCpu();

const IN_FLIGHT = 64;
// 一个样本几十毫秒：同一轮里极限和第 22 章前后脚上场，机器负载来不及变（再短就散得更开，见 roundtrip.ts）
const CALLS = QUICK ? 200 : 5000; // 每轮每个参赛者完成的调用数
const ROUNDS = QUICK ? 2 : 18; // 3 个参赛者：6 的倍数，出场顺序完全平衡（见 lib.ts 的 order）
const WARMUP = QUICK ? 0 : 3;

section(
  `2. 吞吐：${IN_FLIGHT} 个调用同时在途`,
  `每轮每个参赛者完成 ${CALLS} 次调用（一个完成就补发一个，始终 ${IN_FLIGHT} 个在途），热身 ${WARMUP} 轮后测 ${ROUNDS} 轮；延迟是每次调用从发出到拿到结果`,
);

const raw = await RawPipe.start();
const ours = await startOurs();
const sdk = await startSdk();
let wrong = 0;
const latencies = new Map<string, number[]>();

// 客户端的用法：64 个“工人”各自 await 一个调用，完成了再领下一个
function closedLoop(name: string, server: () => number | undefined, call: () => Promise<string>): Contender {
  latencies.set(name, []);
  return {
    name,
    server,
    sample: async (measured) => {
      const lat = latencies.get(name)!;
      let next = 0;
      const t0 = now();
      const worker = async () => {
        while (next < CALLS) {
          next++;
          const t = now();
          const text = await call();
          if (measured) lat.push(now() - t);
          if (text !== "ping") wrong++;
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
      return CALLS / ((now() - t0) / 1000);
    },
  };
}

const LIMIT = "管道极限（64 个在途的裸 ping-pong）";
latencies.set(LIMIT, []);
const contenders: Contender[] = [
  {
    name: LIMIT,
    server: () => raw.child.pid,
    sample: (measured) =>
      new Promise((resolve) => {
        const lat = latencies.get(LIMIT)!;
        const sentAt = new Float64Array(CALLS);
        let next = 0;
        let done = 0;
        const t0 = now();
        const send = () => {
          sentAt[next] = now();
          raw.send(echoRequest(next++));
        };
        raw.onMessage = (m) => {
          const t = now();
          if (measured) lat.push(t - sentAt[m.id]!);
          if (textOf(m.result) !== "ping") wrong++;
          if (++done === CALLS) resolve(CALLS / ((t - t0) / 1000));
          else if (next < CALLS) send();
        };
        while (next < IN_FLIGHT) send();
      }),
  },
  closedLoop("第 22 章 McpClient.request", () => serverPid(ours.client), async () => textOf(await ours.client.request("tools/call", { name: "echo", arguments: { text: "ping" } }))),
  closedLoop("官方 SDK Client.callTool", sdk.pid, async () => textOf(await sdk.client.callTool({ name: "echo", arguments: { text: "ping" } }))),
];

const m = await measure(contenders, ROUNDS, WARMUP);
const limit = m.samples.get(LIMIT)!;
table(
  ["吞吐（次/秒）", "中位数", "最小–最大", "对极限", "逐轮四分位", "CPU/次", "延迟 p50", "延迟 p99", "p99 对极限"],
  contenders.map((c) => {
    const s = m.samples.get(c.name)!;
    const lat = latencies.get(c.name)!;
    const p99 = percentile(lat, 99);
    const cpu = median(m.cpu.get(c.name)!) / CALLS;
    return [c.name, fmtRate(median(s)), fmtRange(s, fmtRate), fmtRatio(pairedRatio(s, limit)), fmtQuartiles(pairedRatios(s, limit)), fmtTime(cpu), fmtTime(percentile(lat, 50)), fmtTime(p99), fmtRatio(p99 / percentile(latencies.get(LIMIT)!, 99))];
  }),
);
integrity("每次调用都拿回了自己的 ping", wrong === 0, `${wrong} 次不对`);
verdict("throughput", "64 个在途的吞吐（第 22 章）对管道极限", m, contenders[1]!.name, LIMIT, ">=", 0.8, true);

await Promise.all([raw.close(), ours.client.close(), sdk.client.close()]);
finish();
