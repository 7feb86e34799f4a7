// main.ts：目录页——读配置，把问题发给模型，打印回答。
// 第 14 章改动：读工具结果的预算 HARNESS_TOOL_BUDGET，交给循环。
// 练习 14-1 改动：超出预算的结果存进会话的目录（SavedOutputs），读它的 read_file 不用问；会话没存成就不留。
import path from "node:path";
import { RoundLimitError, runAgent } from "./agent.ts";
import { InterruptError, Interrupter } from "./interrupt.ts";
import { ConfigError, ModelError, envInt, loadConfig, type Message } from "./model.ts";
import { SavedOutputs } from "./outputs.ts";
import { buildSystemPrompt } from "./prompt.ts";
import { guard, loadPolicy } from "./permissions.ts";
import { Registry } from "./registry.ts";
import { confirm, repl } from "./repl.ts";
import { createSession, isSessionId, loadSession, saveSession, type Session } from "./session.ts";
import { bashTool } from "./tools/bash.ts";
import { editFileTool, writeFileTool } from "./tools/edit.ts";
import { readFileTool } from "./tools/read-file.ts";

async function main() {
  const config = loadConfig(process.env);
  const args = process.argv.slice(2);
  // --resume 接最新的会话，--resume <ID> 接指定的；后面的参数仍然是问题
  let resumeId: string | undefined;
  const resuming = args[0] === "--resume";
  if (resuming) {
    args.shift();
    if (args[0] && isSessionId(args[0])) resumeId = args.shift();
  }
  let session: Session;
  let history: Message[];
  if (resuming) {
    const loaded = loadSession(process.cwd(), resumeId);
    if (typeof loaded === "string") throw new ConfigError(loaded);
    ({ session, history } = loaded);
    console.error(`[接着会话 ${session.id}：恢复了 ${history.length} 条消息]`);
  } else {
    session = createSession(process.cwd());
    history = [{ role: "system", content: buildSystemPrompt(process.cwd(), new Date()) }];
  }

  // 存在会话文件旁边、以会话 id 为名的目录里：跟着会话走，不在工作目录里
  const outputs = new SavedOutputs(path.join(path.dirname(session.file), session.id));
  process.on("exit", () => session.saved === 0 && outputs.discard());

  const registry = new Registry();
  // 只有终端才能问人；输入来自管道或文件时，“要问”就等于“拒绝”
  const ask = process.stdin.isTTY ? confirm : undefined;
  const policy = await loadPolicy(process.cwd(), ask); // 没被信任的文件夹，这里会问一句要不要信任它
  registry.register(guard(readFileTool, policy, ask, (args) => outputs.has(args.path)));
  registry.register(guard(bashTool, policy, ask));
  registry.register(guard(writeFileTool, policy, ask));
  registry.register(guard(editFileTool, policy, ask));
  const maxRounds = envInt(process.env, "HARNESS_MAX_ROUNDS", 20, 1);
  const budget = envInt(process.env, "HARNESS_TOOL_BUDGET", 20_000, 100, "字符数");

  const interrupter = new Interrupter();

  // 一问答完就存：进程随时可能被杀，最多丢正在进行的这一问
  async function turn(prompt: string) {
    history.push({ role: "user", content: prompt });
    try {
      await runAgent(history, { config, registry, maxRounds, budget, outputs, signal: interrupter.begin() });
    } catch (e) {
      // 轮数到顶、被中断时历史是完整的，照样存；模型服务出错时这一问会被撤掉，不存
      if (e instanceof RoundLimitError || e instanceof InterruptError) saveSession(session, history);
      throw e;
    } finally {
      interrupter.end();
    }
    saveSession(session, history);
  }

  const prompt = args.join(" ").trim();
  if (prompt) await turn(prompt);
  else await repl(async (line) => {
    const before = history.length;
    try {
      await turn(line);
    } catch (e) {
      if (e instanceof RoundLimitError) return console.error(`错误: ${e.message}`);
      if (e instanceof InterruptError) return; // 已经中断过的这一问留在历史里，接着等下一句
      if (!(e instanceof ModelError)) throw e;
      // REPL 里一次请求失败不退出：撤掉这一问留下的半截历史，接着聊
      history.length = before;
      console.error(`错误: ${e.message}`);
    }
  });
  if (session.saved > 0) console.error(`[会话已保存：用 --resume ${session.id} 接着聊]`);
}

// 预料之中的错只打一行中文；预料之外的（也就是 bug）照常抛出，留着堆栈好查
main().catch((e) => {
  if (e instanceof InterruptError) return void (process.exitCode = 130);
  if (!(e instanceof ConfigError || e instanceof ModelError || e instanceof RoundLimitError)) throw e;
  console.error(`错误: ${e.message}`);
  process.exitCode = e instanceof ConfigError ? 2 : 1;
});
