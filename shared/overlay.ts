// 练习的答案是一层“覆盖”：exercises/<练习>/solution/ 只放这道练习改了的文件（加上它自己的 README），
// 别的文件跟着它的底——练习名开头的章号那一章（22-1-… 的底是第 22 章）。要整份答案的命令（check、verify、demo、
// 测试、网站……）都经过 fullTree()：把底和覆盖叠成一个真目录，放在 .cache/solutions/<内容的指纹>/，内容不变就不再叠。
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./scenario.ts";

// 一棵树里的全部文件（相对路径，排好序）；node_modules 这类不算
export function filesIn(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => !f.split(path.sep).includes("node_modules") && fs.statSync(path.join(dir, f)).isFile())
    .map((f) => f.split(path.sep).join("/"))
    .sort();
}

// 练习的底：名字开头的章号那一章（不以章号开头的算最后一章）
export function baseChapter(exercise: string, root = ROOT): string {
  const chapters = fs.readdirSync(path.join(root, "chapters")).filter((d) => /^\d\d-/.test(d)).sort();
  return chapters.find((c) => c.slice(0, 2) === exercise.match(/^(\d\d)-/)?.[1]) ?? chapters.at(-1)!;
}

// dir 是不是某个练习的 solution/（认真实路径：符号链接、../ 绕过来的也算）
export function overlayOf(dir: string, root = ROOT): { exercise: string; base: string } | undefined {
  const real = fs.existsSync(dir) ? fs.realpathSync(dir) : path.resolve(dir);
  const rel = path.relative(fs.realpathSync(path.join(root, "exercises")), real).split(path.sep);
  if (rel.length !== 2 || rel[1] !== "solution" || rel[0].startsWith("..")) return undefined;
  return { exercise: rel[0], base: path.join(root, "chapters", baseChapter(rel[0], root)) };
}

// 要整份答案的地方都用它：是练习的答案，就叠好交出叠出来的目录；别的目录（读者自己的、某一章）原样交回
export function fullTree(dir: string, root = ROOT): string {
  const overlay = overlayOf(dir, root);
  return overlay ? layOver(overlay.base, dir, path.join(root, ".cache", "solutions"), overlay.exercise) : dir;
}

// 各练习答案叠好的整份。给了 file，只要答案自己改过它的那几份：没改的和底那一章一字不差，底那一章已经算过了
export function solutionTrees(file?: string, root = ROOT): string[] {
  const exercises = path.join(root, "exercises");
  return fs
    .readdirSync(exercises)
    .sort()
    .map((e) => path.join(exercises, e, "solution"))
    .filter((dir) => fs.existsSync(dir) && (file === undefined || fs.existsSync(path.join(dir, file))))
    .map((dir) => fullTree(dir, root));
}

// 把 top 叠在 base 上，放进 cache/<名字>-<指纹>/。几个进程同时叠同一份：先在自己的临时目录里叠好，改名是原子的
export function layOver(base: string, top: string, cache: string, name: string): string {
  const layers = [base, top].map((dir) => filesIn(dir).map((f) => ({ f, dir })));
  const merged = new Map<string, string>(); // 相对路径 → 取自哪一层
  for (const layer of layers) for (const { f, dir } of layer) merged.set(f, dir);
  const hash = createHash("sha256");
  for (const [f, dir] of [...merged].sort()) hash.update(f).update("\0").update(fs.readFileSync(path.join(dir, f))).update("\0");
  const out = path.join(cache, `${name}-${hash.digest("hex").slice(0, 12)}`);
  if (fs.existsSync(out)) return out;
  const partial = `${out}.${process.pid}.tmp`;
  fs.rmSync(partial, { recursive: true, force: true });
  for (const [f, dir] of merged) {
    fs.mkdirSync(path.dirname(path.join(partial, f)), { recursive: true });
    fs.copyFileSync(path.join(dir, f), path.join(partial, f));
  }
  try {
    fs.renameSync(partial, out);
  } catch {
    fs.rmSync(partial, { recursive: true, force: true }); // 别人先叠好了同一份
  }
  return out;
}

// 把一份完整的答案副本削成覆盖：和底那一章一字不差的文件删掉（README 留着：那是答案自己的话）。
// 返回删掉的文件。已经是覆盖的，再跑一遍什么也不删
export function trimToOverlay(solution: string, base: string): string[] {
  const removed: string[] = [];
  for (const f of filesIn(solution)) {
    if (f === "README.md" || !fs.existsSync(path.join(base, f))) continue;
    if (!fs.readFileSync(path.join(solution, f)).equals(fs.readFileSync(path.join(base, f)))) continue;
    fs.rmSync(path.join(solution, f));
    removed.push(f);
  }
  // 删空了的子目录也删掉
  for (const f of removed) {
    for (let d = path.dirname(path.join(solution, f)); d !== solution && fs.existsSync(d) && fs.readdirSync(d).length === 0; d = path.dirname(d)) fs.rmdirSync(d);
  }
  return removed;
}

// 练习有意改变了它那一章某个场景的输出（比如 14-1 在超出预算的结果后面多给一行路径）：exercises/<练习>/rewrites/<场景>/
// 放那一份 expected.txt 和一行理由 why.txt。verify 和 test:all 拿练习的答案跑那一章自己的场景时用它
export function exerciseRewrite(exercise: string, scenario: string, root = ROOT): { file: string; why: string } | undefined {
  const dir = path.join(root, "exercises", exercise, "rewrites", scenario);
  const file = path.join(dir, "expected.txt");
  if (!fs.existsSync(file)) return undefined;
  const why = path.join(dir, "why.txt");
  return { file, why: fs.existsSync(why) ? fs.readFileSync(why, "utf8").trim() : "" };
}
