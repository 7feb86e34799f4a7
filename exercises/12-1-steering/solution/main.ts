// main.ts：目录页——读配置，把问题发给模型，打印回答。
// 第 12 章改动：每一问都带一个能被 Ctrl-C 中断的 signal；中断后 REPL 接着等下一句，单次模式退出 130。
// 练习 12-1：REPL 里，agent 干活时敲的行交给 runAgent 插进下一次请求。
import { RoundLimitError, runAgent } from "./agent.ts";
import { InterruptError, Interrupter } from "./interrupt.ts";
import { ConfigError, ModelError, envInt, loadConfig, type Message } from "./model.ts";
import { buildSystemPrompt } from "./prompt.ts";
import { guard, loadPolicy } from "./permissions.ts";
import { Registry } from "./registry.ts";
import { confirm, repl, typedMeanwhile } from "./repl.ts";
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

  const registry = new Registry();
  // 只有终端才能问人；输入来自管道或文件时，“要问”就等于“拒绝”
  const ask = process.stdin.isTTY ? confirm : undefined;
  const policy = await loadPolicy(process.cwd(), ask); // 没被信任的文件夹，这里会问一句要不要信任它
  registry.register(guard(readFileTool, policy, ask));
  registry.register(guard(bashTool, policy, ask));
  registry.register(guard(writeFileTool, policy, ask));
  registry.register(guard(editFileTool, policy, ask));
  const maxRounds = envInt(process.env, "HARNESS_MAX_ROUNDS", 20, 1);

  const interrupter = new Interrupter();

  // 一问答完就存：进程随时可能被杀，最多丢正在进行的这一问
  async function turn(prompt: string, steer?: () => string[]) {
    history.push({ role: "user", content: prompt });
    try {
      await runAgent(history, { config, registry, maxRounds, signal: interrupter.begin(), steer });
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
      await turn(line, typedMeanwhile);
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
