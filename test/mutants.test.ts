// 练习 22-1 的变异体：在参考答案上改一处，正是 HINTS.md 提醒过的错（或者任务明说不许的事）。
// 检查器必须认出每一个，而且是管这件事的那条要求不通过——能被改坏的答案骗过的检查器，什么也没检查。
// 参考答案通过、原样的第 22 章不通过，由 test/exercises.test.ts 检查；这里只跑每个变异体该栽的那一条要求。
import { requirements } from "../exercises/22-1-call-timeout/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

const TIMED_OUT = /撞上了场景的时限/;

// 前四个让 harness 卡住，要等满场景的时限（default-timeout 45 秒，hung-handshake 40 秒）才判得出来，四个一起先起跑
// （卡住以后只是干等，不占 CPU）；几秒就判完的排在后面，等它们判完再四个一起跑（整个文件约 50 秒，大半是在等）。
// hung-handshake 的时限得远低于 60 秒（默认的调用超时）：不 clearTimeout、握手用调用超时的变异体要等满 60 秒才自己结束
const MUTANTS: Mutant[] = [
  {
    name: "超时了只 reject、不从待回应表里取出来（提示 2）：idle() 以为还有人在等，harness 退不出去",
    file: "mcp-client.ts",
    from: /(?<=notifications\/cancelled", \{ requestId: id, reason \}\);\s*)this\.take\(id\)/,
    to: "this.pending.get(id)",
    fails: "没写 timeout 的服务用默认超时",
    because: TIMED_OUT,
  },
  {
    name: "有了结局不 clearTimeout（提示 1）：harness 答完了还要等计时器",
    file: "mcp-client.ts",
    from: "clearTimeout(entry.timer);",
    to: "",
    fails: "握手也有超时",
    because: TIMED_OUT,
  },
  {
    name: "只给工具调用计时（提示 1、4）：不回 initialize 的服务器让启动永远等下去",
    file: "mcp-client.ts",
    from: "entry.timer = setTimeout(",
    to: 'if (method === "tools/call") entry.timer = setTimeout(',
    fails: "握手也有超时",
    because: TIMED_OUT,
  },
  {
    name: "握手也用调用的超时（任务：握手另有时限）：没写 timeout 的 hung 要等 60 秒",
    file: "mcp-client.ts",
    from: 'const ms = method === "tools/call" ? this.timeoutMs : this.startupTimeoutMs;',
    to: "const ms = this.timeoutMs;",
    fails: "握手也有超时",
    because: TIMED_OUT,
  },
  {
    name: "握手超时也发取消通知（提示 4）：规范不许取消 initialize",
    file: "mcp-client.ts",
    from: 'if (method === "initialize") return ',
    to: 'if (method === "never") return ',
    fails: "握手也有超时",
    because: /取消/,
  },
  {
    name: "按先来后到分配回答（提示 3）：迟到的回答交给了正在等的下一次调用",
    file: "mcp-client.ts",
    from: 'const waiting = typeof id === "number" ? this.take(id) : undefined;',
    to: "const waiting = this.take([...this.pending.keys()][0] ?? (id as number));",
    fails: "迟到的回答被丢掉",
    because: /错交给了下一次调用/,
  },
  {
    name: "取消通知的 requestId 不是原样的 id（提示 3）",
    file: "mcp-client.ts",
    from: "{ requestId: id, reason }",
    to: "{ requestId: String(id), reason }",
    fails: "超时后给服务器发 notifications/cancelled",
    because: /requestId 原样/,
  },
  {
    name: "把毫秒当成秒写进结果（提示 5）",
    file: "mcp-client.ts",
    from: "超过 ${ms / 1000} 秒",
    to: "超过 ${ms} 秒",
    fails: "mcp.json 里的 timeout 生效",
    because: /等了几秒/,
  },
  {
    name: "不管 mcp.json 里按服务写的 timeout（提示 5）",
    file: "mcp-config.ts",
    from: "const timeoutMs = entry.timeout ?? defaultTimeoutMs;",
    to: "const timeoutMs = defaultTimeoutMs;",
    fails: "mcp.json 里的 timeout 生效",
    because: /"timeout": 2000/,
  },
  {
    name: "不读 HARNESS_MCP_TIMEOUT_MS（提示 5）",
    file: "mcp-config.ts",
    from: "if (environ.HARNESS_MCP_TIMEOUT_MS !== undefined) {",
    to: "if (false) {",
    fails: "没写 timeout 的服务用默认超时",
    because: /HARNESS_MCP_TIMEOUT_MS=1000/,
  },
];

mutantSuite("22-1-call-timeout", requirements, MUTANTS, 4);
