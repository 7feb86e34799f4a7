// npm run verify -- 06 my-harness：拿第 06 章的全部场景（每种服务商形状各一遍）检查你自己写的实现。
// 和 npm test 用的是同一套场景、同一个脚本模型、同一份 expected.txt。
import fs from "node:fs";
import path from "node:path";
import { ROOT, compareTranscripts, expectedFor, hasTerminalTool, listScenarios, profilesOf, runScenario } from "../shared/scenario.ts";
import { chapterFromArg, chapterNumber, green, red, usageError } from "./run.ts";

const usage = "npm run verify -- <章号> <你的目录>";
const [chapterArg, dirArg, extra] = process.argv.slice(2);
const chapter = chapterFromArg(chapterArg, usage);
if (dirArg === undefined) usageError(`还缺你的目录。用法: ${usage}（目录里要有 main.ts）`);
if (extra !== undefined) usageError(`参数太多了。用法: ${usage}`);
const impl = path.resolve(process.env.INIT_CWD ?? process.cwd(), dirArg);
if (!fs.existsSync(path.join(impl, "main.ts"))) {
  usageError(`${impl} 里没有 main.ts：请给出你那一章实现所在的目录（main.ts 就在它下面）`);
}

const nn = chapterNumber(chapter);
const jobs = listScenarios(chapter).flatMap((s) => profilesOf(s).map((profile) => ({ s, profile })));
if (jobs.length === 0) usageError(`第 ${nn} 章还没有场景（shared/fixtures/${chapter}/ 是空的）`);

// 同时最多跑 2 个：每个场景都是一个真子进程加一个 HTTP 服务器
const limit = 2;
let running = 0;
const waiting: (() => void)[] = [];
async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (running < limit) running++;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

// 要伪终端的场景（第 9 章问 y/N）需要 util-linux 的 script；macOS 自带的 script 参数不同，只好跳过
const terminal = hasTerminalTool();
const SKIPPED = "跳过";
let skipped = 0;

const results = jobs.map(({ s, profile }) =>
  slot(async () => {
    const file = expectedFor(s, profile);
    if (!fs.existsSync(file)) return `场景缺少 ${path.relative(ROOT, file)}`;
    if (s.spec.tty && !terminal) return SKIPPED;
    try {
      const result = await runScenario(s, impl, { profile });
      return compareTranscripts("转录", fs.readFileSync(file, "utf8"), result.transcript);
    } catch (e) {
      return `运行场景时出错：${e instanceof Error ? e.message : String(e)}`;
    }
  }),
);

// 按场景顺序打印，先跑完的也排队等前面的
let passed = 0;
let failed = 0;
for (const [i, { s, profile }] of jobs.entries()) {
  const problem = await results[i];
  const label = `${s.name} [${profile}]`;
  if (problem === SKIPPED) {
    skipped++;
    console.log(`- ${label}（跳过：这个场景要在伪终端里跑，需要 util-linux 的 script 命令）`);
    continue;
  }
  if (problem === null) {
    passed++;
    console.log(green(`✓ ${label}`, process.stdout));
    continue;
  }
  failed++;
  console.log(red(`✗ ${label}`, process.stdout));
  const detail = (s.spec.description ? [`场景：${s.spec.description}`] : []).concat(problem.trimEnd().split("\n"));
  console.log(detail.map((line) => (line ? "    " + line : "")).join("\n"));
}
console.log(`第 ${nn} 章：${passed} 个通过，${failed} 个失败${skipped ? `，${skipped} 个跳过` : ""}`);
process.exitCode = failed > 0 ? 1 : 0;
