// permissions.ts：三档权限 allow / ask / deny。规则写在工作目录的 .harness/settings.json 里，
// 用 Claude Code 的写法：{"permissions": {"allow": ["bash(git status)"], "deny": ["bash(rm *)"]}}。
// 第 12 章改动：问 y/N 的时候按 Ctrl-C，问题收回，按拒绝处理。
import fs from "node:fs";
import path from "node:path";
import type { Tool } from "./registry.ts";

export interface Policy {
  allow: string[];
  deny: string[];
}

// 在终端上问一句 y/N；没有终端可问时是 undefined
export type Confirm = ((question: string, signal?: AbortSignal) => Promise<boolean>) | undefined;

export function loadPolicy(cwd: string): Policy {
  const file = path.join(cwd, ".harness", "settings.json");
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") console.error(`警告: 读不了 .harness/settings.json，权限规则不生效：${(e as Error).message}`);
    return { allow: [], deny: [] };
  }
  try {
    const rules = JSON.parse(text).permissions ?? {};
    return { allow: strings(rules.allow), deny: strings(rules.deny) };
  } catch (e) {
    // 坏掉的配置不能当成“全部放行”，也不该让 harness 起不来：退回最安全的默认——每次都问
    console.error(`警告: .harness/settings.json 不是合法 JSON，权限规则不生效，每次调用都要确认：${(e as Error).message}`);
    return { allow: [], deny: [] };
  }
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

// 规则是“工具名”或“工具名(参数模式)”，* 匹配任意一串字符。对 bash，括号里比的是命令本身
export function decide(policy: Policy, tool: string, argument: string): { decision: "allow" | "ask" | "deny"; rule?: string } {
  const deny = policy.deny.find((r) => matches(r, tool, argument));
  if (deny) return { decision: "deny", rule: deny };
  const allow = policy.allow.find((r) => matches(r, tool, argument));
  if (allow) return { decision: "allow", rule: allow };
  return { decision: "ask" };
}

function matches(rule: string, tool: string, argument: string): boolean {
  const m = rule.trim().match(/^([^(]+)(?:\((.*)\))?$/s);
  if (!m) return false;
  return glob(m[1], tool) && (m[2] === undefined || glob(m[2], argument));
}

function glob(pattern: string, text: string): boolean {
  const escaped = pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${escaped.join(".*")}$`, "s").test(text);
}

// 给一个工具套上权限检查：登记进注册表的是这层外壳，注册表和循环都不用知道权限这回事
export function guard(tool: Tool, policy: Policy, confirm: Confirm): Tool {
  const name = tool.definition().name;
  return {
    definition: () => tool.definition(),
    async execute(args, signal) {
      const argument = name === "bash" ? String(JSON.parse(args).command ?? "") : args;
      const shown = `${name}: ${argument}`;
      const { decision, rule } = decide(policy, name, argument);
      if (decision === "deny") {
        console.error(`[权限] 拒绝 ${shown}（deny 规则 "${rule}"）`);
        return `错误: 权限规则 "${rule}" 禁止这次调用，没有执行。换一种不违反规则的做法，或者请用户修改 .harness/settings.json。`;
      }
      if (decision === "ask") {
        if (!confirm) {
          console.error(`[权限] 没有终端可以确认，拒绝 ${shown}`);
          return `错误: 这次调用需要用户确认，但现在没有终端可以问（输入不是终端），按拒绝处理，没有执行。要放行，用户可以在 .harness/settings.json 的 permissions.allow 里加一条规则，比如 "${name}(${argument})"。`;
        }
        if (!(await confirm(`[权限] 允许执行 ${shown} 吗？[y/N] `, signal))) return "错误: 用户拒绝了这次调用，没有执行。";
      }
      return tool.execute(args, signal);
    },
  };
}
