// main.ts：目录页——读配置，把问题发给模型，打印回答。
// 第 22 章改动：接入 mcp.json 里的 MCP 服务器——在 skill 之后、sub_agent 之前，子 agent 也用得上别人的工具；
// 打印和收尾（进程钩子，connectMcp）归这里，mcp.ts 只管连接。会话的开头和 REPL 里的一问挪成了函数，main() 还是一页目录。
// REPL 多了 /mcp：每个服务器的状态和它交给模型的工具描述，用户看得到模型看到的东西。
import { RoundLimitError, runAgent } from "./agent.ts";
import { InterruptError, Interrupter } from "./interrupt.ts";
import { MAX_LINE } from "./jsonrpc.ts";
import { CLOSE_GRACE_MS, type McpClient } from "./mcp-client.ts";
import { connectMcpServers, mcpReport, type McpConnections, type McpOptions } from "./mcp.ts";
import { ConfigError, ModelError, envInt, loadConfig, type Message } from "./model.ts";
import { buildSystemPrompt, skillList } from "./prompt.ts";
import { locked } from "./fs-lock.ts";
import { guard, loadPolicy } from "./permissions.ts";
import { Registry } from "./registry.ts";
import { confirm, repl, type Command } from "./repl.ts";
import { createSession, isSessionId, loadSession, saveSession, type Session } from "./session.ts";
import { PROBE_MS } from "./mcp-client.ts"; // 练习 22-6：探路时限的默认值（单独一行，和别的练习改的 import 隔开）
import { discoverSkills, type Skill } from "./skills.ts";
import { UsageLedger } from "./usage.ts";
import { safeLine } from "./terminal.ts";
import { estimateText } from "./tokens.ts";
import { bashTool } from "./tools/bash.ts";
import { editFileTool, writeFileTool } from "./tools/edit.ts";
import { loadSkillTool } from "./tools/load-skill.ts";
import { subAgentTool } from "./tools/sub-agent.ts";
import { TodoList, todoTool } from "./tools/todo.ts";
import { workflowTool } from "./tools/workflow.ts";
import { readFileTool } from "./tools/read-file.ts";

async function main() {
  const config = loadConfig(process.env);
  const args = process.argv.slice(2);
  // skill 每次启动都重新发现（load_skill 要用）；恢复的会话沿用它存下的 system prompt，前缀不变
  const skills = discoverSkills(process.cwd());
  // --resume 接最新的会话，--resume <ID> 接指定的；后面的参数仍然是问题
  const resuming = args[0] === "--resume";
  if (resuming) args.shift();
  const { session, history } = openSession(resuming, args, skills);

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
  // 信号处理在连接之前就装好：握手还没完时按 Ctrl-C，已经起来的服务器也得收拾（进程钩子见 connectMcp）
  const interrupter = new Interrupter();
  const mcp = await connectMcp(registry.names(), { log: (line) => console.error(line) });
  const maxRounds = envInt(process.env, "HARNESS_MAX_ROUNDS", 20, 1);
  const budget = envInt(process.env, "HARNESS_TOOL_BUDGET", 20_000, 100, "字符数");
  const compactAt = envInt(process.env, "HARNESS_COMPACT_AT", 60_000, 1, "tokens");
  const ledger = new UsageLedger();
  // 别人的工具登记在内置工具之后、sub_agent 和 workflow 之前：
  // 它们派出的子 agent 拿到的注册表快照里也有这些工具
  for (const tool of mcp.tools) registry.register(tool);
  // sub_agent 和 workflow 最后登记：它们派出的子 agent 拿到的注册表快照里是此前登记的全部工具，唯独没有这两个
  const system = String(history[0]?.content ?? "");
  const forSubAgents = { config, registry: registry.snapshot(), maxRounds, budget, compactAt, ledger };
  registry.register(subAgentTool(system, forSubAgents));
  registry.register(workflowTool(system, forSubAgents));

  // 一问答完就存：进程随时可能被杀，最多丢正在进行的这一问
  async function turn(prompt: string) {
    history.push({ role: "user", content: prompt });
    const nestedBefore = ledger.nestedInput;
    try {
      await runAgent(history, { config, registry, maxRounds, budget, compactAt, ledger, save: () => saveSession(session, history), signal: interrupter.begin() });
      if (ledger.nestedInput > nestedBefore) console.error(ledger.line());
    } catch (e) {
      // 轮数到顶、被中断时历史是完整的，照样存；模型服务出错时已经存过的轮留着（REPL 会撤回这一问，见 replTurn）
      if (e instanceof RoundLimitError || e instanceof InterruptError) saveSession(session, history);
      throw e;
    } finally {
      interrupter.end();
    }
    saveSession(session, history);
  }

  const prompt = args.join(" ").trim();
  if (prompt) await turn(prompt);
  else await repl((line) => replTurn(line, turn, history, session), [mcpCommand(mcp)]);
  if (session.view.length > 0) console.error(`[会话已保存：用 --resume ${session.id} 接着聊]`);
}

