// 和别人写的 MCP 实现对接：官方 TypeScript SDK 的客户端连我们的时间服务器；
// 官方 filesystem 服务器能直接从 node_modules 起（第 22 章实验二不必 npx -y 联网下载）。
// 只有测试用这两个包，章节代码和时间服务器都不依赖它们。
import assert from "node:assert/strict";
import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { hangGuard } from "./timeserver-lib.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TSX = import.meta.resolve("tsx");

const children: ChildProcessWithoutNullStreams[] = [];
const tempDirs: string[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function textOf(result: Awaited<ReturnType<Client["callTool"]>>): string {
  const content = result.content as { type: string; text?: string }[];
  assert.equal(content.length, 1);
  assert.equal(content[0]!.type, "text");
  return content[0]!.text!;
}

describe("官方 SDK 客户端 ↔ 我们的时间服务器", () => {
  it("握手、列工具、调两个工具、isError、关闭后进程退出", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", TSX, join(ROOT, "timeserver/main.ts")],
      env: { TIMESERVER_NOW: "2026-08-07T14:03:09+08:00", TZ: "Asia/Shanghai" },
      stderr: "pipe", // 服务器的日志收下来检查，不混进测试输出
    });
    let stderr = "";
    transport.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));

    // 记下 SDK 发出的每条消息、协商出的版本和它报的任何错误（比如 stdout 上有非 JSON 行）
    const sent: JSONRPCMessage[] = [];
    const send = transport.send.bind(transport);
    transport.send = async (msg) => {
      sent.push(msg);
      return send(msg);
    };
    // StdioClientTransport 自己没有 setProtocolVersion（那是给 HTTP 传输用的），Client 握手后有就调——借它看协商结果
    let negotiated: string | undefined;
    (transport as Transport).setProtocolVersion = (v: string) => {
      negotiated = v;
    };
    const errors: Error[] = [];

    const client = new Client({ name: "learnharness-test", version: "0.0.0" });
    client.onerror = (e) => errors.push(e);
    await client.connect(transport);
    const pid = transport.pid;
    assert.ok(pid);

    const init = sent[0] as { id?: unknown; method?: string; params?: { protocolVersion?: string } };
    assert.equal(init.method, "initialize");
    assert.equal(init.id, 0, "SDK 的 id 从 0 数起——id 0 必须当成真 id");
    assert.equal(init.params?.protocolVersion, "2025-11-25", "SDK 要的是最新版本");
    assert.equal(negotiated, "2025-11-25", "我们认识这个版本，原样答复");
    assert.deepEqual(
      sent.map((m) => ("method" in m ? m.method : "?")),
      ["initialize", "notifications/initialized"],
    );
    assert.deepEqual(client.getServerVersion(), { name: "timeserver", version: "0.1" });
    assert.deepEqual(client.getServerCapabilities(), { tools: {} });

    const { tools, nextCursor } = await client.listTools();
    assert.equal(nextCursor, undefined);
    assert.deepEqual(
      tools.map((t) => t.name),
      ["current_time", "days_between"],
    );
    assert.deepEqual(tools[0]!.inputSchema, { type: "object", properties: {} });
    assert.deepEqual(tools[1]!.inputSchema.required, ["start", "end"]);
    assert.deepEqual(Object.keys(tools[1]!.inputSchema.properties ?? {}), ["start", "end"]);

    const now = await client.callTool({ name: "current_time", arguments: {} });
    assert.equal(now.isError, undefined);
    assert.equal(textOf(now), "2026-08-07 14:03:09 星期五");

    const days = await client.callTool({ name: "days_between", arguments: { start: "2026-08-07", end: "2027-01-01" } });
    assert.equal(textOf(days), "147 天");

    const bad = await client.callTool({ name: "days_between", arguments: { start: "2026-08-07", end: "2026-02-30" } });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /end.*YYYY-MM-DD/);

    // 不认识的方法：SDK 把 -32601 变成 McpError 抛出
    await assert.rejects(client.listResources(), (e: Error & { code?: number }) => e.code === -32601);
    await client.ping();

    // SDK 的 close() 先关 stdin，2 秒后还没退出就 SIGTERM。不量它用了多久：我们自己先关 stdin、等进程退出，
    // 看它是读到 EOF 自己以 0 退出的（被信号杀掉的话 signal 不是 null），不和 SDK 的 2 秒赛跑
    const child = (transport as unknown as { _process?: ChildProcess })._process; // SDK 1.32 的私有字段，升级后没了就在这里失败
    assert.ok(child?.stdin, "拿不到 SDK 起的子进程");
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once("exit", (code, signal) => resolve([code, signal])));
    child.stdin.end();
    assert.deepEqual(await hangGuard(exited, "关掉 stdin 以后服务器没有退出"), [0, null], "关掉 stdin 以后，服务器应当自己以 0 退出");
    await client.close();
    assert.equal(isAlive(pid), false, "服务器进程应当已经退出");
    assert.deepEqual(errors, []);
    assert.equal(stderr, "", "正常工作时时间服务器不往 stderr 写东西");
  });
});

