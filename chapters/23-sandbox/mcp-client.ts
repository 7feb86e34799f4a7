// mcp-client.ts：McpClient——一个服务器子进程，stdin 写请求，stdout 读响应。
// 第 22 章新增：起进程、在途表（响应按 id 对号入座）、对方不守协议时断开、收尾时关 stdin → SIGTERM → SIGKILL。
// 第 23 章改动：spawn 的命令行先交给调用方给的 launch（沙箱开着时，前面套上 bwrap）。
import { spawn, type ChildProcess } from "node:child_process";
import { encode, LineSplitter, MAX_LINE, type Id } from "./jsonrpc.ts";
import { type ServerConfig, toStderr, safely, isObject, show } from "./mcp-config.ts";
import { clip } from "./model.ts";
import { pipeStderr, socket } from "./mcp-stderr.ts";

// 子进程只拿到这几个环境变量，再加上配置里写明的：我们自己的环境里有 API 密钥，
// 一个别人写的服务器没有理由看到它（官方 SDK 的默认值也是这一组）
const SAFE_ENV = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "TMPDIR", "LANG", "LC_ALL", "LC_CTYPE", "TZ"];

// 收尾时每一步（关了 stdin 等它退出、SIGTERM 之后再等）最多等多久
export const CLOSE_GRACE_MS = 2000;

// 客户端守的两个上限。默认是上面和 jsonrpc.ts 里的常量；main.ts 从环境变量读，测试把它们调小，不必真的收 64 MiB、真的等两秒
// 起服务器用的命令行（沙箱开着时前面套上 bwrap），和服务器退出后要做的收尾
export type Launch = (command: string, args: string[]) => { argv: string[]; release: () => void };

export interface Limits {
  maxLine?: number; // 一条消息最长多少字节，默认 MAX_LINE
  closeGraceMs?: number; // 默认 CLOSE_GRACE_MS
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
  signal?: AbortSignal;
  onAbort?: () => void; // 只有调用方给了 signal 才有
}

export class McpClient {
  readonly name: string;
  private readonly child: ChildProcess;
  private readonly pending = new Map<Id, Pending>(); // 在途的请求：响应按 id 对号入座，所以可以同时有好几个
  private nextId = 1;
  private gone: string | undefined; // 进程退出或者被我们断开以后，这里是原因：之后的请求都以它失败
  private readonly log: (line: string) => void;
  readonly limits: Required<Limits>;

  // 断开或退出的原因；还连着就是 undefined（/mcp 要告诉用户）
  get down(): string | undefined {
    return this.gone;
  }

  private constructor(name: string, child: ChildProcess, log: (line: string) => void, limits: Limits) {
    this.name = name;
    this.child = child;
    this.log = safely(log);
    this.limits = { maxLine: limits.maxLine ?? MAX_LINE, closeGraceMs: limits.closeGraceMs ?? CLOSE_GRACE_MS };
    pipeStderr(child, (line) => this.log(`[MCP 服务 "${name}" 的日志] ${line}`));
    const lines = new LineSplitter(this.limits.maxLine);
    const onLine = (line: string) => this.receive(line);
    // stdout 上的消息当场处理（stderr 的日志和退出才晚一拍，见 warn 和下面的 exit）
    child.stdout!.on("data", (chunk: Buffer) => {
      if (!lines.push(chunk, onLine)) this.disconnect(`发来的一条消息超过了 ${this.limits.maxLine / 1024 / 1024} MiB`);
    });
    child.stdin!.on("error", () => {}); // 进程死了还往里写会 EPIPE；失败由下面的 exit 统一交代
    // 退出也晚一拍：排在它前面的 stdout（临死前发出的回答）先对号入座
    child.on("exit", (code, signal) =>
      setImmediate(() => {
        this.gone ??= `MCP 服务 "${name}" 已经退出（${signal ? `信号 ${signal}` : `退出码 ${code}`}）`;
        this.failAll();
      }),
    );
    socket(child.stdin).unref(); // 写完的 stdin 不留住 harness；写到一半的请求 Node 自己会等
    this.idle();
  }

