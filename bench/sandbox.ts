// sandbox.ts：第 23 章的沙箱让一条命令慢了多少。同一次运行里轮流起 `bash -c true`：
// 普通的 spawn（第 22 章），和经过第 23 章 confine() 的 bwrap（只读的根、私有 /tmp、藏起的秘密、新的命名空间）——
// 在一个全新的文件夹里：每条命令现看受保护的路径、放上七个占位文件，退出后拿掉，这些也算在里面。
// 另加一行只挂载、不建新命名空间的 bwrap，看时间花在哪。目标：沙箱里的 ≤ 1.5 × 普通的 + 20 毫秒（逐轮配对，取中位数）。
// 运行：node --import tsx bench/sandbox.ts [--quick]
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { bwrapArgs, confine, detect, SECRETS, startSandbox } from "../chapters/23-sandbox/sandbox.ts";
import { finish, fmtQuartiles, fmtRange, fmtRatio, fmtTime, integrity, measure, median, now, pairedRatios, percentile, pinToOneCpu, QUICK, section, table, target } from "./lib.ts";

pinToOneCpu();

const ROUNDS = QUICK ? 1 : 40;
const WARMUP = QUICK ? 0 : 3;

const found = await detect();
if ("reason" in found) {
  section("7. 沙箱的代价", "这台机器上没有能用的沙箱，跳过");
  console.log(`  ${found.reason}`);
} else if (found.kind !== "bwrap") {
  section("7. 沙箱的代价", "只量 bubblewrap（Linux）；sandbox-exec 这里跑不了");
} else {
  await run(found.program);
}
finish();

async function run(bwrap: string) {
  // 一个像样的工作目录和家目录：秘密目录都在，好让参数和真用时一样长
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "lh-bench-sandbox-")));
  const home = path.join(base, "home");
  const work = path.join(base, "work");
  for (const dir of [".ssh", ".aws", ".config/gh", ".harness"]) fs.mkdirSync(path.join(home, dir), { recursive: true });
  fs.mkdirSync(work); // 全新的文件夹：受保护的路径一个都还没有，每条命令都要放占位（最贵的情形）
  const kind = (p: string) => {
    const stat = fs.statSync(p, { throwIfNoEntry: false });
    return stat?.isDirectory() ? ("dir" as const) : stat ? ("file" as const) : undefined;
  };
  const args = bwrapArgs({ cwd: work, home, denyRead: SECRETS, kind });
  const mountsOnly = args.filter((a) => a !== "--unshare-all");

  await startSandbox(work, home, () => {}); // 和 main.ts 一样开好沙箱，confine() 才会套上 bwrap

  let broken = 0; // 退出码不是 0：应该永远是 0
  const time = (argv: () => { argv: string[]; release: () => void }) => async () => {
    const t0 = now();
    const { argv: [program, ...rest], release } = argv();
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(program!, rest, { cwd: work, stdio: "ignore", detached: true });
      child.on("error", () => resolve(-1));
      child.on("close", (c) => resolve(c));
    });
    release();
    if (code !== 0) broken++;
    return now() - t0;
  };
  const plainly = (argv: string[]) => () => ({ argv, release: () => {} });
  const PLAIN = "普通 spawn：bash -c true";
  const SANDBOXED = "第 23 章：confine() → bwrap … bash -c true";
  const MOUNTS = "只挂载，不建新命名空间";
  section("7. 沙箱的代价：一条 bash -c true", `同一次运行里轮流上场；热身 ${WARMUP} 轮后测 ${ROUNDS} 轮。计时从 spawn 到子进程的管道关上`);
  const m = await measure(
    [
      { name: PLAIN, sample: time(plainly(["bash", "-c", "true"])) },
      { name: SANDBOXED, sample: time(() => confine("bash", ["-c", "true"])) },
      { name: MOUNTS, sample: time(plainly([bwrap, ...mountsOnly, "bash", "-c", "true"])) },
    ],
    ROUNDS,
    WARMUP,
  );
  const left = fs.readdirSync(work);
  fs.rmSync(base, { recursive: true, force: true });
  integrity("每条命令都以退出码 0 结束", broken === 0, `${broken} 次不是`);
  integrity("占位文件一个不留", left.length === 0, `工作目录里还有 ${left.join("、")}`);
  const plain = m.samples.get(PLAIN)!;
  const boxed = m.samples.get(SANDBOXED)!;
  table(
    ["", "中位数", "范围", "对普通 spawn（逐轮配对）"],
    [PLAIN, SANDBOXED, MOUNTS].map((name) => {
      const s = m.samples.get(name)!;
      return [name, fmtTime(median(s)), fmtRange(s), name === PLAIN ? "1.00×" : `${fmtRatio(median(pairedRatios(s, plain)))}（四分位 ${fmtQuartiles(pairedRatios(s, plain))}）`];
    }),
  );
  const extra = boxed.map((b, i) => b - plain[i]!);
  console.log(`  每条命令多花：中位数 ${fmtTime(median(extra))}（四分位 ${fmtTime(percentile(extra, 25))}–${fmtTime(percentile(extra, 75))}；单独一轮可以是负的：机器忙时普通的那一次也会被拖慢）`);
  // 目标写成一个比值：沙箱里的耗时 ÷（1.5 × 普通的 + 20 毫秒），逐轮配对，中位数 ≤ 1 就达标
  const budget = boxed.map((b, i) => b / (1.5 * plain[i]! + 20));
  target("sandbox", "沙箱里的 bash -c true ÷（1.5 × 普通 spawn + 20 毫秒）", median(budget), "<=", 1, undefined, budget);
}
