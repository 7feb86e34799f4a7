// mcp.ts：MCP 客户端。读 mcp.json，启动其中的服务器，握手、列工具，
// 再把别人的工具包成第 06 章的 Tool 登记进注册表——注册表本身一个字不改。
// 第 22 章新增。练习 22-3 改动：工具总数过了门槛，MCP 工具就不登记进注册表（不进 tools 数组），交给 tool-search.ts 的桥工具。
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { encode, LineSplitter, type Id, type RpcMessage } from "./jsonrpc.ts";
import type { ToolSpec } from "./model.ts";
import type { Registry, Tool } from "./registry.ts";
import { estimateText } from "./tokens.ts";

// ---- 配置：mcp.json，和 Claude Code 的格式一样，别人写好的配置拷过来就能用 ----

export interface ServerConfig {
  command: string;
  args: string[];
  env: Record<string, string>;
}

// 没有 mcp.json 是常态：一个外部服务都不接，和上一章一模一样
export function loadMcpConfig(cwd: string): Map<string, ServerConfig> {
  const servers = new Map<string, ServerConfig>();
  let text: string;
  try {
    text = fs.readFileSync(path.join(cwd, "mcp.json"), "utf8");
  } catch {
    return servers;
  }
  let entries: Record<string, any>;
  try {
    entries = JSON.parse(text).mcpServers ?? {};
  } catch (e) {
    console.error(`警告: mcp.json 不是合法 JSON，忽略: ${(e as Error).message}`);
    return servers;
  }
  for (const [name, entry] of Object.entries(entries)) {
    // 服务名会成为工具名的一部分（mcp__<服务名>__<工具名>），模型服务商只认这几种字符
    if (!/^[A-Za-z0-9_-]+$/.test(name)) {
      console.error(`警告: MCP 服务名 ${JSON.stringify(name)} 只能用字母、数字、下划线和连字符（它会成为工具名的一部分），跳过`);
    } else if (typeof entry?.command !== "string" || entry.command === "") {
      console.error(`警告: MCP 服务 "${name}" 没有写 command，跳过`);
    } else {
      servers.set(name, { command: entry.command, args: (entry.args ?? []).map(String), env: entry.env ?? {} });
    }
  }
  return servers;
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
  private exited: string | undefined; // 进程退出以后，这里是原因

  private constructor(name: string, child: ChildProcess) {
    this.name = name;
    this.child = child;
    const lines = new LineSplitter();
    child.stdout!.on("data", (chunk: Buffer) => lines.push(chunk, (line) => this.receive(line)));
    child.stdin!.on("error", () => {}); // 进程死了还往里写会 EPIPE；失败由下面的 exit 统一交代
    child.on("exit", (code, signal) => {
      this.exited = `MCP 服务 "${name}" 已经退出（${signal ? `信号 ${signal}` : `退出码 ${code}`}）`;
      for (const id of [...this.pending.keys()]) this.take(id)!.reject(new Error(this.exited!));
    });
    this.idle();
  }

  // spawn 的失败（命令不存在）在 Node 里是异步的 "error" 事件，要等 "spawn" 事件才算真的起来了
  static start(name: string, config: ServerConfig): Promise<McpClient> {
    const env: Record<string, string> = {};
    for (const key of SAFE_ENV) if (process.env[key] !== undefined) env[key] = process.env[key]!;
    Object.assign(env, config.env);
    // stderr 直通我们的终端：那是服务器的日志通道，不是协议通道。
    // detached：服务器自成一个进程组。终端的 Ctrl-C 会发给整个前台进程组，不分开的话，
    // 用户只想中断这一问，外部服务器却跟着全死了——它们的生死由我们来管（close / kill）
    const child = spawn(config.command, config.args, { env, stdio: ["pipe", "pipe", "inherit"], detached: true });
    return new Promise((resolve, reject) => {
      child.once("error", reject);
      child.once("spawn", () => {
        child.off("error", reject);
        child.on("error", () => {}); // 之后的错误（比如杀不掉）由 exit 交代
        resolve(new McpClient(name, child));
      });
    });
  }

  request(method: string, params: object, signal?: AbortSignal): Promise<any> {
    if (this.exited) return Promise.reject(new Error(this.exited));
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
      this.busy();
      this.child.stdin!.write(encode({ jsonrpc: "2.0", id, method, params }));
    });
  }

  notify(method: string, params?: object): void {
    if (!this.exited) this.child.stdin!.write(encode({ jsonrpc: "2.0", method, ...(params ? { params } : {}) }));
  }

  private receive(line: string) {
    if (line.trim() === "") return;
    let message: RpcMessage;
    try {
      message = JSON.parse(line);
    } catch {
      // stdout 只许出现协议消息；服务器往 stdout 打日志是常见的 bug——跳过这一行，别让整个连接跟着死
      console.error(`警告: MCP 服务 "${this.name}" 的 stdout 上有一行不是 JSON，跳过：${clip(line)}`);
      return;
    }
    if (typeof message?.method === "string") {
      // 服务器发来的请求：ping 必须回，其余的我们都不支持；通知（没有 id）一律不回
      if (message.id === undefined || message.id === null) return;
      const reply: RpcMessage =
        message.method === "ping"
          ? { jsonrpc: "2.0", id: message.id, result: {} }
          : { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: `客户端不支持 ${message.method}` } };
      this.child.stdin!.write(encode(reply));
      return;
    }
    const waiting = this.take(message?.id as Id);
    if (!waiting) return; // 对不上号的响应（比如已经放弃等待的）：忽略
    if (message.error) waiting.reject(new Error(`MCP 错误 ${message.error.code}: ${message.error.message}`));
    else waiting.resolve(message.result);
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
    (this.child.stdout as unknown as { ref(): void }).ref();
  }

  private idle() {
    if (this.pending.size > 0) return;
    this.child.unref();
    (this.child.stdout as unknown as { unref(): void }).unref();
    (this.child.stdin as unknown as { unref(): void }).unref();
  }

  // 按规矩收尾：先关 stdin，等它自己退出；两秒还不走就 SIGTERM，再两秒 SIGKILL
  async close(): Promise<void> {
    if (this.exited) return;
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
    if (await within(2000)) return;
    this.child.kill("SIGTERM");
    if (await within(2000)) return;
    this.child.kill("SIGKILL");
    await gone;
  }

  kill(): void {
    if (!this.exited) this.child.kill("SIGKILL");
  }
}