  // spawn 的失败（命令不存在）在 Node 里是异步的 "error" 事件，要等 "spawn" 事件才算真的起来了
  static start(name: string, config: ServerConfig, log = toStderr, limits: Limits = {}, launch: Launch = (command, args) => ({ argv: [command, ...args], release: () => {} })): Promise<McpClient> {
    const env: Record<string, string> = {};
    for (const key of SAFE_ENV) if (process.env[key] !== undefined) env[key] = process.env[key]!;
    Object.assign(env, config.env);
    // stderr 也是管道，不直通终端：那是服务器的日志通道，可它拿到终端就能在用户屏幕上画东西、读用户敲的字。
    // 它的每一行由我们带上服务名、显形、限长限速后再印（pipeStderr）。
    // detached：服务器自成一个进程组。终端的 Ctrl-C 会发给整个前台进程组，不分开的话，
    // 用户只想中断这一问，外部服务器却跟着全死了——它们的生死由我们来管（close / kill）
    const { argv: [program, ...argv], release } = launch(config.command, config.args);
    const child = spawn(program, argv, { env, stdio: ["pipe", "pipe", "pipe"], detached: true });
    child.once("exit", release);
    return new Promise((resolve, reject) => {
      child.once("error", reject);
      child.once("spawn", () => {
        child.off("error", reject);
        child.on("error", () => {}); // 之后的错误（比如杀不掉）由 exit 交代
        resolve(new McpClient(name, child, log, limits));
      });
    });
  }

  request(method: string, params: object, signal?: AbortSignal): Promise<any> {
    if (this.gone) return Promise.reject(new Error(this.gone));
    if (signal?.aborted) return Promise.reject(new Error("用户按了 Ctrl-C，这个调用没有发出"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const entry: Pending = { resolve, reject };
      if (signal) {
        entry.signal = signal;
        // 不等了：它的响应晚到时 id 对不上，会被忽略
        entry.onAbort = () => this.take(id)?.reject(new Error("用户按了 Ctrl-C，不再等这个调用的结果"));
        signal.addEventListener("abort", entry.onAbort, { once: true });
      }
      this.pending.set(id, entry);
      if (this.pending.size === 1) this.busy();
      this.child.stdin!.write(encode({ jsonrpc: "2.0", id, method, params }));
    });
  }

  notify(method: string, params?: object): void {
    if (!this.gone) this.child.stdin!.write(encode({ jsonrpc: "2.0", method, ...(params ? { params } : {}) }));
  }

