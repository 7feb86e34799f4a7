// repl.ts：交互式读行，每读到一行交给 handle；/help 说有哪些命令，/exit 或输入结束（Ctrl-D、管道读完）就退出。
// 第 09 章改动：confirm()——在终端上问一句 y/N；REPL 在跑时借用它的读行器。
// 练习 09-1：/help 里多一行 /plan（它由 main.ts 处理）。
import readline from "node:readline";

const HELP = "/help  列出这几个命令\n/plan  进入计划模式：批准计划之前只读不改\n/exit  退出（Ctrl-D 也行）\n别的话都发给模型\n";

let active: readline.Interface | undefined; // REPL 正在用的读行器

export async function repl(handle: (line: string) => Promise<void>): Promise<void> {
  // 提示符和回显走 stderr：stdout 只留给模型的回答
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: Boolean(process.stdin.isTTY) });
  active = rl;
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
    if (line === "/help") process.stderr.write(HELP);
    else if (line) await handle(line);
    prompt();
  }
  process.stderr.write("\n"); // 输入结束（Ctrl-D）：把停在提示符后面的光标换到新的一行
}

// 在终端上问一句，回答 y 或 yes 才算同意。REPL 在跑时必须借用它的读行器：
// 同一个 stdin 上再开一个，两个读行器会抢同一行输入
export async function confirm(question: string): Promise<boolean> {
  const rl = active ?? readline.createInterface({ input: process.stdin, output: process.stderr, terminal: false });
  try {
    const answer = await new Promise<string>((resolve) => rl.question(question, resolve));
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    if (rl !== active) rl.close();
  }
}
