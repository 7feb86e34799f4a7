// permissions.ts：三档权限 allow / ask / deny。规则写在用户的 ~/.harness/settings.json 和工作目录的 .harness/settings.json 里，
// 用 Claude Code 的写法：{"permissions": {"allow": ["bash(git status)"], "ask": ["bash(git push*)"], "deny": ["bash(rm *)"]}}。
// 第 23 章改动：沙箱开着时，没有 deny、ask 规则说话的 bash 不必问——它能碰到的只有工作目录。受保护的路径写成一张表（PROTECTED），沙箱用同一张。
// 练习 23-2 改动：bash 的 outside_sandbox 为 true 时，沙箱的“不必问”和 allow 规则都不算，每次问用户；用户的设置可以一律拒绝。
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describeJsonError } from "./json.ts";
import type { Tool } from "./registry.ts";
import { splitCommand } from "./shell.ts";
import { safeLine } from "./terminal.ts";
import { readTextFile } from "./text-file.ts";
import { resolveInside } from "./workspace.ts";

type Tier = "allow" | "ask" | "deny";
const TIERS: Tier[] = ["deny", "ask", "allow"];

// tool 和 pattern 里的 * 匹配任意一串字符；bash 的 pattern 已经按命令的写法规范过（见 splitCommand）
export interface Rule {
  text: string; // 文件里的原文，报告时用
  tool: string;
  pattern?: string;
  broken?: boolean; // 写坏了的 deny/ask 换成的“这个工具每次都问”
}
export type Policy = Record<Tier, Rule[]> & {
  allowUnsandboxed?: boolean; // 练习 23-2：~/.harness/settings.json 的 sandbox.allowUnsandboxedCommands，没写就是 true
};

// 在终端上问一句 y/N；没有终端可问时是 undefined
export type Confirm = ((question: string, signal?: AbortSignal) => Promise<boolean>) | undefined;

// Claude Code 的工具名首字母大写，它的规则抄过来也要能用
const ALIASES: Record<string, string> = { Bash: "bash", Read: "read_file", Write: "write_file", Edit: "edit_file" };

const PROJECT = ".harness/settings.json";
const USER = "~/.harness/settings.json";

// 规则有两处。用户自己的 ~/.harness/settings.json 总是算数；工作目录的 .harness/settings.json 是跟着仓库来的——
// 刚 clone 下来的仓库写一句 "allow": ["bash"]，就能让 harness 不问就跑它想跑的命令。所以文件夹被用户信任之前，
// 项目的规则只能让限制更紧：deny、ask 算数，allow 不算。信任记在用户目录里，不在文件夹里（仓库不能替自己作保）
export async function loadPolicy(cwd: string, confirm: Confirm, home = os.homedir()): Promise<Policy> {
  const user = readRules(path.join(home, ".harness", "settings.json"), USER);
  const project = readRules(path.join(cwd, ".harness", "settings.json"), PROJECT);
  const policy: Policy = { deny: [...user.deny, ...project.deny], ask: [...user.ask, ...project.ask], allow: user.allow, allowUnsandboxed: unsandboxedAllowed(home) };
  if (project.allow.length === 0) return policy; // 没有要放行的，信不信任都一样，不必问
  if (await trusted(cwd, home, project.allow, confirm)) policy.allow = [...user.allow, ...project.allow];
  else console.error(`[权限] 这个文件夹没有被信任：${PROJECT} 的 allow 规则不生效（deny、ask 照常生效）；要信任它，在终端里启动，被问到时回答 y`);
  return policy;
}

