// run.ts：npm run bench——把 bench/ 下的基准一个个跑完，最后汇总各项目标。
// 每个基准在自己的子进程里跑（一个的垃圾回收、大字符串不拖累下一个），都带 --expose-gc，好在轮与轮之间先收垃圾。
// Linux 上先用 taskset -c 0 把自己重新执行一遍，子进程和它们起的服务器都继承“只在 CPU 0 上跑”。
//   npm run bench                完整一轮（几分钟）
//   npm run bench -- --quick     每项只跑一两下（几秒），只证明脚本能跑
//   npm run bench -- --no-pin    不钉 CPU
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { allowedCpus, BENCH, fmtQuartiles, machine, median, pinNote, pinToOneCpu, QUICK, SCRIPTS, type TargetResult } from "./lib.ts";

pinToOneCpu();

const m = machine();
console.log("MCP 客户端基准：第 22 章的 McpClient 对物理极限（裸管道）和官方 SDK（@modelcontextprotocol/sdk 1.32.2）");
console.log(`  机器：${m.cpus} 个 CPU（${m.model}），Node ${m.node}，${os.platform()} ${os.release()}`);
console.log(`  ${pinNote()}`);
console.log(`  开始时的负载（1/5/15 分钟）：${m.load}${os.loadavg()[0]! >= 1 || os.loadavg()[1]! >= 1 ? "——机器上还有别的活（钉住的那个核也可能被分走），数字会比安静时抖" : ""}`);
if (QUICK) console.log("  quick 模式：每项只跑一两下，数字没有意义");

// Node ≥ 22.18 自己擦除类型：和读者在 Node 24 上 `node main.ts` 一样直接跑 .ts，不经 tsx
// （tsx 用 esbuild 转译，给每个具名函数套一层 __name；量的就不是读者跑的那份代码了）
const nativeTs = Boolean((process.features as { typescript?: unknown }).typescript);
const execArgs = nativeTs ? process.execArgv.filter((a, i, all) => !(a === "--import" && all[i + 1] === "tsx") && !(a === "tsx" && all[i - 1] === "--import")) : process.execArgv;
console.log(`  TypeScript：${nativeTs ? "Node 自己擦除类型，不经 tsx" : "经 tsx 转译（这个 Node 不会自己擦除类型）——这里的裸管道本身比 Node 24 上慢，比值会比 Node 24 上好看，目标以 Node 24 为准"}`);
// 判目标的两项各跑三次（三个进程，各自热身）：一次运行的 JIT、内存布局也是运气，三次的轮合在一起取中位数
const REPEAT: Record<string, number> = QUICK ? {} : { roundtrip: 3, throughput: 3 };

const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "lh-bench-report-")), "targets.jsonl");
fs.writeFileSync(report, "");
const started = performance.now();
const failed: string[] = [];
for (const script of SCRIPTS) {
  for (let run = 1; run <= (REPEAT[script] ?? 1); run++) {
    if (REPEAT[script]) console.log(`\n（${script} 第 ${run}/${REPEAT[script]} 次运行）`);
    const args = ["--expose-gc", ...execArgs, path.join(BENCH, `${script}.ts`), ...process.argv.slice(2)];
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, args, { stdio: "inherit", env: { ...process.env, BENCH_REPORT: report } });
      child.on("close", (c) => resolve(c));
    });
    if (code !== 0) failed.push(`${script}（退出码 ${code}）`);
  }
}

const reported = fs
  .readFileSync(report, "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l) as TargetResult);
// 同一项目标跑了几次的：逐轮的比值合在一起取中位数来判，每次运行各自的中位数也列出来
const results: (TargetResult & { runs?: number[] })[] = [];
for (const r of reported) {
  const same = results.find((x) => x.name === r.name);
  if (!same) {
    results.push({ ...r, runs: [r.ratio] });
    continue;
  }
  same.runs!.push(r.ratio);
  same.rounds = [...(same.rounds ?? []), ...(r.rounds ?? [])];
  same.ratio = median(same.rounds);
  same.met = Number.isFinite(same.ratio) && (same.op === "<=" ? same.ratio <= same.limit : same.ratio >= same.limit);
}
fs.rmSync(path.dirname(report), { recursive: true, force: true });

console.log("\n== 汇总：目标（第 22 章的客户端，比值都是同一次运行里测的） ==");
if (QUICK) console.log("  （quick 模式：比值没有意义，只看脚本跑通、完整性检查通过）");
for (const r of results) {
  const shown = Number.isFinite(r.limit) ? `${r.name} ${r.op === "<=" ? "≤" : "≥"} ${r.limit}×：${r.ratio.toFixed(2)}×` : r.name;
  const runs = r.runs && r.runs.length > 1 && r.rounds ? `（${r.runs.length} 次运行、${r.rounds.length} 轮合起来的中位数；各次 ${r.runs.map((x) => x.toFixed(2)).join(" / ")}，逐轮四分位 ${fmtQuartiles(r.rounds)}）` : "";
  console.log(`  ${r.met ? "✓" : "✗"} ${shown}${runs}`);
}
console.log(`  用时 ${((performance.now() - started) / 1000).toFixed(0)} 秒；结束时的负载：${os.loadavg().map((l) => l.toFixed(2)).join(" ")}；CPU ${allowedCpus()}`);
if (failed.length > 0) {
  console.log(`  有基准没跑完或完整性检查没过：${failed.join("、")}`);
  process.exitCode = 1;
}
