// 第 22 章：服务器先往 stderr 写一行日志、再在 stdout 上答复，两根管道在同一轮事件循环里都可读、stdout 又排在前头时，
// 屏幕上的先后仍要和服务器写它们的先后一致——日志印在握手行之前。
// stdout 的消息是当场处理的（热路径，见 bench/README.md），顺序靠的是“据答复印字之前先等一拍”，这里把它逼出来。
// 先后靠构造，不靠睡：服务器答 tools/list 之前先在 stdout 上写一行怪话；客户端印这行警告时同步地停住，
// 等服务器写完 stderr 的日志和 tools/list 的答复才放行。这时 stdout 刚被 epoll 报过一次、排在可读队列的前头，
// 下一轮两根管道一起可读、stdout 先处理——少了那一拍，握手行就印在日志前面。
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { CHAPTERS } from "../shared/scenario.ts";

const SERVER = `
import fs from "node:fs";
const [go, done] = process.argv.slice(2);
const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
let buf = "";
process.stdin.on("data", (d) => {
  buf += d;
  for (let i; (i = buf.indexOf("\\n")) >= 0; buf = buf.slice(i + 1)) handle(JSON.parse(buf.slice(0, i)));
});
function handle(m) {
  if (m.method === "initialize") send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2024-11-05", capabilities: { tools: {} }, serverInfo: { name: "order", version: "1" } } });
  if (m.method !== "tools/list") return;
  process.stdout.write("这一行不是 JSON\\n");
  const poll = setInterval(() => {
    if (!fs.existsSync(go)) return;
    clearInterval(poll);
    process.stderr.write("先写的日志\\n");
    send({ jsonrpc: "2.0", id: m.id, result: { tools: [] } });
    fs.writeFileSync(done, "");
  }, 5);
}
`;

describe("第 22 章：服务器的日志和答复同一轮到达", () => {
  it("日志先印，握手行在后", { timeout: 60_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lh-mcp-order-"));
    const [server, go, done] = ["server.mjs", "go", "done"].map((f) => path.join(dir, f));
    fs.writeFileSync(server, SERVER);
    fs.writeFileSync(path.join(dir, "mcp.json"), JSON.stringify({ mcpServers: { order: { command: process.execPath, args: [server, go, done] } } }));
    const { connectMcpServers } = await import(pathToFileURL(path.join(CHAPTERS, "22-mcp-client", "mcp.ts")).href);
    const logged: string[] = [];
    const sleeper = new Int32Array(new SharedArrayBuffer(4));
    const log = (line: string) => {
      logged.push(line);
      if (!line.includes("不是 JSON")) return;
      fs.writeFileSync(go, "");
      // 同步地等，不让事件循环转：每次都重查条件，最多 30 秒（卡死保护）
      for (let i = 0; i < 3000 && !fs.existsSync(done); i++) Atomics.wait(sleeper, 0, 0, 10); // clock-ok: 每次都重查条件的轮询，只防卡死
    };
    const connections = await connectMcpServers(dir, [], { log });
    await connections.close();
    fs.rmSync(dir, { recursive: true, force: true });
    const at = (text: string) => logged.findIndex((l) => l.includes(text));
    assert.ok(at("先写的日志") >= 0 && at("握手完成") >= 0, logged.join("\n"));
    assert.ok(at("先写的日志") < at("握手完成"), `日志应该印在握手行之前：\n${logged.join("\n")}`);
  });
});
