// 练习 19-1 的检查器：待办清单熬过 --resume。
// 场景 resume：开跑前在会话目录里写好一个会话——清单先写了一张（A），下一轮在 read_file 之后的第二个调用里改了一次（B），
// 之后一次 status 拼成 "later"、一次参数是坏 JSON，都被拒绝了（清单还是 B）；B 的第二项里夹着改终端标题的 OSC 序列。
// 然后 --resume 进 REPL，管道喂三行：/todos、接着做（模型交一张新清单 C）、/todos。
// 措辞不逐字比对：只看 [待办] 块里每一项的记号（[x] [>] [ ]）和文字，以及模型收到了什么。
import { describe, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

type Item = [mark: string, content: string];
const A: Item[] = [["[>]", "读 greet.sh"], ["[ ]", "把 Hello 改成你好"], ["[ ]", "运行确认"]];
const B: Item[] = [["[x]", "读 greet.sh"], ["[>]", "把 Hello 改成你好"], ["[ ]", "运行确认"]];
const C: Item[] = [["[x]", "读 greet.sh"], ["[x]", "把 Hello 改成你好"], ["[>]", "运行确认"]];
const REJECTED = "later"; // 被拒绝的那次清单里的 status

// 转录按 REPL 回显的输入行切成四段：启动时、第一次 /todos、“接着做”这一问、第二次 /todos
function segments(run: RunResult): { start: string; first?: string; turn?: string; last?: string } {
  const parts = run.transcript.split(/^> (\/todos|接着做)$/m);
  // split 带着捕获组：[启动, "/todos", 段, "接着做", 段, "/todos", 段]
  const after = (n: number, word: string) => (parts[2 * n - 1] === word ? parts[2 * n] : undefined);
  return { start: parts[0] ?? "", first: after(1, "/todos"), turn: after(2, "接着做"), last: after(3, "/todos") };
}

// 一段里的 [待办] 块：每块是它下面缩进的那几行
function blocks(text: string | undefined): string[][] {
  if (text === undefined) return [];
  const lines = text.split("\n");
  const out: string[][] = [];
  lines.forEach((line, i) => {
    if (!line.startsWith("[待办]")) return;
    const items: string[] = [];
    for (let j = i + 1; j < lines.length && lines[j]!.startsWith("  "); j++) items.push(lines[j]!.trim());
    out.push(items);
  });
  return out;
}

const matches = (block: string[] | undefined, want: Item[]) =>
  block !== undefined && block.length === want.length && want.every(([mark, content], i) => block[i]!.startsWith(`${mark} ${content}`));

// 这一块是哪一张清单：说给读者听
function which(block: string[] | undefined): string {
  if (block === undefined) return "没有打印清单";
  if (matches(block, B)) return "第二张（对的那张）";
  if (matches(block, A)) return `第一张 ${describe(block.join(" / "))}——从前往后找，或者只看了每条消息的第一个调用（第二张是那一轮的第二个调用）`;
  if (block.some((line) => line.includes("运行确认") && !/^\[[ x>]\]/.test(line)) || block.join().includes(REJECTED)) {
    return `被拒绝的那张（status 是 "${REJECTED}"）${describe(block.join(" / "))}`;
  }
  if (block.length === 0) return "一张空清单";
  return describe(block.join(" / "));
}

const crashed = (run: RunResult) => /SyntaxError|at JSON\.parse|^\s+at /m.test(run.transcript);

export const requirements: Requirement[] = [
  {
    name: "--resume 恢复最后一张被收下的清单，并打印出来",
    scenario: "resume",
    check(run) {
      if (crashed(run)) return `期望：--resume 启动时恢复清单；实际：harness 在启动时抛了异常（多半是 JSON.parse 遇到了会话里那次坏 JSON 的参数）`;
      const shown = blocks(segments(run).start)[0];
      if (!matches(shown, B)) {
        return `期望：--resume 一启动（第一行输入之前）就打印恢复出来的清单，是会话里最后一次被收下的那张：[x] 读 greet.sh / [>] 把 Hello 改成你好… / [ ] 运行确认（在那一轮 read_file 之后的第二个调用里；它后面的两次都被拒绝了，不算）；实际：${which(shown)}`;
      }
      return undefined;
    },
  },
  {
    name: "REPL 里 /todos 打印当前的清单，不发给模型",
    scenario: "resume",
    check(run) {
      const asked = run.bodies.map((b) => (b.messages ?? []).findLast((m: any) => m.role === "user")?.content).find((u) => String(u).includes("/todos"));
      if (asked !== undefined) return `期望：/todos 是 REPL 自己的命令，打印当前的清单，不当成问题发给模型；实际：模型收到了 ${describe(asked)}`;
      const { first } = segments(run);
      if (first === undefined) return `期望：REPL 读到第一行 /todos；实际：转录里找不到回显的那一行 > /todos${run.exitCode !== 0 ? `（harness 以退出码 ${run.exitCode} 结束了）` : ""}`;
      const shown = blocks(first)[0];
      if (!matches(shown, B)) return `期望：恢复之后第一次 /todos 打印恢复出来的那张清单（[x] [>] [ ]）；实际：${which(shown)}`;
      return undefined;
    },
  },
  {
    name: "恢复之后 todo_write 接着更新同一张清单",
    scenario: "resume",
    check(run) {
      const { turn, last } = segments(run);
      if (turn === undefined) return `期望：“接着做”这一问发给模型，它交一张新清单；实际：转录里找不到这一问${run.exitCode !== 0 ? `（harness 以退出码 ${run.exitCode} 结束了）` : ""}`;
      const printed = blocks(turn).at(-1);
      if (!matches(printed, C)) return `期望：模型交来的新清单（[x] [x] [>]）和恢复的不同，打印出来；实际：${describe(printed?.join(" / "))}`;
      const result = run.bodies[1]?.messages?.findLast((m: any) => m.role === "tool")?.content;
      if (!String(result).includes("完成 2 项")) return `期望：todo_write 的结果说“共 3 项，完成 2 项，进行中 1 项”；实际：${describe(result)}`;
      const now = blocks(last)[0];
      if (!matches(now, C)) {
        const stale = matches(now, B) ? "——还是恢复出来的那张：/todos 看的清单和 todo_write 改的不是同一个 TodoList 对象" : "";
        return `期望：更新之后再 /todos，打印的是新清单（[x] [x] [>]）；实际：${which(now)}${stale}`;
      }
      return undefined;
    },
  },
  {
    name: "会话里的清单不可信：被拒绝的调用不算，坏 JSON 不让它倒下，文字显形",
    scenario: "resume",
    check(run) {
      if (crashed(run)) return `期望：会话里那次参数是坏 JSON 的 todo_write 当时就被拒绝了，恢复时跳过它（JSON.parse 包在 try 里）；实际：harness 抛了异常：${describe(run.transcript.match(/^.*(SyntaxError|Error).*$/m)?.[0])}`;
      const shown = blocks(segments(run).start)[0];
      if (!shown) return `期望：--resume 恢复出清单并打印（见第一条要求），这一条才看得出被拒绝的调用有没有被算进去；实际：启动时没有打印清单`;
      if (!matches(shown, B) && which(shown).startsWith("被拒绝")) {
        return `期望：status 拼错的那次 todo_write 当时被拒绝、没改清单，恢复时也不算——用 todo_write 自己的 validate() 再验一遍；实际：恢复了${which(shown)}`;
      }
      const raw = run.transcript.split("\n").find((line) => /[\x1b\x07]/.test(line));
      if (raw) return `期望：清单的文字出自会话文件（谁都可能改过），打印前显形（TodoList.render() 用的 safeLine）；实际：有一行带着原样的控制字符：${JSON.stringify(raw)}`;
      return undefined;
    },
  },
];
