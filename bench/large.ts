// large.ts：大结果——100 KB、5 MB、32 MiB 的工具结果，文字里全是多字节字符（见 servers/payload.mjs）。
// 每次都核对收到的文字和期望的逐字节一致（比 sha256）：管道每 64 KiB 切一块，多字节字符一定被切开过。
// 官方 SDK 的读缓冲默认上限 10 MiB（REFERENCE B），32 MiB 时它会怎样，照实报告。
// 运行：node --import tsx bench/large.ts [--quick]
import { makeText } from "./servers/payload.mjs";
import { blobRequest, check, finish, fmtRange, fmtRatio, fmtTime, gc, integrity, interleave, median, now, pairedRatio, pinToOneCpu, QUICK, RawPipe, section, sha256, startOurs, startSdk, table, target, textOf, type Contender } from "./lib.ts";

pinToOneCpu();

const MiB = 1024 * 1024;
const SIZES = [
  { label: "100 KB", bytes: 100_000, rounds: QUICK ? 1 : 15, calls: QUICK ? 1 : 5 },
  { label: "5 MB", bytes: 5_000_000, rounds: QUICK ? 1 : 10, calls: 1 },
  { label: "32 MiB", bytes: 32 * MiB, rounds: QUICK ? 1 : 5, calls: 1 },
];
const WARMUP = QUICK ? 0 : 1;
const SDK_CAP = 10 * MiB; // STDIO_DEFAULT_MAX_BUFFER_SIZE

section(
  "4. 大结果：一次 tools/call 拿回一大段多字节文字",
  `每个大小热身 ${WARMUP} 轮后测若干轮，轮流上场；样本是一次调用从发出到拿到完整结果（解析好的 JSON）；每次都比对 sha256`,
);

const raw = await RawPipe.start();
const ours = await startOurs();
const sdk = await startSdk();
let nextId = 1;

interface Row {
  name: string;
  samples: number[];
  intact: number; // 逐字节一致的次数
  total: number;
  note?: string;
}

let ratio5mb = NaN;
let ours32Intact = false;
let ours32Total = 0;
for (const size of SIZES) {
  const expected = sha256(makeText(size.bytes));
  const rows = new Map<string, Row>();
  // 一个参赛者：连续调 calls 次，每次计时、核对；样本是平均每次的耗时
  const contender = (name: string, call: () => Promise<string>): Contender => {
    const row: Row = { name, samples: [], intact: 0, total: 0 };
    rows.set(name, row);
    return {
      name,
      sample: async (measured) => {
        let spent = 0;
        for (let i = 0; i < size.calls; i++) {
          const t0 = now();
          const text = await call();
          spent += now() - t0;
          if (measured) {
            row.total++;
            if (sha256(text) === expected) row.intact++;
          }
          gc();
        }
        return spent / size.calls;
      },
    };
  };
  const contenders = [
    contender("管道极限（裸 ping-pong）", async () => textOf((await raw.call(blobRequest(nextId++, size.bytes))).result)),
    contender("第 22 章 McpClient.request", async () => textOf(await ours.client.request("tools/call", { name: "blob", arguments: { bytes: size.bytes } }))),
  ];
  // 超过 10 MiB 的结果，默认配置的 SDK 收不下：单独试，不放进计时
  if (size.bytes <= SDK_CAP) contenders.push(contender("官方 SDK Client.callTool", async () => textOf(await sdk.client.callTool({ name: "blob", arguments: { bytes: size.bytes } }))));

  const samples = await interleave(contenders, size.rounds, WARMUP);
  const limit = samples.get(contenders[0]!.name)!;
  console.log(`\n  —— ${size.label}（${size.bytes.toLocaleString("en")} 字节），每轮每个参赛者 ${size.calls} 次，测 ${size.rounds} 轮 ——`);
  const tableRows = contenders.map((c) => {
    const row = rows.get(c.name)!;
    const s = samples.get(c.name)!;
    const mbps = size.bytes / MiB / (median(s) / 1000);
    return [c.name, fmtTime(median(s)), fmtRange(s), fmtRatio(pairedRatio(s, limit)), `${mbps.toFixed(0)} MiB/s`, `${row.intact}/${row.total}`];
  });

  if (size.bytes > SDK_CAP) {
    // 1) 默认配置：照实记下发生了什么
    const fresh = await startSdk();
    const errors: string[] = [];
    fresh.client.onerror = (e) => errors.push(e.message);
    const t0 = now();
    let outcome: string;
    try {
      const text = textOf(await fresh.client.callTool({ name: "blob", arguments: { bytes: size.bytes } }));
      outcome = sha256(text) === expected ? "居然收下了，逐字节一致" : "收下了，但内容不一致";
    } catch (e) {
      outcome = `调用失败：${(e as Error).message}`;
    }
    const spent = now() - t0;
    await fresh.client.close().catch(() => {});
    tableRows.push(["官方 SDK（默认 10 MiB 上限）", "失败", "—", "—", "—", "0/1"]);
    console.log(`  官方 SDK 默认配置：${outcome}（${fmtTime(spent)} 后）`);
    if (errors.length > 0) console.log(`    它的 onerror 报的是：${errors[0]}`);

    // 2) 把上限调到 64 MiB（maxBufferSize）再试：能收下，但读缓冲每来一块都把整个缓冲区复制一遍
    if (QUICK) {
      console.log("  官方 SDK 调高上限（maxBufferSize 64 MiB）：quick 模式跳过（它要好几秒）");
    } else {
      const raised = await startSdk({ maxBufferSize: 64 * MiB });
      const times: number[] = [];
      let intact = 0;
      const tries = 2;
      for (let i = 0; i < tries; i++) {
        gc();
        const t1 = now();
        const text = textOf(await raised.client.callTool({ name: "blob", arguments: { bytes: size.bytes } }, undefined, { timeout: 600_000 }));
        times.push(now() - t1);
        if (sha256(text) === expected) intact++;
      }
      await raised.client.close();
      tableRows.push(["官方 SDK（maxBufferSize 调到 64 MiB）", fmtTime(median(times)), fmtRange(times), fmtRatio(median(times) / median(limit)), `${(size.bytes / MiB / (median(times) / 1000)).toFixed(0)} MiB/s`, `${intact}/${tries}`]);
      console.log(`  官方 SDK 调高上限后单独调了 ${tries} 次（不在轮流里；对极限的比值按中位数算）`);
    }
  }
  table(["耗时", "中位数", "最小–最大", "对极限", "速率", "字节一致"], tableRows);

  for (const name of [contenders[0]!.name, contenders[1]!.name]) {
    const row = rows.get(name)!;
    integrity(`${size.label} ${name} 收到的文字逐字节一致`, row.intact === row.total && row.total > 0, `${row.intact}/${row.total}`);
  }
  if (size.bytes === 5_000_000) ratio5mb = pairedRatio(samples.get(contenders[1]!.name)!, limit);
  if (size.bytes === 32 * MiB) {
    const row = rows.get(contenders[1]!.name)!;
    ours32Intact = row.intact === row.total && row.total > 0;
    ours32Total = row.total;
  }
}

console.log("");
target("large", "5 MB 结果（第 22 章）对管道极限", ratio5mb, "<=", 2);
check("large", "32 MiB 结果（第 22 章）逐字节一致", ours32Intact, ours32Intact ? `${ours32Total}/${ours32Total} 次一致` : "有不一致");

await Promise.all([raw.close(), ours.client.close(), sdk.client.close()]);
finish();
