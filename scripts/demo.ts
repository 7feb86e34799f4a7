// npm run demo -- 6：在脚本模型上播放第 6 章的演示场景——离线，不需要密钥。
// npm run demo -- 6 play/06：同一个演示，跑在你自己的实现上。加 --repl：开这一章的 REPL，你随便敲（见 repl-demo.ts）。
import fs from "node:fs";
import path from "node:path";
import { fullTree } from "../shared/overlay.ts";
import { CHAPTERS } from "../shared/scenario.ts";
import { playRepl } from "./repl-demo.ts";
import { chapterFromArg, chapterNumber, playDemo, usageError } from "./run.ts";

const usage = "npm run demo -- <章号> [你的目录] [--repl]";
const args = process.argv.slice(2);
const repl = args.includes("--repl");
const [chapterArg, dirArg, extra] = args.filter((a) => a !== "--repl");
const chapter = chapterFromArg(chapterArg, usage);
if (extra !== undefined) usageError(`参数太多了。用法: ${usage}`);
const impl = dirArg === undefined ? path.join(CHAPTERS, chapter) : fullTree(path.resolve(process.env.INIT_CWD ?? process.cwd(), dirArg));
if (!fs.existsSync(path.join(impl, "main.ts"))) usageError(`${dirArg} 里没有 main.ts：请给出你那一章实现所在的目录（main.ts 就在它下面）`);
process.exitCode = repl ? await playRepl(Number(chapterNumber(chapter)), impl) : await playDemo(chapter, { impl });
