// 互通：第 22 章手写的客户端，连一个我们没写过、没读过源码的服务器——官方的 filesystem 服务器
// （test 的 devDependency，从 node_modules 启动，不用 npx -y），握手、分页列工具、调用读和写。
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { McpClient } from "../chapters/22-mcp-client/mcp-client.ts";
import { ROOT } from "../shared/scenario.ts";

const entry = path.join(ROOT, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js");

describe("第 22 章的客户端 × 官方 filesystem 服务器", () => {
  let dir: string;
  let client: McpClient;

  before(async () => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "lh-fs-")));
    fs.writeFileSync(path.join(dir, "handbook.md"), "# 项目手册\n\n发布窗口每周四 20:00。\n");
    client = await McpClient.start("fs", { command: process.execPath, args: [entry, dir], env: {} });
  });

  after(async () => {
    await client.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("握手：我们要 2024-11-05，它照这个版本回答，并报上名字", async () => {
    const info = await client.request("initialize", { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "learnharness", version: "0.1" } });
    client.notify("notifications/initialized");
    assert.equal(info.protocolVersion, "2024-11-05");
    assert.equal(info.serverInfo.name, "secure-filesystem-server");
  });

  it("列工具：读、写、列目录都在，每个都带 inputSchema", async () => {
    const { tools } = await client.request("tools/list", {});
    const names = tools.map((t: { name: string }) => t.name);
    for (const name of ["read_text_file", "write_file", "list_directory", "list_allowed_directories"]) assert.ok(names.includes(name), `缺少 ${name}`);
    for (const t of tools) assert.equal(typeof t.inputSchema, "object");
  });

  it("调用：读得到中文内容，写进去的文件真的在磁盘上，越界的路径被它自己拒绝（isError）", async () => {
    const read = await client.request("tools/call", { name: "read_text_file", arguments: { path: path.join(dir, "handbook.md") } });
    assert.match(read.content[0].text, /每周四 20:00/);
    await client.request("tools/call", { name: "write_file", arguments: { path: path.join(dir, "notes.md"), content: "你好，MCP" } });
    assert.equal(fs.readFileSync(path.join(dir, "notes.md"), "utf8"), "你好，MCP");
    const outside = await client.request("tools/call", { name: "read_text_file", arguments: { path: "/etc/hostname" } });
    assert.equal(outside.isError, true);
  });

  it("同时在途的几个请求各拿各的结果", async () => {
    const paths = ["handbook.md", "notes.md", "handbook.md"].map((f) => path.join(dir, f));
    const results = await Promise.all(paths.map((p) => client.request("tools/call", { name: "read_text_file", arguments: { path: p } })));
    assert.match(results[0].content[0].text, /项目手册/);
    assert.equal(results[1].content[0].text, "你好，MCP");
    assert.match(results[2].content[0].text, /项目手册/);
  });
});
