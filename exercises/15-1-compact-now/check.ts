// 练习 15-1 的检查器：REPL 里的 /compact [侧重点]。
// 场景 compact-now 跑两次。第一次是 REPL，管道喂六行：/compact（对话还太短）、/compaction 和 /compact 有什么区别？（是问题）、
// 读 a.md…（一次 read_file）、/compact 只保留文件名和结论、那 b.md 可能讲什么？、/compact（不带侧重点）。
// 压缩阈值是默认的 60000，自动压缩不会发生。第二次 --resume 问一句：读回来的应当是第二段摘要，不是原文。
// 摘要请求认法：不带 tools（第 15 章的 summarize() 只要一段话）。措辞不逐字比对。
import { describe, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

const FOCUS = "只保留文件名和结论";
const QUESTION = "/compaction 和 /compact 有什么区别？";
const SUMMARY_ONE = "SUMMARY-ONE";
const SUMMARY_TWO = "SUMMARY-TWO";
const OLD_ANSWER = "a.md 讲的是登录模块"; // 第一次压缩之前的原文
const RESUME_PROMPT = "我们读过哪些文件？";

const isSummary = (body: any) => !(body?.tools?.length > 0);
const text = (body: any) => (body?.messages ?? []).map((m: any) => String(m.content ?? "")).join("\n");
const lastUser = (body: any) => (body?.messages ?? []).findLast((m: any) => m.role === "user")?.content;
const summaries = (run: RunResult) => run.bodies.filter(isSummary);

// REPL 回显的输入行之后、下一个提示符之前打印的东西
function after(run: RunResult, input: string, nth = 1): string | undefined {
  const parts = run.transcript.split(`> ${input}\n`);
  if (parts.length <= nth) return undefined;
  return parts[nth]!.split(/^> /m)[0];
}

// 压缩那一行：前后两个数，后面的小
function shrank(segment: string | undefined): boolean {
  const m = segment?.match(/(\d+)\D*→\D*(\d+)/);
  return m !== null && m !== undefined && Number(m[2]) < Number(m[1]);
}

export const requirements: Requirement[] = [
  {
    name: "/compact 不看阈值，现在就把整段对话换成摘要：发一次摘要请求，印出前后的 token 数",
    scenario: "compact-now",
    check(run) {
      const got = summaries(run);
      if (got.length === 0) {
        const sent = run.bodies.map(lastUser).find((u) => String(u).startsWith("/compact"));
        return `期望：阈值是 60000、远远没到，两次有内容的 /compact 还是各发一次摘要请求（不带 tools）；实际：一次摘要请求也没有${sent ? `，/compact 被当成问题发给了模型：${describe(sent)}` : ""}`;
      }
      if (got.length !== 2) {
        return `期望：两次有内容的 /compact 各发一次摘要请求，一共 2 次；实际：${got.length} 次。第二次 /compact 时对话只有“第一段摘要 + 一问一答”——要把 system 之外的整段对话都换掉（Claude Code 的 /compact 也是这样），不能像自动压缩那样留下最近的 4 条，那样就剩不下可以总结的了`;
      }
      // 第一次压缩之后的那一问：请求里只该有 system、摘要和新问题
      const next = run.bodies[run.bodies.indexOf(got[0]) + 1];
      const kept = (next?.messages ?? []).filter((m: any) => m.role === "tool" || String(m.content ?? "").includes(OLD_ANSWER));
      if (kept.length > 0) {
        return `期望：/compact 把 system 之外的整段对话都换成摘要（Claude Code 的 /compact 也是这样），下一问的请求里只有 system、摘要和新问题；实际：还留着压缩之前的 ${kept.length} 条原文（${describe(kept.map((m: any) => m.role).join("、"))}）——多半像自动压缩一样留下了最近的 4 条`;
      }
      for (const [input, nth] of [[`/compact ${FOCUS}`, 1], ["/compact", 2]] as const) {
        const segment = after(run, input, nth);
        if (!shrank(segment)) return `期望：“${input}”之后印一行压缩前后的 token 估算（前 → 后，后面的小）；实际：${describe(segment?.trim() || "（什么也没印）")}`;
      }
      return undefined;
    },
  },
  {
    name: "摘要请求带着用户交代的侧重点",
    scenario: "compact-now",
    check(run) {
      const [first, second] = summaries(run);
      if (!first) return `期望：“/compact ${FOCUS}”发一次摘要请求；实际：没有摘要请求（见第一条要求）`;
      if (!text(first).includes(FOCUS)) return `期望：/compact 后面的话（“${FOCUS}”）写进摘要请求，告诉摘要模型要侧重什么；实际：摘要请求里没有它：${describe(lastUser(first))}`;
      if (second && /undefined|null/.test(text(second).split(SUMMARY_ONE)[0]!)) {
        return `期望：不带侧重点的 /compact 不往摘要请求里加侧重点那一句；实际：请求里出现了 undefined/null：${describe(lastUser(second))}`;
      }
      if (second && text(second).includes(FOCUS)) return `期望：侧重点只管那一次压缩；实际：不带侧重点的第二次 /compact，摘要请求里还有“${FOCUS}”`;
      return undefined;
    },
  },
  {
    name: "对话还太短时 /compact 只说一句，不发请求",
    scenario: "compact-now",
    check(run) {
      if (run.bodies.length > 0 && isSummary(run.bodies[0])) {
        return `期望：一开始对话里只有 system，/compact 说一句“没有可以压缩的”，不发摘要请求；实际：第一次请求就是摘要请求（不带 tools）：${describe(lastUser(run.bodies[0]))}`;
      }
      const sent = run.bodies.map(lastUser).find((u) => u === "/compact");
      if (sent) return `期望：/compact 是 REPL 自己的命令；实际：它被当成问题发给了模型`;
      const note = after(run, "/compact", 1)?.trim();
      if (!note) return `期望：对话还太短时，/compact 印一句说明（比如“没有可以压缩的”），用户才知道它没做事；实际：什么也没印`;
      return undefined;
    },
  },
  {
    name: "只有 /compact 这个词是命令：/compaction… 是问题",
    scenario: "compact-now",
    check(run) {
      const asked = run.bodies.some((b) => !isSummary(b) && lastUser(b) === QUESTION);
      if (!asked) {
        return `期望：“${QUESTION}”照常发给模型——/compact 后面要么什么也没有，要么是空白再跟侧重点；只比开头几个字（startsWith("/compact")）会把它当成命令；实际：模型没收到这个问题${summaries(run).some((b) => text(b).includes("ion 和")) ? "，它成了一次压缩的“侧重点”" : ""}`;
      }
      return undefined;
    },
  },
  {
    name: "压缩记进会话文件：--resume 读回的是一段摘要，不是原文",
    scenario: "compact-now",
    check(run) {
      const body = run.bodies.findLast((b) => !isSummary(b));
      if (!body || lastUser(body) !== RESUME_PROMPT) return `期望：第二次运行（--resume）发出请求；实际：最后一次请求的问题是 ${describe(lastUser(body))}`;
      const messages: any[] = body.messages ?? [];
      const withTwo = messages.filter((m) => String(m.content ?? "").includes(SUMMARY_TWO)).length;
      const stale = [
        messages.some((m) => String(m.content ?? "").includes(SUMMARY_ONE) && !String(m.content).includes(SUMMARY_TWO)) ? "第一段摘要" : "",
        messages.some((m) => m.role === "tool" || String(m.content ?? "").includes(OLD_ANSWER)) ? "压缩掉的原文（read_file 的调用和结果、回答）" : "",
        messages.some((m) => String(m.content ?? "").startsWith("按 A 的写法猜")) ? "第二次压缩掉的那一问一答" : "",
      ].filter(Boolean);
      if (withTwo !== 1 || stale.length > 0) {
        return `期望：最后一次 /compact 之后马上存进会话文件（第 15 章的 saveSession() 会追加一行 reset），--resume 读回 system、正好一段第二次的摘要、再加新问题；实际：请求里有 ${withTwo} 条带着第二段摘要的消息${stale.length > 0 ? `，还有${stale.join("、")}` : ""}——多半是 /compact 之后没有存，退出时文件里还是压缩之前的样子`;
      }
      return undefined;
    },
  },
];
