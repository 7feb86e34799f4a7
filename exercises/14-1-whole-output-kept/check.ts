// 练习 14-1 的检查器：超出预算的工具结果整份存下来，模型能读回。
// 两个场景：keep（HARNESS_TOOL_BUDGET=1000、HARNESS_SAVED_OUTPUTS=2，一次带控制字符的大输出、读回、再两次大输出、
// 有人往存输出的目录里放一个文件）和 unsaved（存了一份输出后模型服务出错、会话没存成，再看会话目录）。
// 措辞不逐字比对：只看 README 定下的——结果里给出完整那份的绝对路径（以 .txt 结尾，后面跟空白或中文标点）和大小（字节或字符数），
// 读回来的是一字不差的完整结果。
import { describe, systemPrompt, toolResults, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

// keep 场景第一个命令的 stdout，和 scenario.json 里那条 printf 一样；bash 交回时去掉最后的换行
const LINES = Array.from({ length: 300 }, (_, i) => `第 ${String(i + 1).padStart(3, "0")} 行 \x1b[31m红\x1b[0m\r\n`).join("");
const STDOUT = `第一行\n${LINES}\x1b]0;标题\x07最后一行`;
const FULL = `退出码: 0\n[stdout]\n${STDOUT}`; // 第 07 章起 bash 的结果就是这个样子

const PATH = /(\/[^\s，。；）)]+\.txt)/;
// 引用模型收到的原文：里面的 ESC、\r 不能原样印到读者的终端上
const shown = (text: string) => describe(text).replace(/[\x00-\x08\x0b-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
const quote = (value: string | undefined) => (value === undefined ? "（没有这个结果）" : `“${shown(value)}”`);

function how(run: RunResult): string {
  if (run.timedOut) return `（harness 没能结束，被场景超时终止了；模型收到 ${run.requests} 次请求）`;
  if (run.records.some((r) => r.rejected)) return "（脚本模型拒绝了后面的请求，原因见下一行：多半是它在结果里找不到完整那份的路径）";
  return "";
}

function cwdOf(run: RunResult): string | undefined {
  return systemPrompt(run, 1).match(/工作目录：(\S+)/)?.[1];
}

export const requirements: Requirement[] = [
  {
    name: "超出预算的结果：模型拿到第 14 章的头尾，外加完整那份的路径和大小；存在会话的地方，不在工作目录里",
    scenario: "keep",
    check(run) {
      const first = toolResults(run, 2)[0];
      if (first === undefined) return `期望：第一个命令的结果交给模型；实际：没有这个结果${how(run)}`;
      if (!first.includes("...省略 ")) return `期望：结果超出 HARNESS_TOOL_BUDGET=1000，模型照第 14 章拿到头尾（中间一行“...省略 N 字符...”）；实际：${quote(first)}`;
      const file = first.match(PATH)?.[1];
      if (!file) return `期望：结果里写出完整那份存在哪：一个以 .txt 结尾的绝对路径，模型才能用 read_file 读它；实际：${quote(first.slice(-300))}`;
      const cwd = cwdOf(run);
      if (cwd && (file === cwd || file.startsWith(cwd + "/"))) return `期望：完整的输出存在会话的地方（~/.harness/projects/…/sessions/ 下），不在工作目录里——仓库里多出文件，git status 就脏了；实际：存在 ${file}`;
      if (!file.includes("/.harness/projects/")) return `期望：完整的输出存在这个会话的地方（~/.harness/projects/<工作目录>/sessions/ 下），会话在哪它就在哪；实际：存在 ${file}`;
      const sizes = [Buffer.byteLength(FULL), FULL.length, [...FULL].length];
      const numbers = (first.slice(first.lastIndexOf("...省略")).match(/\d+/g) ?? []).map(Number);
      if (!numbers.some((n) => sizes.includes(n))) return `期望：说出完整那份有多大（${sizes[0]} 字节，或 ${sizes[2]} 个字符）；实际：${quote(first.slice(first.lastIndexOf("...省略")))}`;
      return undefined;
    },
  },
  {
    name: "read_file 读回完整那份：不问，不再过预算，一字不差（ESC、BEL、\\r 原样）",
    scenario: "keep",
    check(run) {
      const back = toolResults(run, 3)[0];
      if (back === undefined) return `期望：模型照结果里的路径调 read_file；实际：没走到这一步${how(run)}`;
      if (back.trimStart().startsWith("错误")) return `期望：读 harness 自己存下的那份不用问（这次没有终端，一问就是拒绝）；实际：${quote(back)}`;
      const first = toolResults(run, 2)[0] ?? "";
      if (back.includes("...省略 ") && first.startsWith(back.trimEnd())) {
        return `期望：存下的是完整的结果（${Buffer.byteLength(FULL)} 字节），读回来一字不差；实际：读回来的正是交给模型的那份头尾——存的是 fitBudget() 截过的，不是原来的 result`;
      }
      if (back.includes("...省略 ")) return `期望：读回来的是完整那份，不再过一遍预算——模型要看的正是被省略的部分（read_file 自己有 256 KB 的上限）；实际：又被截成了头尾`;
      if (back !== FULL) {
        const got = back.includes(STDOUT) ? "多了别的内容" : back.replace(/\\x1b|\\u001b|␛/g, "").length < FULL.length - 50 ? "少了内容" : "内容不一样（控制字符被改写了？）";
        return `期望：存下的是原样的完整结果（${Buffer.byteLength(FULL)} 字节，ESC 序列、BEL、\\r 一个不动：那是命令真实的输出），读回来一字不差；实际：${got}，${quote(back.slice(0, 120))}`;
      }
      return undefined;
    },
  },
  {
    name: "每个会话最多留 HARNESS_SAVED_OUTPUTS 份，多了删最早的；工作目录里什么也没多",
    scenario: "keep",
    check(run) {
      const listing = toolResults(run, 5)[0];
      if (listing === undefined) return `期望：第 4 轮列出工作目录和存输出的目录；实际：没走到这一步${how(run)}`;
      const [work = "", saved = ""] = listing.replace(/^退出码: \d+\n\[stdout\]\n?/, "").split("---");
      if (work.trim() !== "") return `期望：工作目录里什么也没多（ls -A 是空的）；实际：多了 ${shown(work.trim().split("\n").join("、"))}`;
      const files = saved.trim().split("\n").filter(Boolean);
      if (files.length !== 2) return `期望：HARNESS_SAVED_OUTPUTS=2，存了三份以后那个目录里只剩 2 份（最早的那份删掉）；实际：${files.length} 个：${shown(files.join("、"))}`;
      return undefined;
    },
  },
  {
    name: "只认存下的那几份：同一个目录里别人放进去的文件，read_file 照旧要问",
    scenario: "keep",
    check(run) {
      const planted = toolResults(run, 5)[2];
      if (planted === undefined) return `期望：第 4 轮读一个别人放进存输出目录里的 planted.txt；实际：没走到这一步${how(run)}`;
      if (!planted.trimStart().startsWith("错误") || planted.includes("别人放进来的")) {
        return `期望：planted.txt 不是 harness 存下的，读它照第 09 章的规矩——工作目录之外要问，没有终端就拒绝；实际：${quote(planted)}——放行要按存下的那几个文件一个一个认（解开链接后一字不差），不能按目录、按前缀认`;
      }
      return undefined;
    },
  },
  {
    name: "结果里的控制字符不上屏",
    scenario: "keep",
    check(run) {
      const raw = run.transcript.match(/[\x07\x1b\r]/);
      if (raw) return `期望：命令输出里的 ESC 序列、BEL、\\r 原样存进文件，但一个也不原样印到终端上（要印，先过第 03 章的 safeLine）；实际：转录里有原样的 U+${raw[0].charCodeAt(0).toString(16).padStart(4, "0")}`;
      return undefined;
    },
  },
  {
    name: "会话没存成（第一个请求就失败了），它存下的输出也不留",
    scenario: "unsaved",
    check(run) {
      const first = toolResults(run, 2)[0];
      if (!first?.match(PATH)) return `期望：第一次运行里超出预算的结果照样存了一份、给出路径；实际：${quote(first?.slice(-200))}${how(run)}`;
      const listing = toolResults(run, 4)[0];
      if (!listing?.includes("列完了") && !listing?.includes("没有会话目录")) return `期望：第二次运行列出会话目录；实际：${quote(listing)}${how(run)}`;
      const dirs = [...(listing?.matchAll(/^目录 (\S+)$/gm) ?? [])].map((m) => m[1]!);
      const files = new Set([...(listing?.matchAll(/^文件 (\S+)\.jsonl$/gm) ?? [])].map((m) => m[1]!));
      const orphans = dirs.filter((d) => !files.has(d));
      if (orphans.length > 0) return `期望：第一次运行的模型服务出错，这一问被撤掉，会话一行也没存——没有会话可以接着聊，它存下的输出也该一起删掉；实际：会话目录里留着没有会话文件的 ${shown(orphans.join("、"))}`;
      return undefined;
    },
  },
];
