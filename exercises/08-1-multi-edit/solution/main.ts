// main.ts：目录页——读配置，把问题发给模型，打印回答。
// 第 08 章改动：登记 write_file 和 edit_file。练习 08-1：再登记 multi_edit。
import { RoundLimitError, runAgent } from "./agent.ts";
import { ConfigError, ModelError, envInt, loadConfig, type Message } from "./model.ts";
import { buildSystemPrompt } from "./prompt.ts";
import { Registry } from "./registry.ts";
import { repl } from "./repl.ts";
import { bashTool } from "./tools/bash.ts";
import { editFileTool, multiEditTool, writeFileTool } from "./tools/edit.ts";
import { readFileTool } from "./tools/read-file.ts";

async function main() {
  const config = loadConfig(process.env);
  const history: Message[] = [{ role: "system", content: buildSystemPrompt(process.cwd(), new Date()) }];

  const registry = new Registry();
  registry.register(readFileTool);
  registry.register(bashTool);
  registry.register(writeFileTool);
  registry.register(editFileTool);
  registry.register(multiEditTool);
  const maxRounds = envInt(process.env, "HARNESS_MAX_ROUNDS", 20, 1);

  async function turn(prompt: string) {
    history.push({ role: "user", content: prompt });
    await runAgent(history, { config, registry, maxRounds });
  }

  const prompt = process.argv.slice(2).join(" ").trim();
  if (prompt) return turn(prompt);
  await repl(async (line) => {
    const before = history.length;
    try {
      await turn(line);
    } catch (e) {
      if (e instanceof RoundLimitError) return console.error(`错误: ${e.message}`);
      if (!(e instanceof ModelError)) throw e;
      // REPL 里一次请求失败不退出：撤掉这一问留下的半截历史，接着聊
      history.length = before;
      console.error(`错误: ${e.message}`);
    }
  });
}

// 预料之中的错只打一行中文；预料之外的（也就是 bug）照常抛出，留着堆栈好查
main().catch((e) => {
  if (!(e instanceof ConfigError || e instanceof ModelError || e instanceof RoundLimitError)) throw e;
  console.error(`错误: ${e.message}`);
  process.exitCode = e instanceof ConfigError ? 2 : 1;
});
