// 场景的 servers：开跑之前起好 HTTP 服务器，把它报出的地址填进 mcp.json 的 $URL_<名字>，跑完杀掉它，
// 它之后在 stderr 上说的话接在转录末尾。用一个小小的“实现”（不是哪一章）看清这几件事。
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { runScenario, type ScenarioSpec } from "../shared/scenario.ts";

const HOSTILE = ["$NODE", "--import", "$TSX", "$ROOT/shared/mcp-servers/hostile-http.ts"];

// 读 mcp.json 里的地址，握个手、再 DELETE 这个会话：陪练服务器会在 stderr 上记一行
const IMPL = `import fs from "node:fs";
const url = JSON.parse(fs.readFileSync("mcp.json", "utf8")).mcpServers.h.url;
console.log("地址", url, "端口=" + new URL(url).port);
const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
const init = await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25" } }) });
await init.text();
const done = await fetch(url, { method: "DELETE", headers: { "Mcp-Session-Id": init.headers.get("mcp-session-id") } });
console.log("DELETE", done.status);
`;

describe("场景的 servers", () => {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "lh-servers-")));
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  fs.writeFileSync(path.join(tmp, "main.ts"), IMPL);
  const run = (spec: ScenarioSpec) => runScenario({ chapter: "22-mcp-client", name: "servers", dir: tmp, spec }, tmp);

  it("地址填进 mcp.json，服务器之后说的话接在转录末尾，跑完它就不在了", async () => {
    const result = await run({ servers: { h: HOSTILE }, mcp: { mcpServers: { h: { type: "http", url: "$URL_h/forget/mcp" } } }, turns: [] });
    assert.match(result.transcript, /^地址 http:\/\/127\.0\.0\.1:PORT\/forget\/mcp 端口=\d+\nDELETE 200\nhostile-http: 会话 s1 收到 DELETE，结束\n$/);
    assert.deepEqual(result.leftovers, []);
    const port = result.transcript.match(/端口=(\d+)/)![1];
    await assert.rejects(fetch(`http://127.0.0.1:${port}/forget/mcp`), "跑完了服务器还在听");
  });

  it("服务器没报出地址就退出：场景失败，说清是哪个服务器", async () => {
    await assert.rejects(run({ servers: { mute: ["$NODE", "-e", "process.exit(3)"] }, turns: [] }), /场景的服务器 mute 没有报出地址就退出了/);
  });
});
