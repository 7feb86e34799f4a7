// npm run verify -- 06 my-harness：拿适用于第 06 章的全部场景（第 01–06 章的，每种服务商形状各一遍）检查你自己写的实现。
// 和 npm test 用的是同一套场景、同一个脚本模型、同一个裁判：转录一字不差，不留进程，不发脚本模型会拒绝的请求。
// --own 只跑这一章自己的场景。类型检查和场景同时开跑；先说本章自己的场景，再说类型检查，最后是继承来的。
// 检查的不是书上这一章本身（读者的副本）时，跟着请求措辞变的数字（token 数、命中缓存）只比形状：措辞和书上差一个字，
// 这些数字就不同，可行为是对的。差在哪，拿书上这一章跑同一个场景、比两边的请求，写成一条注。--exact 逐字逐数地比。
import fs from "node:fs";
import path from "node:path";
import { CHAPTERS, ROOT, byShape, comparable, expectedFor, hasTerminalTool, judge, runScenario, scenariosFor, type Applied, type RunResult } from "../shared/scenario.ts";
import { firstRequestDifference, wordingNotes } from "../shared/wording.ts";
import { exerciseRewrite, fullTree, overlayOf } from "../shared/overlay.ts";
import type { Profile } from "../shared/scripted-model.ts";
import { chapterFromArg, chapterNumber, green, red, usageError } from "./run.ts";
import { typecheckDir } from "./typecheck.ts";

const usage = "npm run verify -- <章号> <你的目录> [--own] [--exact]";
const args = process.argv.slice(2);
const ownOnly = args.includes("--own");
const exact = args.includes("--exact");
const [chapterArg, dirArg, extra] = args.filter((a) => a !== "--own" && a !== "--exact");
const chapter = chapterFromArg(chapterArg, usage);
if (dirArg === undefined) usageError(`还缺你的目录。用法: ${usage}（目录里要有 main.ts）`);
if (extra !== undefined) usageError(`参数太多了。用法: ${usage}`);
const given = path.resolve(process.env.INIT_CWD ?? process.cwd(), dirArg);
const impl = fullTree(given); // 练习的答案叠在它那一章上
// 练习的答案可以加工具（08-1 的 multi_edit）：脚本模型对 tools 的检查放宽成“这些名字按顺序都在”，和继承来的场景一样
const exercise = overlayOf(given)?.exercise;
if (!fs.existsSync(path.join(impl, "main.ts"))) {
  usageError(`${dirArg} 里没有 main.ts：请给出你那一章实现所在的目录（main.ts 就在它下面）`);
}

const nn = chapterNumber(chapter);
// 书上这一章本身照旧逐字逐数地比（和 npm test 一样）；读者的副本，数字只比形状
const book = path.join(CHAPTERS, chapter);
const byWording = !exact && fs.realpathSync(impl) !== fs.realpathSync(book);
// 本章自己的场景排在最前：刚写的东西先有结论，继承来的（前面各章留下的承诺）跟在后面
const all = scenariosFor(chapter, { ownOnly });
const applied = [...all.filter((a) => a.own), ...all.filter((a) => !a.own)];
if (applied.length === 0) usageError(`第 ${nn} 章还没有场景（shared/fixtures/${chapter}/ 是空的）`);

// 要伪终端的场景（问 y/N、真的按 Ctrl-C）需要 util-linux 的 script；macOS 自带的 script 参数不同，只好跳过
const terminal = hasTerminalTool();

// 类型检查和场景同时开跑（tsc 要几秒，场景不必等它）；结论按顺序说：本章的场景、类型检查、继承来的场景
const typecheck = typecheckDir(impl);

// 同时最多跑 4 个：每个场景都是一个真子进程加一个 HTTP 服务器，大半时间在等
const limit = 4;
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

interface Outcome {
  problems: string[];
  notes: string[]; // 通过了，但 token 数只比了形状：为什么和书上不同
}
const SKIPPED: Outcome = { problems: ["跳过"], notes: [] };
async function outcomeOf(a: Applied, profile: Profile): Promise<Outcome> {
  if (a.s.spec.tty && !terminal) return SKIPPED;
  // 练习有意改了这个场景的输出：比它自己的那一份（exercises/<练习>/rewrites/<场景>/）
  const file = (exercise && a.own && exerciseRewrite(exercise, a.s.name)?.file) || expectedFor(a.s, profile, a.expectedDir);
  if (!fs.existsSync(file)) return { problems: [`场景缺少 ${path.relative(ROOT, file)}`], notes: [] };
  try {
    const expected = fs.readFileSync(file, "utf8");
    const view = comparable(a);
    const result = await runScenario(a.s, impl, { profile, inherited: !a.own || exercise !== undefined });
    const problems = judge("转录", expected, result, false, view);
    if (problems.length === 0 || !byWording) return { problems, notes: [] };
    return await byShapeOf(a, profile, expected, result, view, problems);
  } catch (e) {
    return { problems: [`运行场景时出错：${e instanceof Error ? e.message : String(e)}`], notes: [] };
  }
}

