// 练习 10-1 的检查器：--fork 分出新会话，--sessions 列出会话。
// 场景 fork 连跑两次：① --resume 旧会话 --fork 接着问；② --resume（最新的就是分出来的那个），模型用 bash 拿 cmp
// 比一比原会话和开跑前存下的副本，再 ls 会话目录。旧会话 20200101-090000-a1b2 的最后一行只写了一半（上次被中断）。
// 场景 list 只跑 --sessions：会话目录里有一个更新的会话（修改时间却最早）、同一个旧会话、一个第一问夹着控制字符的会话
// （修改时间最晚）、一个 FIFO、一个指向目录外的符号链接。两个场景分开，是为了转录每天都一样（新会话的时间是今天）。
// 措辞不逐字比对：看模型收到了什么、cmp 说了什么、列表的顺序和内容。
import { describe, toolResults, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

const NEWEST = "20210101-100000-b2c3"; // 3 问；修改时间是 2000 年
const ORIGINAL = "20200101-090000-a1b2";
const HOSTILE = "20190101-080000-c3d4"; // 第一问夹着清屏、改标题、换行，还很长
const FIFO = "20180101-070000-e5f6";
const LINK = "20170101-060000-f7a8"; // 指向 ~/secret.jsonl
const FORK_PROMPT = "换个思路：不修了，用 Rust 重写登录页怎么样？";
const FORK_ANSWER = "可以，Rust 写的登录页先从表单校验开始。";
const NEXT_PROMPT = "我们前面都聊了什么？";
const OLD_USER = "登录页的按钮点了没反应";
const OLD_ANSWER = "是 onClick 绑错了元素";
const SAME = "原会话一个字节也没变"; // cmp 相同才 echo 这一句
const ID = /^\d{8}-\d{6}-[0-9a-f]{4}(?= )/;

const messagesOf = (run: RunResult, request: number): any[] => run.bodies[request - 1]?.messages ?? [];
const has = (messages: any[], role: string, text: string) => messages.some((m) => m.role === role && String(m.content).includes(text));
const lastUser = (messages: any[]) => messages.findLast((m) => m.role === "user")?.content;

// --sessions 打印的行（场景 list）；一行也没有就是 undefined
function listing(run: RunResult): string[] | undefined {
  const lines = run.transcript.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("[场景超时") && !line.startsWith("[退出码"));
  return lines.length > 0 ? lines : undefined;
}
const lineOf = (lines: string[], id: string) => lines.find((line) => line.startsWith(id));

// 三次运行里哪一次出了事：补在“实际”后面
function how(run: RunResult): string {
  if (run.timedOut) return "（有一次运行卡住了，被场景的时限终止）";
  const failed = run.transcript.match(/^错误: .*$/m);
  return failed ? `（转录里有一行 ${describe(failed[0])}）` : "";
}

