// mcp.ts：MCP 客户端。读 mcp.json，启动其中的服务器，握手、列工具，
// 再把别人的工具包成第 06 章的 Tool，交给 main.ts 登记进注册表；只管连接，打印什么、进程退出时做什么由 main.ts 决定。
// 第 23 章改动：起服务器进程之前经过调用方给的 launch（沙箱开着时，服务器跑在 bwrap 里）。
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describeJsonError } from "./json.ts";
import { encode, LineSplitter, MAX_LINE, type Id } from "./jsonrpc.ts";
import type { ToolSpec } from "./model.ts";
import type { Tool } from "./registry.ts";
import { safeLine } from "./terminal.ts";
import { estimateText } from "./tokens.ts";

// ---- 配置：mcp.json，和 Claude Code 的格式一样，别人写好的配置拷过来就能用 ----

export interface ServerConfig {
  command: string;
  args: string[];
  env: Record<string, string>;
  written?: { command: string; args: string[]; env: Record<string, string> }; // mcp.json 里写的原样，${VAR} 还没展开
}

// 会变的东西都从这里传进来，这个文件不碰 process 的钩子，也不自己决定往哪儿打印
export interface McpOptions {
  env?: NodeJS.ProcessEnv; // ${VAR} 从这里取值；默认 process.env
  log?: (line: string) => void; // 握手行、成本行、警告都交给它；默认写到 stderr
  approve?: (name: string, config: ServerConfig) => Promise<boolean>; // 启动之前问一声，答 false 就不启动；默认都启动
  wrap?: (tool: Tool) => Tool; // 交出去之前给每个工具套一层；默认原样
  started?: (client: McpClient) => void; // 进程一起来就告诉调用方（握手还没完）：这时收到 Ctrl-C，它也得被收拾
  launch?: (command: string, args: string[]) => string[]; // 真正要起的命令行（比如套上沙箱）；默认原样
}

const toStderr = (line: string) => console.error(line);
// 日志行里常夹着服务器说的话（它报的名字、工具名、stdout 上的怪行、它的 stderr）：交出去之前先显形
const safely = (log: (line: string) => void) => (line: string) => log(safeLine(line));

// 没有 mcp.json 是常态：一个外部服务都不接，和上一章一模一样。
// 文件是别人写的（或者从别处拷来的），每个字段都先查形状：一个服务写错了，跳过它，别的照常
export function loadMcpConfig(cwd: string, options: McpOptions = {}): Map<string, ServerConfig> {
  const log = safely(options.log ?? toStderr);
  const servers = new Map<string, ServerConfig>();
  let text: string;
  try {
    text = fs.readFileSync(path.join(cwd, "mcp.json"), "utf8");
  } catch {
    return servers;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    log(`警告: mcp.json 不是合法 JSON（${describeJsonError(text)}），忽略`); // 坏在哪自己说：JSON.parse 的原话随 Node 版本而变
    return servers;
  }
  const entries = isObject(parsed) ? (parsed.mcpServers ?? {}) : undefined;
  if (!isObject(entries)) {
    log(`警告: mcp.json 里的 mcpServers 要是一个对象（服务名 → 配置），忽略`);
    return servers;
  }
  for (const [name, entry] of Object.entries(entries)) {
    // 服务名会成为工具名的一部分（mcp__<服务名>__<工具名>），模型服务商只认这几种字符
    if (!/^[A-Za-z0-9_-]+$/.test(name)) {
      log(`警告: MCP 服务名 ${JSON.stringify(name)} 只能用字母、数字、下划线和连字符（它会成为工具名的一部分），跳过`);
      continue;
    }
    const config = serverConfig(entry, options.env ?? process.env);
    if (typeof config === "string") log(`警告: MCP 服务 "${name}" ${config}，跳过`);
    else servers.set(name, config);
  }
  return servers;
}

