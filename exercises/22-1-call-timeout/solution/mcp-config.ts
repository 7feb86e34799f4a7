// mcp-config.ts：读 mcp.json——和 Claude Code 的格式一样，别人写好的配置拷过来就能用。
// 第 22 章新增。文件是别人写的：每个字段先查形状、展开 ${VAR}，一个服务写错了只跳过它。
// 后面几个文件共用的小工具也在这里：isObject、show（把别人的值放进一行警告）、safely（日志行先显形）。
// 练习 22-1 改动：每个请求都有超时。工具调用默认 60 秒（HARNESS_MCP_TIMEOUT_MS 可调；mcp.json 里可以按服务写 timeout），
// 握手另有时限（默认 30 秒，按服务写 startupTimeout）；超时了就不再等，发 notifications/cancelled，迟到的回答因为 id 对不上号被丢掉。
import path from "node:path";
import { describeJsonError } from "./json.ts";
import { clip } from "./model.ts";
import { safeLine } from "./terminal.ts";
import { readTextFile } from "./text-file.ts";

export interface ServerConfig {
  command: string;
  args: string[];
  env: Record<string, string>;
  written?: { command: string; args: string[]; env: Record<string, string> }; // mcp.json 里写的原样，${VAR} 还没展开
  timeoutMs: number; // 每次工具调用最多等多久
  startupTimeoutMs: number; // 握手（initialize、tools/list）最多等多久
}

// 读配置只要这两样：${VAR} 从哪儿取值，警告交给谁（都由调用方传进来）
export interface ConfigOptions {
  env?: NodeJS.ProcessEnv; // 默认 process.env
  log?: (line: string) => void; // 默认写到 stderr
}

export const toStderr = (line: string) => console.error(line);

// 日志行里常夹着服务器说的话（它报的名字、工具名、stdout 上的怪行、它的 stderr）：交出去之前先显形
export const safely = (log: (line: string) => void) => (line: string) => log(safeLine(line));

// 没有 mcp.json 是常态：一个外部服务都不接，和上一章一模一样。
// 文件是别人写的（或者从别处拷来的），每个字段都先查形状：一个服务写错了，跳过它，别的照常
export function loadMcpConfig(cwd: string, options: ConfigOptions = {}): Map<string, ServerConfig> {
  const log = safely(options.log ?? toStderr);
  const servers = new Map<string, ServerConfig>();
  // 默认超时和官方 SDK 一样是 60 秒；环境变量写坏了不该让 harness 起不来，警告一句，照默认的来
  const environ = options.env ?? process.env;
  let defaultTimeoutMs = 60_000;
  if (environ.HARNESS_MCP_TIMEOUT_MS !== undefined) {
    const value = Number(environ.HARNESS_MCP_TIMEOUT_MS);
    if (Number.isInteger(value) && value > 0) defaultTimeoutMs = value;
    else log(`警告: HARNESS_MCP_TIMEOUT_MS 要是正整数（毫秒），现在是 ${environ.HARNESS_MCP_TIMEOUT_MS}，用默认的 60 秒`);
  }
  let text: string;
  try {
    text = readTextFile(path.join(cwd, "mcp.json")); // 指向 /dev/zero 的 mcp.json 不读（text-file.ts）
  } catch (e) {
    // 只报错误码（EISDIR、EACCES）或 text-file.ts 自己的一句话：异常的原话出自运行时，随 Node 版本而变
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== "ENOENT") log(`警告: 读不了 mcp.json（${code ?? (e as Error).name}），忽略`);
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
    const config = serverConfig(entry, options.env ?? process.env, defaultTimeoutMs);
    if (typeof config === "string") log(`警告: MCP 服务 "${name}" ${config}，跳过`);
    else servers.set(name, config);
  }
  return servers;
}

// 一个服务的配置：查形状、展开 ${VAR}；返回字符串就是它哪里不对
function serverConfig(entry: unknown, environ: NodeJS.ProcessEnv, defaultTimeoutMs: number): ServerConfig | string {
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
  // timeout 是 Claude Code 的字段名，单位毫秒：有的服务天生慢（跑测试、爬网页），给它单独放宽
  const timeoutMs = entry.timeout ?? defaultTimeoutMs;
  if (typeof timeoutMs !== "number" || !(timeoutMs > 0)) return `的 timeout 要是正数（毫秒），现在是 ${show(timeoutMs)}`;
  // 握手另算：冷启动（npx 先下载、tsx 先编译）要多久，和一次调用要多久是两回事。30 秒和 Claude Code 的 MCP_TIMEOUT 一样
  const startupTimeoutMs = entry.startupTimeout ?? 30_000;
  if (typeof startupTimeoutMs !== "number" || !(startupTimeoutMs > 0)) return `的 startupTimeout 要是正数（毫秒），现在是 ${show(startupTimeoutMs)}`;
  const config: ServerConfig = {
    command: expand(entry.command),
    args: args.map(expand),
    env: Object.fromEntries(Object.entries(env).map(([key, value]) => [key, expand(value as string)])),
    written: { command: entry.command, args, env: env as Record<string, string> },
    timeoutMs,
    startupTimeoutMs,
  };
  if (unset.size > 0) return `用到的环境变量 ${[...unset].join("、")} 没有设置（要默认值就写成 \${变量:-默认值}）`;
  if (config.command === "") return "的 command 展开以后是空的";
  return config;
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

// 把别人发来的值放进一行警告：JSON 写出来，太长就截断
export function show(value: unknown): string {
  return value === undefined ? "（没有）" : clip(JSON.stringify(value), 120);
}
