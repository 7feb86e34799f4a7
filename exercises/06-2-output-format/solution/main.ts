// main.ts：目录页——读配置，把问题发给模型，打印回答。
// 第 06 章改动：工具登记进注册表，一问一答交给 agent 循环（runAgent），一轮一轮跑到模型停下。
// 练习 06-2：--output-format json / stream-json，stdout 上只有给程序读的 JSON 行（见 output.ts）。
import { RoundLimitError, runAgent } from "./agent.ts";
import { ConfigError, ModelError, envInt, loadConfig, type Message } from "./model.ts";
import { ProgramOutput, parseArgs } from "./output.ts";
import { buildSystemPrompt } from "./prompt.ts";
import { Registry } from "./registry.ts";
import { repl } from "./repl.ts";
import { readFileTool } from "./tools/read-file.ts";

async function main() {
  const { format, prompt } = parseArgs(process.argv.slice(2));
  if (format !== "text" && !prompt) throw new ConfigError(`--output-format ${format} 要和命令行上的问题一起用（REPL 是给人用的）`);
  const config = loadConfig(process.env);
  const history: Message[] = [{ role: "system", content: buildSystemPrompt(process.cwd(), new Date()) }];

  const registry = new Registry();
  registry.register(readFileTool);
  const maxRounds = envInt(process.env, "HARNESS_MAX_ROUNDS", 20, 1);

  async function turn(prompt: string) {
    history.push({ role: "user", content: prompt });
    await runAgent(history, { config, registry, maxRounds });
  }

  // 给程序读：先报一行 init，经过逐条报（json 格式不报），最后一行 result。
  // 失败也是一个 result（is_error: true），再在 stderr 上说一行人话，退出码照旧是 1
  async function forProgram(format: "json" | "stream-json", question: string) {
    const output = new ProgramOutput(format);
    output.init(process.cwd(), config.model, registry.names());
    history.push({ role: "user", content: question });
    try {
      output.success(await runAgent(history, { config, registry, maxRounds, listener: output, out: process.stderr }));
    } catch (e) {
      if (!(e instanceof RoundLimitError || e instanceof ModelError)) throw e;
      output.failure(e instanceof RoundLimitError ? "error_max_turns" : "error_during_execution", e.message);
      throw e;
    }
  }

  if (format !== "text") return forProgram(format, prompt);
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
