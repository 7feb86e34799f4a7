// jobs.ts：后台命令表。bash 的 run_in_background 把命令登记在这里，交回一个 id；
// bash_output 凭 id 读它上次之后的新输出和状态，kill_shell 凭 id 结束它；harness 不管怎么结束，都不留下它们。
// 练习 07-1 新增。
import type { ChildProcess } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import type { ToolSpec } from "./model.ts";
import type { Tool } from "./registry.ts";

// 两个上限都能用环境变量调小：检查器用几 KB、几百毫秒来检查，不必真灌 32 KB、真等 3 秒
const KEEP_BYTES = setting("HARNESS_BG_KEEP_BYTES", 32 * 1024); // 每一路最多留这么多字节没读的输出，只留最新的
const GRACE_MS = setting("HARNESS_KILL_GRACE_MS", 3000); // kill_shell 先 SIGTERM，等这么久还在就 SIGKILL

function setting(name: string, fallback: number): number {
  const n = Number(process.env[name] ?? fallback);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

// 一路输出（stdout 或 stderr）里还没读走的部分。满了就从最旧的丢起：后台跑的多是服务、监视进程，
// 模型想知道的是它现在怎么样，不是一小时前打印了什么
class Unread {
  private chunks: Buffer[] = [];
  private size = 0;
  private dropped = 0; // 上次读走以来丢掉的字节
  private readonly decoder = new StringDecoder("utf8"); // 一个汉字被切在两次读之间，留一半到下次

  push(chunk: Buffer) {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size > KEEP_BYTES) {
      const extra = this.size - KEEP_BYTES;
      const first = this.chunks[0]!;
      const cut = Math.min(extra, first.length);
      if (cut === first.length) this.chunks.shift();
      else this.chunks[0] = first.subarray(cut);
      this.size -= cut;
      this.dropped += cut;
    }
  }

  // 读走：交出新的文字，清空（下次只交这之后写的）
  take(): string {
    let bytes = Buffer.concat(this.chunks);
    let dropped = this.dropped;
    if (dropped > 0) {
      // 从中间丢起，开头可能是半个字：跳过 UTF-8 的续字节（10xxxxxx），上次没解完的半个字也作废
      this.decoder.end();
      let skip = 0;
      while (skip < bytes.length && (bytes[skip]! & 0xc0) === 0x80) skip++;
      bytes = bytes.subarray(skip);
      dropped += skip;
    }
    this.chunks = [];
    this.size = 0;
    this.dropped = 0;
    const text = this.decoder.write(bytes);
    return dropped > 0 ? `...（这之前还有 ${dropped} 字节没来得及读，已丢弃；每一路只留最新的 ${KEEP_BYTES} 字节）\n${text}` : text;
  }
}

interface Job {
  id: string;
  child: ChildProcess;
  stdout: Unread;
  stderr: Unread;
  state: string | undefined; // 结束了就写上怎么结束的；undefined = 还在运行
  exited: Promise<void>;
}

const jobs = new Map<string, Job>();
let counter = 0;

// bash.ts 起好进程（自成一个进程组，detached），交到这里登记
export function adopt(child: ChildProcess): string {
  const id = `bash_${++counter}`;
  const job: Job = { id, child, stdout: new Unread(), stderr: new Unread(), state: undefined, exited: Promise.resolve() };
  child.stdout?.on("data", (chunk: Buffer) => job.stdout.push(chunk));
  child.stderr?.on("data", (chunk: Buffer) => job.stderr.push(chunk));
  job.exited = new Promise((resolve) => {
    child.on("error", (e) => {
      job.state = `启动失败：${(e as NodeJS.ErrnoException).code ?? e.name}`;
      resolve();
    });
    child.on("exit", (code, signal) => {
      job.state = code === null ? `被信号 ${signal} 结束` : `已退出，退出码 ${code}`;
      killGroup(child.pid, "SIGKILL"); // 和前台一样：命令结束了，它留在组里的子孙也清掉
      resolve();
    });
  });
  // 后台命令不拖住 harness：模型答完了，事件循环就该空；剩下的由下面的 exit 收拾
  child.unref();
  for (const stream of [child.stdout, child.stderr]) (stream as { unref?: () => void } | null)?.unref?.();
  jobs.set(id, job);
  guardExit();
  return id;
}

