// trust.ts：先批准，再启动。mcp.json 在工作目录里，谁都能写——你 git clone 下来的仓库也能；
// 里面的 command 一启动，就是以你的身份在执行别人写的命令。所以每个服务器都要你看过、批准过那条命令才启动。
// 练习 22-2 新增。
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ServerConfig } from "./mcp-config.ts";
import type { Confirm } from "./permissions.ts";
import { safeLine } from "./terminal.ts";
import crypto from "node:crypto";

// 记下的是 mcp.json 里写的原样（${VAR} 还没展开），外加进程真正收到的那些字节的指纹（exact）：
// 批准绑在你看过的那一份上，展开后差一个字节也要再问；令牌只进指纹，不以原文抄进批准记录
type Written = { command: string; args: string[]; env: Record<string, string>; exact?: string };
// { 工作目录的绝对路径: { 服务名: 批准过的原样 } }
type Approvals = Record<string, Record<string, Written>>;

// 批准只记在你的用户目录里，按工作目录分开。工作目录里的 .harness/trusted-mcp.json 一概不读：
// 仓库能改它自己的每一个文件，要是它能批准自己，这道门就形同虚设
export function trustFile(): string {
  return path.join(os.homedir(), ".harness", "trusted-mcp.json");
}

// connectMcpServers 的 approve：批准过、命令没变，直接放行；否则有终端就问，没终端就跳过并说明怎么批准
export function approver(cwd: string, ask: Confirm, log: (line: string) => void) {
  return async (name: string, config: ServerConfig): Promise<boolean> => {
    const exact = fingerprint(config);
    const written: Written = { ...(config.written ?? { command: config.command, args: config.args, env: config.env }), exact };
    const approvals = load(log);
    const before = approvals?.[cwd]?.[name];
    if (before && same(before, written) && (before.exact === undefined || before.exact === exact)) return true;
    const why = before ? "它的命令和你上次批准的不一样了" : "还没有批准过";
    if (!ask) {
      log(`警告: MCP 服务 "${name}" ${why}，没有终端可以问，跳过。要启动它，在终端里、在这个目录运行一次 harness，看过命令后答 y（批准记在 ${trustFile()}）`);
      return false;
    }
    // 给人看的是进程真正收到的 argv 和 env：${VAR} 已经展开，每个字都显形（mcp.json 是别人写的，
    // 一个值里的 \r、ESC[2K、ESC[1A 就能擦掉上一行、画一条无害的命令）。只有整个值都取自你环境的变量（${TOKEN}）
    // 不印原文：那是你自己的令牌，不是仓库的手笔
    const lines = [`mcp.json 要启动 MCP 服务 "${name}"（${why}）：`, `  命令: ${[config.command, ...config.args].map(shellWord).join(" ")}`];
    for (const [key, value] of Object.entries(config.env)) {
      const from = (config.written?.env[key] ?? "").match(/^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/)?.[1];
      lines.push(`  环境变量: ${shellWord(key)}=${from ? `（你环境里 ${from} 的值，${value.length} 个字符）` : shellWord(value)}`);
    }
    lines.push(`这条命令会以你的身份运行。启动它吗？[y/N] `);
    if (!(await ask(lines.map(safeLine).join("\n")))) return false;
    if (approvals) save({ ...approvals, [cwd]: { ...approvals[cwd], [name]: written } }, log);
    return true;
  };
}

// 读不了（还没有）就是空的；写坏了的不能当成“全部批准”，也不能被我们覆盖掉：返回 undefined，这次只问不记
function load(log: (line: string) => void): Approvals | undefined {
  let text: string;
  try {
    text = fs.readFileSync(trustFile(), "utf8");
  } catch {
    return {};
  }
  try {
    const parsed = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) return parsed;
  } catch {
    // 落到下面的警告
  }
  log(`警告: ${trustFile()} 不是合法的批准记录，当作什么都没批准过；这次的回答不会记下来`);
  return undefined;
}

function save(approvals: Approvals, log: (line: string) => void): void {
  try {
    fs.mkdirSync(path.dirname(trustFile()), { recursive: true });
    fs.writeFileSync(trustFile(), JSON.stringify(approvals, null, 2) + "\n", { mode: 0o600 });
  } catch (e) {
    log(`警告: 批准没能记下来（${(e as Error).message}），下次还会再问`);
  }
}

// 三项都要一样：命令、参数、环境变量（NODE_OPTIONS 这样的变量能让同一条命令干完全不同的事）
function same(a: Written, b: Written): boolean {
  const env = (e: Record<string, string>) => JSON.stringify(Object.entries(e ?? {}).sort());
  return a.command === b.command && JSON.stringify(a.args ?? []) === JSON.stringify(b.args) && env(a.env) === env(b.env);
}

// 带空格、引号、控制字符的参数写成 JSON 字符串（\n、\u001b、\\ 都写明），屏幕上的一行和真正执行的参数一一对应，
// 原文里的反斜杠和显形出来的转义也分得清
function shellWord(arg: string): string {
  return /^[\w./:=@%+,-]+$/.test(arg) ? arg : JSON.stringify(arg);
}

// 进程真正收到的字节：命令、参数、（配置里的）环境变量，按键排好
function fingerprint(config: ServerConfig): string {
  const env = Object.entries(config.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return crypto.createHash("sha256").update(JSON.stringify([config.command, config.args, env])).digest("hex");
}
