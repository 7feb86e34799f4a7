// 练习 06-2 的检查器：--output-format stream-json / json，stdout 上只有给程序读的 JSON 行。
// 场景的转录里 stdout、stderr 本是合流的；checks/*/workspace/.tap.mjs（经 NODE_OPTIONS 加载）把 harness 再起一遍、
// 用管道收下它的 stdout（文件描述符 1 上的每个字节），结束后接在转录末尾的“[stdout ↓]”和“[stdout ↑]”之间。
// 检查器把那一段当成 stdout，前面的当成 stderr。不比措辞：比的是 JSON 的结构，和脚本模型实际发出、收到的东西。
import { isDeepStrictEqual } from "node:util";
import { describe, toolResults, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

const START = "[stdout ↓]\n";

interface Split {
  stdout: string | undefined; // 没有这一段：分流器没跑完（harness 被场景超时杀掉了）
  stderr: string;
}

function split(run: RunResult): Split {
  const at = run.transcript.indexOf(START);
  if (at < 0) return { stdout: undefined, stderr: run.transcript };
  const rest = run.transcript.slice(at + START.length);
  const end = rest.lastIndexOf("[stdout ↑");
  return { stdout: rest.slice(0, end < 0 ? rest.length : end), stderr: run.transcript.slice(0, at) };
}

type Parsed = { lines: any[]; problem?: string };

// stdout 的每一行都要是一个 JSON 对象、带字符串的 type；整段以换行结尾；行里没有裸的 U+2028、U+2029
function parse(run: RunResult): Parsed {
  const { stdout } = split(run);
  if (stdout === undefined) return { lines: [], problem: `期望：harness 自己结束，检查器才收得到它的 stdout；实际：没有收到（多半被场景超时终止了）` };
  if (stdout === "") return { lines: [], problem: `期望：stdout 上有 JSON 行；实际：stdout 是空的` };
  const lines: any[] = [];
  const raw = stdout.endsWith("\n") ? stdout.slice(0, -1).split("\n") : stdout.split("\n");
  for (const [i, line] of raw.entries()) {
    let value: any;
    try {
      value = JSON.parse(line);
    } catch {
      const hint = /^\[round \d+\]/.test(line) ? "——这是给人看的 [round N] 行，该去 stderr" : line.startsWith("{") || line.startsWith(" ") ? "——一个对象被劈成了几行：不能有裸的换行（JSON.stringify 不带缩进，字符串里的换行它会转义）" : "——stdout 只留给 JSON 行，给人看的字（回答、日志）都去 stderr";
      return { lines, problem: `期望：stdout 的每一行都是一个完整的 JSON 对象；实际：第 ${i + 1} 行不是：${describe(line)}${hint}` };
    }
    if (value === null || typeof value !== "object" || Array.isArray(value) || typeof value.type !== "string") {
      return { lines, problem: `期望：stdout 的每一行都是带 "type" 的 JSON 对象；实际：第 ${i + 1} 行是 ${describe(line)}` };
    }
    if (/[\u2028\u2029]/.test(line)) {
      return { lines, problem: `期望：U+2028、U+2029 在行里写成 \\u2028、\\u2029——JSON.stringify 不转义它们，可 Python 的 splitlines() 和不少按行读的程序把它们当换行，一行就断成两半；实际：第 ${i + 1} 行里有裸的 U+2028/U+2029：${describe(line)}` };
    }
    lines.push(value);
  }
  if (!stdout.endsWith("\n")) return { lines, problem: `期望：每一行（包括最后一行）都以换行结尾，按行读的程序才知道最后一个对象写完了；实际：stdout 的最后一行没有换行` };
  return { lines };
}

// 脚本模型发出的每一条回答：字、工具调用
const replies = (run: RunResult) => run.records.filter((r) => r.reply).map((r) => r.reply!);
const blocks = (event: any): any[] => (Array.isArray(event?.message?.content) ? event.message.content : []);
const requestsLine = (run: RunResult) => `（模型一共收到 ${run.requests} 次请求，harness 退出码 ${run.exitCode}）`;

// 每个要求先要 stdout 能读；读不了的那条原因由“stdout 上只有 JSON 行”说清，别的要求只说一句
function readable(run: RunResult): Parsed {
  const parsed = parse(run);
  if (parsed.problem) parsed.problem = `期望：stdout 能一行一行解析成 JSON（见“stdout 上只有 JSON 行”那条）；实际：${parsed.problem.replace(/^期望：[^；]*；实际：/, "")}`;
  return parsed;
}

function resultLine(lines: any[]): any {
  return lines.at(-1)?.type === "result" ? lines.at(-1) : undefined;
}

export const requirements: Requirement[] = [
  {
    name: "stdout 上只有 JSON 行：一行一个对象，换行、U+2028、控制字符都转义，给人看的字不在这里",
    scenario: "stream",
    check: (run) => parse(run).problem,
  },
  {
    name: "第一行是 system/init：cwd、model、tools",
    scenario: "stream",
    check(run) {
      const { lines, problem } = readable(run);
      if (problem) return problem;
      const init = lines[0];
      if (init?.type !== "system" || init.subtype !== "init") return `期望：第一行是 {"type":"system","subtype":"init",…}，读的程序靠它知道会话开始了；实际：${describe(init)}`;
      const bad = [
        init.cwd === "$WORK" ? "" : `cwd 是工作目录（实际 ${describe(init.cwd)}）`,
        init.model === "scripted-model" ? "" : `model 是 HARNESS_MODEL 的值 scripted-model（实际 ${describe(init.model)}）`,
        isDeepStrictEqual(init.tools, ["read_file"]) ? "" : `tools 是工具名的数组 ["read_file"]（实际 ${describe(init.tools)}）`,
      ].filter(Boolean);
      return bad.length > 0 ? `期望：init 里 ${bad.join("；")}` : undefined;
    },
  },
  {
    name: "每条回答一个 assistant 事件：text 一字不差，tool_use 带 id、name、解析好的 input",
    scenario: "stream",
    check(run) {
      const { lines, problem } = readable(run);
      if (problem) return problem;
      const events = lines.filter((l) => l.type === "assistant");
      const sent = replies(run);
      if (events.length !== sent.length) return `期望：模型回答了 ${sent.length} 次，就有 ${sent.length} 个 assistant 事件；实际：${events.length} 个${requestsLine(run)}`;
      for (const [i, reply] of sent.entries()) {
        const got = blocks(events[i]);
        const text = got.filter((b) => b.type === "text").map((b) => b.text).join("");
        if (text !== reply.content) {
          return `期望：第 ${i + 1} 个 assistant 事件的 text 就是模型发来的原文（换行、U+2028、落单的代理项、ESC、NUL 都原样，转义交给 JSON.stringify；显形是给终端的，不是给程序的）；实际：${describe(JSON.stringify(text))}，模型发的是 ${describe(JSON.stringify(reply.content))}`;
        }
        const uses = got.filter((b) => b.type === "tool_use");
        const want = reply.tool_calls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: JSON.parse(c.arguments) }));
        const mine = uses.map((b) => ({ type: b.type, id: b.id, name: b.name, input: b.input }));
        if (!isDeepStrictEqual(mine, want)) {
          return `期望：第 ${i + 1} 个 assistant 事件的 tool_use 是 ${describe(want)}——id 用模型给的调用 id，input 是解析好的对象，不是那段 JSON 文字；实际：${describe(mine)}`;
        }
      }
      return undefined;
    },
  },
  {
    name: "tool_result 和 tool_use 的 id 一一对上，内容就是交给模型的结果，出错的带 is_error",
    scenario: "stream",
    check(run) {
      const { lines, problem } = readable(run);
      if (problem) return problem;
      const uses = lines.filter((l) => l.type === "assistant").flatMap(blocks).filter((b) => b.type === "tool_use");
      const results = lines.filter((l) => l.type === "user").flatMap(blocks).filter((b) => b.type === "tool_result");
      // 模型在第 n+1 次请求里收到的结果，按调用的顺序
      const given = run.bodies.slice(1).flatMap((_, i) => toolResults(run, i + 2));
      for (const [i, use] of uses.entries()) {
        const mine = results.filter((r) => r.tool_use_id === use.id);
        if (mine.length !== 1) return `期望：tool_use ${describe(use.id)} 恰好有一个 tool_result，它的 tool_use_id 就是这个 id；实际：${mine.length} 个（全部 tool_result 的 tool_use_id：${describe(results.map((r) => r.tool_use_id))}）`;
        const result = mine[0];
        if (result.content !== given[i]) return `期望：tool_use ${describe(use.id)} 的 tool_result 的 content 就是模型收到的那段结果 ${describe(given[i])}；实际：${describe(result.content)}`;
        const failed = given[i]?.startsWith("错误") ?? false;
        if (Boolean(result.is_error) !== failed) return `期望：结果以“错误”开头的 tool_result 带 "is_error": true，成功的不带或者是 false；实际：${describe(result)}`;
      }
      if (results.length !== uses.length) return `期望：tool_result 和 tool_use 一样多（${uses.length} 个）；实际：${results.length} 个`;
      return undefined;
    },
  },
  {
    name: "最后一行是 result：success、is_error false、num_turns 等于轮数、result 是最后的回答",
    scenario: "stream",
    check(run) {
      const { lines, problem } = readable(run);
      if (problem) return problem;
      const result = resultLine(lines);
      if (!result) return `期望：最后一行是 {"type":"result",…}；实际：${describe(lines.at(-1))}`;
      const last = replies(run).at(-1)?.content;
      const bad = [
        result.subtype === "success" ? "" : `subtype 是 "success"（实际 ${describe(result.subtype)}）`,
        result.is_error === false ? "" : `is_error 是 false（实际 ${describe(result.is_error)}）`,
        result.num_turns === run.requests ? "" : `num_turns 是 ${run.requests}——发了几次请求就是几轮（实际 ${describe(result.num_turns)}）`,
        result.result === last ? "" : `result 是最后那条回答的原文 ${describe(last)}（实际 ${describe(result.result)}）`,
      ].filter(Boolean);
      return bad.length > 0 ? `期望：${bad.join("；")}` : undefined;
    },
  },
  {
    name: "给人看的字在 stderr：[round N] 行照旧",
    scenario: "stream",
    check(run) {
      const { stderr } = split(run);
      if (!/^\[round 1\] read_file\(/m.test(stderr)) return `期望：给人看的 [round N] 行照旧打印，在 stderr 上（跑在管道里的人照样看得到进度）；实际：stderr 上没有 [round 1] read_file(…) 这一行：${describe(stderr)}`;
      return undefined;
    },
  },
  {
    name: "json：stdout 上只有一个 result；模型出错 → is_error、error_during_execution、errors、退出码非零",
    scenario: "json-error",
    check(run) {
      if (split(run).stdout === "") return `期望：模型服务出错也要有一行 {"type":"result","is_error":true,…}，读的程序才知道结束了、为什么；实际：stdout 是空的`;
      const { lines, problem } = readable(run);
      if (problem) return problem;
      if (lines.length !== 1) return `期望：--output-format json 只打最后那一个 result 对象，一行；实际：stdout 上有 ${lines.length} 行，type 依次是 ${describe(lines.map((l) => l.type))}`;
      const result = resultLine(lines);
      if (!result) return `期望：模型服务出错也要有 {"type":"result",…}，读的程序才知道结束了、为什么；实际：${describe(lines[0])}`;
      const bad = [
        result.subtype === "error_during_execution" ? "" : `subtype 是 "error_during_execution"（实际 ${describe(result.subtype)}）`,
        result.is_error === true ? "" : `is_error 是 true（实际 ${describe(result.is_error)}）`,
        result.num_turns === 2 ? "" : `num_turns 是 2——第二次请求出的错，它也算一轮（实际 ${describe(result.num_turns)}）`,
        Array.isArray(result.errors) && result.errors.length > 0 && result.errors.every((e: unknown) => typeof e === "string" && e.length > 0) ? "" : `errors 是一组说明出了什么错的字符串（实际 ${describe(result.errors)}）`,
      ].filter(Boolean);
      return bad.length > 0 ? `期望：${bad.join("；")}` : undefined;
    },
  },
  {
    name: "轮数到顶 → result 是 error_max_turns、is_error true、num_turns 等于上限，退出码非零",
    scenario: "round-limit",
    check(run) {
      if (split(run).stdout === "") return `期望：跑满轮数停下时 stdout 上也有 init、经过和最后一行 result；实际：stdout 是空的`;
      const { lines, problem } = readable(run);
      if (problem) return problem;
      const result = resultLine(lines);
      if (!result) return `期望：跑满 HARNESS_MAX_ROUNDS=2 轮停下时，最后一行也是 {"type":"result",…}；实际：最后一行是 ${describe(lines.at(-1))}`;
      const bad = [
        result.subtype === "error_max_turns" ? "" : `subtype 是 "error_max_turns"（实际 ${describe(result.subtype)}）`,
        result.is_error === true ? "" : `is_error 是 true（实际 ${describe(result.is_error)}）`,
        result.num_turns === 2 ? "" : `num_turns 是 2（实际 ${describe(result.num_turns)}）`,
        Array.isArray(result.errors) && result.errors.length > 0 ? "" : `errors 说出为什么停（实际 ${describe(result.errors)}）`,
      ].filter(Boolean);
      return bad.length > 0 ? `期望：${bad.join("；")}` : undefined;
    },
  },
];
