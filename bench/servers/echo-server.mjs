// echo-server.mjs：基准测试用的 MCP 服务器，纯 JS，直接 node 运行（测量路径上没有 tsx）。
// 两个工具：echo 原样返回 text；blob 返回 bytes 个字节的多字节文字（见 payload.mjs）。
// 协议部分和 timeserver 一样手写：一行一个 JSON-RPC 消息，stdout 只有协议，通知不回。
import { onLines, respond, whenReady } from "./lines.mjs";

const KNOWN_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
const TOOLS = [
  {
    name: "echo",
    description: "原样返回 text",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  },
  {
    name: "blob",
    description: "返回 bytes 个字节的多字节文字",
    inputSchema: { type: "object", properties: { bytes: { type: "integer" } }, required: ["bytes"] },
  },
];

const send = (msg) => process.stdout.write(JSON.stringify(msg) + "\n");

function handle(line) {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } });
  }
  const id = msg.id;
  if (id === undefined || id === null || typeof msg.method !== "string") return; // 通知和响应：不回
  switch (msg.method) {
    case "initialize": {
      const asked = msg.params?.protocolVersion;
      const protocolVersion = KNOWN_VERSIONS.includes(asked) ? asked : "2024-11-05";
      return send({ jsonrpc: "2.0", id, result: { protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "bench-echo", version: "0.1" } } });
    }
    case "ping":
      return send({ jsonrpc: "2.0", id, result: {} });
    case "tools/list":
      return send({ jsonrpc: "2.0", id, result: { tools: TOOLS } });
    case "tools/call": {
      const name = msg.params?.name;
      if (name === "echo" || name === "blob") return process.stdout.write(respond(id, msg.params.arguments));
      return send({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: `没有这个工具: ${name}` }], isError: true } });
    }
    default:
      return send({ jsonrpc: "2.0", id, error: { code: -32601, message: `没有这个方法: ${msg.method}` } });
  }
}

process.stdout.on("error", () => process.exit(0));
whenReady(() => onLines(process.stdin, handle));