// 文件夹被信任过吗？没有的话，有终端就问一句，答 y 记进 ~/.harness/trusted-folders.json；没有终端就是不信任
async function trusted(cwd: string, home: string, allow: Rule[], confirm: Confirm): Promise<boolean> {
  const file = path.join(home, ".harness", "trusted-folders.json");
  const folder = fs.realpathSync(cwd);
  let folders: string[] = [];
  try {
    const saved = JSON.parse(readTextFile(file))?.folders;
    if (Array.isArray(saved)) folders = saved.filter((f) => typeof f === "string");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") console.error(`警告: 读不了 ~/.harness/trusted-folders.json，当作没有信任过任何文件夹`);
  }
  if (folders.includes(folder)) return true;
  if (!confirm) return false;
  const rules = allow.map((rule) => visible(rule.text)).join("、");
  const question = `[权限] 这个文件夹（${visible(folder)}）的 ${PROJECT} 要放行 ${rules}。信任这个文件夹、让它的 allow 规则生效吗？[y/N] `;
  if (!(await confirm(question))) return false;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ folders: [...folders, folder] }, null, 2) + "\n");
  console.error(`[权限] 已信任这个文件夹，记在 ~/.harness/trusted-folders.json`);
  return true;
}

// 在沙箱外执行命令许不许，只听用户自己的设置：仓库里的 .harness/settings.json 跟着 clone 来，
// 它写 "allowUnsandboxedCommands": true 不能替用户打开这扇门（它的 sandbox 整段不算，sandbox.ts 已经警告过）
function unsandboxedAllowed(home: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(readTextFile(path.join(home, ".harness", "settings.json")))?.sandbox?.allowUnsandboxedCommands;
  } catch {
    return true; // 没有这个文件，或者坏了（readRules 已经说过）：沙箱外的命令照样每次都问
  }
  if (value === undefined || typeof value === "boolean") return value ?? true;
  // 写成了 "false" 这样的字符串：用户多半想关掉它，往严的一边算
  console.error(`警告: ${USER} 的 sandbox.allowUnsandboxedCommands 要是 true 或 false，按 false（不许在沙箱外执行命令）`);
  return false;
}

function readRules(file: string, label: string): Policy {
  const policy: Policy = { allow: [], ask: [], deny: [] };
  let text: string;
  try {
    text = readTextFile(file); // 仓库里的 settings.json 可以是指向 /dev/zero 的链接：只读普通文件（text-file.ts）
  } catch (e) {
    // 只报错误码（EISDIR、EACCES）或 text-file.ts 自己的一句话：异常的原话出自运行时，随 Node 版本而变
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== "ENOENT") console.error(`警告: 读不了 ${label}（${code ?? (e as Error).name}），权限规则不生效`);
    return policy;
  }
  let settings: any;
  try {
    settings = JSON.parse(text);
  } catch {
    // 坏掉的配置不能当成“全部放行”，也不该让 harness 起不来：退回最安全的默认——每次都问。
    // 坏在哪由 json.ts 来说：JSON.parse 的原话随 Node 版本而变
    console.error(`警告: ${label} 不是合法 JSON（${describeJsonError(text)}），权限规则不生效，每次调用都要确认`);
    return policy;
  }
  const rules: Record<string, unknown> = settings?.permissions ?? {}; // 文件里写的是 null，也只是没有规则
  for (const tier of TIERS) {
    const list = rules[tier] ?? [];
    for (const entry of Array.isArray(list) ? list : [list]) {
      const rule = parseRule(entry);
      if (rule) {
        policy[tier].push(rule);
        continue;
      }
      const shown = visible(JSON.stringify(entry) ?? String(entry));
      if (tier === "allow") {
        console.error(`警告: ${label} 的 allow 规则 ${shown} 看不懂，已忽略`);
        continue;
      }
      // 看不懂的 deny、ask 不能让限制变松：它要管的那个工具（认不出是哪个，就是所有工具）从此每次都问
      const tool = typeof entry === "string" ? (parseRule(entry.split("(")[0])?.tool ?? "*") : "*";
      console.error(`警告: ${label} 的 ${tier} 规则 ${shown} 看不懂；为了不放松限制，${tool === "*" ? "所有工具" : tool} 的每次调用都要确认`);
      policy.ask.push({ text: String(entry), tool, broken: true });
    }
  }
  return policy;
}

