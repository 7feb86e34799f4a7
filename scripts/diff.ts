// npm run diff -- 05 06：第 06 章比第 05 章多了什么，就是这份 diff。
import { spawn, spawnSync } from "node:child_process";
import { ROOT } from "../shared/scenario.ts";
import { chapterFromArg, dim, usageError } from "./run.ts";

const usage = "npm run diff -- <章号> <章号>";
const [a, b, extra] = process.argv.slice(2);
const from = chapterFromArg(a, usage);
const to = chapterFromArg(b, usage);
if (extra !== undefined) usageError(`参数太多了。用法: ${usage}`);

// 有的 diff（比如 busybox 的）不认 --color，先试一下
const probe = spawnSync("diff", ["--color", "/dev/null", "/dev/null"], { stdio: "ignore" });
if (probe.error) usageError("找不到 diff 命令：请先安装 diffutils（或者用 git diff --no-index 代替）");
// --color 不带值就是 auto：只在终端上着色
const color = probe.status === 0 ? ["--color"] : [];

const child = spawn("diff", ["-ruN", ...color, `chapters/${from}`, `chapters/${to}`], { cwd: ROOT, stdio: "inherit" });
child.on("close", (code) => {
  // diff 的退出码：0 相同，1 有不同（这正是我们要看的），2 才是出错
  if (code === 0) console.error(dim(`chapters/${from} 和 chapters/${to} 完全相同`, process.stderr));
  process.exitCode = code === 0 || code === 1 ? 0 : code ?? 2;
});
