// npm run ch -- 6 "问题"：用你配置的模型（HARNESS_BASE_URL / HARNESS_API_KEY / HARNESS_MODEL）运行第 6 章。
// 不给问题就进入这一章的 REPL（第 02 章起）。
import { chapterFromArg, runChapter } from "./run.ts";

const [arg, ...rest] = process.argv.slice(2);
const chapter = chapterFromArg(arg, 'npm run ch -- <章号> "问题"');
process.exitCode = await runChapter(chapter, rest);
