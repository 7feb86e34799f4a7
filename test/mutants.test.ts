// 练习 22-1 的变异体：在参考答案上改一处，正是 HINTS.md 提醒过的错（或者任务明说不许的事）。
// 检查器必须认出每一个，而且是管这件事的那条要求不通过——能被改坏的答案骗过的检查器，什么也没检查。
// 参考答案通过、原样的第 22 章不通过，由 test/exercises.test.ts 检查；这里只跑每个变异体该栽的那一条要求。
import { requirements } from "../exercises/22-1-call-timeout/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

const TIMED_OUT = /撞上了场景的时限/;

// 前四个让 harness 卡住，要等满场景的时限（default-timeout 45 秒，hung-handshake 20 秒）才判得出来，排在最前面先起跑
// （卡住以后只是干等，不占 CPU）；几秒就判完的排在后面（整个文件约一分钟，大半是在等）。
// hung-handshake 的时限得远低于 60 秒（默认的调用超时）：不 clearTimeout、握手用调用超时的变异体要等满 60 秒才自己结束。
// startupTimeout 没生效、tools/list 用了调用超时，不靠时限判：slow-handshake 场景的服务器握手要 3 秒，比它的 startupTimeout（1 秒）慢、
// 比默认的 30 秒快——设置被忽略的实现 3 秒后就把它接进来了，几秒就判完。
//
// 没有变异体的几句，和为什么：
// - 调用的默认超时是 60 秒：要等满 60 秒才看得出来；检查器用 HARNESS_MCP_TIMEOUT_MS=1000 看“默认值”这条路走没走通（不读这个变量的变异体在下面）。
// - 握手的默认时限是 30 秒：同理；default-timeout 场景里 quick 没写 startupTimeout、调用超时只有 1 秒，握手照样要成（握手用调用超时的变异体在 hung-handshake 里现形）。
// - 超时和 Ctrl-C 说的话要不一样（提示 1）：这个检查器没有打断调用的场景；Ctrl-C 那条路是第 12 章的，本章自己的场景管着。
// - mcp.json 里 timeout、startupTimeout 写成 0、负数、字符串：参考答案一行警告、跳过这个服务；README 没有规定怎么处置，不设场景。
// - 握手超时的进程要结束掉：connect() 里现成的 catch 就会 kill()，练习不碰它；真漏了，hung-handshake 的“不留进程”当场判得出。
// - 按服务写的 timeout 也管了握手（Claude Code 的 timeout 只管调用）：要看出来得有一个握手比它的 timeout 慢、又该等到的服务器，
//   场景要多等几秒，不设；握手整个改用调用超时的那个变异体在下面。
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
    name: "不管 mcp.json 里按服务写的 startupTimeout（任务：握手的时限可以按服务器改）：3 秒才握完手的服务器被接了进来",
    file: "mcp-config.ts",
    from: "const startupTimeoutMs = entry.startupTimeout ?? 30_000;",
    to: "const startupTimeoutMs = 30_000;",
    fails: "按服务写的 startupTimeout 生效",
    because: /slowinit（3 秒才回 initialize）：等到了它.*startupTimeout 没生效/,
  },
  {
    name: "只给 initialize 计握手的时限，tools/list 用调用的超时（任务：initialize 和 tools/list 一起算握手）：3 秒才列出工具的服务器被接了进来",
    file: "mcp-client.ts",
    from: 'const ms = method === "tools/call" ? this.timeoutMs : this.startupTimeoutMs;',
    to: 'const ms = method === "initialize" ? this.startupTimeoutMs : this.timeoutMs;',
    fails: "按服务写的 startupTimeout 生效",
    because: /slowlist（.*等到了它.*tools\/list 用的是调用的超时/,
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
  {
    name: "取消通知不带 reason（任务：reason 写上为什么取消）",
    file: "mcp-client.ts",
    from: "{ requestId: id, reason }",
    to: "{ requestId: id }",
    fails: "超时后给服务器发 notifications/cancelled",
    because: /还有 reason/,
  },
  {
    name: "按服务写的 timeout 一路带给后面的服务（记录放得太宽）：patient 的 40000 成了 quick 的",
    file: "mcp-config.ts",
    from: "const config = serverConfig(entry, options.env ?? process.env, defaultTimeoutMs);",
    to: 'const config = serverConfig(entry, options.env ?? process.env, (defaultTimeoutMs = isObject(entry) && typeof entry.timeout === "number" ? entry.timeout : defaultTimeoutMs));',
    fails: "没写 timeout 的服务用默认超时",
    because: /quick 在 mcp\.json 里没写 timeout/,
  },
  {
    name: "设了 HARNESS_MCP_TIMEOUT_MS 就不看按服务写的 timeout（任务：服务器用自己的值，不管默认值是多少）",
    file: "mcp-config.ts",
    from: "const timeoutMs = entry.timeout ?? defaultTimeoutMs;",
    to: "const timeoutMs = environ.HARNESS_MCP_TIMEOUT_MS !== undefined ? defaultTimeoutMs : (entry.timeout ?? defaultTimeoutMs);",
    fails: "没写 timeout 的服务用默认超时",
    because: /"timeout": 40000/,
  },
  {
    name: "HARNESS_MCP_TIMEOUT_MS 写坏了不吭声（提示 5）",
    file: "mcp-config.ts",
    from: "else log(`警告: HARNESS_MCP_TIMEOUT_MS",
    to: "else String(`警告: HARNESS_MCP_TIMEOUT_MS",
    fails: "HARNESS_MCP_TIMEOUT_MS 写坏了",
    because: /一声不吭/,
  },
  {
    name: "HARNESS_MCP_TIMEOUT_MS 写坏了就抛出去（提示 5：别为这个让 harness 起不来）",
    file: "mcp-config.ts",
    from: "else log(`警告: HARNESS_MCP_TIMEOUT_MS",
    to: "else throw new Error(`警告: HARNESS_MCP_TIMEOUT_MS",
    fails: "HARNESS_MCP_TIMEOUT_MS 写坏了",
    because: /一次请求也没收到/,
  },
];

mutantSuite("22-1-call-timeout", requirements, MUTANTS, 4);
