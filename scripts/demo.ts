// npm run demo -- 6：在脚本模型上播放第 6 章的演示场景——离线，不需要密钥。
import { chapterFromArg, playDemo } from "./run.ts";

const chapter = chapterFromArg(process.argv[2], "npm run demo -- <章号>");
process.exitCode = await playDemo(chapter);
