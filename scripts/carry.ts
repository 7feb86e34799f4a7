// 维护者用：把在某一章里对一个文件做的修改，带到后面每一章和每个练习的 solution/（答案排在最后）。
// 答案是覆盖（只放它改了的文件）：它没有的文件跟着它那一章走，不用带；带完和那一章一字不差的文件从答案里删掉。
// 修改 = 工作区里的这份对 git HEAD 里的那份。沿着文件的血统一章接一章做三方合并（git merge-file）：
// 带进第 k 章时，底版是第 k-1 章 HEAD 里的这个文件，“他们的”是第 k-1 章带好以后的样子——
// 后面的章自己为了它的课改过这个文件，两边的修改都留下；改到同一处就留下冲突标记，链子停在那一章。
// README.md 不带（每章、每个答案的 README 是它自己的文字）。合并完重写 README 的转录块和章节索引。
// 用法：npm run carry -- 07 tools/bash.ts [更多文件] [--dry-run]
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { baseChapter } from "../shared/overlay.ts";
import { ROOT } from "../shared/scenario.ts";
import { trimAll } from "./overlay.ts";
import { regenerate } from "./transcripts.ts";

export type Outcome =
  | "merged" // 合并干净，写进去了
  | "already" // 已经有这个修改，一个字没动
  | "conflict" // 留下了冲突标记
  | "conflict-kept" // 会冲突，可它在工作区里已有未提交的改动（也许是解决好的冲突）：没动它
  | "copied" // 本章新加的文件，复制到还没有它的地方
  | "foreign" // 本章新加的文件，这里已经有一份不同的同名文件：不是同一条血统，没动它
  | "unresolved" // 上次留下的冲突标记还没解决
  | "missing" // 没有这个文件
  | "inherited" // 练习答案里没有这个文件：它跟着答案那一章，那一章带好了它就好了
  | "blocked"; // 链子在前面停下了：等那里的冲突解决

export interface TargetReport {
  target: string; // 相对仓库根的路径，如 chapters/12-interrupt/tools/bash.ts
  outcome: Outcome;
}

export interface CarryReport {
  source: string;
  added: boolean; // 源文件在 HEAD 里还没有：本章新加的
  targets: TargetReport[];
  stoppedAt?: string; // 链子停在哪一章（chapters/NN-slug）：后面的章和从它们来的答案要等它的冲突解决
}

export class CarryError extends Error {}

// 后面每一章，然后是每个练习的 solution/。答案是它那一章的后代：练习 22-1-… 的答案从第 22 章来（名字不以章号开头的算最后一章）；
// 那一章比本章还早的答案，不是这个文件的后代
export interface Tree {
  dir: string; // chapters/12-interrupt，或 exercises/22-1-call-timeout/solution
  parent?: string; // 答案：它从哪一章来
}

export function laterTrees(root: string, chapter: string): Tree[] {
  const chapters = fs.readdirSync(path.join(root, "chapters")).filter((d) => /^\d\d-/.test(d)).sort();
  const exercises = path.join(root, "exercises");
  const solutions = (fs.existsSync(exercises) ? fs.readdirSync(exercises).sort() : [])
    .filter((e) => fs.existsSync(path.join(exercises, e, "solution")))
    .map((e) => ({ dir: `exercises/${e}/solution`, parent: baseChapter(e, root) }))
    .filter((t) => t.parent >= chapter);
  return [...chapters.filter((c) => c > chapter).map((c) => ({ dir: `chapters/${c}` })), ...solutions];
}

// "7"、"07"、"07-bash" 都认
export function findChapterIn(root: string, arg: string): string | undefined {
  const n = arg.match(/^(\d+)/)?.[1];
  if (!n) return undefined;
  return fs.readdirSync(path.join(root, "chapters")).find((d) => d.startsWith(n.padStart(2, "0") + "-"));
}

function committed(root: string, rel: string): string | undefined {
  try {
    return execFileSync("git", ["show", `HEAD:./${rel}`], { cwd: root, stdio: ["ignore", "pipe", "ignore"], maxBuffer: 64 << 20 }).toString("utf8");
  } catch {
    return undefined; // HEAD 里没有这个路径
  }
}

function working(root: string, rel: string): string | undefined {
  const file = path.join(root, rel);
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
}

