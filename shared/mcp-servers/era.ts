// 两个时代的 MCP 服务器（练习 22-6 的陪练）：同一套工具，按模式说不同时代的协议。用法：era.ts <模式>
//   modern   官方 SDK v2 的 serveStdio(…, { legacy: "reject" })：只说 2026-07-28，initialize 答 -32022
//   dual     官方 SDK v2 的 serveStdio(…)（默认）：两个时代都说，看客户端怎么开口
//   slow     和 modern 一样，可像起得很慢的服务器：收到的消息先攒着，等客户端不耐烦、发来 initialize 才按顺序处理
//            （于是 server/discover 的回答迟到了，SDK 对 initialize 的 -32022 还抢在它前面）。先后靠构造，不靠睡多久。
//            醒了以后它答 server/discover 也慢（SLOW_DISCOVER_MS）：再探的那次还套着探路时限（场景里 1 毫秒）的客户端一定等不到，
//            又退回 initialize；第三次 initialize 它不再答 -32022，只答一个普通的错误，说这是第几次——认错没有上限的客户端当场露馅，不会转到场景的时限
//   legacy   官方 SDK v1 的 Server：只会 initialize 握手；握手前的陌生请求答 -32602（不是常见的 -32601）
//   silent   同上，但握手前的陌生请求永远不答
//   future   只说一个还没有的新版 2027-01-01（手写的，SDK 造不出来）：什么请求都答 -32022，收到的方法记在 stderr 上
//   picky    也是手写的：前五次 server/discover 都答 -32022，data.supported 却正是 ["2026-07-28"]（一致性套件就这样试客户端），
//            第六次起改说只支持 2027-01-01。收到的方法一行一个记在工作目录的 era-picky.log 里（不写 stderr：和 future 的日志谁先谁后
//            随机器而变），场景跑完再看：换版本再问一次的客户端，正好问两次就该放弃
// 工具：add（a + b）、era（这条连接说的是哪个时代，modern、dual、slow 还报收到过几次 server/discover、initialize、
// notifications/initialized、ping，几个请求的 _meta 不全——协议版本、客户端能力、身份少一样都算）；这三种另有 plain 和 confirm：
// 它们的结果在发出前被这里改过——plain 去掉 resultType（像更早的服务器那样），confirm 改成 resultType 为
// "input_required" 的结果（2026-07-28 的服务器要客户端补充输入时就这样答），还夹着一句像是做完了的 content。依赖都在 devDependencies 里，不联网。
//   listen   前五种（用 SDK 的）都在这一个进程里，按连接服务：在 stderr 上报出 tcp://127.0.0.1:端口，每个连接先发一行模式名，
//            之后就是那个模式的 stdio 协议；mcp.json 里写 relay.ts。为什么：检查的是探路的时限，而起一个 SDK 服务器要几百毫秒 CPU，
//            忙的机器上七个一起起，老服务器的回答会晚过时限——那样测的是机器有多忙，不是读者的代码。场景提前起好它（servers），
//            harness 起的只是几乎不花时间的 relay
import fs from "node:fs";
import net from "node:net";
import type { Readable, Writable } from "node:stream";

const mode = process.argv[2] ?? "";
const TOOLS = [
  { name: "add", description: "两数相加", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } },
  { name: "era", description: "这条连接说的是哪个时代的协议", inputSchema: { type: "object", properties: {} } },
];
const sum = (args: any) => ({ content: [{ type: "text", text: `${args?.a} + ${args?.b} = ${Number(args?.a) + Number(args?.b)}` }] });
const text = (t: string) => ({ content: [{ type: "text", text: t }] });

const SDK_MODES = ["modern", "dual", "slow", "legacy", "silent"];
const SLOW_DISCOVER_MS = 200; // slow 醒了以后答 server/discover 要这么久：远过场景里 1 毫秒的探路时限
if (mode === "listen") listen();
else if (SDK_MODES.includes(mode)) await serve(mode, process.stdin, process.stdout);
else if (mode === "future") future();
else if (mode === "picky") future("picky");
else {
  console.error(`era: 不认得的模式 ${JSON.stringify(mode)}`);
  process.exit(2);
}