// /mcp：服务器和工具描述都是别人写的，每一行过 terminal.ts 再上屏
function mcpCommand(mcp: McpConnections): Command {
  const run = () => void process.stderr.write(mcpReport(mcp.servers).map((line) => safeLine(line) + "\n").join(""));
  return { name: "mcp", help: "列出 MCP 服务器、它们的状态和交给模型的工具描述", run };
}

// 接着一个存下的会话（args 开头是会话 ID 就取走它，没有就接最新的），或者开一个新会话
function openSession(resuming: boolean, args: string[], skills: Skill[]): { session: Session; history: Message[] } {
  if (resuming) {
    const loaded = loadSession(process.cwd(), args[0] && isSessionId(args[0]) ? args.shift() : undefined);
    if (typeof loaded === "string") throw new ConfigError(loaded);
    console.error(`[接着会话 ${loaded.session.id}：恢复了 ${loaded.history.length} 条消息]`);
    return loaded;
  }
  // 又一笔当场算清的账：清单跟着 system prompt，每一轮请求都要再发一遍
  if (skills.length > 0) console.error(`[skill 清单：${skills.length} 个，约 ${estimateText(skillList(skills))} tokens，随 system prompt 每轮都算钱]`);
  const history: Message[] = [{ role: "system", content: buildSystemPrompt(process.cwd(), new Date(), skills) }];
  return { session: createSession(process.cwd()), history };
}

// 连上 mcp.json 里的服务器；进程钩子归这里。exit 钩子在连接之前就装好：握手还没完时收到 SIGTERM，已经起来的服务器也得收拾。
// 事件循环空了（beforeExit）就体面地关掉它们；process.exit（第二次 Ctrl-C、SIGTERM、SIGHUP）来不及等，
// exit 钩子直接杀掉它们的进程组——无论怎么结束、什么时候结束，都不留下进程
async function connectMcp(taken: readonly string[], options: McpOptions): Promise<McpConnections> {
  // 客户端的两个上限：默认值是 jsonrpc.ts、mcp-client.ts 里的常量，测试把它们调小
  const maxLine = envInt(process.env, "HARNESS_MCP_MAX_LINE", MAX_LINE, 1024, "字节");
  const closeGraceMs = envInt(process.env, "HARNESS_MCP_CLOSE_GRACE_MS", CLOSE_GRACE_MS, 1, "毫秒");
  const probeMs = envInt(process.env, "HARNESS_MCP_PROBE_MS", PROBE_MS, 1, "毫秒"); // 练习 22-6：探路的时限
  const limits = { maxLine, closeGraceMs, probeMs }; // 先放进变量：Limits 里没有 probeMs，McpClient 自己去取
  const started: McpClient[] = [];
  process.once("exit", () => started.forEach((client) => client.kill()));
  const mcp = await connectMcpServers(process.cwd(), taken, { ...options, limits, started: (client) => started.push(client) });
  process.once("beforeExit", () => void mcp.close());
  started.splice(0, started.length, ...mcp.clients); // 握手失败的早已杀掉，它的进程组号可能被别人用上了：不再对它发信号
  return mcp;
}

// REPL 里的一问出了错：轮数到顶只打一行；被中断过的这一问留在历史里，接着等下一句；
// 模型服务出错时不退出，换回这一问之前的历史（这一问里可能压缩过，不能只截短），接着聊。
// 这一问已经逐轮存过了，文件里也要记下撤回，否则 --resume 会把它带回来
async function replTurn(line: string, turn: (prompt: string) => Promise<void>, history: Message[], session: Session) {
  const snapshot = [...history];
  try {
    await turn(line);
  } catch (e) {
    if (e instanceof RoundLimitError) return console.error(`错误: ${e.message}`);
    if (e instanceof InterruptError) return;
    if (!(e instanceof ModelError)) throw e;
    history.splice(0, history.length, ...snapshot);
    saveSession(session, history);
    console.error(`错误: ${e.message}`);
  }
}

// 预料之中的错只打一行中文；预料之外的（也就是 bug）照常抛出，留着堆栈好查
main().catch((e) => {
  if (e instanceof InterruptError) return void (process.exitCode = 130);
  if (!(e instanceof ConfigError || e instanceof ModelError || e instanceof RoundLimitError)) throw e;
  console.error(`错误: ${e.message}`);
  process.exitCode = e instanceof ConfigError ? 2 : 1;
});
