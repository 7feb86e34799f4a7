// npm run check -- 22-1 <目录>：拿练习的检查器检查一个目录（你改好的第 22 章），逐条说清哪条要求过了、哪条没过。
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { runRequirements, type Requirement } from "../exercises/checker.ts";
import { fullTree } from "../shared/overlay.ts";
import { ROOT } from "../shared/scenario.ts";
import { green, red, usageError } from "./run.ts";
import { typecheckDir } from "./typecheck.ts";

const [id, dirArg] = process.argv.slice(2);
const exercises = fs.readdirSync(path.join(ROOT, "exercises")).filter((d) => fs.existsSync(path.join(ROOT, "exercises", d, "check.ts")));
const usage = `用法: npm run check -- <练习> <你的目录>（练习：${exercises.map((d) => d.split("-").slice(0, 2).join("-")).join("、")}）`;
const exercise = id ? exercises.find((d) => d === id || d.startsWith(id + "-")) : undefined;
if (!exercise) usageError(id ? `没有练习 ${id}。${usage}` : usage);
if (!dirArg) usageError(`还缺你的目录。${usage}`);
const impl = fullTree(path.resolve(process.env.INIT_CWD ?? process.cwd(), dirArg)); // 练习的答案叠在第 22 章上
if (!fs.existsSync(path.join(impl, "main.ts"))) usageError(`${dirArg} 里没有 main.ts：请给出你改好的那一份第 22 章所在的目录`);

const exerciseDir = path.join(ROOT, "exercises", exercise);
const { requirements } = (await import(pathToFileURL(path.join(exerciseDir, "check.ts")).href)) as { requirements: Requirement[] };
console.log(`检查 ${exercise}：${dirArg}`); // 读者敲的那个路径：~/my22 不该变成 ../../../root/my22
// 先做类型检查：类型错了，后面的行为多半也跟着错，先修这个
const typeErrors = await typecheckDir(impl);
if (typeErrors) {
  console.log(red("✗ 类型检查", process.stdout));
  console.log(typeErrors.split("\n").map((l) => "    " + l).join("\n"));
}
const outcomes = await runRequirements(exerciseDir, requirements, impl);
for (const { requirement, problem, transcript } of outcomes) {
  if (!problem) {
    console.log(green(`✓ ${requirement.name}`, process.stdout));
    continue;
  }
  console.log(red(`✗ ${requirement.name}`, process.stdout));
  console.log(problem.split("\n").map((l) => "    " + l).join("\n"));
  if (process.env.VERBOSE) console.log(transcript.split("\n").map((l) => "    | " + l).join("\n"));
}
const failed = outcomes.filter((o) => o.problem).length;
console.log(`${exercise}：${outcomes.length - failed} 条通过，${failed} 条没通过${failed && !process.env.VERBOSE ? "（VERBOSE=1 看完整输出）" : ""}${typeErrors ? "；类型检查没通过" : ""}`);
process.exitCode = failed > 0 || typeErrors ? 1 : 0;
