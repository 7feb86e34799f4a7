// npm start：播放第 22 章的实验一（脚本模型，离线；真的时间服务器、真的 MCP 客户端，用真的时钟）——书里这个实验在哪台机器上都跑得起来；
// npm start -- "问题"：用你配置的模型运行最新一章。
import { chapterDirs } from "../shared/scenario.ts";
import { dim, playDemo, runChapter, usageError } from "./run.ts";

const newest = chapterDirs().at(-1) ?? usageError("chapters/ 下还没有任何一章");
const EXPERIMENT_1 = "22-mcp-client"; // 它的演示场景就是 experiment-1
const args = process.argv.slice(2);
if (args.length > 0) {
  process.exitCode = await runChapter(newest, args);
} else {
  process.exitCode = await playDemo(EXPERIMENT_1, { realClock: true, ask: "npm start --" });
  console.error(dim(`[提示] 问真模型: npm start -- "问题"；看别的章: npm run demo -- <章号>`, process.stderr));
}