// git merge-file 的三方合并，只算不写：clean=false 时 text 里是冲突标记（--diff3，连底版一起给出）
function merge3(ours: string, base: string, theirs: string, labels: [string, string, string]): { text: string; clean: boolean } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lh-carry-"));
  try {
    const files = ["ours", "base", "theirs"].map((n) => path.join(dir, n));
    [ours, base, theirs].forEach((text, i) => fs.writeFileSync(files[i], text));
    const args = ["merge-file", "-p", "--diff3", ...labels.flatMap((l) => ["-L", l]), ...files];
    const r = spawnSync("git", args, { encoding: "utf8", maxBuffer: 64 << 20 });
    // 退出码是冲突的处数；负数（255）才是出错
    if (r.error || r.status === null || r.status >= 128) throw new CarryError(`git merge-file 出错：${r.stderr || r.error?.message}`);
    return { text: r.stdout, clean: r.status === 0 };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const hasMarkers = (text: string) => /^<{7} /m.test(text) && /^>{7} /m.test(text);

export function carry(root: string, chapter: string, file: string, options: { dryRun?: boolean } = {}): CarryReport {
  const source = `chapters/${chapter}/${file}`;
  const before = committed(root, source);
  const after = working(root, source);
  if (after === undefined) {
    throw new CarryError(before === undefined ? `没有 ${source}` : `${source} 在工作区里被删了：删文件 carry 不带，到每一章里 git rm 它`);
  }
  if (before === after) throw new CarryError(`${source} 和 HEAD 里的一样，没有修改可带：先在这一章改好它（还没提交），再跑 carry`);
  if (hasMarkers(after)) throw new CarryError(`${source} 里还有冲突标记：先解决它，再往后带`);
  const write = (rel: string, text: string) => {
    if (options.dryRun) return;
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  const trees = laterTrees(root, chapter);
  const targets: TargetReport[] = [];

  // 本章新加的文件：它属于本章之后的每一个快照。还没有它的地方复制过去；已有同名文件的，那是另一条血统，不碰
  if (before === undefined) {
    for (const { dir, parent } of trees) {
      const target = `${dir}/${file}`;
      const current = working(root, target);
      const absent = parent === undefined ? "copied" : "inherited"; // 答案没有它，就跟着它那一章
      const outcome = current === undefined ? absent : current === after ? "already" : "foreign";
      if (outcome === "copied") write(target, after);
      targets.push({ target, outcome });
    }
    return { source, added: true, targets };
  }

  // 沿着血统往后：prev 是上一章的（HEAD 里的，带好以后的）。答案用它那一章带好以后的；答案彼此不是后代
  type Pair = { label: string; old: string; new: string };
  let prev: Pair = { label: source, old: before, new: after };
  const pairAfter = new Map<string, Pair>([[chapter, prev]]); // 每一章带好以后，往下传的那一对；链子停下以后的章没有
  let stoppedAt: string | undefined;
  for (const { dir, parent } of trees) {
    const target = `${dir}/${file}`;
    const from = parent === undefined ? (stoppedAt ? undefined : prev) : pairAfter.get(parent);
    if (!from) {
      targets.push({ target, outcome: "blocked" });
      continue;
    }
    const current = working(root, target);
    let outcome: Outcome;
    if (current === undefined) outcome = parent === undefined ? "missing" : "inherited";
    else if (hasMarkers(current)) outcome = "unresolved";
    else {
      const head = committed(root, target) ?? current; // 还没提交过的（比如新加的一章）：工作区里的就是它的底
      const labels: [string, string, string] = [`${target}（这一处现在的）`, `${from.label}（改之前）`, `${from.label}（改之后）`];
      const merged = merge3(current, from.old, from.new, labels);
      if (merged.clean) outcome = merged.text === current ? "already" : "merged";
      else outcome = current === head ? "conflict" : "conflict-kept";
      if (outcome === "merged" || outcome === "conflict") write(target, merged.text);
      if (parent === undefined) {
        // 往下一章带的，是这一章 HEAD 里的版本带上修改的样子——工作区里别的没提交的改动不跟着走
        const next = current === head ? merged : merge3(head, from.old, from.new, labels);
        if (next.clean) prev = { label: target, old: head, new: next.text };
        else stoppedAt = dir;
      }
    }
    targets.push({ target, outcome });
    if (parent === undefined) {
      if (outcome === "unresolved") stoppedAt = dir;
      if (!stoppedAt) pairAfter.set(dir.slice("chapters/".length), prev);
    }
  }
  return { source, added: false, targets, stoppedAt };
}

const WORDS: Record<Outcome, string> = {
  merged: "合并干净",
  already: "已经有了",
  conflict: "冲突：留下了冲突标记，手工解决",
  "conflict-kept": "冲突：它在工作区里已有未提交的改动（解决过的冲突？），没动它",
  copied: "新文件，复制过去",
  foreign: "已有一份不同的同名文件（另一条血统），没动它",
  unresolved: "还有没解决的冲突标记，没动它",
  missing: "没有这个文件",
  inherited: "答案没改这个文件，跟着它那一章",
  blocked: "待续：链子停在前面，等那里的冲突解决",
};

// 给人看的报告；dry-run 时说“会”
export function reportLines(report: CarryReport, dryRun: boolean): string[] {
  const lines = [`${report.source}${report.added ? "（本章新加的文件）" : ""}${dryRun ? " —— 只看不写（--dry-run）" : ""}：`];
  const width = Math.max(...report.targets.map((t) => t.target.length), 0);
  for (const t of report.targets) {
    const word = dryRun && !["missing", "already", "blocked", "inherited"].includes(t.outcome) ? `会：${WORDS[t.outcome]}` : WORDS[t.outcome];
    lines.push(`  ${t.target.padEnd(width)}  ${word}`);
  }
  if (report.targets.length === 0) lines.push("  （后面没有章，也没有练习）");
  return lines;
}

function main(argv: string[]): number {
  const usage = "用法: npm run carry -- <章号> <章内文件路径>… [--dry-run]（如 npm run carry -- 07 tools/bash.ts）";
  const dryRun = argv.includes("--dry-run");
  const args = argv.filter((a) => a !== "--dry-run");
  const unknown = args.find((a) => a.startsWith("--"));
  if (unknown) return fail(`不认识的选项 ${unknown}。${usage}`);
  // 也认一整条路径：chapters/07-bash/tools/bash.ts
  const whole = args.length === 1 ? args[0].match(/^chapters\/([^/]+)\/(.+)$/) : null;
  if (whole) args.splice(0, 1, whole[1], whole[2]);
  const [chapterArg, ...files] = args;
  const root = ROOT;
  const chapter = chapterArg === undefined ? undefined : findChapterIn(root, chapterArg);
  if (!chapter) return fail(`${chapterArg === undefined ? "" : `没有第 ${chapterArg} 章。`}${usage}`);
  if (files.length === 0) return fail(`还缺文件。${usage}`);
  const wanted: string[] = [];
  for (const raw of files) {
    const file = path.posix.normalize(raw.replaceAll("\\", "/"));
    if (path.posix.isAbsolute(file) || file.startsWith("..")) return fail(`${raw}：要写章目录里的相对路径，如 tools/bash.ts`);
    if (path.posix.basename(file) === "README.md") return fail("README.md 不带：每一章、每个练习答案的 README 是它自己的文字，要改就逐个改");
    wanted.push(file);
  }
  let reports: CarryReport[];
  try {
    // 先只看不写走一遍：哪个文件有问题（没改、有冲突标记……），一个都不写
    reports = wanted.map((file) => carry(root, chapter, file, { dryRun: true }));
    if (!dryRun) reports = wanted.map((file) => carry(root, chapter, file));
  } catch (e) {
    if (e instanceof CarryError) return fail(e.message);
    throw e;
  }
  for (const r of reports) console.log(reportLines(r, dryRun).join("\n"));
  if (!dryRun) for (const line of [...trimAll(root), ...regenerate()]) console.log(line); // 带完和它那一章一样了的答案文件删掉
  let stuck = false;
  for (const r of reports) {
    const file = r.source.split("/").slice(2).join("/");
    if (r.stoppedAt) {
      const nn = r.stoppedAt.slice("chapters/".length, "chapters/".length + 2);
      const fix = dryRun ? "" : "解决它的冲突标记（<<<<<<< … >>>>>>>），";
      console.log(`${dryRun ? "会停在" : "停在了"} ${r.stoppedAt}/${file}：${fix}再从那一章接着带：npm run carry -- ${nn} ${file}`);
    }
    const bad = r.targets.filter((t) => t.target !== `${r.stoppedAt}/${file}` && ["conflict", "conflict-kept", "unresolved"].includes(t.outcome));
    for (const t of bad) console.log(`${dryRun ? "会冲突" : "冲突"}：${t.target}${dryRun ? "" : "，手工解决"}`);
    stuck ||= Boolean(r.stoppedAt) || bad.length > 0;
    if (r.targets.some((t) => t.outcome === "foreign")) console.log("有的地方已有一份不同的同名文件：carry 没碰它，看看是不是该合成一份");
  }
  if (stuck) return 1;
  if (!dryRun) console.log("下一步：git diff 审一遍，再重录受影响各章的转录（见 CONTRIBUTING.md）");
  return 0;
}

function fail(message: string): number {
  console.error(message);
  return 2;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) process.exitCode = main(process.argv.slice(2));
