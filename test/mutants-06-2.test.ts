// 练习 06-2 的变异体：参考答案的 output.ts、agent.ts 或 main.ts 里改一处，正是 README、HINTS.md 提醒过的错。
// 没有变异体的几条：
// - “认得 --output-format=X 这种写法”“认不得的格式是配置错误、退出码 2”：场景都用“--output-format X”两个词、格式都合法；
//   写错格式的那条路和第 06 章别的配置错误一样，一行错误、退出码 2，不产生 JSON，检查器没有场景看它。
// - “REPL 里要 json 是配置错误”：场景都在命令行上给了问题。
import { requirements } from "../exercises/06-2-output-format/check.ts";
import { mutantSuite } from "./mutants-lib.ts";

const O = "output.ts";
const A = "agent.ts";
const M = "main.ts";

mutantSuite(
  "06-2-output-format",
  requirements,
  [
    {
      name: "[round N] 行打到了 stdout",
      file: A,
      from: "console.error(`[round ${round}]",
      to: "console.log(`[round ${round}]",
      fails: "stdout 上只有 JSON 行",
      because: /\[round N\] 行，该去 stderr/,
    },
    {
      name: "回答的字照旧印在 stdout",
      file: M,
      from: "listener: output, out: process.stderr }",
      to: "listener: output }",
      fails: "stdout 上只有 JSON 行",
      because: /给人看的字/,
    },
    {
      name: "出错时不写 result",
      file: M,
      from: `      output.failure(e instanceof RoundLimitError ? "error_max_turns" : "error_during_execution", e.message);\n`,
      to: "",
      fails: "json：stdout 上只有一个 result",
      because: /也要有一行/,
    },
    {
      name: "出错时写了 result，却以 0 退出",
      file: M,
      from: `e.message);\n      throw e;`,
      to: `e.message);\n      return;`,
      fails: "轮数到顶",
      because: /退出码 0/,
    },
    {
      name: "字符串里的换行被还原成裸换行，一行劈成两行",
      file: O,
      from: "return JSON.stringify(value).replace(",
      to: `return JSON.stringify(value).replaceAll("\\\\n", "\\n").replace(`,
      fails: "stdout 上只有 JSON 行",
      because: /劈成了几行/,
    },
    {
      name: "U+2028、U+2029 不转义",
      file: O,
      from: ".replace(/[\\u2028\\u2029]/g, (c) => `\\\\u${c.charCodeAt(0).toString(16)}`)",
      to: "",
      fails: "stdout 上只有 JSON 行",
      because: /U\+2028/,
    },
    {
      name: "带缩进的 JSON（一个对象十几行）",
      file: O,
      from: "return JSON.stringify(value).replace(",
      to: "return JSON.stringify(value, null, 2).replace(",
      fails: "stdout 上只有 JSON 行",
      because: /劈成了几行/,
    },
    {
      name: "json 格式也把经过一条条打出来",
      file: O,
      from: `if (this.format === "stream-json") this.write(jsonLine(value));`,
      to: `this.write(jsonLine(value));`,
      fails: "json：stdout 上只有一个 result",
      because: /只打最后那一个 result/,
    },
    {
      name: "num_turns 按收到的回答数（出错的那一轮没算）",
      file: O,
      from: `  reply(message: AssistantMessage) {\n`,
      to: `  reply(message: AssistantMessage) {\n    this.rounds++;\n`,
      fails: "最后一行是 result",
      because: /num_turns 是 3/,
    },
    {
      name: "text 先过一遍显形（控制字符被换掉）",
      file: O,
      from: `content.push({ type: "text", text: message.content });`,
      to: `content.push({ type: "text", text: message.content.replace(/[\\x00-\\x1f]/g, "?") });`,
      fails: "每条回答一个 assistant 事件",
      because: /一字不差|原文/,
    },
    {
      name: "tool_use 的 input 是那段 JSON 文字，不是对象",
      file: O,
      from: `input: parseInput(call.function.arguments)`,
      to: `input: call.function.arguments`,
      fails: "每条回答一个 assistant 事件",
      because: /解析好的对象/,
    },
    {
      name: "tool_result 一律记在这一轮第一个调用名下",
      file: A,
      from: `opts.listener?.toolResult(call.id, result);`,
      to: `opts.listener?.toolResult(reply.tool_calls[0]!.id, result);`,
      fails: "tool_result 和 tool_use 的 id 一一对上",
      because: /恰好有一个 tool_result/,
    },
    {
      name: "is_error 一律 false",
      file: O,
      from: `is_error: isError }`,
      to: `is_error: false }`,
      fails: "tool_result 和 tool_use 的 id 一一对上",
      because: /is_error/,
    },
    {
      name: "result 的 subtype 不分错误种类",
      file: M,
      from: `e instanceof RoundLimitError ? "error_max_turns" : "error_during_execution"`,
      to: `"error_during_execution"`,
      fails: "轮数到顶",
      because: /error_max_turns/,
    },
  ],
  2,
);
