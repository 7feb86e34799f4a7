// npm start：播放最新一章的演示（脚本模型，离线；时间服务器用真的时钟）；npm start -- "问题"：用你配置的模型运行最新一章。
import { chapterDirs } from "../shared/scenario.ts";
import { dim, playDemo, runChapter, usageError } from "./run.ts";

const newest = chapterDirs().at(-1) ?? usageError("chapters/ 下还没有任何一章");
const args = process.argv.slice(2);
if (args.length > 0) {
  process.exitCode = await runChapter(newest, args);
} else {
  process.exitCode = await playDemo(newest, { realClock: true, ask: "npm start --" });
  console.error(dim(`[提示] 问真模型: npm start -- "问题"；看别的章: npm run demo -- <章号>`, process.stderr));
}
