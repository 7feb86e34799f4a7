// 练习 12-1 的检查器：插话（agent 干活时在终端里敲的行）。
// 伪终端场景 steer 管前三条要求。先后靠构造，不靠睡一会儿：第一轮第一个 bash 先写 ready，
// 场景看到 ready 才敲“先别提交”，看到它的回显再敲“顺便看看日志”；这个 bash 一直等到转录里出现“顺便看看日志”的回显
// （后面跟着回车，readline 回显完整一行之后同一刻就交出了这一行）才结束——工具结束时，两行都已经在 harness 手里了。
// 场景 late：请求在途时敲的“最后再总结一句”，脚本模型晚 1.5 秒回答，它多半在 agent 停下之前到；
// 真要晚到了，正确的实现照样把它当下一问（agent 已经停下了），判决不变。场景 piped：管道里的行不是插话。
// 措辞不比：只看脚本模型收到的消息、退出码。
import { describe, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

const FIRST = "先别提交";
const SECOND = "顺便看看日志";
const LATE = "最后再总结一句";

type Message = { role: string; content?: unknown; tool_calls?: { id: string }[]; tool_call_id?: string };
const messages = (run: RunResult, request: number): Message[] => run.bodies[request - 1]?.messages ?? [];
const text = (m: Message) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? ""));
const userTexts = (ms: Message[]) => ms.filter((m) => m.role === "user").map(text);
// 一条消息的概括：角色加上内容的开头，说明里列出消息的先后用
const brief = (m: Message) => (m.role === "tool" ? "tool 结果" : m.tool_calls?.length ? `assistant（${m.tool_calls.length} 个调用）` : `${m.role}“${describe(text(m)).slice(0, 20)}”`);
const order = (ms: Message[]) => ms.filter((m) => m.role !== "system").map(brief).join(" → ");

function how(run: RunResult, request: number): string {
  if (run.timedOut) return `（harness 没能结束，被场景时限终止；模型一共收到 ${run.requests} 次请求）`;
  if (run.bodies.length < request) return `（模型只收到 ${run.requests} 次请求，没走到第 ${request} 次；harness 退出码 ${run.exitCode}）`;
  return "";
}

// 找出把 tool_call 和它的结果隔开的那条消息：服务商见到这样的历史会回 400
function separated(ms: Message[]): string | undefined {
  const pending = new Set<string>();
  for (const m of ms) {
    if (m.role === "tool") {
      pending.delete(m.tool_call_id ?? "");
      continue;
    }
    if (pending.size > 0) return brief(m);
    for (const c of m.tool_calls ?? []) pending.add(c.id);
  }
  return undefined;
}