export const requirements: Requirement[] = [
  {
    name: "--resume ID --fork 带着原会话的历史接着问",
    scenario: "fork",
    check(run) {
      const messages = messagesOf(run, 1);
      const missing = [
        messages[0]?.role === "system" ? "" : "开头的 system 消息",
        has(messages, "user", OLD_USER) ? "" : `原会话的第一问“${OLD_USER}…”`,
        has(messages, "assistant", OLD_ANSWER) ? "" : `原会话的回答“${OLD_ANSWER}…”`,
      ].filter(Boolean);
      if (missing.length > 0) {
        return `期望：--resume ${ORIGINAL} --fork 先把原会话读回来，第一次请求里带着它的历史；实际：第一次请求里缺${missing.join("、")}${how(run)}`;
      }
      const last = lastUser(messages);
      if (last !== FORK_PROMPT) {
        return `期望：--fork 是个选项，不是问题的一部分；最后一条 user 消息正好是“${FORK_PROMPT}”；实际：${describe(last)}`;
      }
      return undefined;
    },
  },
  {
    name: "原会话文件一个字节也不变",
    scenario: "fork",
    check(run) {
      const result = toolResults(run, 3)[0];
      if (result === undefined) {
        return `期望：第二次运行里模型用 bash 拿 cmp 比较原会话和开跑前的副本；实际：模型没收到这个结果（只收到 ${run.requests} 次请求）${how(run)}`;
      }
      if (!result.includes(SAME)) {
        const files = (result.match(/\d{8}-\d{6}-[0-9a-f]{4}\.jsonl/g) ?? []).length;
        const why =
          files < 2 ? "——会话目录里只有原会话一个文件：新消息追加进了原会话，没有另开新会话" : result.includes("EOF") ? "——原会话变长了：多半是读回时给半截的最后一行补了换行（分叉时只读，不补）" : "";
        return `期望：分叉之后原会话 ${ORIGINAL}.jsonl 和开跑前一模一样（连那半截的最后一行也不补换行），cmp 没有输出；实际：${describe(result)}${why}`;
      }
      return undefined;
    },
  },
  {
    name: "分出来的新会话存下了两部分：--resume 接上它，原会话的历史和分叉后的一问一答都在",
    scenario: "fork",
    check(run) {
      const messages = messagesOf(run, 2);
      if (messages.length === 0) return `期望：第二次运行（--resume，接最新的会话，也就是分出来的那个）发出请求；实际：模型只收到 ${run.requests} 次请求${how(run)}`;
      const missing = [
        messages[0]?.role === "system" ? "" : "开头的 system 消息",
        has(messages, "user", OLD_USER) ? "" : `原会话的第一问“${OLD_USER}…”`,
        has(messages, "assistant", OLD_ANSWER) ? "" : `原会话的回答“${OLD_ANSWER}…”`,
        has(messages, "user", FORK_PROMPT) ? "" : `分叉后的那一问“${FORK_PROMPT}”`,
        has(messages, "assistant", FORK_ANSWER) ? "" : `分叉后的回答“${FORK_ANSWER}”`,
      ].filter(Boolean);
      if (missing.length > 0) {
        return `期望：分出来的会话是最新的，--resume 接上它，请求里既有原会话的历史，也有分叉后的一问一答——新会话的文件从 system 那一行写起，恢复出的整段历史连同新的一问一答都写进去，每条消息各占完整的一行；实际：第二次请求里缺${missing.join("、")}${how(run)}`;
      }
      if (lastUser(messages) !== NEXT_PROMPT) return `期望：第二次请求的最后一条 user 消息是“${NEXT_PROMPT}”；实际：${describe(lastUser(messages))}`;
      return undefined;
    },
  },
  {
    name: "--sessions 新的在前：id、时间、几问、第一问",
    scenario: "list",
    check(run) {
      const lines = listing(run);
      if (!lines) return `期望：--sessions 打印这个文件夹的会话；实际：什么也没打印${how(run)}`;
      if (lines.some((line) => line.includes("HARNESS_API_KEY"))) return `期望：--sessions 只看本地文件、不发请求，没设密钥也能用（场景里没有 HARNESS_API_KEY）——在 loadConfig() 之前处理它；实际：${describe(lines.join(" / "))}`;
      const ids = lines.filter((line) => ID.test(line)).map((line) => line.slice(0, 20));
      const want = [NEWEST, ORIGINAL, HOSTILE, FIFO, LINK];
      if (ids.join() !== want.join()) {
        return `期望：每个会话一行、以 id 开头，按 id（开始的时间）新的在前——第一行就是不带 id 的 --resume 会接上的那个：${want.join("、")}（${NEWEST} 的修改时间是 2000 年、${HOSTILE} 的是 2030 年，按修改时间排就错了）；实际：${ids.length > 0 ? describe(ids.join("、")) : describe(lines.slice(0, 6).join(" / "))}`;
      }
      const expected: [string, number, string][] = [
        [NEWEST, 3, ""],
        [ORIGINAL, 1, "原会话：写了一半的最后一行不算"],
        [HOSTILE, 2, ""],
      ];
      for (const [id, count, why] of expected) {
        const line = lineOf(lines, id)!;
        if (!new RegExp(`(?<!\\d)${count} 问`).test(line)) return `期望：${id} 那一行写着“${count} 问”（用户消息的条数${why ? `；${why}` : ""}）；实际：${describe(line)}`;
      }
      const original = lineOf(lines, ORIGINAL)!;
      if (!original.includes("2020-01-01 09:00")) return `期望：时间取自 id，${ORIGINAL} 那一行写着 2020-01-01 09:00；实际：${describe(original)}`;
      if (!original.includes(OLD_USER)) return `期望：${ORIGINAL} 那一行带着第一问“${OLD_USER}…”；实际：${describe(original)}`;
      return undefined;
    },
  },
  {
    name: "会话文件不可信：第一问显形、截短，FIFO 和符号链接不读",
    scenario: "list",
    check(run) {
      if (run.timedOut) return `期望：--sessions 自己结束；实际：它卡住了，被场景时限终止——多半是去读了 ${FIFO}.jsonl 这个 FIFO（读它会一直等下去；先 lstat，不是普通文件就不读）`;
      const lines = listing(run);
      if (!lines) return `期望：--sessions 打印出列表；实际：什么也没打印${how(run)}`;
      const raw = lines.find((line) => /[\x1b\x07]/.test(line));
      if (raw) return `期望：第一问是文件里的原文，上屏前先显形（第 03 章的 safeLine），ESC、BEL 变成看得见的写法；实际：列表里有一行带着原样的控制字符：${JSON.stringify(raw)}`;
      const forged = lines.find((line) => line.startsWith("[会话已保存：伪造"));
      if (forged) return `期望：第一问里的换行也显形（一行只占一行），伪造不出一行 harness 自己的话；实际：列表里另起了一行 ${describe(forged)}`;
      const hostile = lineOf(lines, HOSTILE) ?? "";
      if (!hostile.includes("修复部署脚本")) return `期望：${HOSTILE} 那一行带着显形后的第一问，开头是“修复部署脚本”；实际：${describe(hostile)}`;
      if (run.transcript.includes("TAIL-MARKER")) return `期望：第一问只印前 40 个字，后面接 …；实际：${HOSTILE} 的第一问整段印出来了，连末尾的 TAIL-MARKER 也在`;
      if (run.transcript.includes("SECRET-MARKER")) return `期望：${LINK}.jsonl 是指向会话目录外的符号链接，不跟着它读；实际：列表里出现了它指向的文件的内容（SECRET-MARKER）`;
      return undefined;
    },
  },
];
