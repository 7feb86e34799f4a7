// 互通：第 22 章的客户端（connectMcpServers 和 McpTool，和 harness 用的是同一条路）连三个官方发布的服务器——
// everything、memory、filesystem（devDependencies 里钉着版本，从 node_modules 启动，不联网），
// 把每个不需要网络的工具都调一遍，看交给模型的那段文字是不是如实的：图片、资源、资源链接、结构化结果都说得出是什么。
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { connectMcpServers, type McpConnections } from "../chapters/22-mcp-client/mcp.ts";
import type { Tool } from "../chapters/22-mcp-client/registry.ts";
import { ROOT } from "../shared/scenario.ts";

const entry = (name: string) => path.join(ROOT, "node_modules", "@modelcontextprotocol", name, "dist", "index.js");
// 一个 1×1 的 PNG：read_media_file 要读一张真的图
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

describe("第 22 章的客户端 × 官方发布的 everything、memory、filesystem 服务器", () => {
  let dir: string;
  let mcp: McpConnections;
  const logs: string[] = [];
  const tools = new Map<string, Tool>();
  const call = async (name: string, args: object = {}) => {
    const tool = tools.get(name);
    assert.ok(tool, `没有接入 ${name}；接入的有 ${[...tools.keys()].join("、")}`);
    return tool.execute(JSON.stringify(args));
  };
  const secret = process.env.HARNESS_API_KEY;

  before(async () => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "lh-peers-")));
    fs.mkdirSync(path.join(dir, "docs"));
    fs.writeFileSync(path.join(dir, "docs", "handbook.md"), "# 项目手册\n\n发布窗口每周四 20:00。\n");
    fs.writeFileSync(path.join(dir, "docs", "dot.png"), PNG);
    const servers = {
      everything: { command: process.execPath, args: [entry("server-everything"), "stdio"] },
      memory: { command: process.execPath, args: [entry("server-memory")], env: { MEMORY_FILE_PATH: path.join(dir, "memory.jsonl") } },
      fs: { command: process.execPath, args: [entry("server-filesystem"), path.join(dir, "docs")] },
    };
    fs.writeFileSync(path.join(dir, "mcp.json"), JSON.stringify({ mcpServers: servers }));
    process.env.HARNESS_API_KEY = "sk-不该给服务器看到"; // get-env 会把它看得到的环境变量全报出来
    mcp = await connectMcpServers(dir, [], { log: (line) => logs.push(line) });
    for (const tool of mcp.tools) tools.set(tool.definition().name, tool);
  });

  after(async () => {
    if (secret === undefined) delete process.env.HARNESS_API_KEY;
    else process.env.HARNESS_API_KEY = secret;
    await mcp?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("三个都握手成功；everything 那个只能按任务调用的工具跳过（一行警告），别的都接入", () => {
    for (const server of ["everything", "fs", "memory"]) assert.ok(logs.some((l) => l.startsWith(`[MCP 服务 "${server}" 握手完成：`)), logs.join("\n"));
    assert.ok(logs.some((l) => l.startsWith("警告:") && l.includes("simulate-research-query") && l.includes("taskSupport")), logs.join("\n"));
    assert.ok(!tools.has("mcp__everything__simulate-research-query"));
    assert.equal([...tools.keys()].filter((n) => n.startsWith("mcp__everything__")).length, 12, [...tools.keys()].join("、")); // 13 个里去掉按任务的那个
    assert.equal([...tools.keys()].filter((n) => n.startsWith("mcp__memory__")).length, 9);
    assert.equal([...tools.keys()].filter((n) => n.startsWith("mcp__fs__")).length, 14);
    assert.deepEqual(logs.filter((l) => l.startsWith("警告:")).length, 1, logs.join("\n"));
  });

  describe("everything：每种内容都变成如实的一行字", () => {
    it("echo、get-sum：文字原样", async () => {
      assert.match(await call("mcp__everything__echo", { message: "你好，MCP" }), /你好，MCP/);
      assert.match(await call("mcp__everything__get-sum", { a: 2, b: 40 }), /42/);
    });

    it("get-tiny-image、带图的 get-annotated-message：图片说出类型和字节数，不是“未处理的内容类型”", async () => {
      const image = await call("mcp__everything__get-tiny-image");
      assert.match(image, /\[图片 image\/png，\d+ 字节/);
      assert.doesNotMatch(image, /未处理/);
      const annotated = await call("mcp__everything__get-annotated-message", { messageType: "success", includeImage: true });
      assert.match(annotated, /\[图片 image\/png，\d+ 字节/);
      assert.match(await call("mcp__everything__get-annotated-message", { messageType: "error" }), /\S/);
    });

    it("get-resource-links：每个链接说出名字和 URI", async () => {
      const links = await call("mcp__everything__get-resource-links", { count: 2 });
      assert.equal(links.match(/\[资源链接 "[^"]+"：\S+:\/\/\S+\]/g)?.length, 2, links);
    });

    it("get-resource-reference：文本资源带着 URI 和正文，二进制资源说出类型和字节数", async () => {
      assert.match(await call("mcp__everything__get-resource-reference", { resourceType: "Text", resourceId: 1 }), /\[资源 \S+:\/\/\S+\]\n\S/);
      assert.match(await call("mcp__everything__get-resource-reference", { resourceType: "Blob", resourceId: 2 }), /\[资源 \S+：二进制 \S+，\d+ 字节/);
    });

    it("get-structured-content：结果交给模型的不是空串", async () => {
      assert.match(await call("mcp__everything__get-structured-content", { location: "Chicago" }), /\d/);
    });

    it("gzip-file-as-resource（data: URI，不联网）：压缩结果是一个资源", async () => {
      const data = `data:text/plain;base64,${Buffer.from("发布窗口每周四 20:00").toString("base64")}`;
      assert.match(await call("mcp__everything__gzip-file-as-resource", { name: "notes.txt.gz", data, outputType: "resource" }), /\[资源 \S+/);
      assert.match(await call("mcp__everything__gzip-file-as-resource", { name: "notes2.txt.gz", data, outputType: "resourceLink" }), /\[资源链接 /);
    });

    it("get-env：服务器看不到 harness 的 API 密钥", async () => {
      const env = await call("mcp__everything__get-env");
      assert.match(env, /PATH/);
      assert.doesNotMatch(env, /HARNESS_API_KEY|不该给服务器看到/);
    });

    it("两个开关和一个长操作：它开着开关往我们这儿发通知时，调用照常", async () => {
      for (const name of ["toggle-simulated-logging", "toggle-subscriber-updates"]) assert.match(await call(`mcp__everything__${name}`), /\S/);
      assert.match(await call("mcp__everything__trigger-long-running-operation", { duration: 0.2, steps: 2 }), /\S/);
      assert.match(await call("mcp__everything__echo", { message: "还在" }), /还在/);
      for (const name of ["toggle-simulated-logging", "toggle-subscriber-updates"]) assert.match(await call(`mcp__everything__${name}`), /\S/);
    });
  });

  describe("memory：九个工具走一遍知识图谱的一生", () => {
    it("建实体、建关系、加观察、读图、搜索、打开、删观察、删关系、删实体", async () => {
      await call("mcp__memory__create_entities", { entities: [{ name: "发布窗口", entityType: "日程", observations: ["每周四"] }, { name: "小王", entityType: "人", observations: [] }] });
      await call("mcp__memory__create_relations", { relations: [{ from: "小王", to: "发布窗口", relationType: "负责" }] });
      await call("mcp__memory__add_observations", { observations: [{ entityName: "发布窗口", contents: ["20:00 开始"] }] });
      const graph = await call("mcp__memory__read_graph");
      for (const word of ["发布窗口", "小王", "负责", "20:00 开始"]) assert.ok(graph.includes(word), graph);
      assert.match(await call("mcp__memory__search_nodes", { query: "发布" }), /发布窗口/);
      assert.match(await call("mcp__memory__open_nodes", { names: ["小王"] }), /小王/);
      await call("mcp__memory__delete_observations", { deletions: [{ entityName: "发布窗口", observations: ["每周四"] }] });
      await call("mcp__memory__delete_relations", { relations: [{ from: "小王", to: "发布窗口", relationType: "负责" }] });
      await call("mcp__memory__delete_entities", { entityNames: ["小王", "发布窗口"] });
      assert.doesNotMatch(await call("mcp__memory__read_graph"), /发布窗口|小王/);
      assert.ok(fs.existsSync(path.join(dir, "memory.jsonl")), "图谱存在 MEMORY_FILE_PATH 指定的地方");
    });
  });

  describe("filesystem：十四个工具", () => {
    const docs = () => path.join(dir, "docs");
    it("读：read_file、read_text_file、read_multiple_files 读出中文；read_media_file 的图说出类型和字节数，base64 一个字也不交给模型", async () => {
      assert.match(await call("mcp__fs__read_file", { path: path.join(docs(), "handbook.md") }), /每周四 20:00/);
      assert.match(await call("mcp__fs__read_text_file", { path: path.join(docs(), "handbook.md") }), /每周四 20:00/);
      assert.match(await call("mcp__fs__read_multiple_files", { paths: [path.join(docs(), "handbook.md")] }), /项目手册/);
      // 它把图在 structuredContent 里再抄一遍：整段结果里都不能有图的 base64，第一行之后也不行
      const media = await call("mcp__fs__read_media_file", { path: path.join(docs(), "dot.png") });
      assert.match(media, new RegExp(`\\[图片 image/png，${PNG.length} 字节`));
      assert.ok(!media.includes(PNG.toString("base64").slice(0, 16)), media);
    });

    it("写：write_file、edit_file、create_directory、move_file 真的改了磁盘", async () => {
      await call("mcp__fs__write_file", { path: path.join(docs(), "notes.md"), content: "你好，MCP\n" });
      await call("mcp__fs__edit_file", { path: path.join(docs(), "notes.md"), edits: [{ oldText: "你好", newText: "再见" }] });
      await call("mcp__fs__create_directory", { path: path.join(docs(), "archive") });
      await call("mcp__fs__move_file", { source: path.join(docs(), "notes.md"), destination: path.join(docs(), "archive", "notes.md") });
      assert.equal(fs.readFileSync(path.join(docs(), "archive", "notes.md"), "utf8"), "再见，MCP\n");
    });

    it("看：list_directory、list_directory_with_sizes、directory_tree、search_files、get_file_info、list_allowed_directories", async () => {
      assert.match(await call("mcp__fs__list_directory", { path: docs() }), /handbook\.md/);
      assert.match(await call("mcp__fs__list_directory_with_sizes", { path: docs() }), /handbook\.md/);
      assert.match(await call("mcp__fs__directory_tree", { path: docs() }), /archive/);
      assert.match(await call("mcp__fs__search_files", { path: docs(), pattern: "**/notes.md" }), /notes\.md/);
      assert.match(await call("mcp__fs__get_file_info", { path: path.join(docs(), "handbook.md") }), /size/);
      assert.match(await call("mcp__fs__list_allowed_directories"), new RegExp(docs().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    });

    it("越界的路径由服务器自己拒绝：结果是“错误: 工具执行失败”，下一次调用照常", async () => {
      assert.match(await call("mcp__fs__read_text_file", { path: "/etc/hostname" }), /^错误: 工具执行失败/);
      assert.match(await call("mcp__fs__list_allowed_directories"), /docs/);
    });
  });
});