describe("官方 filesystem 服务器", () => {
  it("从 node_modules 直接起（不用 npx -y），握手并列出工具", async (t) => {
    // 包里没有 main/exports，入口写在 package.json 的 bin 里
    const pkgUrl = import.meta.resolve("@modelcontextprotocol/server-filesystem/package.json");
    const pkgPath = fileURLToPath(pkgUrl);
    const pkg = JSON.parse(readFileSync(pkgPath, "utf8")) as { version: string; bin: Record<string, string> };
    const entry = join(dirname(pkgPath), pkg.bin["mcp-server-filesystem"]!);
    t.diagnostic(`入口: ${entry}（包版本 ${pkg.version}）`);

    const dir = mkdtempSync(join(tmpdir(), "fs-mcp-"));
    tempDirs.push(dir);
    writeFileSync(join(dir, "handbook.md"), "# 项目手册\n");
    const child = spawn(process.execPath, [entry, dir], { stdio: ["pipe", "pipe", "pipe"] });
    children.push(child);

    let out = "";
    let err = "";
    const lines: string[] = [];
    const waiting: ((line: string) => void)[] = [];
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      let nl: number;
      while ((nl = out.indexOf("\n")) !== -1) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        const w = waiting.shift();
        if (w) w(line);
        else lines.push(line);
      }
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
    const nextLine = () =>
      lines.length > 0
        ? Promise.resolve(lines.shift()!)
        : new Promise<string>((resolve, reject) => {
            // 只防卡死：它是冷启动的 node 进程，两核机器很忙时十几个进程一起冷启动，实测最慢 15.7 秒（test/timeserver.test.ts）
            const timer = setTimeout(() => reject(new Error(`120 秒内没有答复（卡住了）；stderr: ${err}`)), 120_000);
            waiting.push((line) => {
              clearTimeout(timer);
              resolve(line);
            });
          });
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));

    const write = (msg: object) => child.stdin.write(JSON.stringify(msg) + "\n");
    write({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "learnharness", version: "0.1" } },
    });
    const init = JSON.parse(await nextLine());
    assert.equal(init.id, 1);
    assert.equal(init.result.protocolVersion, "2024-11-05");
    assert.equal(typeof init.result.serverInfo.name, "string");
    assert.equal(typeof init.result.serverInfo.version, "string");
    t.diagnostic(`serverInfo: ${init.result.serverInfo.name} v${init.result.serverInfo.version}`);

    write({ jsonrpc: "2.0", method: "notifications/initialized" });
    write({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const list = JSON.parse(await nextLine());
    assert.equal(list.id, 2);
    const names = (list.result.tools as { name: string }[]).map((tool) => tool.name);
    for (const name of ["read_text_file", "list_directory", "list_allowed_directories"]) assert.ok(names.includes(name), name);
    t.diagnostic(`${names.length} 个工具: ${names.join(", ")}`);

    child.stdin.end();
    assert.equal(await hangGuard(exited, "关掉 stdin 以后 filesystem 服务器没有退出"), 0);
  });
});