// 一个服务的配置：查形状、展开 ${VAR}；返回字符串就是它哪里不对
function serverConfig(entry: unknown, environ: NodeJS.ProcessEnv): ServerConfig | string {
  if (!isObject(entry)) return `的配置要是一个对象，现在是 ${show(entry)}`;
  // Claude Code 的格式里还有 http、sse 这样的远程服务；这一章只会起进程、在 stdio 上说话
  const type = entry.type ?? "stdio";
  if (type !== "stdio") return `的 type 是 ${show(type)}：这一章只会说 stdio（起一个进程，在它的 stdin/stdout 上收发），远程服务不接`;
  if (typeof entry.command !== "string" || entry.command === "") return "没有写 command";
  const args = entry.args ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === "string")) return `的 args 要是字符串数组，现在是 ${show(args)}`;
  const env = entry.env ?? {};
  if (!isObject(env)) return `的 env 要是一个对象（变量名 → 字符串），现在是 ${show(env)}`;
  const odd = Object.entries(env).find(([, value]) => typeof value !== "string");
  if (odd) return `的 env 里 ${odd[0]} 的值要是字符串，现在是 ${show(odd[1])}`;
  // 和 Claude Code 一样展开 ${VAR} 和 ${VAR:-默认值}：令牌、路径留在各人自己的环境里，mcp.json 才能放心地共享。
  // 没设置、又没写默认值的变量不能留着原文交出去（"${NODE_BIN}" 会被当成命令名），这个服务跳过
  const unset = new Set<string>();
  const expand = (text: string) =>
    text.replace(/\$\{([^}:]+)(?::-([^}]*))?\}/g, (whole, name: string, fallback: string | undefined) => {
      const value = environ[name];
      if (value !== undefined && (value !== "" || fallback === undefined)) return value;
      if (fallback !== undefined) return fallback; // 和 shell 一样：没设置或者是空的，都用默认值
      unset.add(name);
      return whole;
    });
  const config: ServerConfig = {
    command: expand(entry.command),
    args: args.map(expand),
    env: Object.fromEntries(Object.entries(env).map(([key, value]) => [key, expand(value as string)])),
    written: { command: entry.command, args, env: env as Record<string, string> },
  };
  if (unset.size > 0) return `用到的环境变量 ${[...unset].join("、")} 没有设置（要默认值就写成 \${变量:-默认值}）`;
  if (config.command === "") return "的 command 展开以后是空的";
  return config;
}

// ---- 客户端：一个服务器子进程，stdin 写请求，stdout 读响应 ----

