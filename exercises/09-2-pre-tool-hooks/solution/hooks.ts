// hooks.ts：工具执行之前的钩子（练习 09-2），Claude Code 的 PreToolUse 写法：
// {"hooks": {"PreToolUse": [{"matcher": "bash", "hooks": [{"type": "command", "command": "…", "timeout": 30}]}]}}。
// 钩子是你自己写的命令：从 stdin 收到这次调用的 JSON；退出码 0 放行到权限规则，2 拦下（stderr 就是理由），
// 别的退出码只是钩子自己出了错：警告一句，调用照常往下走。超时就结束它的整个进程组。
// 只读用户自己的 ~/.harness/settings.json：钩子是会执行的命令，仓库不能替你装一个。
import { spawn } from "node:child_process";
import { safeLine, safeText } from "./terminal.ts";

export interface Hook {
  matcher: string; // 管哪些工具："*"、"" 或不写 = 全部；"bash"、"write_file|edit_file" = 这几个名字；别的当正则
  command: string;
  timeoutMs: number;
}

const DEFAULT_TIMEOUT = 60; // 秒。Claude Code 早先也是 60 秒，如今是 600 秒：教学用的短一点，卡住了也不用等十分钟
const MAX_REASON = 2000; // 拦下的理由最多交给模型这么多字符
const ALIASES: Record<string, string> = { Bash: "bash", Read: "read_file", Write: "write_file", Edit: "edit_file" };

// 读设置里的 hooks.PreToolUse。写坏的一项警告一句、跳过，别的照常
export function parseHooks(settings: any, label: string): Hook[] {
  const groups = settings?.hooks?.PreToolUse;
  if (groups === undefined) return [];
  if (!Array.isArray(groups)) {
    console.error(`警告: ${label} 的 hooks.PreToolUse 不是数组，钩子不生效`);
    return [];
  }
  const hooks: Hook[] = [];
  for (const group of groups) {
    const matcher = group?.matcher ?? "";
    for (const hook of Array.isArray(group?.hooks) ? group.hooks : [undefined]) {
      const timeout = hook?.timeout ?? DEFAULT_TIMEOUT;
      if (typeof matcher !== "string" || hook?.type !== "command" || typeof hook.command !== "string" || !(typeof timeout === "number" && timeout > 0)) {
        console.error(`警告: ${label} 里有一个 PreToolUse 钩子看不懂（要 matcher 字符串、type "command"、command 字符串、timeout 正数秒），已跳过：${safeLine(JSON.stringify(group) ?? "")}`);
        continue;
      }
      hooks.push({ matcher, command: hook.command, timeoutMs: timeout * 1000 });
    }
  }
  return hooks;
}

function matches(matcher: string, tool: string): boolean {
  if (matcher === "" || matcher === "*") return true;
  // 只有字母、数字、下划线和 | 的，是几个确切的名字：bash 不管 bash_output，read 不管 read_file
  if (/^[\w|]+$/.test(matcher)) return matcher.split("|").some((name) => (ALIASES[name] ?? name) === tool);
  try {
    return new RegExp(matcher).test(tool);
  } catch {
    return true; // 写坏的正则：宁可多跑一次你的钩子，也不让它悄悄失效
  }
}

// 依次跑管这个工具的钩子。有一个拦下就返回理由；都放行返回 undefined
export async function preToolUse(hooks: Hook[], tool: string, input: unknown): Promise<string | undefined> {
  const payload = JSON.stringify({ hook_event_name: "PreToolUse", tool_name: tool, tool_input: input, cwd: process.cwd() });
  for (const hook of hooks.filter((h) => matches(h.matcher, tool))) {
    const reason = await runHook(hook, payload);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

function runHook(hook: Hook, payload: string): Promise<string | undefined> {
  const shown = safeLine(hook.command);
  return new Promise((resolve) => {
    // detached：钩子自己当一个进程组的头，超时的时候连它生的子孙一起结束（和第 07 章的 bash 一样）
    const child = spawn("bash", ["-c", hook.command], { detached: true, stdio: ["pipe", "ignore", "pipe"], env: hookEnv() });
    let stderr = "";
    let total = 0;
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      total += chunk.length;
      if (stderr.length <= MAX_REASON) stderr += chunk; // 只攒够用的那么多，再多只计数
    });
    child.stdin.on("error", () => {}); // 钩子可以不读 stdin 就退出
    child.stdin.end(payload + "\n");
    const timer = setTimeout(() => {
      killGroup(child.pid);
      console.error(`警告: PreToolUse 钩子 ${shown} 超过 ${hook.timeoutMs / 1000} 秒没有结束，已结束它的进程组；这次调用照常往下走`);
      resolve(undefined);
    }, hook.timeoutMs);
    child.on("error", () => {
      clearTimeout(timer);
      console.error(`警告: PreToolUse 钩子 ${shown} 启动失败；这次调用照常往下走`);
      resolve(undefined);
    });
    child.on("exit", () => killGroup(child.pid)); // 钩子退出了，留在后台的子孙也结束掉，管道才会关上
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) return resolve(undefined);
      if (code === 2) return resolve(reasonOf(stderr, total));
      // 退出码 1 之类：钩子自己出了错，不算拦下（Claude Code 也这样）。被超时结束的，上面已经说过了
      if (code !== null) console.error(`警告: PreToolUse 钩子 ${shown} 以退出码 ${code} 结束（只有 2 才是拦下），这次调用照常往下走${stderr.trim() ? `：${safeLine(stderr.trim().slice(0, 200))}` : ""}`);
      resolve(undefined);
    });
  });
}

// 钩子的 stderr 交给模型当理由：显形、截断
function reasonOf(stderr: string, total: number): string {
  const text = stderr.trim() || "（钩子没有写理由）";
  const cut = total > MAX_REASON ? `${text.slice(0, MAX_REASON)}……（后面省略约 ${total - MAX_REASON} 字符）` : text;
  return safeText(cut);
}

function killGroup(pid: number | undefined) {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL"); // 负的 pid = 整个进程组
  } catch {
    // 组里已经没有进程了
  }
}

// 钩子用得着 PATH、HOME，用不着我们的 API 密钥
function hookEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.HARNESS_API_KEY;
  delete env.DEEPSEEK_API_KEY;
  return env;
}
