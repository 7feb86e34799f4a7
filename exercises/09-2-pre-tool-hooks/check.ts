// 练习 09-2 的检查器：工具执行之前的钩子（PreToolUse）。
// 一个场景 hooks，没有终端。用户的 ~/.harness/settings.json（checks/hooks/home/）装了四个钩子：
//   *           把 stdin 追加进 ~/hook-log.jsonl（每次调用一行 JSON）
//   bash        guard.sh：rm notes.txt 想半秒再以退出码 2 拦下（timeout 30 秒；理由夹着 ESC 序列，长过 2000 字）；带 oops 的以退出码 1 出错
//   write_file  hang.sh：卡住，还在后台留一个 sleep（timeout 1 秒）
//   read        确切的名字：不该管 read_file（管了就以退出码 2 拦下）
// 仓库自己的 .harness/settings.json 也写了两个钩子（拦下一切、建 repo-hook-ran.txt），文件夹还被信任过。
// 最后一轮 cat 日志、ls：模型收到的结果就是盘上的事实。措辞不逐字比对。
import { describe, systemPrompt, toolResults, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

const NOTES = "待办：加一个 hello.txt\n";

const quote = (value: string | undefined) => (value === undefined ? describe(value) : `“${describe(value)}”`);
const refused = (result: string | undefined) => result !== undefined && result.trimStart().startsWith("错误");

function how(run: RunResult, request: number): string {
  if (run.transcript.includes("[场景超时")) return `（harness 没能结束，被场景超时终止了；模型一共收到 ${run.requests} 次请求）`;
  if (run.bodies.length < request) return `（模型只收到 ${run.requests} 次请求，没走到第 ${request} 次；harness 退出码 ${run.exitCode}）`;
  return "";
}

// 最后一轮 `cat ~/hook-log.jsonl; ls` 的 stdout：JSON 的行是钩子日志，别的行是 ls 列出的文件
function finalOutput(run: RunResult): { log: any[]; bad: string[]; files: string[] } | undefined {
  const result = toolResults(run, 6)[0];
  if (result === undefined || !result.includes("[stdout]")) return undefined;
  const stdout = result.split("[stdout]\n")[1]!.split("\n[stderr]")[0]!;
  const log: any[] = [];
  const bad: string[] = [];
  const files: string[] = [];
  for (const line of stdout.split("\n").map((l) => l.trim()).filter(Boolean)) {
    if (!line.startsWith("{")) files.push(line);
    else {
      try {
        log.push(JSON.parse(line));
      } catch {
        bad.push(line);
      }
    }
  }
  return { log, bad, files };
}

// 转录里 [round a] 那几行之后、[round b] 之前的部分：这一轮的调用 harness 说了什么
function between(run: RunResult, a: number, b: number): string[] {
  const lines = run.transcript.split("\n");
  const start = lines.findIndex((l) => l.startsWith(`[round ${a}]`));
  const end = lines.findIndex((l) => l.startsWith(`[round ${b}]`));
  return start < 0 ? [] : lines.slice(start, end < 0 ? undefined : end);
}
const warned = (lines: string[]) => lines.some((l) => l.startsWith("警告:"));

export const requirements: Requirement[] = [
  {
    name: "退出码 2 拦下调用：命令没有执行，钩子的 stderr（显形、截断）成为“错误:”结果",
    scenario: "hooks",
    check(run) {
      const rm = toolResults(run, 2)[0];
      const final = finalOutput(run);
      if (!refused(rm) || !rm!.includes("禁止 rm：请改用 trash")) {
        return `期望：管 bash 的钩子 guard.sh 想半秒后以退出码 2 结束（它的 timeout 是 30 秒——单位是秒），rm notes.txt 被拦下，不执行，模型收到以“错误”开头、带着钩子 stderr 里“禁止 rm：请改用 trash”的结果；实际：模型收到 ${quote(rm)}${final && !final.files.includes("notes.txt") ? "，notes.txt 已经被删了" : ""}${how(run, 2)}`;
      }
      if (/[\x1b\x07]/.test(rm!) || /[\x1b\x07]/.test(run.transcript)) {
        return `期望：钩子的 stderr 是外来的文字，交给模型、打给用户之前经过 terminal.ts 显形，ESC 序列（清屏 ESC[2J、改标题 ESC]0;…BEL）变成 ␛[2J、␛]0;…\\x07；实际：${/[\x1b\x07]/.test(rm!) ? "模型收到的结果" : "转录"}里还有原样的 ESC 或 BEL`;
      }
      if (rm!.includes("REASON-TAIL") || rm!.length > 2600) {
        return `期望：钩子的理由有上限，最多交给模型 2000 个字符上下（guard.sh 写了 3000 多字，结尾的 REASON-TAIL 不该出现）；实际：结果有 ${rm!.length} 个字符${rm!.includes("REASON-TAIL") ? "，整份都在" : ""}`;
      }
      if (final && !final.files.includes("notes.txt")) return `期望：被拦下的 rm 没有执行，notes.txt 还在；实际：最后的 ls 列出 ${describe(final.files.join(" "))}`;
      return undefined;
    },
  },
  {
    name: "钩子从 stdin 收到一行 JSON：hook_event_name、tool_name、tool_input（对象）、cwd；每个调用（规则会拒绝的也一样）都先过钩子",
    scenario: "hooks",
    check(run) {
      const final = finalOutput(run);
      if (!final || final.log.length === 0) {
        return `期望：matcher "*" 的钩子把 stdin 追加进 ~/hook-log.jsonl，最后的 cat 看得到每次调用一行 JSON；实际：${final ? "日志里一行也没有（~/hook-log.jsonl 不存在或是空的）" : `最后一轮的结果是 ${quote(toolResults(run, 6)[0])}`}${final?.bad.length ? `，有几行不是 JSON：${describe(final.bad.join(" / "))}` : ""}${how(run, 6)}`;
      }
      if (final.bad.length > 0) return `期望：每次调用写给钩子的 stdin 是一行 JSON（JSON.stringify，不加缩进）；实际：日志里有解析不了的行 ${describe(final.bad.join(" / "))}`;
      const rm = final.log.find((e) => e?.tool_input?.command === "rm notes.txt");
      if (!rm) return `期望：日志里有 rm notes.txt 那次调用，tool_input 是解析后的参数对象 {"command":"rm notes.txt"}（不是 JSON 文本）；实际：${describe(final.log)}`;
      const cwd = typeof rm.cwd === "string" && rm.cwd.startsWith("/") && systemPrompt(run, 1).includes(rm.cwd);
      if (rm.hook_event_name !== "PreToolUse" || rm.tool_name !== "bash" || !cwd) {
        return `期望：{"hook_event_name":"PreToolUse","tool_name":"bash","tool_input":{"command":"rm notes.txt"},"cwd":<工作目录的绝对路径>}；实际：${describe(rm)}`;
      }
      const write = final.log.find((e) => e?.tool_name === "write_file");
      if (write?.tool_input?.path !== "hello.txt" || write?.tool_input?.content !== "你好") {
        return `期望：write_file 那次调用的 tool_input 是 {"path":"hello.txt","content":"你好"}；实际：${describe(write)}`;
      }
      const tools = final.log.map((e) => e?.tool_name);
      const want = ["bash", "bash", "write_file", "read_file", "edit_file", "bash"];
      if (JSON.stringify(tools) !== JSON.stringify(want)) {
        return `期望：matcher "*" 管每一个调用，钩子在权限规则之前跑——没有终端、规则会拒绝的 edit_file 也先过钩子；日志里按顺序是 ${want.join("、")}；实际：${describe(tools.join("、"))}`;
      }
      return undefined;
    },
  },
  {
    name: "别的退出码（1）不算拦下：警告一句，调用照常执行",
    scenario: "hooks",
    check(run) {
      const echo = toolResults(run, 3)[0];
      if (refused(echo) || !echo?.includes("oops")) {
        return `期望：guard.sh 对带 oops 的命令以退出码 1 结束——那是钩子自己出了错，不是拦下（只有 2 才拦）：警告一句，echo oops 照常执行；实际：模型收到 ${quote(echo)}${how(run, 3)}`;
      }
      if (!warned(between(run, 2, 3))) return `期望：钩子以退出码 1 结束时，给用户一行“警告: …”（钩子坏了，用户得知道）；实际：[round 2] 之后没有警告：${describe(between(run, 2, 3).join(" / "))}`;
      return undefined;
    },
  },
  {
    name: "超时的钩子：进程组被结束（不留进程），警告一句，调用照常走权限规则",
    scenario: "hooks",
    check(run) {
      if (run.transcript.includes("[场景超时") || run.leftovers.length > 0) {
        const left = run.leftovers.length > 0 ? `还活着 ${describe(run.leftovers.join(" / "))}` : "harness 没能结束，被场景超时终止了（多半是钩子的进程还攥着管道，事件循环等着它）";
        return `期望：hang.sh 的 timeout 是 1 秒，到点结束它的整个进程组（spawn 时 detached，process.kill(-pid)），它留在后台的 sleep 也一起结束，harness 退出后不留进程；实际：${left}`;
      }
      const write = toolResults(run, 4)[0];
      if (refused(write)) return `期望：钩子超时不算拦下，write_file 照常走权限规则（用户的 allow 放行它），写出 hello.txt；实际：模型收到 ${quote(write)}${how(run, 4)}`;
      if (!warned(between(run, 3, 4))) return `期望：钩子超时被结束时，给用户一行“警告: …”；实际：[round 3] 之后没有警告：${describe(between(run, 3, 4).join(" / "))}`;
      const final = finalOutput(run);
      if (final && !final.files.includes("hello.txt")) return `期望：hello.txt 写出来了；实际：最后的 ls 列出 ${describe(final.files.join(" "))}`;
      return undefined;
    },
  },
  {
    name: "matcher 写的是名字就只管同名的工具：read 不管 read_file",
    scenario: "hooks",
    check(run) {
      const read = toolResults(run, 5)[0];
      if (read !== NOTES) {
        return `期望：matcher "read" 只有字母，是一个确切的工具名（Claude Code 的规矩：名字和 A|B 按名字比，别的才当正则），不管 read_file，read_file 照常读到 ${quote(NOTES)}；实际：模型收到 ${quote(read)}${read?.includes("matcher read") ? "——matcher 被当成正则（或子串）去比了" : ""}${how(run, 5)}`;
      }
      return undefined;
    },
  },
  {
    name: "仓库的 .harness/settings.json 里的钩子不生效（文件夹信任过也一样），一行警告",
    scenario: "hooks",
    check(run) {
      const final = finalOutput(run);
      const blocked = [2, 3, 4, 5, 6].flatMap((n) => toolResults(run, n)).find((r) => r.includes("仓库的钩子"));
      if (blocked || final?.files.includes("repo-hook-ran.txt")) {
        return `期望：钩子是会执行的命令，只从用户自己的 ~/.harness/settings.json 读；仓库带来的 .harness/settings.json 写了钩子，哪怕文件夹被信任过也一个都不跑；实际：${blocked ? `仓库的钩子拦下了调用：${quote(blocked)}` : "仓库的钩子跑了（工作目录里出现了 repo-hook-ran.txt）"}`;
      }
      const warnings = run.transcript.split("\n").filter((l) => l.startsWith("警告:") && /(?<!~\/)\.harness\/settings\.json/.test(l));
      if (warnings.length !== 1) {
        return `期望：仓库设置里有钩子时，启动时一行“警告: …”点名 .harness/settings.json，说它的钩子不生效（两个钩子也只一行）；实际：${warnings.length === 0 ? "没有这行警告" : `${warnings.length} 行：${describe(warnings.join(" / "))}`}`;
      }
      return undefined;
    },
  },
];