// ---- 适配器：把远端工具包成 Tool。注册表分不出它和 read_file 有什么不同 ----

interface RemoteTool {
  name: string;
  description?: string;
  inputSchema?: object;
}

export class McpTool implements Tool {
  private readonly client: McpClient;
  readonly remote: RemoteTool; // 练习 22-3：清单里那“一句话”取自远端的原始描述
  private readonly spec: ToolSpec;

  constructor(client: McpClient, remote: RemoteTool, exposedName: string) {
    this.client = client;
    this.remote = remote;
    // 参数 schema 原样透传：参数长什么样，是工具的作者说了算
    this.spec = {
      name: exposedName,
      description: `[来自 MCP 服务 ${client.name}] ${remote.description ?? ""}`,
      parameters: remote.inputSchema ?? { type: "object", properties: {} },
    };
  }

  definition(): ToolSpec {
    return this.spec;
  }

  async execute(args: string, signal?: AbortSignal): Promise<string> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(args);
    } catch (e) {
      return `错误: 参数不是合法 JSON: ${(e as Error).message}`;
    }
    let result: any;
    try {
      result = await this.client.request("tools/call", { name: this.remote.name, arguments: parsed }, signal);
    } catch (e) {
      // 这一层的错是“调用没送到工具手上”：进程死了、协议出错、用户不等了
      return `错误: ${(e as Error).message}`;
    }
    const text = (result?.content ?? [])
      .map((c: any) => (c?.type === "text" ? c.text : `[未处理的内容类型 ${JSON.stringify(c?.type)}]`))
      .join("\n");
    // isError 是另一层：工具收到了调用，干活失败了。结果的一部分，进程还活着，下一次照常调用
    return result?.isError ? `错误: 工具执行失败: ${text}` : text;
  }
}

// 模型服务商只接受 [A-Za-z0-9_-]、最长 64 的函数名；MCP 的工具名可以带点号，也可以很长
const MAX_NAME = 64;

function exposedName(server: string, tool: string): string {
  return `mcp__${server}__${tool.replace(/[^A-Za-z0-9_-]/g, "_")}`;
}

// ---- 接线：mcp.json 里的每个服务器，连上就把工具登记进来，连不上只警告 ----

export interface McpConnections {
  clients: McpClient[];
  deferred: McpTool[]; // 工具搜索开着时没进注册表的 MCP 工具，由 mcp_describe、mcp_call 按名字取用
  close(): Promise<void>;
}

