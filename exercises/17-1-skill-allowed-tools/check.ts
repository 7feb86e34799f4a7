// 练习 17-1 的检查器：SKILL.md 的 allowed-tools。两个场景都没有终端：要问的调用一律被拒，被放行的才会执行。
// skill-grants：用户的 git-history（allowed-tools: read_file, bash(git log *), bash(git status)x；用户的 deny 有 bash(git log -p*)），
//   文件夹被信任过，项目里还有 tidy（allowed-tools: bash(touch *)）。
// untrusted-repo：没被信任的仓库自带 git-history，allowed-tools 要整个 bash。
// 措辞不逐字比对：看的是每个 bash 调用执行了（结果以“退出码: 0”开头）还是被拒（以“错误”开头）。
import { describe, toolResults, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

const quote = (value: string | undefined) => (value === undefined ? describe(value) : `“${describe(value)}”`);
const refused = (result: string | undefined) => result !== undefined && result.trimStart().startsWith("错误");
const ran = (result: string | undefined) => result !== undefined && result.startsWith("退出码: 0");

function how(run: RunResult, request: number): string {
  if (run.transcript.includes("[场景超时")) return `（harness 没能结束，被场景超时终止了；模型一共收到 ${run.requests} 次请求）`;
  if (run.bodies.length < request) return `（模型只收到 ${run.requests} 次请求，没走到第 ${request} 次；harness 退出码 ${run.exitCode}）`;
  return "";
}

// skill-grants 第 3 轮的五个调用（结果在第 4 次请求里）
const ROUND3 = ["git log --oneline", "git push origin main", "git log -p", "git status", "git log --oneline && touch sneaky.txt"];
function round3(run: RunResult): Record<string, string | undefined> {
  const results = toolResults(run, 4);
  return Object.fromEntries(ROUND3.map((command, i) => [command, results[i]]));
}

export const requirements: Requirement[] = [
  {
    name: "读出 skill 之前什么也不放行：git log、touch 照旧要问（没有终端就拒绝）",
    scenario: "skill-grants",
    check(run) {
      const [log, touch] = toolResults(run, 2);
      if (!refused(log) || !refused(touch)) {
        return `期望：allowed-tools 要等 load_skill 读出那个 skill 以后才生效；第一轮模型还没读任何 skill，git log --oneline 和 touch early.txt 照第 09 章的默认要问，没有终端就被拒；实际：git log 收到 ${quote(log)}，touch 收到 ${quote(touch)}——启动时发现了 skill 就放行了${how(run, 2)}`;
      }
      return undefined;
    },
  },
  {
    name: "load_skill 之后，allowed-tools 里的 bash(git log *) 不问就放行，到运行结束都算数",
    scenario: "skill-grants",
    check(run) {
      const log = round3(run)["git log --oneline"];
      const later = toolResults(run, 6)[1];
      if (!ran(log) || !log!.includes("初始提交")) {
        return `期望：load_skill 读出 git-history 以后，它的 allowed-tools（逗号隔开，bash(git log *) 是一条——括号里的空格不算分隔）加进放行规则，git log --oneline 不问就执行，看得到“初始提交”；实际：模型收到 ${quote(log)}${how(run, 4)}`;
      }
      if (!ran(later)) return `期望：放行到这次运行结束：最后一轮的 git log --oneline 照样执行；实际：模型收到 ${quote(later)}${how(run, 6)}`;
      return undefined;
    },
  },
  {
    name: "只放行写了的那些：git push 照旧被拒，复合命令里没放行的一半照旧要问",
    scenario: "skill-grants",
    check(run) {
      const results = round3(run);
      const push = results["git push origin main"];
      const compound = results["git log --oneline && touch sneaky.txt"];
      if (!refused(push)) {
        return `期望：bash(git log *) 只放行 git log 开头的命令，不是整个 bash：git push origin main 照旧要问，没有终端就被拒；实际：模型收到 ${quote(push)}${how(run, 4)}`;
      }
      if (!refused(compound)) {
        return `期望：skill 放行的规则和 allow 规则一样按简单命令比：git log --oneline && touch sneaky.txt 里的 touch 没被放行（tidy 还没读），整行要问，被拒；实际：模型收到 ${quote(compound)}`;
      }
      return undefined;
    },
  },
  {
    name: "deny 规则照样赢：skill 放行了 git log，用户 deny 的 git log -p 还是被拒",
    scenario: "skill-grants",
    check(run) {
      const p = round3(run)["git log -p"];
      if (!refused(p)) return `期望：skill 的 allowed-tools 只是加进 allow，deny > ask > allow 不变：用户的 deny 规则 bash(git log -p*) 拒绝 git log -p；实际：模型收到 ${quote(p)}${how(run, 4)}`;
      return undefined;
    },
  },
  {
    name: "写坏的一条：一行警告，什么也不放行",
    scenario: "skill-grants",
    check(run) {
      const status = round3(run)["git status"];
      if (!refused(status)) {
        return `期望：allowed-tools 里的 bash(git status)x 不是一条规则（右括号后面多了字），什么也不放行：git status 照旧要问、被拒；实际：模型收到 ${quote(status)}——写坏的一条被猜成了别的规则${how(run, 4)}`;
      }
      if (!run.transcript.split("\n").some((l) => l.startsWith("警告:") && l.includes("bash(git status)x"))) {
        return `期望：读出 git-history 时一行“警告: …”点名写坏的 bash(git status)x，说它不放行（和第 09 章看不懂的 allow 规则一样）；实际：没有这行警告`;
      }
      return undefined;
    },
  },
  {
    name: "信任过的文件夹里，项目 skill 的 allowed-tools 读出以后也生效",
    scenario: "skill-grants",
    check(run) {
      const touch = toolResults(run, 6)[0];
      if (!ran(touch)) {
        return `期望：这个文件夹在 ~/.harness/trusted-folders.json 里，项目的 .claude/skills/tidy 读出以后，它的 bash(touch *) 放行 touch tidy.txt；实际：模型收到 ${quote(touch)}${how(run, 6)}`;
      }
      return undefined;
    },
  },
  {
    name: "没被信任的仓库：项目 skill 的 allowed-tools 一条也不放行，一行警告",
    scenario: "untrusted-repo",
    check(run) {
      const skill = toolResults(run, 2)[0];
      if (!skill?.includes("touch pwned.txt")) return `期望：load_skill 照常读出仓库里 git-history 的正文；实际：模型收到 ${quote(skill)}${how(run, 2)}`;
      const [log, touch] = toolResults(run, 3);
      if (!refused(log) || !refused(touch)) {
        return `期望：SKILL.md 是跟着仓库来的，和仓库的 allow 规则一样，文件夹被信任之前不算数：它的 allowed-tools: bash 一条也不放行，git log、touch pwned.txt 照旧要问、被拒；实际：git log 收到 ${quote(log)}，touch 收到 ${quote(touch)}${how(run, 3)}`;
      }
      const warnings = run.transcript.split("\n").filter((l) => l.startsWith("警告:") && l.includes("git-history"));
      if (warnings.length !== 1) {
        return `期望：读出这个 skill 时恰好一行“警告: …”，点名 git-history，说文件夹没被信任、不放行；实际：${warnings.length === 0 ? "没有这行警告" : describe(warnings.join(" / "))}`;
      }
      return undefined;
    },
  },
];
