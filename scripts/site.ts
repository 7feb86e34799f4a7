// npm run site：把这本书的网页版生成到 site/（从磁盘直接打开 site/index.html 就能读）。
// npm run site -- --only experiment-1,cache-grows   只录这几个场景的线路（快）；默认每个场景都录
// npm run site -- --out /tmp/book                   写到别的目录
import path from "node:path";
import { ROOT } from "../shared/scenario.ts";
import { usageError } from "./run.ts";
import { buildSite } from "./site/build.ts";

const usage = "npm run site [-- --only 场景名,场景名] [--out 目录] [--jobs N]";
let out = path.join(ROOT, "site");
let wire: "all" | string[] = "all";
let jobs: number | undefined;
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const [flag, inline] = args[i].split(/=(.*)/s, 2);
  const value = () => inline ?? args[++i] ?? usageError(`${flag} 后面要跟一个值。用法: ${usage}`);
  if (flag === "--only") wire = value().split(",").filter(Boolean);
  else if (flag === "--out") out = path.resolve(value());
  else if (flag === "--jobs") jobs = Number(value()) || usageError(`--jobs 要一个正整数。用法: ${usage}`);
  else usageError(`不认识的参数 ${args[i]}。用法: ${usage}`);
}

const started = Date.now();
try {
  const result = await buildSite({ out, wire, jobs, log: (line) => console.error(line) });
  console.error(`写好了 ${result.pages.length} 页，录了 ${result.recorded} 个场景的线路，用了 ${((Date.now() - started) / 1000).toFixed(1)} 秒`);
  if (result.mismatched.length) console.error(`警告: 这些场景录的时候转录和 expected.txt 不一样（网页上标出来了）：${result.mismatched.join("、")}`);
  console.log(`打开 file://${path.join(out, "index.html")}`);
} catch (e: any) {
  console.error(`错误: ${e?.message ?? e}`);
  process.exitCode = 1;
}