// 一条连接（stdin/stdout，或者 listen 的一个 socket）上起一个这个模式的服务器。开始读以后才让 input 流动，一个字节都不丢
function serve(mode: string, input: Readable, output: Writable): Promise<void> {
  if (mode === "legacy" || mode === "silent") return legacy(mode, input, output);
  return modern(mode, input, output);
}

function listen() {
  const server = net.createServer((socket) => {
    socket.on("error", () => {}); // relay 被杀掉时连接会被重置：这条连接结束就是了
    let head = Buffer.alloc(0);
    const first = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const at = head.indexOf(10);
      if (at < 0) return;
      socket.off("data", first);
      socket.pause();
      if (at + 1 < head.length) socket.unshift(head.subarray(at + 1));
      const which = head.subarray(0, at).toString();
      if (SDK_MODES.includes(which)) void serve(which, socket, socket);
      else socket.destroy();
    };
    socket.on("data", first);
  });
  server.listen(0, "127.0.0.1", () => console.error(`era: 在 tcp://127.0.0.1:${(server.address() as net.AddressInfo).port} 上听（每个连接先说模式名）`));
}

async function modern(mode: string, input: Readable, output: Writable) {
  const [only, slow] = [mode !== "dual", mode === "slow"];
  const { McpServer, fromJsonSchema } = await import("@modelcontextprotocol/server");
  const { serveStdio, StdioServerTransport } = await import("@modelcontextprotocol/server/stdio");
  const seen: Record<string, number> = { "server/discover": 0, initialize: 0, "notifications/initialized": 0, ping: 0 };
  let bare = 0; // _meta 不全（协议版本、客户端能力、身份少了哪一样）的请求
  const bend = new Map<unknown, string>(); // 请求 id → 要改它结果的工具名
  const inner = new StdioServerTransport(input, output);
  input.once("close", () => void inner.close());
  const outer: any = {
    start: async () => {
      await inner.start();
      input.resume();
    },
    close: () => inner.close(),
    send: (message: any) => {
      const tool = "id" in message && "result" in message ? bend.get(message.id) : undefined;
      if (tool === "plain") delete message.result.resultType;
      if (tool === "confirm") {
        // 多带一个 content：不认得的 resultType 要当作无效（规范原话），哪怕它看起来像一个普通结果
        message.result = {
          resultType: "input_required",
          content: [{ type: "text", text: "已经删掉了" }],
          inputRequests: { confirm: { method: "elicitation/create", params: { message: "真的要删吗？", requestedSchema: { type: "object", properties: { yes: { type: "boolean" } } } } } },
        };
      }
      return inner.send(message);
    },
  };
  let awake = !slow; // slow：客户端发来 initialize 之前它“还没起来”，收到的先攒着，醒了再按原来的顺序处理
  const held: any[] = [];
  inner.onmessage = (message: any) => {
    if (!awake && message.method !== "initialize") return void held.push(message);
    if (slow && awake && message.method === "server/discover") return void setTimeout(() => deliver(message), SLOW_DISCOVER_MS);
    if (slow && message.method === "initialize" && seen.initialize >= 2) {
      seen.initialize++;
      return void inner.send({ jsonrpc: "2.0", id: message.id, error: { code: -32600, message: `这已经是第 ${seen.initialize} 次 initialize 了：探路、握手来回转，没完没了` } });
    }
    if (!awake) {
      awake = true;
      held.splice(0).forEach(deliver);
    }
    deliver(message);
  };
  const deliver = (message: any) => {
    if (typeof message.method === "string") {
      if (message.method in seen) seen[message.method]++;
      const meta = message.params?._meta;
      if (message.id !== undefined && !["protocolVersion", "clientCapabilities", "clientInfo"].every((k) => meta?.[`io.modelcontextprotocol/${k}`] !== undefined)) bare++;
      if (message.method === "tools/call" && ["plain", "confirm"].includes(message.params?.name)) bend.set(message.id, message.params.name);
    }
    outer.onmessage?.(message);
  };
  inner.onclose = () => outer.onclose?.();
  inner.onerror = (e: Error) => outer.onerror?.(e);
  const report = (era: string) => `本连接：${era === "modern" ? "新版 2026-07-28" : "旧版（initialize 握手）"}；收到 ${Object.entries(seen).map(([m, n]) => `${m} ${n} 次`).join("、")}；_meta 不全的请求 ${bare} 个`;
  serveStdio(
    ({ era }) => {
      const server = new McpServer({ name: `era-${mode}`, version: "2.4.0" }, { capabilities: { tools: {} } });
      const none = fromJsonSchema({ type: "object", properties: {} });
      server.registerTool("add", { description: TOOLS[0].description, inputSchema: fromJsonSchema(TOOLS[0].inputSchema as any) }, async (args) => sum(args) as any);
      server.registerTool("era", { description: TOOLS[1].description, inputSchema: none }, async () => text(report(era)) as any);
      server.registerTool("plain", { description: "普通的一段文字（结果里的 resultType 会被去掉）", inputSchema: none }, async () => text("没有 resultType 也是完整的结果") as any);
      server.registerTool("confirm", { description: "删之前要用户确认（结果会改成 input_required）", inputSchema: none }, async () => text("（不会发出）") as any);
      return server;
    },
    { legacy: only ? "reject" : "serve", transport: outer, onerror: () => {} },
  );
}