// "bash"、"Bash(npm test *)"、"Bash(npm test:*)"（老写法，等于 "npm test" 或 "npm test ..."）、"mcp__fs__read_*"
export function parseRule(entry: unknown): Rule | undefined {
  if (typeof entry !== "string") return undefined;
  const m = entry.trim().match(/^([\w*-]+)(?:\((.+)\))?$/s);
  if (!m) return undefined;
  const tool = ALIASES[m[1]] ?? m[1];
  if (m[2] === undefined) return { text: entry, tool };
  let pattern = m[2].replace(/:\*$/, " *");
  if (tool === "bash") {
    // 模式和命令用同一套规则规范：`git  "push"` 和 `git push` 是同一条命令
    const parsed = splitCommand(pattern);
    if (!parsed || parsed.commands.length !== 1) return undefined; // 引号不配对，或者一条规则里写了几条命令
    pattern = parsed.commands[0];
  }
  return { text: entry, tool, pattern };
}

// 通配符只有 *：开头那段对上开头、末尾那段对上结尾，中间各段从左往右各找最早的一处。
// 不拼成正则：几个 * 的规则碰上几十万字的命令，正则的回溯是平方级的，敌意的模型能拿它卡住 harness
function glob(pattern: string, text: string): boolean {
  // 末尾的 " *" 也匹配不带参数的命令：bash(npm test *) 放行 npm test
  if (pattern.endsWith(" *") && text === pattern.slice(0, -2)) return true;
  const parts = pattern.split("*");
  if (parts.length === 1) return text === pattern;
  const first = parts[0];
  const last = parts[parts.length - 1];
  if (!text.startsWith(first)) return false;
  let at = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = text.indexOf(part, at);
    if (found < 0) return false;
    at = found + part.length;
  }
  return text.length - last.length >= at && text.endsWith(last);
}

// 规则比的是什么：bash 比每条简单命令（readings 是它们的另一种读法，只给 deny、ask 比）；
// 别的工具比参数 path（工作目录里的写成相对路径，连同符号链接解开后的样子）。undefined 表示这次调用里没有能比的东西
function subjectsOf(tool: string, args: Record<string, unknown>): { subjects: (string | undefined)[]; readings?: string[]; unsafe: boolean; inside?: boolean } {
  if (tool === "bash") {
    const command = typeof args.command === "string" ? args.command : "";
    const split = splitCommand(command); // 引号不配对：bash 自己会报错，但规则也不能替它放行
    return split ? { subjects: split.commands, readings: split.readings, unsafe: split.unsafe } : { subjects: [command.trim()], unsafe: true };
  }
  if (typeof args.path !== "string") return { subjects: [undefined], unsafe: false };
  const cwd = process.cwd();
  const show = (abs: string) => (path.relative(cwd, abs).startsWith("..") ? abs : path.relative(cwd, abs) || ".");
  const forms = [show(path.resolve(cwd, args.path))];
  let inside = false;
  try {
    const real = resolveInside(cwd, args.path);
    forms.push(path.relative(fs.realpathSync(cwd), real) || ".");
    // 有不止一个硬链接的文件，另一个名字可能在工作目录外（~/.ssh/id_ed25519 的硬链接）：不算“目录里”
    const stat = fs.statSync(real, { throwIfNoEntry: false });
    inside = !(stat?.isFile() && stat.nlink > 1);
  } catch {
    // 在工作目录外面（也可能是一个指出去的链接）：读要问，写文件的工具自己会拒绝
  }
  return { subjects: [...new Set(forms)], unsafe: false, inside };
}

export interface Verdict {
  decision: Tier;
  rule?: string; // 起作用的那条规则
  why?: "config" | "unsafe" | "broken" | "outside" | "unsandboxed"; // 规则放行不了、一定要问人的原因（unsandboxed：要在沙箱外跑）
  suggest?: string[]; // 没有终端时，建议用户加进 allow 的规则
}

// 工作区里这些文件改了，下一次 git、harness、别的 agent 就会照着它们做事——core.fsmonitor 一行就能让 git status 跑任意命令。
// 写它们总要问，allow 也放不行；沙箱（sandbox.ts）拿同一张表，命令也改不了、建不出来。
// 写法和 .gitignore 一样：/ 结尾的是目录，/ 开头的只算工作目录这一层，* 结尾的是名字的开头
export const PROTECTED = [".harness/", ".claude/", ".git/", "/mcp.json", "AGENTS.md", "CLAUDE.md", ".env*"];

