// 练习 22-5 的变异体：在参考答案的 http.ts 上改一处，正是 HINTS.md 提醒过的错。
// 检查器必须认出每一个，而且是管这件事的那条要求不通过（做法和 test/mutants.test.ts 一样）。
// 设置被忽略的（startupTimeout、timeout）几秒之内就露馅：slow、stall 5 秒以后才回答，1 秒的时限没守住的客户端等到了它们；
// 没完没了地重来、续传的（gone、cutloop）撞上默认 30 秒的 startupTimeout，警告说的是“超时”而不是 404、续不上（慢，但不随机器快慢变：
// 给它们设成 5 秒试过，test:all 那样忙的机器上参考答案自己的 cutloop 都要五秒多）。
// README、HINTS 里有、这里没有变异体的几句，和原因：
// - “不等 retry 就来续”：服务器只能看出“等得不够久”，一台忙得几百毫秒不给它 CPU 的机器会替它把时间等够，判决就随机器快慢变了。
// - “重新握手不带旧会话号”（提示 4、5）：参考答案有两道——renew() 先清掉会话号，post() 的 inSession 又是 false，改一处不露馅；
//   “initialize 本身不带这两个头”同理：第一次握手时手里还没有会话号和版本。
// - “看到取消通知就掐掉 fetch”（提示 6）：第 22 章的 McpClient 不发取消通知，只有叠上 22-1 的副本才走这条路。
// - “url 要以 http:// 或 https:// 开头”：场景里的地址都是对的，这一条只换来一句不同的警告。
// - “http.ts 自己印的警告也过 safeLine()”（提示 10）：交给它的 log 就是 McpClient 的日志，那里还会显形一次，拿掉这一道看不出来；
//   endless 打头那个夹着 ESC 的坏事件照样查着“不绕过日志、自己往终端写”的答案。
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { it } from "node:test";
import { runRequirements } from "../exercises/checker.ts";
import { requirements } from "../exercises/22-5-remote-http/check.ts";
import { ROOT } from "../shared/scenario.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

