// npm run diff -- 05 06：第 06 章比第 05 章多了什么，就是这份 diff。
// npm run diff -- 22 22-1：练习 22-1 的参考答案比第 22 章改了什么（答案叠在第 22 章上比，路径照旧写 exercises/22-1-…/solution）。
// 先是代码（这一课本身）；README 的改动默认不列——散文一改就是几百行，会把代码挤到后面去。加 --readme 就接在代码后面给出来
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fullTree } from "../shared/overlay.ts";
import { ROOT } from "../shared/scenario.ts";
import { chapterFromArg, dim, usageError } from "./run.ts";

const usage = "npm run diff -- <章号> <章号或练习> [--readme]";
const args = process.argv.slice(2);
const withReadme = args.includes("--readme");
const [a, b, extra] = args.filter((x) => x !== "--readme");
const from = `chapters/${chapterFromArg(a, usage)}`;
const exercise = /^\d+-\d+$/.test(b ?? "") ? fs.readdirSync(path.join(ROOT, "exercises")).find((d) => d.startsWith(b + "-")) : undefined;
if (/^\d+-\d+$/.test(b ?? "") && !exercise) usageError(`没有练习 ${b}。用法: ${usage}`);
const to = exercise ? `exercises/${exercise}/solution` : `chapters/${chapterFromArg(b, usage)}`;
if (extra !== undefined) usageError(`参数太多了。用法: ${usage}`);

// 在一个临时目录里用两个链接比：答案是叠好的整份，diff 的标题照旧是 chapters/… 和 exercises/…/solution
const stage = fs.mkdtempSync(path.join(os.tmpdir(), "lh-diff-"));
process.on("exit", () => fs.rmSync(stage, { recursive: true, force: true }));
for (const [rel, real] of [[from, path.join(ROOT, from)], [to, fullTree(path.join(ROOT, to))]]) {
  fs.mkdirSync(path.dirname(path.join(stage, rel)), { recursive: true });
  fs.symlinkSync(real, path.join(stage, rel));
}

// 有的 diff（比如 busybox 的）不认 --color，先试一下
const probe = spawnSync("diff", ["--color", "/dev/null", "/dev/null"], { stdio: "ignore" });
if (probe.error) usageError("找不到 diff 命令：请先安装 diffutils（或者用 git diff --no-index 代替）");
// --color 不带值就是 auto：只在终端上着色
const color = probe.status === 0 ? ["--color"] : [];

// diff 的退出码：0 相同，1 有不同（这正是我们要看的），2 才是出错
function diff(paths: string[], exclude: string[]): Promise<number> {
  const child = spawn("diff", ["-ruN", ...color, ...exclude.flatMap((x) => ["-x", x]), ...paths], { cwd: stage, stdio: "inherit" });
  return new Promise((resolve) => child.on("close", (code) => resolve(code ?? 2)));
}

const code = await diff([from, to], ["README.md"]);
if (code === 0) console.error(dim(`${from} 和 ${to} 的代码完全相同`, process.stderr));
let readme = 0;
if (withReadme) readme = await diff([`${from}/README.md`, `${to}/README.md`], []);
else if (code <= 1) console.error(dim(`[提示] 上面只有代码；README 的改动：npm run diff -- ${a} ${b} --readme`, process.stderr));
process.exitCode = code > 1 || readme > 1 ? code || readme : 0;