// 一条路径落在表里：某一段是表里的目录，或者最后一段是表里的文件。不分大小写：macOS 的文件系统也不分
function isProtected(subject: string): boolean {
  const parts = subject.toLowerCase().split("/");
  return PROTECTED.some((entry) => {
    const name = entry.toLowerCase().replace(/^\/|\/$/g, "");
    const same = (part: string) => (name.endsWith("*") ? part.startsWith(name.slice(0, -1)) : part === name);
    if (entry.endsWith("/")) return parts.some(same);
    return entry.startsWith("/") ? parts.length === 1 && same(parts[0]) : same(parts.at(-1)!);
  });
}

// 没有规则说话时和 Claude Code 的默认一样：工作目录里的读放行；目录外的读、写文件、bash 都要问
export function decide(policy: Policy, tool: string, args: Record<string, unknown>, sandboxed = false): Verdict {
  const { subjects, readings = [], unsafe, inside } = subjectsOf(tool, args);
  // 没有能比的东西时，带模式的 deny、ask 照样算数（拿不准就不放松），allow 不算
  const hits = (rule: Rule, subject: string | undefined, strict: boolean) =>
    glob(rule.tool, tool) && (rule.pattern === undefined || (subject === undefined ? strict : glob(rule.pattern, subject)));
  const find = (tier: Tier) => policy[tier].find((rule) => [...subjects, ...readings].some((s) => hits(rule, s, true)));
  const allowed = (s: string | undefined) => policy.allow.some((rule) => hits(rule, s, false));

  const deny = find("deny");
  if (deny) return { decision: "deny", rule: deny.text };
  // 要在沙箱外跑的命令，沙箱那条“不必问”的理由不在了；allow 规则是用户对沙箱里的命令说的，也不算。每次都问，除非用户一律不许。
  // 只认布尔的 true：bash 工具用同一个判断，"true" 在这里不算沙箱外，在那里也就跑在沙箱里
  if (sandboxed && tool === "bash" && args.outside_sandbox === true) {
    return { decision: policy.allowUnsandboxed === false ? "deny" : "ask", why: "unsandboxed" };
  }
  // 模型不能改自己的规则和配置：下一次启动时，它写进去的东西就成了用户的意思
  const writes = tool === "write_file" || tool === "edit_file";
  if (writes && subjects.some((s) => s !== undefined && isProtected(s))) return { decision: "ask", why: "config" };
  const ask = find("ask");
  if (ask) return { decision: "ask", rule: ask.text, why: ask.broken ? "broken" : undefined };
  // 带模式的 allow 看不清 $(…) 里、> 后面是什么；只写了工具名的 allow 本来就放行这个工具的一切——
  // 除非还有带模式的 deny、ask 管着它：$'\x72m' 也许就是 rm，证明不了不是，就问（沙箱开着也问：那是用户写下的规则）
  const guarded = [...policy.deny, ...policy.ask].some((rule) => rule.pattern !== undefined && glob(rule.tool, tool));
  if (unsafe && guarded) return { decision: "ask", why: "unsafe" };
  // 规则是对着一门 shell 语言做字符串匹配，总有漏洞；沙箱是内核划的边界，不管命令怎么拼写。边界在，就不必再问
  if (sandboxed && tool === "bash") return { decision: "allow" };
  if (unsafe && !policy.allow.some((rule) => rule.pattern === undefined && glob(rule.tool, tool))) return { decision: "ask", why: "unsafe" };
  if (subjects.every(allowed)) return { decision: "allow" };
  if (tool === "read_file" && inside) return { decision: "allow" };
  const suggest = subjects.filter((s) => !allowed(s)).map((s) => (s === undefined ? tool : `${tool}(${s})`));
  return { decision: "ask", suggest, why: tool === "read_file" ? "outside" : undefined };
}

