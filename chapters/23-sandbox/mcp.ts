// mcp.ts：接线——读 mcp.json（mcp-config.ts），起服务器（mcp-client.ts），握手、列工具，
// 包成 Tool（mcp-tools.ts）交给 main.ts 登记进注册表；只管连接，打印什么、进程退出时做什么由 main.ts 决定。
// 第 23 章改动：选项里多一个 launch，交给 McpClient.start（沙箱开着时，服务器跑在 bwrap 里）。
import { McpClient, type Launch, type Limits } from "./mcp-client.ts";
import { type ServerConfig, toStderr, safely, loadMcpConfig, isObject, show } from "./mcp-config.ts";
import { McpTool, MAX_NAME, exposedName, remoteTool } from "./mcp-tools.ts";
import type { Tool } from "./registry.ts";
import { estimateText } from "./tokens.ts";

// 会变的东西都从这里传进来，这个文件不碰 process 的钩子，也不自己决定往哪儿打印
export interface McpOptions {
  env?: NodeJS.ProcessEnv; // ${VAR} 从这里取值；默认 process.env
  log?: (line: string) => void; // 握手行、成本行、警告都交给它；默认写到 stderr
  approve?: (name: string, config: ServerConfig) => Promise<boolean>; // 启动之前问一声，答 false 就不启动；默认都启动
  wrap?: (tool: Tool) => Tool; // 交出去之前给每个工具套一层；默认原样
  started?: (client: McpClient) => void; // 进程一起来就告诉调用方（握手还没完）：这时收到 Ctrl-C，它也得被收拾
  limits?: Limits; // 一条消息多长、收尾等多久；默认见 mcp-client.ts
  launch?: Launch; // 真正要起的命令行（比如套上沙箱）；默认原样
}

export interface McpConnections {
  tools: Tool[]; // 接入的工具（已经过 wrap），按服务名、再按服务器列出的顺序；由调用方登记进注册表
  clients: McpClient[];
  servers: ServerState[]; // 启动过的每个服务器，连上的和失败的都在：/mcp 据此告诉用户模型看到了什么
  close(): Promise<void>; // 体面地收尾：关 stdin，等一等，再 SIGTERM、SIGKILL
  kill(): void; // 来不及体面时（exit 钩子里只能做同步的事）：直接杀掉每个服务器的进程组
}

// 一个服务器的下落：连上了（client，握手答复 info，接入的工具），或者在哪一步失败了、为什么
export interface ServerState {
  name: string;
  client?: McpClient;
  info?: Record<string, unknown>;
  failure?: string;
  tools: Tool[];
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
  const servers: ServerState[] = [];
  for (const [i, attempt] of attempts.entries()) {
    if ("failure" in attempt) {
      log(`警告: MCP 服务 "${names[i]}" ${attempt.failure}，跳过: ${attempt.why}`);
      servers.push({ name: names[i], failure: `${attempt.failure}：${attempt.why}`, tools: [] });
      continue;
    }
    const { client, info, tools: listed } = attempt;
    clients.push(client);
    const state: ServerState = { name: client.name, client, info, tools: [] };
    servers.push(state);
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
        state.tools.push(tool);
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
    servers,
    close: () => Promise.all(clients.map((c) => c.close())).then(() => {}),
    kill: () => clients.forEach((c) => c.kill()),
  };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

type Attempt = { client: McpClient; info: Record<string, unknown>; tools: unknown[] } | { failure: string; why: string };

// 我们守得了规矩的协议版本，新的在前：握手时报上最新的那个，服务器只会旧的就答一个旧的，在这里面就接受。
// 对只用工具的客户端，这几版没有要我们多做的事；2025-03-26 不在其中：它要求收得下一行里的一批消息（JSON 数组），这个客户端不收
const VERSIONS = ["2025-11-25", "2025-06-18", "2024-11-05"];

// spawn 失败时 Node 的原话（spawn x ENOENT）随版本而变：按错误码用我们自己的话说，没有错误码的是我们自己抛的
function startFailure(e: unknown, command: string): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return `找不到命令 ${command}（ENOENT）`;
  if (code === "EACCES") return `${command} 没有执行权限（EACCES）`;
  return code ?? (e as Error).message;
}

async function connect(name: string, config: ServerConfig, log: (line: string) => void, options: McpOptions): Promise<Attempt> {
  let client: McpClient;
  try {
    client = await McpClient.start(name, config, log, options.limits, options.launch);
  } catch (e) {
    return { failure: "启动失败", why: startFailure(e, config.command) };
  }
  options.started?.(client);
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
    return { failure: "握手失败", why: (e as Error).message };
  }
  try {
    return { client, info, tools: await listTools(client) };
  } catch (e) {
    client.kill();
    return { failure: "列工具失败", why: (e as Error).message };
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

// /mcp 的报告：每个服务器的状态，和它交给模型的每个工具——名字、完整的描述，和 tools 数组里的一字不差。
// 描述是别人写的，可能藏着给模型的指令：用户至少要看得见。这里只拼文字，上屏之前由调用方过 terminal.ts
export function mcpReport(servers: readonly ServerState[]): string[] {
  if (servers.length === 0) return ["没有 MCP 服务（工作目录里没有 mcp.json，或者里面一个服务器也没有）"];
  const lines: string[] = [];
  for (const s of servers) {
    const server = isObject(s.info?.serverInfo) ? s.info.serverInfo : {};
    const state = s.client?.down ? `已断开——${s.client.down}` : `已连接（${server.name ?? "?"} v${server.version ?? "?"}，协议 ${s.info?.protocolVersion}）`;
    lines.push(s.failure ? `MCP 服务 "${s.name}"：失败——${s.failure}` : `MCP 服务 "${s.name}"：${state}，${s.tools.length} 个工具`);
    for (const tool of s.tools) {
      const spec = tool.definition();
      lines.push(`  ${spec.name}`);
      // 描述有几行就印几行，每行缩进：换行伪造不出一行顶格的、像 harness 自己说的话
      for (const line of spec.description.split("\n")) lines.push(`    ${line}`);
    }
  }
  return lines;
}
