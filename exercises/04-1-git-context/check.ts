// 练习 04-1 的检查器：system prompt 里的 git 快照。看的是脚本模型收到的 system 消息，不比对措辞：
// 分支名、改过的文件、最近几次提交的说明在不在；有没有控制字符、超长的行；列出的 git status 行有没有上限；
// 两轮一字不差；仓库自己的程序有没有被运行过（运行了就会建出 0-fsmonitor-ran、0-filter-ran，排在新文件的最前面，出现在快照里）。
// 仓库在 checks/git-snapshot/workspace/make-repos.sh 里现建：分支、提交、改动、敌意的设置都在那里。
import { describe, systemPrompt, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

// git status --short 的一行：两个状态字符、一个空格、路径
const STATUS_LINE = /^[ MADRCUT?!]{2} \S/;
const statusLines = (system: string) => system.split("\n").filter((line) => STATUS_LINE.test(line));
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

// 还没走到第 n 次请求时，说清 harness 怎么了
function how(run: RunResult, request: number): string {
  if (run.timedOut) return "（harness 没能结束，被场景的时限终止了）";
  if (run.bodies.length < request) return `（脚本模型只收到 ${run.requests} 次请求；转录末尾：${describe(run.transcript.trim().split("\n").slice(-3).join(" / "))}）`;
  return "";
}

// 第一次运行（在 repo/ 里）的第一次请求的 system prompt；连 git 快照都没有时，后面几条要求先指到第一条
function snapshot(run: RunResult): { system: string; missing?: string } {
  const system = systemPrompt(run, 1);
  if (!system.includes("feature/snapshot") || statusLines(system).length === 0) {
    return { system, missing: `期望：先过第一条要求——在仓库的子目录 repo/many 里，system prompt 里要有 git 快照（分支 feature/snapshot、git status --short 的行）；实际：${system ? `system prompt 里没有${system.includes("feature/snapshot") ? " git status 的行" : "分支名 feature/snapshot"}` : "没有 system 消息"}${how(run, 1)}` };
  }
  return { system };
}

function ran(name: string, what: string, how: string): Requirement["check"] {
  return (run) => {
    const { system, missing } = snapshot(run);
    if (missing) return missing;
    const line = system.split("\n").find((l) => l.includes(`${name}-ran`));
    if (!line) return undefined;
    return `期望：仓库自己的 ${what} 不能运行——它一运行就在仓库里建一个 ${name}-ran 文件；实际：快照里列出了 ${describe(line)}，说明 git 替仓库运行了它。${how}`;
  };
}

export const requirements: Requirement[] = [
  {
    name: "在 git 仓库里，system prompt 带上分支、git status --short 的行、最近几次提交的说明",
    scenario: "git-snapshot",
    check(run) {
      const system = systemPrompt(run, 1);
      const missing = [
        system.includes("feature/snapshot") ? "" : "分支名 feature/snapshot",
        statusLines(system).some((line) => /[ /]a\.txt$/.test(line)) ? "" : "git status --short 里改过的 a.txt（在子目录 repo/many 里是一行“ M ../a.txt”）",
        ["第 12 次提交", "第 11 次提交", "第 10 次提交"].every((s) => system.includes(s)) ? "" : "最近三次提交的说明（第 12、11、10 次提交）",
      ].filter(Boolean);
      if (missing.length > 0) return `期望：repo/many 在 git 仓库里（仓库的子目录；环境里还有一个指向别处的 GIT_DIR，要清掉），system prompt 后面接上启动时的 git 快照；实际：system prompt 里缺少${missing.join("、")}${how(run, 1)}`;
      if (system.includes("第 1 次提交") || system.includes("第 2 次提交")) return `期望：提交只列最近几次（参考答案 5 次），12 次提交不全列；实际：连第 1、2 次提交都列出来了`;
      return undefined;
    },
  },
  {
    name: "快照里每一行都显形、截短：控制字符不进 system prompt，一千多字的提交说明被截断",
    scenario: "git-snapshot",
    check(run) {
      const { system, missing } = snapshot(run);
      if (missing) return missing;
      const raw = system.split("\n").find((line) => CONTROL.test(line));
      if (raw) return `期望：提交说明、文件名是仓库的作者写的，每一行都过第 03 章 terminal.ts 的 safeLine()，ESC、响铃这样的控制字符换成看得见的写法；实际：有一行带着原样的控制字符：${JSON.stringify(raw.slice(0, 120))}`;
      const long = system.split("\n").find((line) => line.includes("第 12 次提交"));
      if (long && long.length > 400) return `期望：每一行都截短（参考答案用 model.ts 的 clip()，200 个字），一千多字的提交说明不整段塞进每一轮的请求；实际：那一行有 ${long.length} 个字`;
      return undefined;
    },
  },
  {
    name: "git status 有上限：改动再多也只列二十来行，再用一行说还有几行",
    scenario: "git-snapshot",
    check(run) {
      const { system, missing } = snapshot(run);
      if (missing) return missing;
      const shown = statusLines(system).length;
      const more = system.split("\n").find((line) => /还有\D{0,6}\d+/.test(line));
      if (shown > 25) return `期望：git status --short 的行有上限（参考答案 20 行）——改动成千上万时，不能全塞进每一轮的请求；实际：列了 ${shown} 行`;
      if (!more) return `期望：列不下的用一行说还有几行，比如“……还有 15 行没有列出”（带“还有”和数字）；实际：列了 ${shown} 行，没有这样的一行`;
      return undefined;
    },
  },
  {
    name: "快照只在启动时拍一次：每一轮请求的 system prompt 一字不差",
    scenario: "git-snapshot",
    check(run) {
      const { missing } = snapshot(run);
      if (missing) return missing;
      const [first, second] = [systemPrompt(run, 1), systemPrompt(run, 2)];
      if (run.bodies.length < 2) return `期望：REPL 里问两句，两次请求${how(run, 2)}`;
      if (first === second) return undefined;
      const a = first.split("\n");
      const b = second.split("\n");
      const at = a.findIndex((line, i) => line !== b[i]);
      return `期望：快照在启动时拍一次，第二轮原样再发——前缀一字不差，服务商的前缀缓存才命中（第 13 章会算这笔账）；检查器让 git 每跑一次都在仓库里留下一个文件，所以每轮重拍的快照一定不同；实际：第二次请求的 system prompt 从第 ${at + 1} 行起不同：${describe(a[at])} → ${describe(b[at])}`;
    },
  },
  {
    name: "仓库自己的 core.fsmonitor 不能运行",
    scenario: "git-snapshot",
    check: ran("0-fsmonitor", "core.fsmonitor（写在 .git/config 里的程序，git status 每次都先运行它）", "跑 git 时要把它盖掉：-c core.fsmonitor=false，或者环境变量 GIT_CONFIG_COUNT / GIT_CONFIG_KEY_0=core.fsmonitor / GIT_CONFIG_VALUE_0=false"),
  },
  {
    name: "仓库自己的 clean 过滤器也不能运行",
    scenario: "git-snapshot",
    check: ran("0-filter", "clean 过滤器（.gitattributes 给 *.dat 指了 filter=ev=il，.git/config 写着它的命令；0-data.dat 的时间变了、大小没变，git status 要重新算哈希，就会经过它）", "先用 git config --get-regexp '^filter\\.' 列出过滤器的名字，再把每个的 clean、process 盖成空的；名字里有“=”，用 -c 名字=值（或 GIT_CONFIG_PARAMETERS）会从第一个 = 切开、盖错了地方，要用 GIT_CONFIG_COUNT / GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n"),
  },
  {
    name: "不是 git 仓库：没有 git 这一段，也不报错",
    scenario: "git-snapshot",
    check(run) {
      const system = systemPrompt(run, 3);
      if (!system) return `期望：第二次运行在 plain/ 里（不是 git 仓库），照常请求模型；实际：没有第三次请求${how(run, 3)}`;
      const tail = run.transcript.slice(Math.max(0, run.transcript.indexOf("$ cd plain"))); // 第二次运行的输出
      const noise = tail.split("\n").filter((line) => /^(警告|错误)|fatal|not a git/i.test(line));
      if (/git/i.test(system)) return `期望：plain/ 不是仓库，system prompt 里就没有 git 这一段；实际：${describe(system.split("\n").filter((l) => /git/i.test(l)).join(" / "))}`;
      if (noise.length > 0) return `期望：不是仓库是常态，一声不吭；git 自己的报错（stderr）也不该漏到屏幕上；实际：${describe(noise.join(" / "))}`;
      return undefined;
    },
  },
  {
    name: "没装 git（PATH 里找不到）：没有 git 这一段，也不报错",
    scenario: "no-git",
    check(run) {
      const system = systemPrompt(run, 1);
      if (!system) return `期望：PATH 里没有 git 也照常请求模型；实际：没有请求${how(run, 1)}`;
      const noise = run.transcript.split("\n").filter((line) => /^(警告|错误)|not found|ENOENT|spawn/i.test(line));
      if (noise.length > 0) return `期望：没装 git 不是错，system prompt 里没有这一段就是了；实际：${describe(noise.join(" / "))}`;
      if (/git/i.test(system)) return `期望：没有 git 就没有快照；实际：${describe(system.split("\n").filter((l) => /git/i.test(l)).join(" / "))}`;
      return undefined;
    },
  },
];
