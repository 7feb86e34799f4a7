// 练习 22-6 的变异体：在参考答案的 mcp*.ts 上改一处，正是 HINTS.md 提醒过的错。
// 检查器必须认出每一个，而且是管这件事的那条要求不通过（做法和 test/mutants.test.ts 一样）。
// “探路不设时限”会一直等 silent 答话，要等到 no-answer 场景的时限（40 秒）才判得出来：那个变异体靠场景的时限抓，慢，但不随机器快慢变。
// README、HINTS 里有、这里没有变异体的几句，和原因：
// - “到点不发取消通知”（提示 4）：第 22 章的 McpClient 没有超时、不发 notifications/cancelled，只有叠上 22-1 才走这条路。
// - “不发 ping”（提示 8）：第 22 章的客户端本来就不主动 ping。
// - 答了、却不是 DiscoverResult 的探路（提示 3 的“其余一律是老的”）：场景里的老服务器都答错误或者不答。
// “只有 -32601 才退回”由 two-eras 判：那里探路的时限是一小时，legacy 的 -32602 晚到多久都不会被时限冒充成“退回”。
import { requirements } from "../exercises/22-6-two-eras/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

const MUTANTS: Mutant[] = [
  {
    name: "只有 -32601 才退回 initialize，别的错误当成接不上（提示 3）",
    file: "mcp-client.ts",
    from: 'if (!isObject(rpc) || rpc.code !== -32022 || !isObject(rpc.data) || !Array.isArray(rpc.data.supported)) return { era: "legacy" };',
    to: 'if (isObject(rpc) && rpc.code === -32601) return { era: "legacy" };\n  if (!isObject(rpc) || rpc.code !== -32022 || !isObject(rpc.data) || !Array.isArray(rpc.data.supported)) return { era: "refuse", why: "不认得这个错误" };',
    fails: "老服务器",
    because: /-32602/,
  },
  {
    name: "-32022 之后还是退回 initialize（提示 5）",
    file: "mcp-client.ts",
    from: "if (supported.some((v) => v >= MODERN[0])) {",
    to: "if (supported.length < 0) {",
    fails: "新版的服务器答 -32022",
    because: /收到了 initialize/,
  },
  {
    name: "探路超时就认定是老服务器，initialize 答了 -32022 也不再探（提示 4）",
    file: "mcp-client.ts",
    from: "if (again && answer === undefined && speaksModern(e))",
    to: "if (again && answer === undefined && speaksModern(e) && false)",
    fails: "起得慢的新版服务器",
    because: /slow/,
  },
  {
    name: "定下新版却没记住时代，之后的请求照旧不带 _meta（提示 6）",
    file: "mcp-client.ts",
    from: 'this.era = "modern";',
    to: "this.era = undefined;",
    fails: "新版不握手",
    because: /era 工具/,
  },
  {
    name: "只给 tools/list 加了 _meta，tools/call 漏了（提示 6）",
    file: "mcp-client.ts",
    from: 'if (this.era === "modern") params =',
    to: 'if (this.era === "modern" && method === "tools/list") params =',
    fails: "只说新版的服务器",
    because: /42/,
  },
  {
    name: "没有 resultType 当成错误（提示 7）",
    file: "mcp-client.ts",
    from: '(message.result.resultType ?? "complete")',
    to: "message.result.resultType",
    fails: "resultType：",
    because: /complete/,
  },
  {
    name: "不认得的 resultType 当成普通结果（提示 7）",
    file: "mcp-client.ts",
    from: 'if (type === "complete") waiting.resolve(message.result);',
    to: "if (type) waiting.resolve(message.result);",
    fails: "resultType：",
    because: /input_required/,
  },
  {
    name: "说新版也发 notifications/initialized（提示 8）",
    from: '    else {\n      client.notify("notifications/initialized");',
    to: '    {\n      client.notify("notifications/initialized");',
    fails: "新版不握手",
    because: /notifications\/initialized/,
  },
  {
    name: "认错不设上限：再探的那次还套着探路的时限，没等到又退回 initialize（提示 4：只许再探一次）",
    file: "mcp-client.ts",
    from: "if (again && answer === undefined && speaksModern(e)) return this.open(params, version, false);",
    to: "if (again && answer === undefined && speaksModern(e)) return this.open(params, version, true);",
    fails: "起得慢的新版服务器",
    because: /server\/discover \d+ 次、initialize \d+ 次|slow/,
  },
  {
    name: "探路不设时限，一直等它答（提示 4；要等到场景的时限 40 秒才判得出来）",
    file: "mcp-client.ts",
    from: "...(again ? [new Promise<undefined>",
    to: "...(again && false ? [new Promise<undefined>",
    fails: "没有回音的老服务器",
    because: /silent/,
  },
  {
    name: "_meta 里漏了 clientInfo（README 第 1 条：版本、能力、身份三样）",
    file: "mcp-client.ts",
    from: ", [CLIENT_INFO]: params.clientInfo }",
    to: " }",
    fails: "新版不握手",
    because: /_meta 不全/,
  },
  {
    name: "_meta 里漏了 clientCapabilities（SDK v2 的服务器自己就不收）",
    file: "mcp-client.ts",
    from: "[CLIENT_CAPABILITIES]: params.capabilities ?? {}, ",
    to: "",
    fails: "只说新版的服务器",
    because: /clientCapabilities/,
  },
  {
    name: "探路答了 DiscoverResult 也照旧握手（README 第 2 条）",
    file: "mcp-client.ts",
    from: 'return version ? { era: "modern", version, discover: result } : { era: "legacy" };',
    to: 'return { era: "legacy" };',
    fails: "两个时代都说的服务器",
    because: /dual/,
  },
  {
    name: "-32022 列出了我们会的版本，却不换它再问（提示 5）",
    file: "mcp-client.ts",
    from: 'if (verdict.era === "retry" && retry) return this.open(params, verdict.version, again, false);',
    to: 'if (verdict.era === "retry" && false) return this.open(params, verdict.version, again, false);',
    fails: "新版的服务器答 -32022",
    because: /✗ picky：.*server\/discover 1 次/,
  },
  {
    name: "换版本再问不设上限（提示 5：picky 前五次都答 -32022）",
    file: "mcp-client.ts",
    from: 'if (verdict.era === "retry" && retry) return this.open(params, verdict.version, again, false);',
    to: 'if (verdict.era === "retry") return this.open(params, verdict.version, again, false);',
    fails: "新版的服务器答 -32022",
    because: /✗ picky：.*server\/discover 6 次/,
  },
];

mutantSuite("22-6-two-eras", requirements, MUTANTS, 3);
