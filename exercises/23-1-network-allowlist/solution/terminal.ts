// terminal.ts：别人送来的文字（模型、服务、文件、仓库）上屏之前都过这里：只显形，不执行。
// 第 03 章新增（replyPrinter：回答进 stdout，思考标上记号进 stderr）。第 20 章改动：问题开着的时候别的输出先攒着（holdOutput），问题自己走 terminalOutput。
// 终端会把 ESC 开头的序列当命令：清屏、改标题、写剪贴板（OSC 52）、埋链接（OSC 8）、把光标挪回上一行重画。
// 双向文字覆盖（U+202E 等）会让屏幕上的字序和真实的字序不同。这些字符一律换成看得见的写法；
// 其余的字（中文、英文、emoji）一个字节不动。

// C0（\t 除外；\n 看场合）、DEL、C1、双向文字的覆盖与隔离、落单的代理项（它们写出去会变成乱码 U+FFFD）
const UNSAFE = /[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function show(c: string): string {
  if (c === "\x1b") return "␛"; // 转义序列的开头：␛[2J 一眼看得出是什么
  if (c === "\n") return "\\n";
  if (c === "\r") return "\\r";
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

// 多行的文字（模型的回答）：换行照旧换行，别的一律显形。逐字替换、不记状态，
// 所以流式收到的每一段可以各自处理——一个序列被切在两段里，两半照样都显形
export function safeText(text: string): string {
  return text.replace(UNSAFE, (c) => (c === "\n" ? c : show(c)));
}

// 只该占一行的文字（名字、服务端的错误原话）：换行也显形，伪造不出另起一行、看着像 harness 自己说的话
export function safeLine(text: string): string {
  return text.replace(UNSAFE, show);
}

// ---- 一次回答上屏 ----
// 回答的字进 stdout。思考（reasoning_content、reasoning、thinking 段）不是回答：进 stderr，和日志在一起，
// 每行开头标「[思考] 」——思考里写一行像 harness 日志的字，也带着这个记号；终端里再调暗，管道里不加颜色。
// end() 在这次回答结束（或者出错）时调用：停在半行的那一边换到新的一行，后面的错误、提示另起一行
export function replyPrinter(out: NodeJS.WriteStream = process.stdout, err: NodeJS.WriteStream = process.stderr) {
  let answering = false; // stdout 上印过回答，还没换行
  let thinking = false; // stderr 上的思考停在半行
  const [dim, undim] = err.isTTY ? ["\x1b[2m", "\x1b[22m"] : ["", ""];
  const endThinking = () => {
    if (thinking) err.write("\n");
    thinking = false;
  };
  const endAnswer = () => {
    if (answering) out.write("\n");
    answering = false;
  };
  return {
    text(s: string) {
      endThinking();
      answering = true;
      out.write(safeText(s)); // 模型的字只显形、不执行：它清不了屏、改不了标题
    },
    thinking(s: string) {
      endAnswer();
      let shown = "";
      for (const [i, line] of safeText(s).split("\n").entries()) {
        if (i > 0 && thinking) shown += "\n"; // 空行不印：一行只有记号没有字，读着像断了
        if (i > 0) thinking = false;
        if (line === "") continue;
        if (!thinking) shown += "[思考] ";
        shown += line;
        thinking = true;
      }
      if (shown) err.write(dim + shown + undim);
    },
    note(line: string) {
      endThinking();
      endAnswer();
      err.write(line + "\n");
    },
    end() {
      endThinking();
      endAnswer();
    },
  };
}

// ---- 问题开着的时候 ----
// 同一轮的调用一起跑：一个在终端上等 y/N，另一个（子 agent、改待办）照样在打印。它的字夹在问题后面，
// 用户看到的最后一行就不再是真正的问题——它清了屏、画一句像样的问题，用户答的 y 就给错了对象。
// 所以问题开着时 stdout、stderr 上别人的 write 一律先排队，答完按原来的顺序印出来

type Held = { stream: NodeJS.WriteStream; args: unknown[] };
const queue: Held[] = [];
let holding = 0;

// 开始攒；返回的函数结束这一次（可以嵌套，最后一个结束时才放行）。进程在问题上被结束，攒着的也照样印出来
export function holdOutput(): () => void {
  if (holding++ === 0) {
    for (const stream of [process.stdout, process.stderr]) {
      stream.write = ((...args: unknown[]) => (queue.push({ stream, args }), true)) as typeof stream.write;
    }
    process.once("exit", flush);
  }
  let done = false;
  return () => {
    if (done) return;
    done = true;
    if (--holding > 0) return;
    process.removeListener("exit", flush);
    flush();
  };
}

function flush() {
  holding = 0;
  // 去掉自己装上的 write，露出原来的（原型上的那个）
  for (const stream of [process.stdout, process.stderr]) delete (stream as Partial<NodeJS.WriteStream>).write;
  for (const { stream, args } of queue.splice(0)) (stream.write as (...a: unknown[]) => boolean)(...args);
}

// 问题本身（和读行器对用户敲的字的回显）不排队：它是 stderr 的替身，只有 write 绕过排队
export const terminalOutput: NodeJS.WriteStream = new Proxy(process.stderr, {
  get(target, key) {
    if (key === "write") return (...args: unknown[]) => (Object.getPrototypeOf(target).write as (...a: unknown[]) => boolean).apply(target, args);
    const value = Reflect.get(target, key, target);
    return typeof value === "function" ? value.bind(target) : value;
  },
});
