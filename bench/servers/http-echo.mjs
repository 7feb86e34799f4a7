// http-echo.mjs：基准测试用的 Streamable HTTP 服务器，纯 JS，直接 node 运行。
// POST /mcp：initialize 给一个会话号，tools/call 的 echo 原样返回 text，JSON 回答；通知答 202；DELETE 结束会话。
// 服务器对每个请求做的事一样多（读完请求体、JSON.parse、拼回答），所以同一个地址也给“裸 HTTP”当参照。
// 启动后在 stderr 上报地址。
import http from "node:http";

const TOOLS = [{ name: "echo", description: "原样返回 text", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }];
const sessions = new Set();
let next = 0;

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    if (req.method === "DELETE") {
      sessions.delete(req.headers["mcp-session-id"]);
      return res.writeHead(200).end();
    }
    const msg = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    if (msg.id === undefined) return res.writeHead(202).end();
    const headers = { "Content-Type": "application/json" };
    let result;
    if (msg.method === "initialize") {
      const id = `s${++next}`;
      sessions.add(id);
      headers["Mcp-Session-Id"] = id;
      result = { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "http-echo", version: "1" } };
    } else if (msg.method === "tools/list") result = { tools: TOOLS };
    else if (msg.method === "tools/call") result = { content: [{ type: "text", text: msg.params.arguments.text }] };
    else result = {};
    res.writeHead(200, headers).end(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result }));
  });
});

server.listen(0, "127.0.0.1", () => process.stderr.write(`http-echo: http://127.0.0.1:${server.address().port}/mcp\n`));
