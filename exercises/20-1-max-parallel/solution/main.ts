// main.ts：目录页——读配置，把问题发给模型，打印回答。
// 第 20 章改动：四个碰文件系统的工具套上 fs-lock.ts 的锁——检查路径和用它之间，不许一条 bash 插进来。
import { RoundLimitError, maxParallelFrom, runAgent } from "./agent.ts";
import { InterruptError, Interrupter } from "./interrupt.ts";
import { ConfigError, ModelError, envInt, loadConfig, type Message } from "./model.ts";
import { buildSystemPrompt, skillList } from "./prompt.ts";
import { locked } from "./fs-lock.ts";
import { guard, loadPolicy } from "./permissions.ts";
import { Registry } from "./registry.ts";
import { confirm, repl } from "./repl.ts";
import { createSession, isSessionId, loadSession, saveSession, type Session } from "./session.ts";
import { discoverSkills } from "./skills.ts";
import { UsageLedger } from "./usage.ts";
import { estimateText } from "./tokens.ts";
import { bashTool } from "./tools/bash.ts";
import { editFileTool, writeFileTool } from "./tools/edit.ts";
import { loadSkillTool } from "./tools/load-skill.ts";
import { subAgentTool } from "./tools/sub-agent.ts";
import { TodoList, todoTool } from "./tools/todo.ts";
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
  // skill 每次启动都重新发现（load_skill 要用）；恢复的会话沿用它存下的 system prompt，前缀不变
  const skills = discoverSkills(process.cwd());
  let session: Session;
  let history: Message[];
  if (resuming) {
    const loaded = loadSession(process.cwd(), resumeId);
    if (typeof loaded === "string") throw new ConfigError(loaded);
    ({ session, history } = loaded);
    console.error(`[接着会话 ${session.id}：恢复了 ${history.length} 条消息]`);
  } else {
    session = createSession(process.cwd());
    // 又一笔当场算清的账：清单跟着 system prompt，每一轮请求都要再发一遍
    if (skills.length > 0) console.error(`[skill 清单：${skills.length} 个，约 ${estimateText(skillList(skills))} tokens，随 system prompt 每轮都算钱]`);
    history = [{ role: "system", content: buildSystemPrompt(process.cwd(), new Date(), skills) }];
  }

  const registry = new Registry();
  // 只有终端才能问人；输入来自管道或文件时，“要问”就等于“拒绝”
  const ask = process.stdin.isTTY ? confirm : undefined;
  const policy = await loadPolicy(process.cwd(), ask); // 没被信任的文件夹，这里会问一句要不要信任它
  // 锁套在 guard 外面：权限的判决（解开链接、看路径在不在工作目录里）和工具用这个路径，是轮到它的同一段
  registry.register(locked("read", guard(readFileTool, policy, ask)));
  registry.register(locked("bash", guard(bashTool, policy, ask)));
  registry.register(locked("write", guard(writeFileTool, policy, ask)));
  registry.register(locked("write", guard(editFileTool, policy, ask)));
  if (skills.length > 0) registry.register(loadSkillTool(skills));
  registry.register(todoTool(new TodoList()));
  const maxRounds = envInt(process.env, "HARNESS_MAX_ROUNDS", 20, 1);
  const budget = envInt(process.env, "HARNESS_TOOL_BUDGET", 20_000, 100, "字符数");
  const compactAt = envInt(process.env, "HARNESS_COMPACT_AT", 60_000, 1, "tokens");
  const maxParallel = maxParallelFrom(process.env); // 练习 20-1：子 agent 也照这个数
  const ledger = new UsageLedger();
  // sub_agent 最后登记：它拿到的注册表快照里是此前登记的全部工具，唯独没有它自己
  const system = String(history[0]?.content ?? "");
  registry.register(subAgentTool(system, { config, registry: registry.snapshot(), maxRounds, budget, compactAt, ledger, maxParallel }));

  const interrupter = new Interrupter();

  // 一问答完就存：进程随时可能被杀，最多丢正在进行的这一问
  async function turn(prompt: string) {
    history.push({ role: "user", content: prompt });
    const nestedBefore = ledger.nestedInput;
    try {
      await runAgent(history, { config, registry, maxRounds, budget, compactAt, ledger, maxParallel, save: () => saveSession(session, history), signal: interrupter.begin() });
      if (ledger.nestedInput > nestedBefore) console.error(ledger.line());
    } catch (e) {
      // 轮数到顶、被中断时历史是完整的，照样存；模型服务出错时已经存过的轮留着（REPL 会撤回这一问，见下面）
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
    const snapshot = [...history];
    try {
      await turn(line);
    } catch (e) {
      if (e instanceof RoundLimitError) return console.error(`错误: ${e.message}`);
      if (e instanceof InterruptError) return; // 已经中断过的这一问留在历史里，接着等下一句
      if (!(e instanceof ModelError)) throw e;
      // REPL 里一次请求失败不退出：换回这一问之前的历史（这一问里可能压缩过，不能只截短），接着聊。
      // 这一问已经逐轮存过了，文件里也要记下撤回，否则 --resume 会把它带回来
      history.splice(0, history.length, ...snapshot);
      saveSession(session, history);
      console.error(`错误: ${e.message}`);
    }
  });
  if (session.view.length > 0) console.error(`[会话已保存：用 --resume ${session.id} 接着聊]`);
}

// 预料之中的错只打一行中文；预料之外的（也就是 bug）照常抛出，留着堆栈好查
main().catch((e) => {
  if (e instanceof InterruptError) return void (process.exitCode = 130);
  if (!(e instanceof ConfigError || e instanceof ModelError || e instanceof RoundLimitError)) throw e;
  console.error(`错误: ${e.message}`);
  process.exitCode = e instanceof ConfigError ? 2 : 1;
});