async function legacy(mode: string, input: Readable, output: Writable) {
  const silent = mode === "silent";
  const { Server } = await import("@modelcontextprotocol/sdk/server/index.js");
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  const { CallToolRequestSchema, ListToolsRequestSchema, McpError } = await import("@modelcontextprotocol/sdk/types.js");
  const server = new Server({ name: `era-${mode}`, version: "1.32.2" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS as any }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    if (request.params.name === "add") return sum(request.params.arguments) as any;
    if (request.params.name === "era") return text(`本连接：旧版（initialize 握手），客户端是 ${server.getClientVersion()?.name ?? "?"}`) as any;
    throw new McpError(-32602, `没有这个工具：${request.params.name}`);
  });
  // 握手前的 server/discover 落到这里：老服务器各有各的答法，规范只说“常见的是 -32601 或 -32602，或者不答”
  server.fallbackRequestHandler = silent
    ? () => new Promise(() => {})
    : async (request) => {
        throw new McpError(-32602, `不认得的请求 ${request.method}`);
      };
  const transport = new StdioServerTransport(input, output);
  input.once("close", () => void transport.close());
  await server.connect(transport);
  input.resume();
}

function future(who = "future") {
  const VERSION = "2027-01-01";
  let discovers = 0;
  let buffer = "";
  process.stdin.on("data", (chunk) => {
    buffer += chunk;
    let at: number;
    while ((at = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      let message: any;
      try {
        message = JSON.parse(line);
      } catch {
        continue;
      }
      if (typeof message?.method !== "string") continue;
      const nth = message.method === "server/discover" ? ++discovers : 0;
      if (who === "picky") fs.appendFileSync("era-picky.log", `${message.method}\n`);
      else console.error(`era future: 收到 ${message.method}`);
      if (message.id === undefined) continue;
      const requested = message.params?._meta?.["io.modelcontextprotocol/protocolVersion"] ?? message.params?.protocolVersion;
      const supported = who === "picky" && nth > 0 && nth <= 5 ? "2026-07-28" : VERSION;
      const error = { code: -32022, message: `Unsupported protocol version: ${requested}`, data: { supported: [supported], ...(requested ? { requested } : {}) } };
      process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, error }) + "\n");
    }
  });
}