export const requirements: Requirement[] = [
  {
    name: "干活时敲的行在这一轮的工具结果之后、下一次请求之前进历史（user 消息），按敲的先后",
    scenario: "steer",
    check(run) {
      const ms = messages(run, 2);
      if (ms.length === 0) return `期望：第一轮的两个 bash 跑完后发出第二次请求；实际：没有第二次请求${how(run, 2)}`;
      const lastTool = ms.map((m) => m.role).lastIndexOf("tool");
      const after = userTexts(ms.slice(lastTool + 1)).join("\n");
      const i = after.indexOf(FIRST);
      const j = after.indexOf(SECOND);
      if (i >= 0 && j > i) return undefined;
      const anywhere = userTexts(ms).join("\n");
      const got = `第二次请求的消息依次是 ${order(ms)}`;
      if (i >= 0 && j >= 0) return `期望：两行按敲的先后进历史，“${FIRST}”在前、“${SECOND}”在后；实际：${got}——顺序反了`;
      if (anywhere.includes(FIRST) || anywhere.includes(SECOND)) {
        return `期望：敲的行接在这一轮全部工具结果的后面；实际：${got}——插得太早了`;
      }
      return `期望：第一个 bash 跑着时用户敲了“${FIRST}”“${SECOND}”，它们等这一轮的工具都跑完，作为 user 消息接在工具结果后面，随第二次请求发给模型；实际：${got}，两行都不在——多半是 REPL 的读行循环在 agent 干活时把行攒着，等这一问答完才当成新问题（第 12 章原来的样子），或者取出来以后没有放进历史`;
    },
  },
  {
    name: "插话不把工具调用和它的结果隔开：每一次请求的消息顺序服务商都接受",
    scenario: "steer",
    check(run) {
      for (let n = 1; n <= run.bodies.length; n++) {
        const culprit = separated(messages(run, n));
        if (culprit) {
          return `期望：一个 assistant 消息里的全部 tool_call 的结果紧跟着它，插话只能等这一轮的工具结果全齐了再接（否则真服务会回 400）；实际：第 ${n} 次请求里 ${culprit} 夹在 tool_call 和它的结果中间：${order(messages(run, n))}`;
        }
      }
      const rejected = run.records.findIndex((r) => r.rejected);
      if (rejected >= 0) {
        return `期望：每一次请求脚本模型都接受，一共三次；实际：第 ${rejected + 1} 次请求被拒绝（${describe(run.records[rejected].rejected)}）——多出来的请求多半是敲的两行等这一问答完才被当成新问题（见第一条）`;
      }
      return undefined;
    },
  },
  {
    name: "每一行只用一次：插进去的行不再被当成下一问",
    scenario: "steer",
    check(run) {
      if (!userTexts(messages(run, 2)).join("\n").includes(FIRST)) return `期望：先做到第一条（敲的行随第二次请求发出去），这一条才看得出来；实际：第二次请求里没有“${FIRST}”${how(run, 2)}`;
      const last = messages(run, run.bodies.length);
      const twice = [FIRST, SECOND].filter((line) => userTexts(last).filter((t) => t.includes(line)).length > 1);
      // 第三次请求起，最后一条是带着这两行之一的 user 消息：它又被当成了一问
      const asPrompt = run.bodies.findIndex((b, n) => {
        const end: Message | undefined = (b.messages ?? []).at(-1);
        return n >= 2 && end?.role === "user" && [FIRST, SECOND].some((line) => text(end).includes(line));
      });
      if (twice.length > 0) return `期望：插进历史的行从队列里取走，不再出现第二次；实际：最后一次请求里“${twice.join("”“")}”出现了不止一次：${order(last)}`;
      if (asPrompt >= 0) return `期望：插进历史的行从队列里取走；实际：第 ${asPrompt + 1} 次请求又把它当成了新的一问：${order(messages(run, asPrompt + 1))}`;
      return undefined;
    },
  },
  {
    name: "agent 先停下了，干活时敲的行就是下一问；/exit 照样退出",
    scenario: "late",
    check(run) {
      const ms = messages(run, 2);
      if (ms.length === 0 || ms.at(-1)?.role !== "user" || text(ms.at(-1)!) !== LATE) {
        return `期望：第一次请求在途时用户敲了“${LATE}”，这次回答没有工具调用、agent 停下了，这一行不丢，成为下一问：第二次请求的最后一条消息是 user“${LATE}”；实际：${ms.length === 0 ? `没有第二次请求${how(run, 2)}——这一行丢了？比如一问答完就把没用上的插话清掉了` : order(ms)}`;
      }
      if (run.requests !== 2) return `期望：一共两次请求，之后敲的 /exit 让 REPL 退出；实际：${run.requests} 次`;
      return undefined;
    },
  },
  {
    name: "管道里的行是一个接一个的问题，不是插话",
    scenario: "piped",
    check(run) {
      const second = userTexts(messages(run, 2));
      if (second.some((t) => t.includes("再问一句"))) {
        return `期望：标准输入来自管道时，两行一开始就全读到了——它们是用户事先写好的两个问题，不是干活时敲的插话，第一问的工具跑完，第二次请求里只有工具结果；实际：第二行插进了第二次请求：${order(messages(run, 2))}——插话只该在终端里算（process.stdin.isTTY）`;
      }
      const third = messages(run, 3);
      if (third.at(-1)?.role !== "user" || text(third.at(-1)!) !== "再问一句") {
        return `期望：第一问答完，第二行“再问一句”成为第三次请求的新问题；实际：${third.length === 0 ? `没有第三次请求${how(run, 3)}` : order(third)}`;
      }
      return undefined;
    },
  },
];
