// 官方 SDK 的客户端连我们的时间服务器，两个时代、两种传输：
// SDK v2（@modelcontextprotocol/client 2.4.0）钉在 2026-07-28、默认的 legacy；SDK v1（1.32.2）走 HTTP。
// stdio 上的 SDK v1 在 interop-sdk.test.ts 里。只有测试用这些包，时间服务器不依赖它们。
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpTransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { hangGuard, HttpTimeserver, killHttpTimeservers, NOW_SHANGHAI } from "./timeserver-lib.ts";

const TIMESERVER = fileURLToPath(new URL("../timeserver/main.ts", import.meta.url));
const TSX = import.meta.resolve("tsx");
const ENV = { TIMESERVER_NOW: NOW_SHANGHAI, TZ: "Asia/Shanghai" };
after(killHttpTimeservers);

type AnyClient = Pick<Client, "listTools" | "callTool" | "close">;

// 两个工具各调一次；两个时代的答案一样，只是 modern 的结果在 _meta 里多报一个 serverInfo
async function useBothTools(client: AnyClient, modern: boolean): Promise<void> {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name), ["current_time", "days_between"]);
  const serverInfo = modern ? { _meta: { "io.modelcontextprotocol/serverInfo": { name: "timeserver", version: "0.1" } } } : {};
  const now = await client.callTool({ name: "current_time", arguments: {} });
  assert.deepEqual(now, { content: [{ type: "text", text: "2026-08-07 14:03:09 星期五" }], ...serverInfo });
  const days = await client.callTool({ name: "days_between", arguments: { start: "2026-08-07", end: "2027-01-01" } });
  assert.deepEqual(days, { content: [{ type: "text", text: "147 天" }], ...serverInfo });
}

const stdio = () => new StdioClientTransport({ command: process.execPath, args: ["--import", TSX, TIMESERVER], env: ENV, stderr: "pipe" });

const MODES = [
  { name: "钉在 2026-07-28", options: { versionNegotiation: { mode: { pin: "2026-07-28" } } }, version: "2026-07-28" },
  { name: "默认（legacy，initialize 要 2025-11-25）", options: {}, version: "2025-11-25" },
] as const;

describe("SDK v2 客户端 ↔ 时间服务器", () => {
  const http = new HttpTimeserver(ENV);
  for (const mode of MODES) {
    for (const transport of ["stdio", "HTTP"] as const) {
      it(`${mode.name}，${transport}：协商出 ${mode.version}，列工具、调两个工具`, async () => {
        const client = new Client({ name: "learnharness-test", version: "0.0.0" }, mode.options);
        const errors: Error[] = [];
        client.onerror = (e) => errors.push(e);
        const wire = transport === "stdio" ? stdio() : new StreamableHTTPClientTransport(new URL(await http.url));
        await hangGuard(client.connect(wire), "连接");
        try {
          assert.equal(client.getNegotiatedProtocolVersion(), mode.version);
          assert.deepEqual(client.getServerVersion(), { name: "timeserver", version: "0.1" });
          assert.deepEqual(client.getServerCapabilities(), { tools: {} });
          if (mode.version === "2026-07-28") assert.ok(client.getDiscoverResult()?.supportedVersions.includes("2025-11-25"));
          await hangGuard(useBothTools(client, mode.version === "2026-07-28"), "调工具");
        } finally {
          await client.close();
        }
        assert.deepEqual(errors.map((e) => e.message), []);
      });
    }
  }
});

describe("SDK v1 客户端 ↔ 时间服务器（HTTP）", () => {
  it("握手拿会话（2025-11-25）、列工具、调两个工具，关闭时 DELETE 结束会话", async () => {
    const server = new HttpTimeserver(ENV);
    const transport = new HttpTransportV1(new URL(await server.url));
    const client = new ClientV1({ name: "learnharness-test", version: "0.0.0" });
    await hangGuard(client.connect(transport), "连接");
    const sid = transport.sessionId;
    assert.ok(sid);
    await hangGuard(useBothTools(client as unknown as AnyClient, false), "调工具");
    await transport.terminateSession(); // DELETE /mcp
    const after = await fetch(await server.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Session-Id": sid },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    assert.equal(after.status, 404, "DELETE 之后会话没了");
    await client.close();
  });
});