  // 服务器说的每一句都先查形状再用：它是别人的程序，什么都可能发来
  private receive(line: string) {
    if (line.trim() === "") return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      // stdout 只许出现协议消息；服务器往 stdout 打日志是常见的 bug——跳过这一行，别让整个连接跟着死
      this.warn(`警告: MCP 服务 "${this.name}" 的 stdout 上有一行不是 JSON，跳过：${clip(line, 120)}`);
      return;
    }
    if (!isObject(message)) {
      this.warn(`警告: MCP 服务 "${this.name}" 发来的一行不是 JSON-RPC 消息（要是一个对象），跳过：${clip(line, 120)}`);
      return;
    }
    if (typeof message.method === "string") {
      // 服务器发来的请求：ping 必须回，其余的我们都不支持；通知（没有 id）一律不回
      if (message.id === undefined || message.id === null) return;
      const reply =
        message.method === "ping"
          ? { jsonrpc: "2.0" as const, id: message.id as Id, result: {} }
          : { jsonrpc: "2.0" as const, id: message.id as Id, error: { code: -32601, message: `客户端不支持 ${message.method}` } };
      this.child.stdin!.write(encode(reply));
      return;
    }
    const id = message.id;
    const waiting = typeof id === "number" ? this.take(id) : undefined;
    if (!waiting) return this.unmatched(id, message);
    if ("error" in message) waiting.reject(new Error(rpcError(message.error)));
    else if ("result" in message) waiting.resolve(message.result);
    else waiting.reject(new Error("响应里既没有 result 也没有 error"));
  }

  // 一个对不上在途请求的响应。我们发出的 id 都是整数，字符串 "1" 不是 1；可它写出来和在途的 1 一样，
  // 多半是在答那一个：不猜，让那个请求以错误结束——谁也不会干等，别的请求照常。
  // 其余的（早就不等了的、我们从没发过的 id、null）一条不能连累整个连接：说一声，忽略
  private unmatched(id: unknown, message: Record<string, unknown>) {
    const meant = typeof id === "string" ? [...this.pending.keys()].find((p) => String(p) === id) : undefined;
    if (meant !== undefined) {
      this.take(meant)!.reject(new Error(`MCP 服务 "${this.name}" 回的 id 是字符串 ${show(id)}，我们发出的是整数 ${String(meant)}：不知道它答的是不是这个请求`));
      return;
    }
    // 比 nextId 小的整数是我们发过的：Ctrl-C、超时之后才到的回答，本来就该悄悄丢掉
    if (typeof id === "number" && Number.isInteger(id) && id >= 1 && id < this.nextId) return;
    if ("error" in message && (id === null || id === undefined)) {
      // id 为 null 的错误：它没读懂我们发的某一行，说不出是哪个请求（JSON-RPC 的 -32700 就这样回）
      this.warn(`警告: MCP 服务 "${this.name}" 报告了一个不属于任何请求的错误（${rpcError(message.error)}），忽略`);
    } else {
      const error = "error" in message ? `（${rpcError(message.error)}）` : "";
      this.warn(`警告: MCP 服务 "${this.name}" 回了一个 id 为 ${show(id)} 的响应${error}，我们没有发过这个 id 的请求，忽略`);
    }
  }

  // 服务器先写日志、后写 stdout 时，两根管道可能在同一轮事件循环里都可读，而 stdout 先被处理。
  // 因 stdout 上的一行而要印的话，晚一拍（setImmediate）再印：这一轮读到的日志先印，屏幕上的先后和服务器写它们的先后一致
  private warn(line: string) {
    setImmediate(() => this.log(line));
  }

  // 对面不守协议：不再听它说话，杀掉它的进程组；在途和之后的请求都以这个原因失败
  private disconnect(reason: string) {
    if (this.gone) return;
    this.gone = `MCP 服务 "${this.name}" 已断开：${reason}`;
    this.warn(`警告: MCP 服务 "${this.name}" ${reason}，断开`);
    this.child.stdout!.destroy();
    this.signal("SIGKILL");
    this.failAll();
  }

  private failAll() {
    for (const id of [...this.pending.keys()]) this.take(id)!.reject(new Error(this.gone!));
  }

  // 一个请求有了结局（答复到了、出错了、不等了）：从在途表里取出来，摘掉它的 Ctrl-C 监听
  private take(id: Id): Pending | undefined {
    const entry = this.pending.get(id);
    if (!entry) return undefined;
    this.pending.delete(id);
    if (entry.onAbort) entry.signal!.removeEventListener("abort", entry.onAbort);
    this.idle();
    return entry;
  }

  // 没有在途请求时，子进程和它的管道不该拖着 harness 不让退出；等响应时则要留住
  private busy() {
    this.child.ref();
    socket(this.child.stdout).ref();
  }

  private idle() {
    if (this.pending.size > 0) return;
    this.child.unref();
    socket(this.child.stdout).unref();
  }

  // 信号发给整个进程组（服务器自成一组，组号就是它的 pid）：它自己带起的子进程也一起收到
  private signal(name: NodeJS.Signals) {
    try {
      process.kill(-this.child.pid!, name);
    } catch {
      // 组里已经没有进程了
    }
  }

  // 按规矩收尾：先关 stdin，等它自己退出；两秒还不走就 SIGTERM，再两秒 SIGKILL
  async close(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const gone = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
      const within = (ms: number) =>
        new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), ms);
          gone.then(() => {
            clearTimeout(timer); // 它一退出就不再等：harness 要立刻退出，不能白等两秒
            resolve(true);
          });
        });
      this.child.stdin!.end();
      if (!(await within(this.limits.closeGraceMs))) {
        this.signal("SIGTERM");
        if (!(await within(this.limits.closeGraceMs))) {
          this.signal("SIGKILL");
          await gone;
        }
      }
    }
    // 服务器自己退出了，它带起的子进程（比如 sleep 300）可能还留在它的进程组里，没人会再管它们
    this.signal("SIGKILL");
  }

  // harness 马上就要退出（exit 钩子里只能做同步的事）：整个进程组直接 SIGKILL
  kill(): void {
    this.signal("SIGKILL");
  }
}

function rpcError(error: unknown): string {
  // 不支持我们的版本时，服务器会在 data.supported 里列出它支持的（只说新版 MCP 的服务器回 -32022 也这样）
  const supported = isObject(error) && isObject(error.data) && Array.isArray(error.data.supported) ? `（服务器支持的协议版本：${error.data.supported.map((v) => show(v)).join("、")}）` : "";
  if (isObject(error) && typeof error.message === "string") return `MCP 错误 ${String(error.code)}: ${error.message}${supported}`;
  return `MCP 错误: ${show(error)}`;
}
