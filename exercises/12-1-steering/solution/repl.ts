// repl.ts：交互式读行，每读到一行交给 handle；/help 说有哪些命令，/exit 或输入结束（Ctrl-D、管道读完）就退出。
// 第 12 章改动：终端里的 Ctrl-C 被 readline 截成事件，转回真正的 SIGINT，交给 interrupt.ts 统一处理。
// 练习 12-1：读到的行先排进队列。agent 干活时在终端里敲的行，由 typedMeanwhile() 交给 agent 插进下一次请求。
import readline from "node:readline";

const HELP = "/help  列出这几个命令\n/exit  退出（Ctrl-D 也行）\n别的话都发给模型\n";

let active: readline.Interface | undefined; // REPL 正在用的读行器
const queued: string[] = []; // 读到了、还没处理的行，按敲的先后

// agent 一轮的工具都跑完了，问一句：这期间用户敲了什么？只算终端里敲的——管道里的行是一开始就全在那儿的，
// 它们是一个接一个的问题。取到 / 开头的命令为止（/exit 留给 REPL 自己），空行不算话
export function typedMeanwhile(): string[] {
  const lines: string[] = [];
  while (process.stdin.isTTY && queued.length > 0 && !queued[0].trim().startsWith("/")) {
    const line = queued.shift()!.trim();
    if (line) lines.push(line);
  }
  return lines;
}

export async function repl(handle: (line: string) => Promise<void>): Promise<void> {
  // 提示符和回显走 stderr：stdout 只留给模型的回答
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: Boolean(process.stdin.isTTY) });
  active = rl;
  // 终端在 raw 模式下按 Ctrl-C 不会产生信号，readline 把它变成一个 "SIGINT" 事件
  rl.on("SIGINT", () => process.kill(process.pid, "SIGINT"));
  rl.setPrompt("> ");
  // 输入来自管道时，读行器可能在我们还在处理前面几行时就读到了结尾、自己关掉了——
  // 这时再调 rl.prompt() 在 Node 24 里会抛错，所以提示符自己写；终端里则交给 readline（它要管行编辑）
  let closed = false;
  let wake: (() => void) | undefined;
  // 不用 for await：它把干活时读到的行藏在自己的缓冲里，agent 拿不到。行自己排队，谁先要谁先拿
  rl.on("line", (raw) => {
    queued.push(raw);
    wake?.();
  });
  rl.once("close", () => {
    closed = true;
    wake?.();
  });
  const prompt = () => {
    if (!process.stdin.isTTY) process.stderr.write("> ");
    else if (!closed) rl.prompt();
  };
  prompt();
  for (;;) {
    if (queued.length === 0 && !closed) await new Promise<void>((resolve) => (wake = resolve));
    const raw = queued.shift();
    if (raw === undefined) break; // 输入结束，排着的行也都处理完了
    // 输入来自管道时终端不会回显，补打一遍，日志读起来才像一段对话
    if (!process.stdin.isTTY) process.stderr.write(raw + "\n");
    const line = raw.trim();
    if (line === "/exit") return rl.close();
    if (line === "/help") process.stderr.write(HELP);
    else if (line) await handle(line);
    prompt();
  }
  process.stderr.write("\n"); // 输入结束（Ctrl-D）：把停在提示符后面的光标换到新的一行
}

// 在终端上问一句，回答 y 或 yes 才算同意。REPL 在跑时必须借用它的读行器：
// 同一个 stdin 上再开一个，两个读行器会抢同一行输入
export async function confirm(question: string, signal?: AbortSignal): Promise<boolean> {
  const rl = active ?? readline.createInterface({ input: process.stdin, output: process.stderr, terminal: false });
  try {
    // 问的时候按了 Ctrl-C：把问题收回（否则用户的下一行输入会被这个过期的问题吞掉），当作“不同意”
    const answer = await new Promise<string>((resolve) => {
      rl.question(question, { signal }, resolve);
      signal?.addEventListener("abort", () => resolve(""), { once: true });
    });
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    if (rl !== active) rl.close();
  }
}
