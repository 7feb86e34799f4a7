// repl.ts：交互式读行，每读到一行交给 handle；/help 说有哪些命令，/exit 或输入结束（Ctrl-D、管道读完）就退出。
// 第 22 章改动：调用方可以再加几个斜杠命令（/mcp），/help 里一并列出。
// 第 20 章改动：confirm 排队——几个工具同时要确认时，一次只问一个问题；按了 Ctrl-C，排着的也都算“不”；
// 问题开着时别人的输出先攒着（terminal.ts 的 holdOutput）。
import readline from "node:readline";
import { holdOutput, terminalOutput } from "./terminal.ts";

// 调用方加的命令：/名字、一句说明、做什么（只看不改，不发给模型）
export interface Command {
  name: string;
  help: string;
  run(): void;
}

const help = (commands: readonly Command[]) =>
  ["/help  列出这几个命令", ...commands.map((c) => `/${c.name}  ${c.help}`), "/exit  退出（Ctrl-D 也行）", "别的话都发给模型", ""].join("\n");

let active: readline.Interface | undefined; // REPL 正在用的读行器

export async function repl(handle: (line: string) => Promise<void>, commands: readonly Command[] = []): Promise<void> {
  // 提示符和回显走 stderr：stdout 只留给模型的回答
  // 读行器的输出（提示符、回显、问题）走 terminalOutput：问题开着时别人的输出排队，它不排
  const rl = readline.createInterface({ input: process.stdin, output: terminalOutput, terminal: Boolean(process.stdin.isTTY) });
  active = rl;
  // 终端在 raw 模式下按 Ctrl-C 不会产生信号，readline 把它变成一个 "SIGINT" 事件
  rl.on("SIGINT", () => process.kill(process.pid, "SIGINT"));
  rl.setPrompt("> ");
  // 输入来自管道时，读行器可能在我们还在处理前面几行时就读到了结尾、自己关掉了——
  // 这时再调 rl.prompt() 在 Node 24 里会抛错，所以提示符自己写；终端里则交给 readline（它要管行编辑）
  let closed = false;
  rl.once("close", () => (closed = true));
  const prompt = () => {
    if (!process.stdin.isTTY) process.stderr.write("> ");
    else if (!closed) rl.prompt();
  };
  prompt();
  for await (const raw of rl) {
    // 输入来自管道时终端不会回显，补打一遍，日志读起来才像一段对话
    if (!process.stdin.isTTY) process.stderr.write(raw + "\n");
    const line = raw.trim();
    if (line === "/exit") return rl.close();
    const command = commands.find((c) => line === `/${c.name}`);
    if (line === "/help") process.stderr.write(help(commands));
    else if (command) command.run();
    else if (line) await handle(line);
    prompt();
  }
  process.stderr.write("\n"); // 输入结束（Ctrl-D）：把停在提示符后面的光标换到新的一行
}

// 在终端上问一句，回答 y 或 yes 才算同意。REPL 在跑时必须借用它的读行器：
// 同一个 stdin 上再开一个，两个读行器会抢同一行输入
let asking: Promise<unknown> = Promise.resolve();

export function confirm(question: string, signal?: AbortSignal): Promise<boolean> {
  // 终端只有一个：两个问题同时挂在同一个读行器上，后一个会顶掉前一个，用户的回答也对不上号
  const turn = asking.then(() => ask(question, signal));
  asking = turn.catch(() => {});
  return turn;
}

async function ask(question: string, signal?: AbortSignal): Promise<boolean> {
  // 排在后面的问题轮到时，用户可能已经在前一个问题上按了 Ctrl-C：不再问，直接算“不”。
  // 否则 rl.question() 见到已经中断的 signal 会悄悄不问，也永远不回答，整个 REPL 就卡在这里
  if (signal?.aborted) return false;
  const rl = active ?? readline.createInterface({ input: process.stdin, output: terminalOutput, terminal: false });
  // 问题开着的时候终端只归它：同一轮别的调用、子 agent 的输出先攒着，答完再按顺序印出来，问题总是屏幕上最后一行
  const release = holdOutput();
  try {
    // 问的时候按了 Ctrl-C：把问题收回（否则用户的下一行输入会被这个过期的问题吞掉），当作“不同意”
    const answer = await new Promise<string>((resolve) => {
      rl.question(question, { signal }, resolve);
      signal?.addEventListener("abort", () => resolve(""), { once: true });
    });
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    release();
    if (rl !== active) rl.close();
  }
}