// 模型的文字原样打到终端上，\r 和 ESC 序列能把问题改写成别的样子：控制字符和双向文字控制符一律显示成转义
export function visible(text: string): string {
  return safeLine(text); // 和回答、调用行同一套显形（terminal.ts）：␛[2K、\r、\u202e
}

// 给一个工具套上权限检查：登记进注册表的是这层外壳，注册表和循环都不用知道权限这回事
export function guard(tool: Tool, policy: Policy, confirm: Confirm, sandboxed = false): Tool {
  const name = tool.definition().name;
  return {
    definition: () => tool.definition(),
    async execute(args, signal) {
      const parsed = JSON.parse(args); // 注册表已经确认过它是一个 JSON 对象；规则比的是解析后的值，不是原文
      const shown = visible(`${name}: ${name === "bash" ? String(parsed.command ?? "") : JSON.stringify(parsed)}`);
      const { decision, rule, why, suggest } = decide(policy, name, parsed, sandboxed);
      const outside = why === "unsandboxed" ? "在沙箱外" : ""; // 练习 23-2：问题和拒绝都说清它不在沙箱里
      if (decision === "deny" && why === "unsandboxed") {
        console.error(`[权限] 拒绝在沙箱外执行 ${shown}（${USER} 的 sandbox.allowUnsandboxedCommands 不许在沙箱外执行命令）`);
        return "错误: 用户的设置（sandbox.allowUnsandboxedCommands）不许在沙箱外执行命令，没有执行。去掉 outside_sandbox 在沙箱里做；做不到，请用户自己在终端上运行。";
      }
      if (decision === "deny") {
        console.error(`[权限] 拒绝 ${shown}（deny 规则 "${visible(rule!)}"）`);
        return `错误: 权限规则 "${rule}" 禁止这次调用，没有执行。换一种不违反规则的做法，或者请用户修改权限规则。`;
      }
      if (decision === "ask") {
        if (!confirm) {
          console.error(`[权限] 没有终端可以确认，拒绝${outside && "在沙箱外执行"} ${shown}`);
          return `错误: 这次调用需要用户确认，但现在没有终端可以问（输入不是终端），按拒绝处理，没有执行。${howToAllow(name, why, rule, suggest)}`;
        }
        const warning = outside && "沙箱管不到它：能写工作目录外面、读得到秘密、能上网。";
        if (!(await confirm(`[权限] 允许${outside}执行 ${shown} 吗？${warning}[y/N] `, signal))) return "错误: 用户拒绝了这次调用，没有执行。";
      }
      return tool.execute(args, signal);
    },
  };
}

// 没有终端时，告诉模型（再由它转告用户）怎样才能放行
function howToAllow(tool: string, why: Verdict["why"], rule: string | undefined, suggest: string[] = []): string {
  if (why === "config") return "这是在改 harness 的规则、git 的配置、环境文件或给 agent 的说明，不管规则怎么写都要用户在终端上确认；请用户自己修改。";
  if (why === "unsafe") return "命令里有规则看不清的写法（$(…)、反引号、heredoc、$'…'、花括号或 $ 展开、续行、写进文件的重定向，包在 env、xargs、sudo、bash -c、eval 之类里面，或者 python -c、awk 这样写在命令行上的代码），规则不会自动放行这种命令；换成简单直白的写法，或者请用户在终端上运行。";
  if (why === "unsandboxed") return "在沙箱外执行的命令每次都要用户在终端上确认，allow 规则放行不了。去掉 outside_sandbox 在沙箱里做；做不到，请用户自己在终端上运行。";
  if (why === "broken") return `权限规则 "${rule}" 看不懂，为了不放松限制，${tool} 每次都要用户确认；请用户修好这条规则。`;
  if (rule) return `ask 规则 "${rule}" 要求每次都由用户确认。`;
  const rules = suggest.map((s) => JSON.stringify(s)).join("、");
  const where = why === "outside" ? "要读的文件在工作目录之外。" : "";
  return `${where}要放行，用户可以在 ~/.harness/settings.json 的 permissions.allow 里加${suggest.length > 1 ? "这几条规则：" : "一条规则，比如 "}${rules}。`;
}
