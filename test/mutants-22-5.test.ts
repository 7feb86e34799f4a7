// 练习 22-5 的变异体：在参考答案的 http.ts 上改一处，正是 HINTS.md 提醒过的错。
// 检查器必须认出每一个，而且是管这件事的那条要求不通过（做法和 test/mutants.test.ts 一样）。
// 没有“响应头不来就一直等”的变异体：它要等到场景超时（120 秒）才判得出来；时限本身由 slow 那一行警告查着。
// 没有“不等 retry 就来续”的：服务器只能看出“等得不够久”，一台忙得几百毫秒不给它 CPU 的机器会替它把时间等够，判决就随机器快慢变了。
// 也没有“响应体不数字节”的：huge 的 80 MiB 收下以后，还有 McpClient 一行 64 MiB 的上限挡着（照样是一行带 MiB 的警告）；
// 要让它露馅，得有一个永远写不完的响应体，把内存一直吃下去——不在一台大家共用的机器上这样试
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
