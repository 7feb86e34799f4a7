// 练习 12-1 的变异体：在参考答案上改一处，正是 HINTS.md 提醒过的错（或者任务明说不许的事）。
// 每一个都要被管这件事的那条要求认出来。三个场景都只要几秒，没有一个变异体会卡到场景时限。
//
// 没有变异体的几句，和为什么：
// - 插话上屏时“显出是插话”（[插话] 那一行）：措辞由读者定，检查器不比对转录；安全打印走的是第 03 章的 safeLine，
//   而终端里敲的字本来就是用户自己的，没有外人能借这条路往屏幕上写东西。
// - / 开头的命令不算插话、空行不算话：要看出来得在工具跑着时敲一个命令，再等 harness 把它回显出来，
//   场景要多一轮等回显的慢命令；这两句是参考答案的取舍，README 只说了 /exit 照样退出（late 场景里它排在后面）。
// - Ctrl-C 保持第 12 章的意思：参考答案不碰 interrupt.ts 和 readline 的 SIGINT；第 12 章自己的四个 Ctrl-C、信号场景
//   （verify -- 12 --own）管着，练习不再跑一遍。
// - 中断以后排着的行成为下一问：和 late 场景是同一条路（一问结束，队列里剩下的行交给 REPL）。
import { requirements } from "../exercises/12-1-steering/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

const MUTANTS: Mutant[] = [
  {
    name: "取出来了、打印了，但没放进历史：这一行丢了（issue：the line lost）",
    file: "agent.ts",
    from: 'history.push({ role: "user", content: line });',
    to: "void line;",
    fails: "干活时敲的行在这一轮的工具结果之后",
    because: /两行都不在/,
  },
  {
    name: "插在这一轮的工具结果前面（issue：inserted before the tool results）",
    file: "agent.ts",
    from: 'history.push({ role: "user", content: line });',
    to: 'history.splice(history.length - reply.tool_calls.length, 0, { role: "user", content: line });',
    fails: "插话不把工具调用和它的结果隔开",
    because: /夹在 tool_call 和它的结果中间/,
  },
  {
    name: "每个工具调用跑完就取一次插话（提示 2：等这一轮的结果全齐了）",
    file: "agent.ts",
    from: 'history.push({ role: "tool", tool_call_id: call.id, content: result });',
    to: 'history.push({ role: "tool", tool_call_id: call.id, content: result }); for (const l of opts.steer?.() ?? []) history.push({ role: "user", content: l });',
    fails: "插话不把工具调用和它的结果隔开",
    because: /夹在 tool_call 和它的结果中间/,
  },
  {
    name: "main.ts 没把 typedMeanwhile 交给 runAgent：行照旧等这一问答完才当新问题（第 12 章原样）",
    file: "main.ts",
    from: "await turn(line, typedMeanwhile);",
    to: "await turn(line);",
    fails: "干活时敲的行在这一轮的工具结果之后",
    because: /两行都不在/,
  },
  {
    name: "几行倒着交出去（任务：按敲的先后）",
    file: "repl.ts",
    from: "if (line) lines.push(line);",
    to: "if (line) lines.unshift(line);",
    fails: "干活时敲的行在这一轮的工具结果之后",
    because: /顺序反了/,
  },
  {
    name: "只看不取：插过的行还留在队列里（提示 3）",
    file: "repl.ts",
    from: "  return lines;\n}",
    to: "  queued.unshift(...lines);\n  return lines;\n}",
    fails: "每一行只用一次",
    because: /出现了不止一次/,
  },
  {
    name: "一问答完就清空队列：agent 先停下时敲的行丢了（提示 4）",
    file: "repl.ts",
    from: "else if (line) await handle(line);",
    to: "else if (line) {\n      await handle(line);\n      queued.length = 0;\n    }",
    fails: "agent 先停下了",
    because: /没有第二次请求/,
  },
  {
    name: "管道里的行也当插话（提示 5：只算终端里敲的）",
    file: "repl.ts",
    from: "process.stdin.isTTY && queued.length > 0",
    to: "queued.length > 0",
    fails: "管道里的行是一个接一个的问题",
    because: /插进了第二次请求/,
  },
];

mutantSuite("12-1-steering", requirements, MUTANTS, 3);