// 各服务器同时启动（一个慢的不拖累别的），但日志和工具都按服务名的顺序落定：
// 工具列表每次启动都一样，提示词前缀的缓存才能命中
// （searchAt：所有服务器加起来的工具数超过它，就开工具搜索）
export async function connectMcpServers(registry: Registry, cwd: string, searchAt = Infinity): Promise<McpConnections> {
  const configs = loadMcpConfig(cwd);
  const names = [...configs.keys()].sort();
  const attempts = await Promise.all(names.map((name) => connect(name, configs.get(name)!)));
  // 门槛看的是总数：十个服务器各带三个工具，一个个看都不多，加起来照样撑爆 tools 数组
  const search = attempts.reduce((n, a) => n + ("tools" in a ? a.tools.length : 0), 0) > searchAt;
  const deferred: McpTool[] = [];
  const clients: McpClient[] = [];
  for (const attempt of attempts) {
    if ("failure" in attempt) {
      console.error(attempt.failure);
      continue;
    }
    const { client, info, tools } = attempt;
    clients.push(client);
    console.error(`[MCP 服务 "${client.name}" 握手完成：${info.serverInfo?.name ?? "?"} v${info.serverInfo?.version ?? "?"}，协议 ${info.protocolVersion}]`);
    let cost = 0;
    let count = 0;
    for (const remote of tools) {
      const name = exposedName(client.name, String(remote.name));
      // 一个工具名不合规，服务商会拒绝整个请求——宁可少接这一个，也不能让所有请求都失败
      if (name.length > MAX_NAME) {
        console.error(`警告: MCP 服务 "${client.name}" 的工具 ${remote.name} 换成的名字 ${name} 超过 ${MAX_NAME} 个字符，跳过`);
      } else if (registry.names().includes(name) || deferred.some((t) => t.definition().name === name)) {
        console.error(`警告: MCP 服务 "${client.name}" 的工具 ${remote.name} 换成的名字 ${name} 和已有的工具重名，跳过`);
      } else {
        const tool = new McpTool(client, remote, name);
        if (search) deferred.push(tool);
        else registry.register(tool);
        cost += estimateText(JSON.stringify(tool.definition()));
        count++;
      }
    }
    // 又一笔当场算清的账：这些声明进的是 tools 数组，和 system prompt 一样每轮都要重发
    if (search) console.error(`[MCP 服务 "${client.name}"：接入 ${count} 个工具，声明约 ${cost} tokens，工具太多，声明不进 tools 数组]`);
    else console.error(`[MCP 服务 "${client.name}"：接入 ${count} 个工具，声明约 ${cost} tokens，随 tools 数组每轮都算钱]`);
  }
  const connections = {
    clients,
    deferred,
    close: () => Promise.all(clients.map((c) => c.close())).then(() => {}),
  };
  // harness 要退出了（事件循环空了）：体面地关掉它们；被 Ctrl-C 直接结束时，至少别留下进程
  process.once("beforeExit", () => connections.close());
  process.once("exit", () => clients.forEach((c) => c.kill()));
  return connections;
}

type Attempt = { client: McpClient; info: any; tools: RemoteTool[] } | { failure: string };

async function connect(name: string, config: ServerConfig): Promise<Attempt> {
  let client: McpClient;
  try {
    client = await McpClient.start(name, config);
  } catch (e) {
    return { failure: `警告: MCP 服务 "${name}" 启动失败，跳过: ${(e as Error).message}` };
  }
  let info: any;
  try {
    // 握手：报上我们说的协议版本和身份；服务器答的版本不一样也照用，记在日志里
    info = await client.request("initialize", {
      protocolVersion: "2024-11-05",
      capabilities: {},
      clientInfo: { name: "learnharness", version: "0.1" },
    });
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

// 工具多的服务器会分页：带着 nextCursor 接着要，直到没有下一页
async function listTools(client: McpClient): Promise<RemoteTool[]> {
  const tools: RemoteTool[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await client.request("tools/list", cursor === undefined ? {} : { cursor });
    tools.push(...(page?.tools ?? []));
    cursor = page?.nextCursor ?? undefined;
    // 服务器的 bug 不该让我们永远翻下去：同一个 cursor 出现第二次就停
    if (cursor !== undefined && seen.has(cursor)) throw new Error(`tools/list 的 nextCursor "${cursor}" 重复出现，分页停不下来`);
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  return tools;
}

function clip(s: string, n = 120): string {
  return s.length > n ? s.slice(0, n) + "…" : s;
}
