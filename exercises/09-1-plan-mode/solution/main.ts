// main.ts：目录页——读配置，把问题发给模型，打印回答。
// 第 09 章改动：每个工具套上权限检查（guard）再登记：工作目录里的读默认放行，其余默认要问；规则读好了才开始。
// 练习 09-1：计划模式。--plan 或 REPL 里的 /plan 进入；权限检查外面再套一层 plan.gate，计划批准之前只读不改。
import { RoundLimitError, runAgent } from "./agent.ts";
import { ConfigError, ModelError, envInt, loadConfig, type Message } from "./model.ts";
import { buildSystemPrompt } from "./prompt.ts";
import { guard, loadPolicy } from "./permissions.ts";
import { PlanMode } from "./plan.ts";
import { Registry } from "./registry.ts";
import { confirm, repl } from "./repl.ts";
import { bashTool } from "./tools/bash.ts";
import { editFileTool, writeFileTool } from "./tools/edit.ts";
import { readFileTool } from "./tools/read-file.ts";

async function main() {
  const config = loadConfig(process.env);
  const history: Message[] = [{ role: "system", content: buildSystemPrompt(process.cwd(), new Date()) }];

  const registry = new Registry();
  // 只有终端才能问人；输入来自管道或文件时，“要问”就等于“拒绝”
  const ask = process.stdin.isTTY ? confirm : undefined;
  const policy = await loadPolicy(process.cwd(), ask); // 没被信任的文件夹，这里会问一句要不要信任它
  const plan = new PlanMode(registry, ask);
  registry.register(plan.gate(guard(readFileTool, policy, ask)));
  registry.register(plan.gate(guard(bashTool, policy, ask)));
  registry.register(plan.gate(guard(writeFileTool, policy, ask)));
  registry.register(plan.gate(guard(editFileTool, policy, ask)));
  const args = process.argv.slice(2);
  if (args.includes("--plan")) plan.start();
  const maxRounds = envInt(process.env, "HARNESS_MAX_ROUNDS", 20, 1);

  async function turn(prompt: string) {
    history.push({ role: "user", content: prompt });
    await runAgent(history, { config, registry, maxRounds });
  }

  const prompt = args.filter((arg) => arg !== "--plan").join(" ").trim();
  if (prompt) return turn(prompt);
  await repl(async (line) => {
    if (line === "/plan") return plan.start();
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