// 逐数比没过：拿书上这一章跑同一个场景，比两边的请求。措辞不同，数字只比形状，差在哪写成注；
// 措辞一样（不同的是行为），照旧逐字逐数地说第一处不同
async function byShapeOf(a: Applied, profile: Profile, expected: string, result: RunResult, view: (t: string) => string, exactProblems: string[]): Promise<Outcome> {
  const theirs = await runScenario(a.s, book, { profile, inherited: !a.own });
  const wording = wordingNotes(theirs.bodies, result.bodies);
  const problems = judge("转录", expected, result, false, (t) => byShape(view(t)));
  if (problems.length > 0) {
    if (wording.length === 0) return { problems: exactProblems, notes: [] };
    return { problems: [...problems, "（token 数只比了形状：你的请求措辞和书上不同，数字本来就对不上。差在：）", ...wording.map((w) => `  · ${w}`)], notes: [] };
  }
  const other = wording.length > 0 ? wording : [firstRequestDifference(theirs.bodies, result.bodies) ?? "两边的请求看不出差别"];
  return { problems: [], notes: other };
}

// 本章自己的场景先下结论（刚写的东西先知道对不对），继承来的接着跑
function reportOwn() {
  const verdict = failed === 0 ? green : red;
  const rest = applied.length - ownCount;
  console.log(verdict(`第 ${nn} 章自己的场景：${passed} 个通过，${failed} 个失败${rest ? `；接着跑前面各章留下的 ${rest} 个场景` : ""}`, process.stdout));
}

async function reportTypecheck(): Promise<string | null> {
  const errors = await typecheck;
  if (errors) {
    console.log(red("✗ 类型检查", process.stdout));
    console.log(errors.split("\n").map((l) => "    " + l).join("\n"));
  } else console.log(green("✓ 类型检查", process.stdout));
  return errors;
}

const results = applied.map((a) => a.profiles.map((profile) => slot(() => outcomeOf(a, profile))));

// 按场景顺序打印，先跑完的也排队等前面的。几家服务商形状错得一模一样，就只说一次
let passed = 0;
let failed = 0;
let skipped = 0;
let noted = 0;
let typeErrors: string | null = null;
const ownCount = applied.filter((a) => a.own).length;
for (const [i, a] of applied.entries()) {
  if (i === ownCount) {
    reportOwn();
    typeErrors = await reportTypecheck();
  }
  const outcomes = await Promise.all(results[i]);
  const from = a.own ? "" : `（第 ${chapterNumber(a.s.chapter)} 章的场景）`;
  const groups = new Map<string, { outcome: Outcome; profiles: Profile[] }>();
  outcomes.forEach((outcome, k) => {
    const key = JSON.stringify(outcome);
    groups.set(key, { outcome, profiles: [...(groups.get(key)?.profiles ?? []), a.profiles[k]] });
  });
  for (const { outcome, profiles } of groups.values()) {
    const text = outcome.problems.join("\n\n");
    const label = `${a.s.name}${from} [${profiles.length > 1 && profiles.length === a.profiles.length ? "每种服务商形状" : profiles.join("、")}]`;
    if (outcome === SKIPPED) {
      skipped += profiles.length;
      console.log(`- ${label}（跳过：这个场景要在伪终端里跑，需要 util-linux 的 script 命令）`);
    } else if (text === "") {
      passed += profiles.length;
      console.log(green(`✓ ${label}`, process.stdout));
      if (outcome.notes.length > 0) noted += profiles.length;
      if (outcome.notes.length > 0) console.log("    注：token 数和书上不同，只比了形状（要逐数比，加 --exact）。请求里和书上不同的是：");
      for (const note of outcome.notes) console.log(`      · ${note}`);
    } else {
      failed += profiles.length;
      console.log(red(`✗ ${label}`, process.stdout));
      const detail = (a.s.spec.description ? [`场景：${a.s.spec.description}`] : []).concat(text.trimEnd().split("\n"));
      console.log(detail.map((line) => (line ? "    " + line : "")).join("\n"));
    }
  }
}
if (ownCount === applied.length) {
  reportOwn();
  typeErrors = await reportTypecheck();
}
const typeNote = typeErrors ? "；类型检查没通过" : "";
const shapeNote = noted ? `（其中 ${noted} 个的 token 数和书上不同，只比了形状，见上面的注）` : "";
console.log(`第 ${nn} 章：${passed} 个通过${shapeNote}，${failed} 个失败${skipped ? `，${skipped} 个跳过` : ""}${typeNote}`);
process.exitCode = failed > 0 || typeErrors ? 1 : 0;
