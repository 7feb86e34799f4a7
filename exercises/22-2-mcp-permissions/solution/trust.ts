// trust.ts：先批准，再启动。mcp.json 在工作目录里，谁都能写——你 git clone 下来的仓库也能；
// 里面的 command 一启动，就是以你的身份在执行别人写的命令。所以每个服务器都要你看过、批准过那条命令才启动。
// 练习 22-2 新增。
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ServerConfig } from "./mcp.ts";
import type { Confirm } from "./permissions.ts";

// 批准的是 mcp.json 里写的原样（${VAR} 还没展开）：仓库能决定的只有这段文字；
// 变量的值来自你自己的环境，不是仓库的手笔，也就不必把你的令牌抄进批准记录里
type Written = { command: string; args: string[]; env: Record<string, string> };
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
    const written: Written = config.written ?? { command: config.command, args: config.args, env: config.env };
    const approvals = load(log);
    const before = approvals?.[cwd]?.[name];
    if (before && same(before, written)) return true;
    const why = before ? "它的命令和你上次批准的不一样了" : "还没有批准过";
    if (!ask) {
      log(`警告: MCP 服务 "${name}" ${why}，没有终端可以问，跳过。要启动它，在终端里、在这个目录运行一次 harness，看过命令后答 y（批准记在 ${trustFile()}）`);
      return false;
    }
    // 给人看的是真正要执行的那一行：${VAR} 已经展开；env 照写的原样列出，不把你的令牌印在屏幕上
    const lines = [`mcp.json 要启动 MCP 服务 "${name}"（${why}）：`, `  命令: ${[config.command, ...config.args].map(shellWord).join(" ")}`];
    for (const [key, value] of Object.entries(written.env)) lines.push(`  环境变量: ${key}=${value}`);
    lines.push(`这条命令会以你的身份运行。启动它吗？[y/N] `);
    if (!(await ask(lines.join("\n")))) return false;
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

// 带空格、引号的参数加上引号，屏幕上的一行和真正执行的参数一一对应
function shellWord(arg: string): string {
  return /^[\w./:=@%+,-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}
