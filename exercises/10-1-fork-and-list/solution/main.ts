// main.ts：目录页——读配置，把问题发给模型，打印回答。
// 第 10 章改动：每一问答完就把新消息追加进会话文件；--resume [ID] 接着上次的会话聊。
// 练习 10-1：--resume [ID] --fork 带着那段历史另开一个新会话，原会话不动；--sessions 列出这个文件夹的会话。
import { RoundLimitError, runAgent } from "./agent.ts";
import { ConfigError, ModelError, envInt, loadConfig, type Message } from "./model.ts";
import { buildSystemPrompt } from "./prompt.ts";
import { guard, loadPolicy } from "./permissions.ts";
import { Registry } from "./registry.ts";
import { confirm, repl } from "./repl.ts";
import { createSession, isSessionId, listSessions, loadSession, saveSession, type Session } from "./session.ts";
import { safeLine } from "./terminal.ts";
import { bashTool } from "./tools/bash.ts";
import { editFileTool, writeFileTool } from "./tools/edit.ts";
import { readFileTool } from "./tools/read-file.ts";

async function main() {
  if (process.argv[2] === "--sessions") return printSessions(); // 只看本地的文件，不用模型，也不要密钥
  const config = loadConfig(process.env);
  const args = process.argv.slice(2);
  // --resume 接最新的会话，--resume <ID> 接指定的；后面的参数仍然是问题
  let resumeId: string | undefined;
  const resuming = args[0] === "--resume";
  if (resuming) {
    args.shift();
    if (args[0] && isSessionId(args[0])) resumeId = args.shift();
  }
  const fork = resuming && args[0] === "--fork";
  if (fork) args.shift();
  let session: Session;
  let history: Message[];
  if (resuming) {
    const loaded = loadSession(process.cwd(), resumeId, fork); // 分叉时只读：原会话一个字节都不碰
    if (typeof loaded === "string") throw new ConfigError(loaded);
    ({ session, history } = loaded);
    if (fork) {
      // 新会话的 saved 是 0：第一次保存时，恢复出来的整段历史连同新的一问都写进新文件
      session = createSession(process.cwd());
      console.error(`[从会话 ${loaded.session.id} 分出新会话 ${session.id}：带上了 ${history.length} 条消息，原会话不动]`);
    } else console.error(`[接着会话 ${session.id}：恢复了 ${history.length} 条消息]`);
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

  // 一问答完就存：进程随时可能被杀，最多丢正在进行的这一问
  async function turn(prompt: string) {
    history.push({ role: "user", content: prompt });
    try {
      await runAgent(history, { config, registry, maxRounds });
    } catch (e) {
      // 轮数到顶时历史是完整的，照样存；模型服务出错时这一问会被撤掉，不存
      if (e instanceof RoundLimitError) saveSession(session, history);
      throw e;
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
      if (!(e instanceof ModelError)) throw e;
      // REPL 里一次请求失败不退出：撤掉这一问留下的半截历史，接着聊
      history.length = before;
      console.error(`错误: ${e.message}`);
    }
  });
  if (session.saved > 0) console.error(`[会话已保存：用 --resume ${session.id} 接着聊]`);
}

// --sessions：一行一个会话，新的在前：id、开始的时间（就写在 id 里）、问了几问、第一问。
// 第一问是会话文件里的原文，文件谁都可能写过（模型用 bash 就能往里放一个），所以先截短再显形，一行只占一行
const FIRST_PROMPT = 40;
function printSessions() {
  const sessions = listSessions(process.cwd());
  if (sessions.length === 0) return console.log("这个工作目录还没有会话（会话在 ~/.harness/projects/ 下这个工作目录的 sessions/）");
  for (const { id, prompts, first } of sessions) {
    const time = `${id.slice(0, 4)}-${id.slice(4, 6)}-${id.slice(6, 8)} ${id.slice(9, 11)}:${id.slice(11, 13)}`;
    if (prompts === undefined) {
      console.log(`${id}  ${time}  （不是普通文件，没有读）`);
      continue;
    }
    const chars = [...(first ?? "")];
    const shown = chars.length > FIRST_PROMPT ? chars.slice(0, FIRST_PROMPT).join("") + "…" : chars.join("");
    console.log(`${id}  ${time}  ${prompts} 问  ${safeLine(shown)}`);
  }
}

// 预料之中的错只打一行中文；预料之外的（也就是 bug）照常抛出，留着堆栈好查
main().catch((e) => {
  if (!(e instanceof ConfigError || e instanceof ModelError || e instanceof RoundLimitError)) throw e;
  console.error(`错误: ${e.message}`);
  process.exitCode = e instanceof ConfigError ? 2 : 1;
});