// 子进程只拿到这几个环境变量，再加上配置里写明的：我们自己的环境里有 API 密钥，
// 一个别人写的服务器没有理由看到它（官方 SDK 的默认值也是这一组）
const SAFE_ENV = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "TMPDIR", "LANG", "LC_ALL", "LC_CTYPE", "TZ"];

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

  private constructor(name: string, child: ChildProcess, log: (line: string) => void) {
    this.name = name;
    this.child = child;
    this.log = safely(log);
    pipeStderr(child, (line) => this.log(`[MCP 服务 "${name}" 的日志] ${line}`));
    const lines = new LineSplitter();
    const onLine = (line: string) => this.receive(line);
    // stdout 的消息当场处理：每次调用都走这里，这是热路径（每块都晚一拍的话，一次往返要多花一成时间）
    child.stdout!.on("data", (chunk: Buffer) => {
      if (!lines.push(chunk, onLine)) this.disconnect(`发来的一条消息超过了 ${MAX_LINE / 1024 / 1024} MiB`);
    });
    child.stdin!.on("error", () => {}); // 进程死了还往里写会 EPIPE；失败由下面的 exit 统一交代
    // 退出也晚一拍：排在它前面的 stdout（临死前发出的回答）先对号入座
    child.on("exit", (code, signal) =>
      setImmediate(() => {
        this.gone ??= `MCP 服务 "${name}" 已经退出（${signal ? `信号 ${signal}` : `退出码 ${code}`}）`;
        this.failAll();
      }),
    );
    (child.stdin as unknown as { unref(): void }).unref(); // 写完的 stdin 不留住 harness；写到一半的请求 Node 自己会等
    this.idle();
  }

  // spawn 的失败（命令不存在）在 Node 里是异步的 "error" 事件，要等 "spawn" 事件才算真的起来了
  static start(name: string, config: ServerConfig, log = toStderr, launch = (command: string, args: string[]) => [command, ...args]): Promise<McpClient> {
    const env: Record<string, string> = {};
    for (const key of SAFE_ENV) if (process.env[key] !== undefined) env[key] = process.env[key]!;
    Object.assign(env, config.env);
    // stderr 也是管道，不直通终端：那是服务器的日志通道，可它拿到终端就能在用户屏幕上画东西、读用户敲的字。
    // 它的每一行由我们带上服务名、显形、限长限速后再印（pipeStderr）。
    // detached：服务器自成一个进程组。终端的 Ctrl-C 会发给整个前台进程组，不分开的话，
    // 用户只想中断这一问，外部服务器却跟着全死了——它们的生死由我们来管（close / kill）
    const [program, ...argv] = launch(config.command, config.args);
    const child = spawn(program, argv, { env, stdio: ["pipe", "pipe", "pipe"], detached: true });
    return new Promise((resolve, reject) => {
      child.once("error", reject);
      child.once("spawn", () => {
        child.off("error", reject);
        child.on("error", () => {}); // 之后的错误（比如杀不掉）由 exit 交代
        resolve(new McpClient(name, child, log));
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
      this.warn(`警告: MCP 服务 "${this.name}" 的 stdout 上有一行不是 JSON，跳过：${clip(line)}`);
      return;
    }
    if (!isObject(message)) {
      this.warn(`警告: MCP 服务 "${this.name}" 发来的一行不是 JSON-RPC 消息（要是一个对象），跳过：${clip(line)}`);
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

  // 没有在途请求时，子进程和它的管道不该拖着 harness 不让退出；等响应时则要留住。
  // 只在“没有在途”和“有一个在途”之间切换：64 个在途时，中间的那些请求不碰它们
  private busy() {
    this.child.ref();
    (this.child.stdout as unknown as { ref(): void }).ref();
  }

  private idle() {
    if (this.pending.size > 0) return;
    this.child.unref();
    (this.child.stdout as unknown as { unref(): void }).unref();
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
      if (!(await within(2000))) {
        this.signal("SIGTERM");
        if (!(await within(2000))) {
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

// ---- 适配器：把远端工具包成 Tool。注册表分不出它和 read_file 有什么不同 ----

interface RemoteTool {
  name: string;
  description?: string;
  inputSchema: object;
}

export class McpTool implements Tool {
  private readonly client: McpClient;
  private readonly remote: RemoteTool;
  private readonly spec: ToolSpec;

  constructor(client: McpClient, remote: RemoteTool, exposedName: string) {
    this.client = client;
    this.remote = remote;
    // 参数 schema 原样透传：参数长什么样，是工具的作者说了算
    this.spec = {
      name: exposedName,
      description: `[来自 MCP 服务 ${client.name}] ${remote.description ?? ""}`,
      parameters: remote.inputSchema,
    };
  }

  definition(): ToolSpec {
    return this.spec;
  }

  async execute(args: string, signal?: AbortSignal): Promise<string> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(args);
    } catch {
      return `错误: 参数不是合法 JSON（${describeJsonError(args)}）：${clip(args, 200)}`; // 和注册表的说法一样
    }
    let result: unknown;
    try {
      result = await this.client.request("tools/call", { name: this.remote.name, arguments: parsed }, signal);
    } catch (e) {
      // 这一层的错是“调用没送到工具手上”：进程死了、协议出错、用户不等了
      return `错误: ${(e as Error).message}`;
    }
    if (!isObject(result) || !Array.isArray(result.content)) {
      return `错误: MCP 服务 "${this.client.name}" 的 tools/call 结果不合协议：要是带 content 数组的对象，收到的是 ${show(result)}`;
    }
    const lines = result.content.map(contentLine);
    // 只给了 structuredContent、没有文字块（规范说该同时给一份文字，不是人人都给）：把 JSON 交给模型，别交一个空串
    if (!result.content.some((c) => isObject(c) && c.type === "text") && isObject(result.structuredContent)) lines.push(JSON.stringify(result.structuredContent));
    const text = lines.join("\n");
    // isError 是另一层：工具收到了调用，干活失败了。结果的一部分，进程还活着，下一次照常调用
    return result.isError === true ? `错误: 工具执行失败: ${text}` : text;
  }
}

// 结果里的一块内容变成交给模型的一行字。模型只收文字：不是文字的，如实说它是什么、在哪、多大，
// 模型才知道有东西没看到，不至于把一张图当成“什么也没有”
function contentLine(c: unknown): string {
  if (!isObject(c)) return `[未处理的内容 ${show(c)}]`;
  const size = (data: unknown) => (typeof data === "string" ? `${Buffer.byteLength(data, "base64")} 字节` : "大小不明");
  const kind = (mime: unknown) => (typeof mime === "string" ? mime : "类型不明");
  const r = isObject(c.resource) ? c.resource : undefined;
  if (c.type === "text" && typeof c.text === "string") return c.text;
  if (c.type === "image") return `[图片 ${kind(c.mimeType)}，${size(c.data)}：这里只把文字交给模型，图片本身没有转交]`;
  if (c.type === "audio") return `[音频 ${kind(c.mimeType)}，${size(c.data)}：这里只把文字交给模型，音频本身没有转交]`;
  if (c.type === "resource" && r && typeof r.text === "string") return `[资源 ${String(r.uri)}]\n${r.text}`;
  if (c.type === "resource" && r) return `[资源 ${String(r.uri)}：二进制 ${kind(r.mimeType)}，${size(r.blob)}，没有转交]`;
  if (c.type === "resource_link") return `[资源链接 ${show(c.name)}：${String(c.uri)}]`;
  return `[未处理的内容类型 ${show(c.type)}]`;
}

// 模型服务商只接受 [A-Za-z0-9_-]、最长 64 的函数名；MCP 的工具名可以带点号，也可以很长
const MAX_NAME = 64;

function exposedName(server: string, tool: string): string {
  return `mcp__${server}__${tool.replace(/[^A-Za-z0-9_-]/g, "_")}`;
}

// ---- 接线：mcp.json 里的每个服务器，连上就把工具交出来，连不上只警告 ----

export interface McpConnections {
  tools: Tool[]; // 接入的工具（已经过 wrap），按服务名、再按服务器列出的顺序；由调用方登记进注册表
  clients: McpClient[];
  close(): Promise<void>; // 体面地收尾：关 stdin，等一等，再 SIGTERM、SIGKILL
  kill(): void; // 来不及体面时（exit 钩子里只能做同步的事）：直接杀掉每个服务器的进程组
}

// 各服务器同时启动（一个慢的不拖累别的），但日志和工具都按服务名的顺序落定：
// 工具列表每次启动都一样，提示词前缀的缓存才能命中。taken：已经登记的工具名，不能撞
export async function connectMcpServers(cwd: string, taken: readonly string[], options: McpOptions = {}): Promise<McpConnections> {
  const log = safely(options.log ?? toStderr);
  const configs = loadMcpConfig(cwd, options);
  const names: string[] = [];
  // approve 一个一个地问（终端只有一个），问完了再同时启动
  for (const name of [...configs.keys()].sort()) if (!options.approve || (await options.approve(name, configs.get(name)!))) names.push(name);
  const attempts = await Promise.all(names.map((name) => connect(name, configs.get(name)!, log, options)));
  await nextTurn(); // 要据答复印握手行了：先让这一轮读到的服务器日志印完（McpClient 的 warn 也是这个道理）
  const used = new Set(taken);
  const tools: Tool[] = [];
  const clients: McpClient[] = [];
  for (const attempt of attempts) {
    if ("failure" in attempt) {
      log(attempt.failure);
      continue;
    }
    const { client, info, tools: listed } = attempt;
    clients.push(client);
    const server = isObject(info.serverInfo) ? info.serverInfo : {};
    log(`[MCP 服务 "${client.name}" 握手完成：${server.name ?? "?"} v${server.version ?? "?"}，协议 ${info.protocolVersion}]`);
    let cost = 0;
    let count = 0;
    for (const item of listed) {
      // 一个形状不对的工具只跳过它自己：别让一项坏数据带走整个服务器
      const remote = remoteTool(item);
      if (typeof remote === "string") {
        log(`警告: MCP 服务 "${client.name}" ${remote}，跳过`);
        continue;
      }
      const name = exposedName(client.name, remote.name);
      // 一个工具名不合规，服务商会拒绝整个请求——宁可少接这一个，也不能让所有请求都失败
      if (name.length > MAX_NAME) {
        log(`警告: MCP 服务 "${client.name}" 的工具 ${remote.name} 换成的名字 ${name} 超过 ${MAX_NAME} 个字符，跳过`);
      } else if (used.has(name)) {
        log(`警告: MCP 服务 "${client.name}" 的工具 ${remote.name} 换成的名字 ${name} 和已有的工具重名，跳过`);
      } else {
        const tool = (options.wrap ?? ((t: Tool) => t))(new McpTool(client, remote, name));
        tools.push(tool);
        used.add(name);
        cost += estimateText(JSON.stringify(tool.definition()));
        count++;
      }
    }
    // 又一笔当场算清的账：这些声明进的是 tools 数组，和 system prompt 一样每轮都要重发
    log(`[MCP 服务 "${client.name}"：接入 ${count} 个工具，声明约 ${cost} tokens，随 tools 数组每轮都算钱]`);
  }
  return {
    tools,
    clients,
    close: () => Promise.all(clients.map((c) => c.close())).then(() => {}),
    kill: () => clients.forEach((c) => c.kill()),
  };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

type Attempt = { client: McpClient; info: Record<string, unknown>; tools: unknown[] } | { failure: string };

// 我们守得了规矩的协议版本，第一个是握手时报上的。对只用工具的客户端，这几版没有要我们多做的事；
// 2025-03-26 不在其中：它要求收得下一行里的一批消息（JSON 数组），这个客户端不收
const VERSIONS = ["2024-11-05", "2025-06-18", "2025-11-25"];

// spawn 失败时 Node 的原话（spawn x ENOENT）随版本而变：按错误码用我们自己的话说，没有错误码的是我们自己抛的
function startFailure(e: unknown, command: string): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return `找不到命令 ${command}（ENOENT）`;
  if (code === "EACCES") return `${command} 没有执行权限（EACCES）`;
  return code ?? (e as Error).message;
}

async function connect(name: string, config: ServerConfig, log: (line: string) => void, { started, launch }: McpOptions): Promise<Attempt> {
  let client: McpClient;
  try {
    client = await McpClient.start(name, config, log, launch);
  } catch (e) {
    return { failure: `警告: MCP 服务 "${name}" 启动失败，跳过: ${startFailure(e, config.command)}` };
  }
  started?.(client);
  let info: unknown;
  try {
    // 握手：报上我们说的协议版本和身份。服务器可以答另一个版本，但得是我们守得了它的规矩的
    info = await client.request("initialize", {
      protocolVersion: VERSIONS[0],
      capabilities: {},
      clientInfo: { name: "learnharness", version: "0.1" },
    });
    if (!isObject(info) || typeof info.protocolVersion !== "string") {
      throw new Error(`initialize 的结果要是带 protocolVersion 的对象，收到的是 ${show(info)}`);
    }
    if (!VERSIONS.includes(info.protocolVersion)) {
      throw new Error(`服务器要说的协议版本是 ${show(info.protocolVersion)}，我们只会说 ${VERSIONS.join("、")}`);
    }
    client.notify("notifications/initialized");
  } catch (e) {
    client.kill();
    return { failure: `警告: MCP 服务 "${name}" 握手失败，跳过: ${(e as Error).message}` };
  }
  try {
    return { client, info, tools: await listTools(client) };
  } catch (e) {
    client.kill();
    return { failure: `警告: MCP 服务 "${name}" 列工具失败，跳过: ${(e as Error).message}` };
  }
}

// 工具多的服务器会分页：带着 nextCursor 接着要，直到没有下一页。
// 每一项先原样收下，登记之前再一项一项地查（remoteTool）
async function listTools(client: McpClient): Promise<unknown[]> {
  const tools: unknown[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page: unknown = await client.request("tools/list", cursor === undefined ? {} : { cursor });
    if (!isObject(page) || !Array.isArray(page.tools)) throw new Error(`tools/list 的结果里 tools 要是数组，收到的是 ${show(isObject(page) ? page.tools : page)}`);
    for (const tool of page.tools) tools.push(tool);
    const next = page.nextCursor ?? undefined;
    if (next !== undefined && typeof next !== "string") throw new Error(`tools/list 的 nextCursor 要是字符串，收到的是 ${show(next)}`);
    cursor = next;
    // 服务器的 bug 不该让我们永远翻下去：同一个 cursor 出现第二次就停
    if (cursor !== undefined && seen.has(cursor)) throw new Error(`tools/list 的 nextCursor "${cursor}" 重复出现，分页停不下来`);
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  return tools;
}

// tools/list 里的一项：name 是字符串，inputSchema 是 {"type": "object", …}。返回字符串就是它哪里不对
function remoteTool(item: unknown): RemoteTool | string {
  if (!isObject(item)) return `的 tools/list 里有一项不是对象（${show(item)}）`;
  if (typeof item.name !== "string" || item.name === "") return `的 tools/list 里有一个工具没有字符串 name（${show(item)}）`;
  const schema = item.inputSchema;
  // 参数 schema 会原样进 tools 数组：不是对象 schema 的，服务商会拒绝整个请求
  if (schema === undefined) return `的工具 ${item.name} 没有 inputSchema`;
  if (!isObject(schema) || schema.type !== "object") return `的工具 ${item.name} 的 inputSchema 要是 {"type": "object", …}，收到的是 ${show(schema)}`;
  // 2025-11-25 的任务（tasks）：这种工具只接受带任务的调用，这个客户端不会，接进来每次调用都失败
  if (isObject(item.execution) && item.execution.taskSupport === "required") return `的工具 ${item.name} 只能按任务（execution.taskSupport 为 "required"）调用，这个客户端不支持任务`;
  return { name: item.name, description: typeof item.description === "string" ? item.description : undefined, inputSchema: schema };
}

function rpcError(error: unknown): string {
  // 不支持我们的版本时，服务器会在 data.supported 里列出它支持的（只说新版 MCP 的服务器回 -32022 也这样）
  const supported = isObject(error) && isObject(error.data) && Array.isArray(error.data.supported) ? `（服务器支持的协议版本：${error.data.supported.map((v) => show(v)).join("、")}）` : "";
  if (isObject(error) && typeof error.message === "string") return `MCP 错误 ${String(error.code)}: ${error.message}${supported}`;
  return `MCP 错误: ${show(error)}`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

// 把别人发来的值放进一行警告：JSON 写出来，太长就截断
// ---- 服务器的 stderr ----
// 一行最多印 STDERR_LINE 个字；一秒里最多 STDERR_RATE 行，多出来的说一声就丢掉。管道照样一直读空：
// 不读的话它写满管道就卡住，再也不回答我们；全印的话一个刷屏的服务器能把 harness 拖得动不了
const STDERR_LINE = 500;
const STDERR_RATE = 20;

function pipeStderr(child: ChildProcess, show: (line: string) => void) {
  const decoder = new TextDecoder(); // 一个字被切在两块里也能拼回来
  let partial = ""; // 还没等到换行的半行（最多留 STDERR_LINE 个字，其余丢掉）
  let cut = false; // 这一行已经超长
  let windowStart = 0;
  let shown = 0;
  const emit = (line: string) => {
    const now = performance.now();
    if (now - windowStart >= 1000) [windowStart, shown] = [now, 0];
    if (++shown <= STDERR_RATE) show(line.replace(/\r$/, ""));
    else if (shown === STDERR_RATE + 1) show(`（这一秒里日志超过 ${STDERR_RATE} 行，后面的不再显示）`);
  };
  child.stderr!.on("data", (chunk: Buffer) => {
    const parts = decoder.decode(chunk, { stream: true }).split("\n");
    for (let i = 0; i < parts.length; i++) {
      if (i > 0) {
        emit(partial + (cut ? "…（这一行太长，没有印完）" : ""));
        [partial, cut] = ["", false];
      }
      if (cut) continue;
      partial += parts[i];
      if (partial.length > STDERR_LINE) [partial, cut] = [partial.slice(0, STDERR_LINE), true];
    }
  });
  (child.stderr as unknown as { unref(): void }).unref(); // 只有日志在流的时候，harness 不必为它多等
  child.stderr!.on("end", () => {
    if (partial || cut) emit(partial + (cut ? "…（这一行太长，没有印完）" : ""));
  });
}

function show(value: unknown): string {
  return value === undefined ? "（没有）" : clip(JSON.stringify(value));
}

function clip(s: string, n = 120): string {
  return s.length > n ? s.slice(0, n) + "…" : s;
}
