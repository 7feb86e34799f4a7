// npm run solution -- 22-1 ~/sol22-1：把练习的参考答案整份写出来（第 22 章叠上答案改了的文件），可以直接 npm run ch 那样跑、随便改。
// 仓库里的答案只放它改了的文件：要看改了什么，看 exercises/<练习>/solution/；要整份，用这个命令。
import fs from "node:fs";
import path from "node:path";
import { fullTree } from "../shared/overlay.ts";
import { ROOT } from "../shared/scenario.ts";
import { usageError } from "./run.ts";

const [id, dirArg, extra] = process.argv.slice(2);
const exercises = fs.readdirSync(path.join(ROOT, "exercises")).filter((d) => fs.existsSync(path.join(ROOT, "exercises", d, "solution")));
const usage = `用法: npm run solution -- <练习> <目录>（练习：${exercises.map((d) => d.split("-").slice(0, 2).join("-")).join("、")}）`;
const exercise = id ? exercises.find((d) => d === id || d.startsWith(id + "-")) : undefined;
if (!exercise) usageError(id ? `没有练习 ${id}。${usage}` : usage);
if (!dirArg) usageError(`还缺要写到的目录。${usage}`);
if (extra !== undefined) usageError(`参数太多了。${usage}`);
const out = path.resolve(process.env.INIT_CWD ?? process.cwd(), dirArg);
if (fs.existsSync(out) && (!fs.statSync(out).isDirectory() || fs.readdirSync(out).length > 0)) {
  usageError(`${dirArg} 已经存在而且不是空目录：不覆盖，换一个目录`);
}
fs.cpSync(fullTree(path.join(ROOT, "exercises", exercise, "solution")), out, { recursive: true });
console.log(`已把 ${exercise} 的参考答案整份写到 ${dirArg}（第 ${exercise.slice(0, 2)} 章加上答案改了的文件）`);
