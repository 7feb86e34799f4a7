// main.ts：目录页——读配置，把问题发给模型，打印回答。
// 第 01 章新增。
import { ConfigError, ModelError, chat, loadConfig } from "./model.ts";

async function main() {
  const config = loadConfig(process.env);
  const prompt = process.argv.slice(2).join(" ").trim();
  if (!prompt) {
    console.error('用法: npm run ch -- 1 "你的问题"');
    process.exitCode = 2;
    return;
  }
  const answer = await chat(config, [{ role: "user", content: prompt }]);
  console.log(answer);
}

// 预料之中的错只打一行中文；预料之外的（也就是 bug）照常抛出，留着堆栈好查
main().catch((e) => {
  if (!(e instanceof ConfigError || e instanceof ModelError)) throw e;
  console.error(`错误: ${e.message}`);
  process.exitCode = e instanceof ConfigError ? 2 : 1;
});