// ---- 不管 harness 怎么结束，后台命令都跟着结束 ----
// 正常答完、抛异常退出：都会走到 process 的 "exit"，那里只能做同步的事——给每个组发 SIGKILL 正好是同步的。
// Ctrl-C、SIGTERM、SIGHUP 默认直接杀掉 harness，不经过 "exit"：先收拾，再把同一个信号发给自己，照原样死去（退出码不变）
let guarded = false;
function guardExit() {
  if (guarded) return;
  guarded = true;
  process.on("exit", killAll);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      killAll();
      process.kill(process.pid, signal);
    });
  }
}

function killAll() {
  for (const job of jobs.values()) if (job.state === undefined) killGroup(job.child.pid, "SIGKILL");
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals) {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal); // 负的 pid = 整个进程组
  } catch {
    // 组里已经没有进程了
  }
}

function status(job: Job): string {
  return job.state === undefined ? "运行中" : job.state;
}

// 模型报错了 id：告诉它有哪些，它下一步就能改对
function unknown(id: unknown): string {
  const running = [...jobs.values()].filter((j) => j.state === undefined).map((j) => j.id);
  const ended = [...jobs.values()].filter((j) => j.state !== undefined).map((j) => j.id);
  const list = jobs.size === 0 ? "现在没有后台命令" : `还在运行的：${running.join("、") || "没有"}；已经结束的：${ended.join("、") || "没有"}`;
  return `错误: 没有 id 为 ${JSON.stringify(id)} 的后台命令（${list}）`;
}

function section(name: string, text: string): string {
  return text === "" ? "" : `[${name}]\n${text.replace(/\n$/, "")}`;
}

const idParam = { type: "object", properties: { id: { type: "string", description: "bash 以 run_in_background 启动时交回的 id，如 bash_1" } }, required: ["id"] };

const outputSpec: ToolSpec = {
  name: "bash_output",
  description: "读一个后台命令上次读过之后的新输出，以及它还在运行、还是已经结束（退出码）。",
  parameters: idParam,
};

async function bashOutput(args: string): Promise<string> {
  const { id } = JSON.parse(args);
  const job = jobs.get(id);
  if (!job) return unknown(id);
  const out = [section("stdout", job.stdout.take()), section("stderr", job.stderr.take())].filter(Boolean);
  return [`状态: ${status(job)}`, ...(out.length > 0 ? out : ["（上次读过之后没有新输出）"])].join("\n");
}

const killSpec: ToolSpec = {
  name: "kill_shell",
  description: `结束一个后台命令和它启动的所有进程：先 SIGTERM，${GRACE_MS / 1000} 秒后还在就 SIGKILL。`,
  parameters: idParam,
};

async function killShell(args: string): Promise<string> {
  const { id } = JSON.parse(args);
  const job = jobs.get(id);
  if (!job) return unknown(id);
  if (job.state !== undefined) return `${id} 已经结束了（${job.state}），不用再结束`;
  killGroup(job.child.pid, "SIGTERM"); // 给它一个体面收尾的机会：服务可以关掉监听、写完日志
  if (await within(job.exited, GRACE_MS)) return `已结束 ${id}：收到 SIGTERM 后退出`;
  killGroup(job.child.pid, "SIGKILL"); // 不理 SIGTERM 的（trap '' TERM），SIGKILL 由不得它
  if (await within(job.exited, GRACE_MS)) return `已结束 ${id}：SIGTERM 之后 ${GRACE_MS} 毫秒还在，已用 SIGKILL 结束`;
  return `错误: ${id} 收到 SIGKILL 之后仍未退出（状态: ${status(job)}）`;
}

// 等 promise 兑现，最多 ms 毫秒；兑现了返回 true。计时器兑现后就清掉，不拖住 harness 退出
function within(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([promise.then(() => true), late]).finally(() => clearTimeout(timer));
}

export const bashOutputTool: Tool = { definition: () => outputSpec, execute: bashOutput };
export const killShellTool: Tool = { definition: () => killSpec, execute: killShell };