const MUTANTS: Mutant[] = [
  {
    name: "mcp.json 里的 headers 没带上（提示 4）",
    file: "http.ts",
    from: "const headers: Record<string, string> = { ...this.config.headers, \"Content-Type\"",
    to: "const headers: Record<string, string> = { \"Content-Type\"",
    fails: "接得上 type 为 http 的服务",
    because: /Authorization/,
  },
  {
    name: "记下了会话号却不带（提示 4）",
    file: "http.ts",
    from: 'if (inSession && this.session !== undefined) headers["Mcp-Session-Id"] = this.session;',
    to: "",
    fails: "守 Streamable HTTP 的会话规矩",
    because: /Mcp-Session-Id/,
  },
  {
    name: "不带 MCP-Protocol-Version 头（提示 4）",
    file: "http.ts",
    from: 'if (inSession && this.version !== undefined) headers["MCP-Protocol-Version"] = this.version;',
    to: "",
    fails: "守 Streamable HTTP 的会话规矩",
    because: /MCP-Protocol-Version/,
  },
  {
    name: "404 不重新握手，直接报错（提示 5）",
    file: "http.ts",
    from: 'if (response.status === 404 && sentWith !== undefined && method !== "initialize") {',
    to: "if (false) {",
    fails: "守 Streamable HTTP 的会话规矩",
    because: /404/,
  },
  {
    name: "404 了就一直重来（提示 5）",
    file: "http.ts",
    from: "if (response.status === 404) throw new TransportError",
    to: "while (response.status === 404) response = await (await this.renew(controller.signal), this.post(body, controller.signal, true));\n        if (false) throw new TransportError",
    fails: "不守规矩的远程服务只换来一行警告",
    because: /gone/,
  },
  {
    name: "不看 Content-Type，什么都当 JSON 读（提示 3）",
    file: "http.ts",
    from: 'if (type === "application/json") {',
    to: 'if (type !== "text/event-stream") {',
    fails: "不守规矩的远程服务只换来一行警告",
    because: /html/,
  },
  {
    name: "SSE 只管一行的上限，整条流不设上限（提示 7）",
    file: "http.ts",
    from: "if (size > max) stream.error(",
    to: "if (size < 0) stream.error(",
    fails: "不守规矩的远程服务只换来一行警告",
    because: /endless/,
  },
  {
    name: "退出时不 DELETE（提示 9）",
    file: "http.ts",
    from: "if (polite && this.session !== undefined) {",
    to: "if (false) {",
    fails: "守 Streamable HTTP 的会话规矩",
    because: /DELETE/,
  },
  {
    name: "跟着跳转走（提示 8）",
    file: "http.ts",
    from: 'return fetch(this.config.url, { method: "POST", headers, body, signal, redirect: "manual" });',
    to: 'return fetch(this.config.url, { method: "POST", headers, body, signal });',
    fails: "不守规矩的远程服务只换来一行警告",
    because: /moved/,
  },
  {
    name: "服务器发来的请求，回答一个个都发出去，在途的不设上限（提示 11）",
    file: "http.ts",
    from: "else if (message.method === undefined && this.replying >= MAX_REPLIES) this.drop();",
    to: "else if (message.method === undefined && this.replying < 0) this.drop();",
    fails: "一口气发两万个 ping 的服务器",
    // 服务器把对 ping 的回答压到 whoami 时才答：它数到的同时在途，就是发出去的全部（几千个），哪台机器上都一样
    because: /同时在途|撞上了场景的时限/,
  },
  {
    name: "data 为空的预备事件当成坏事件警告（提示 11）",
    file: "http.ts",
    from: 'if (data === "") continue;',
    to: "",
    fails: "一口气发两万个 ping 的服务器",
    because: /预备事件/,
  },
  {
    name: "SSE 流断在回答之前就放弃，不续传（提示 12）",
    file: "http.ts",
    from: "body = await this.resume(seen.lastEventId, signal);",
    to: 'throw new TransportError("SSE 流断了");',
    fails: "断在回答之前的 SSE 流用 Last-Event-ID 续上",
    because: /Last-Event-ID/,
  },
  {
    name: "Last-Event-ID 带的是第一个事件的 id，不是最后一个（提示 12）",
    file: "sse.ts",
    from: 'if (!id.includes("\\0")) seen.lastEventId = id;',
    to: 'if (!id.includes("\\0")) seen.lastEventId ??= id;',
    fails: "断在回答之前的 SSE 流用 Last-Event-ID 续上",
    because: /cut-2/,
  },
  {
    name: "续传的 GET 跟着跳转走（提示 8：不只是 POST）",
    file: "http.ts",
    from: 'const response = await fetch(this.config.url, { method: "GET", headers, signal, redirect: "manual" });',
    to: 'const response = await fetch(this.config.url, { method: "GET", headers, signal });',
    fails: "断在回答之前的 SSE 流用 Last-Event-ID 续上",
    because: /跟着跳转来了：GET/,
  },
  {
    name: "收尾的 DELETE 跟着跳转走（提示 8）",
    file: "http.ts",
    from: "signal: AbortSignal.timeout(DELETE_WAIT_MS), redirect: \"manual\" }",
    to: "signal: AbortSignal.timeout(DELETE_WAIT_MS) }",
    fails: "断在回答之前的 SSE 流用 Last-Event-ID 续上",
    because: /跟着跳转来了：DELETE/,
  },
  {
    name: "续传的 GET 不带 mcp.json 的 headers（提示 4）",
    file: "http.ts",
    from: 'const headers: Record<string, string> = { ...this.config.headers, Accept: "text/event-stream", "Last-Event-ID": lastEventId };',
    to: 'const headers: Record<string, string> = { Accept: "text/event-stream", "Last-Event-ID": lastEventId };',
    fails: "断在回答之前的 SSE 流用 Last-Event-ID 续上",
    because: /凭据|X-Api-Key/,
  },
  {
    name: "续传的 GET 不带会话号（提示 12）",
    file: "http.ts",
    from: 'if (this.session !== undefined) headers["Mcp-Session-Id"] = this.session;',
    to: "",
    fails: "断在回答之前的 SSE 流用 Last-Event-ID 续上",
    because: /404/,
  },
  {
    name: "续传的 GET 不带 MCP-Protocol-Version（提示 12）",
    file: "http.ts",
    from: /(?<="Last-Event-ID": lastEventId };\n.*\n)\s*if \(this\.version !== undefined\) headers\["MCP-Protocol-Version"\] = this\.version;/,
    to: "",
    fails: "断在回答之前的 SSE 流用 Last-Event-ID 续上",
    because: /MCP-Protocol-Version/,
  },
  {
    name: "续传的 GET 不带 Accept: text/event-stream（提示 12）",
    file: "http.ts",
    from: 'Accept: "text/event-stream", "Last-Event-ID"',
    to: '"Last-Event-ID"',
    fails: "断在回答之前的 SSE 流用 Last-Event-ID 续上",
    because: /406|Accept/,
  },
  {
    name: "DELETE 不带 mcp.json 的 headers（提示 4：DELETE 也带）",
    file: "http.ts",
    from: 'const headers: Record<string, string> = { ...this.config.headers, "Mcp-Session-Id": this.session };',
    to: 'const headers: Record<string, string> = { "Mcp-Session-Id": this.session };',
    fails: "守 Streamable HTTP 的会话规矩",
    because: /DELETE 没带上initialize 时带的凭据/,
  },
  {
    name: "DELETE 不带 MCP-Protocol-Version（提示 4）",
    file: "http.ts",
    from: /(?<="Mcp-Session-Id": this\.session };\n)\s*if \(this\.version !== undefined\) headers\["MCP-Protocol-Version"\] = this\.version;/,
    to: "",
    fails: "守 Streamable HTTP 的会话规矩",
    because: /DELETE 没带上MCP-Protocol-Version/,
  },
  {
    name: "重新握手的 initialize 自己拼请求，漏了 mcp.json 的 headers（提示 4、5）",
    file: "http.ts",
    from: "const response = await this.post(JSON.stringify({ ...this.initialize, id }), signal, false);",
    to: 'const response = await fetch(this.config.url, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" }, body: JSON.stringify({ ...this.initialize, id }), signal, redirect: "manual" });',
    fails: "守 Streamable HTTP 的会话规矩",
    because: /凭据/,
  },
  {
    name: "重新握手以后不补发 notifications/initialized（提示 5）",
    file: "http.ts",
    from: 'if (this.initialized) await this.tell({ method: "notifications/initialized" }, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));',
    to: "",
    fails: "守 Streamable HTTP 的会话规矩",
    because: /notifications\/initialized/,
  },
  {
    name: "同时撞上 404 的请求各自重新握手（提示 5）",
    file: "http.ts",
    from: "if (this.session === sentWith && !this.renewing) this.renewing = this.renew(",
    to: "this.renewing = this.renew(",
    fails: "守 Streamable HTTP 的会话规矩",
    // 两次重新握手赛跑：要么有一个调用报出第 3 次 initialize，要么它撞上另一个还没补发 initialized 的新会话——哪一种随机器快慢，都是这个错
    because: /只重新握手一次|还没收到 notifications\/initialized/,
  },
  {
    name: "握手也用 timeout，mcp.json 的 startupTimeout 没管上（几秒之内露馅：slow 5 秒后才答）",
    file: "http.ts",
    from: 'const ms = method === "tools/call" ? this.config.timeoutMs : this.config.startupTimeoutMs;',
    to: "const ms = this.config.timeoutMs;",
    fails: "不守规矩的远程服务只换来一行警告",
    because: /✗ slow/,
  },
  {
    name: "工具调用也用 startupTimeout，mcp.json 的 timeout 没管上（几秒之内露馅：stall 5 秒后才答）",
    file: "http.ts",
    from: 'const ms = method === "tools/call" ? this.config.timeoutMs : this.config.startupTimeoutMs;',
    to: "const ms = this.config.startupTimeoutMs;",
    fails: "不守规矩的远程服务只换来一行警告",
    because: /✗ stall/,
  },
  {
    name: "mcp.json 里的 startupTimeout 读了不用，总是默认的 30 秒",
    file: "http.ts",
    from: "const startupTimeoutMs = entry.startupTimeout ?? 30_000;",
    to: "const startupTimeoutMs = 30_000;",
    fails: "不守规矩的远程服务只换来一行警告",
    because: /✗ slow/,
  },
  {
    name: "时限只管到响应头，读响应体不算（提示 6）",
    file: "http.ts",
    from: 'let response = await this.post(body, controller.signal, method !== "initialize");',
    to: 'let response = await this.post(body, controller.signal, method !== "initialize");\n      clearTimeout(timer);',
    fails: "不守规矩的远程服务只换来一行警告",
    because: /✗ stall/,
  },
  {
    name: "比 Content-Type 不去掉 ; charset=…（提示 3）",
    file: "http.ts",
    from: '(response.headers.get("content-type") ?? "").split(";")[0].trim()',
    to: '(response.headers.get("content-type") ?? "").trim()',
    fails: "接得上 type 为 http 的服务",
    because: /✗ forget/,
  },
  {
    name: "Accept 只写 application/json（README：两个都要写）",
    file: "http.ts",
    from: 'Accept: "application/json, text/event-stream" };',
    to: 'Accept: "application/json" };',
    fails: "接得上 type 为 http 的服务",
    because: /✗ forget/,
  },
  {
    name: "不认 \"type\": \"streamable-http\" 这个别名",
    file: "mcp-config.ts",
    from: 'if (type === "http" || type === "streamable-http")',
    to: 'if (type === "http")',
    fails: "接得上 type 为 http 的服务",
    because: /✗ nokey/,
  },
  {
    name: "响应体不数字节，只看 Content-Length（提示 7）",
    file: "http.ts",
    from: "if (size > max) throw tooBig();",
    to: "if (size < 0) throw tooBig();",
    fails: "不守规矩的远程服务只换来一行警告",
    because: /huge 的 80 MiB 全送出去了/,
  },
  {
    name: "续传不设次数上限（提示 12：cutloop 撞上 30 秒的 startupTimeout）",
    file: "http.ts",
    from: "if (fruitless > MAX_RESUMES) throw",
    to: "if (fruitless < 0) throw",
    fails: "不守规矩的远程服务只换来一行警告",
    because: /✗ cutloop/,
  },
  {
    name: "回答里没有这个 id 的响应，就当什么也没发生，干等（提示 2：McpClient 一直等这个 id，握手行一行也印不出来）",
    file: "http.ts",
    from: "if (!answered) throw new TransportError",
    to: "if (!answered) return;\n      if (false) throw new TransportError",
    fails: "不守规矩的远程服务只换来一行警告",
    because: /✗ wrongid/,
  },
  {
    name: "续上的流重新数字节，整条流的上限没把它们算进去（提示 12）",
    file: "http.ts",
    from: "body = await this.resume(seen.lastEventId, signal);",
    to: "size = 0;\n      body = await this.resume(seen.lastEventId, signal);",
    fails: "不守规矩的远程服务只换来一行警告",
    because: /✗ refill/,
  },
  {
    name: "DELETE 不设时限，对方不理就一直等（提示 9：stall 收下 DELETE 就不理；harness 退不了，靠场景的时限 120 秒抓）",
    file: "http.ts",
    from: "signal: AbortSignal.timeout(DELETE_WAIT_MS), ",
    to: "",
    fails: "不守规矩的远程服务只换来一行警告",
    because: /DELETE 最多等一会儿/,
  },
  {
    name: "headers 里用到没设置的变量，不管它、照样去连（README：一行警告、跳过）",
    file: "http.ts",
    from: 'if (typeof config === "string") return config;',
    to: 'if (typeof config === "string") return { url: String(entry.url), headers: headers as Record<string, string>, timeoutMs, startupTimeoutMs, command: String(entry.url), args: [], env: {} } as HttpConfig;',
    fails: "接得上 type 为 http 的服务",
    because: /✗ nokey/,
  },
  {
    name: "SSE 先整条读完再找回答，等服务器自己关流（提示 3；forget 答完不关流，等到 tools/call 的 60 秒 timeout）",
    file: "http.ts",
    from: 'if (type === "text/event-stream" && response.body) return this.events(response.body, id, other, signal);',
    to: 'if (type === "text/event-stream" && response.body) return this.events(new Response(await response.text()).body!, id, other, signal);',
    fails: "守 Streamable HTTP 的会话规矩",
    because: /超时/,
  },
];

mutantSuite("22-5-remote-http", requirements, MUTANTS, 3);

// 读者真遇到过：等重新握手的 Promise 永远不兑现，事件循环空了，harness 一个字也没打印就以退出码 0 结束。
// 检查器先说这件事，再逐个服务器说结论，而不是只怪排在第一个的服务器。真去改答案的话，它是安静地退出还是被别的服务器的计时器拖到超时，
// 要看机器忙不忙；这里直接拿一个什么也不做的 main.ts 当 harness，结论不随机器快慢变
it("harness 什么也没打印就以退出码 0 结束：先说这件事，再逐个服务器说结论", { timeout: 120_000 }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lh-quiet-"));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, "main.ts"), "// 等一个永远不会兑现的 Promise：事件循环空了，Node 就以退出码 0 退出\nvoid new Promise(() => {});\n");
  const hostile = requirements.find((r) => r.scenario === "hostile-http")!;
  const [outcome] = await runRequirements(path.join(ROOT, "exercises", "22-5-remote-http"), [hostile], dir);
  const lines = outcome!.problem!.split("\n");
  assert.equal(lines[0], "harness 什么也没打印就以退出码 0 结束了：多半是某个 Promise 永远不会有结果、事件循环空了，Node 就退出了（比如等一个永远不会来的回答）", outcome!.problem);
  for (const server of ["endless", "gone", "html", "huge", "moved", "slow", "stall"]) assert.ok(lines.some((l) => l.startsWith(`  ✗ ${server}：`)), `没有说 ${server} 的结论：\n${outcome!.problem}`);
});
