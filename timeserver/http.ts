// Streamable HTTP 传输：一个端点 /mcp，客户端每条消息 POST 一次，
// 请求的答复放在 HTTP 响应里（application/json；客户端只收 SSE 时，就用一个事件装着它），通知和响应答 202。
// 这个服务器从不主动给客户端发消息，所以没有 GET 那条服务器→客户端的流（405），也不需要断点续传。
// 两个时代在同一个端点上：legacy（2025-11-25 及以前）先 initialize、拿会话 id；
// modern（2026-07-28）没有会话，每个请求的 _meta 写明版本，请求头里再抄一份（MCP-Protocol-Version、Mcp-Method、Mcp-Name），
// 好让路上的网关不解析请求体也能路由——所以服务器必须核对头和体说的是同一件事。
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { answer, envelopeShapeError, errorReply, isModern, isObject, KNOWN_VERSIONS, MODERN_VERSIONS, VERSION_KEY, versionError, type Message } from "./protocol.ts";

const ENDPOINT = "/mcp";
// 请求体最长 1 MiB：两个工具的参数只有两个日期，再大就是来捣乱的（413）
const MAX_BODY = 1024 * 1024;
// 会话最多记这么多个，满了丢最老的（Map 按插入顺序）：被丢的客户端收到 404，重新 initialize 就好。
// 不设上限的话，一个不停 initialize 的客户端能让我们一直长内存
const MAX_SESSIONS = 256;
// 慢客户端占不住连接：请求头 5 秒内要到齐，整个请求（连同请求体）10 秒内要收完，否则 Node 答 408 并断开
const HEADERS_TIMEOUT_MS = 5_000;
const REQUEST_TIMEOUT_MS = 10_000;

const sessions = new Map<string, string>(); // Mcp-Session-Id → 这个会话协商出的协议版本

// DNS 重绑定：恶意网页把自己的域名解析到 127.0.0.1，浏览器就会替它来敲本机的端口。
// 浏览器发的请求总带着网页的 Origin，所以只放行本机的 Origin；没有 Origin 的（命令行、SDK）不是浏览器，放行
function localOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === "http:" || url.protocol === "https:") && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  } catch {
    return false; // 包括 "null"（沙箱里的页面、file://）
  }
}

// Host 也查一遍：重绑定后的请求 Host 是攻击者的域名。绑在 127.0.0.1 上，正经的客户端写的只会是本机的名字
function localHost(host: string): boolean {
  return localOrigin(`http://${host}`);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === "string" ? value : undefined;
}

// 答复用什么格式：没写 Accept 或者收 JSON 就用 JSON；只收 SSE 就用 SSE；都不收是 406
function format(accept: string | undefined): "json" | "sse" | undefined {
  if (accept === undefined) return "json";
  const types = accept.split(",").map((t) => t.split(";")[0]!.trim().toLowerCase());
  if (types.some((t) => t === "application/json" || t === "application/*" || t === "*/*")) return "json";
  return types.includes("text/event-stream") ? "sse" : undefined;
}

function send(res: ServerResponse, status: number, body?: Message, headers: Record<string, string> = {}): void {
  if (body === undefined) {
    res.writeHead(status, headers).end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(text)), ...headers }).end(text);
}

// 协议之外的拒绝（HTTP 状态码说了算）也带一个 JSON-RPC 错误体，客户端能把原因显示出来
function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  send(res, status, errorReply(null, -32000, message), headers);
}

type Body = { text: string } | "too-big" | "gone";

function readBody(req: IncomingMessage): Promise<Body> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        req.removeAllListeners("data");
        return resolve("too-big");
      }
      parts.push(chunk);
    });
    req.on("end", () => resolve({ text: Buffer.concat(parts).toString("utf8") }));
    req.on("close", () => resolve("gone")); // 客户端半路走了；已经 resolve 过的话这一句不起作用
    req.on("error", () => resolve("gone"));
  });
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const origin = header(req, "origin");
  if (origin !== undefined && !localOrigin(origin)) return refuse(res, 403, `拒绝：Origin ${JSON.stringify(origin)} 不是本机（防 DNS 重绑定）`);
  const host = header(req, "host");
  if (host !== undefined && !localHost(host)) return refuse(res, 403, `拒绝：Host ${JSON.stringify(host)} 不是本机（防 DNS 重绑定）`);
  if ((req.url ?? "").split("?")[0] !== ENDPOINT) return refuse(res, 404, `这里只有 ${ENDPOINT}`);
  const sid = header(req, "mcp-session-id");

  if (req.method === "DELETE") {
    if (sid === undefined) return refuse(res, 400, "缺少 Mcp-Session-Id：不知道要结束哪个会话");
    if (!sessions.delete(sid)) return refuse(res, 404, "没有这个会话（可能已经结束了）");
    return send(res, 200);
  }
  if (req.method !== "POST") return refuse(res, 405, "只收 POST（消息）和 DELETE（结束会话）；这个服务器不主动发消息，没有 GET 的流", { Allow: "POST, DELETE" });

  const type = header(req, "content-type") ?? "";
  if (type.split(";")[0]!.trim().toLowerCase() !== "application/json") return refuse(res, 415, "请求体要是 application/json");
  const as = format(header(req, "accept"));
  if (as === undefined) return refuse(res, 406, "Accept 里要有 application/json 或 text/event-stream");
  const declared = Number(header(req, "content-length") ?? 0);
  if (declared > MAX_BODY) return refuse(res, 413, `请求体超过了 ${MAX_BODY / 1024 / 1024} MiB`, { Connection: "close" });
  const body = await readBody(req);
  if (body === "gone") return;
  if (body === "too-big") return refuse(res, 413, `请求体超过了 ${MAX_BODY / 1024 / 1024} MiB`, { Connection: "close" });

  let msg: unknown;
  try {
    msg = JSON.parse(body.text);
  } catch {
    return send(res, 400, errorReply(null, -32700, "解析失败：请求体不是合法 JSON"));
  }
  // 2025-11-25 没有批处理：一个请求体就是一条消息
  if (Array.isArray(msg)) return send(res, 400, errorReply(null, -32600, "无效请求：不收批处理（JSON 数组）"));

  const asked = header(req, "mcp-protocol-version");
  if (isObject(msg) && (isModern(msg) || MODERN_VERSIONS.includes(asked ?? ""))) return modern(req, res, msg, as);

  const initializing = isObject(msg) && msg.method === "initialize";
  if (initializing) {
    // 握手时还没有商定版本，客户端一般不带这个头；带了，至少得是个我们认识的版本
    if (asked !== undefined && !KNOWN_VERSIONS.includes(asked)) return refuse(res, 400, `MCP-Protocol-Version 是 ${JSON.stringify(asked)}，不是我们支持的版本`);
  } else {
    if (sid === undefined) return refuse(res, 400, "缺少 Mcp-Session-Id：先 initialize");
    const version = sessions.get(sid);
    if (version === undefined) return refuse(res, 404, "没有这个会话（结束了，或者服务器重启过）：重新 initialize");
    // 没带这个头就按会话协商出的版本算；带了就必须是它
    if (asked !== undefined && asked !== version) {
      return refuse(res, 400, `MCP-Protocol-Version 是 ${JSON.stringify(asked)}，这个会话协商的是 ${version}`);
    }
  }

  const reply = answer(msg);
  if (reply === undefined) return send(res, 202); // 通知、响应：收下了，没有答复
  const headers: Record<string, string> = {};
  if (initializing && isObject(reply.result)) {
    const id = randomUUID(); // crypto 的随机数：猜不到别人的会话
    sessions.set(id, String(reply.result.protocolVersion));
    if (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value!);
    headers["Mcp-Session-Id"] = id;
  }
  // 连 id 都读不出来的消息不是一个请求：HTTP 上答 400
  deliver(res, reply.id === null ? 400 : 200, reply, as, headers);
}

function deliver(res: ServerResponse, status: number, reply: Message, as: "json" | "sse", headers: Record<string, string> = {}): void {
  if (as === "json") return send(res, status, reply, headers);
  res.writeHead(status, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", ...headers });
  res.end(`event: message\ndata: ${JSON.stringify(reply)}\n\n`);
}

// 头里的 Mcp-Name 放不下非 ASCII 的名字时写成 =?base64?…?=，先解开再和请求体比
function decodeHeader(value: string): string {
  const m = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/.exec(value);
  return m ? Buffer.from(m[1]!, "base64").toString("utf8") : value;
}

// 请求头和请求体对不上：哪一项、头里写的、体里写的。都对得上返回 undefined
function headerMismatch(req: IncomingMessage, msg: Message): string | undefined {
  const params = isObject(msg.params) ? msg.params : {};
  const meta = isObject(params._meta) ? params._meta : {};
  const expected: [string, unknown][] = [
    ["MCP-Protocol-Version", meta[VERSION_KEY]],
    ["Mcp-Method", msg.method],
  ];
  if (msg.method === "tools/call") expected.push(["Mcp-Name", params.name]);
  for (const [name, body] of expected) {
    const value = header(req, name.toLowerCase());
    if (value === undefined) return `缺少请求头 ${name}`;
    if (decodeHeader(value) !== body) return `请求头 ${name} 是 ${JSON.stringify(value)}，请求体里是 ${JSON.stringify(body)}`;
  }
  return undefined;
}

// modern 的错误各有各的 HTTP 状态：信封不合格、版本不支持、头体不符 → 400；没有这个方法 → 404；
// 工具自己的参数错了是请求本身的答复，照样 200
function modernStatus(reply: Message): number {
  const error = isObject(reply.error) ? reply.error : undefined;
  if (!error) return 200;
  if (error.code === -32601) return 404;
  if ([-32700, -32600, -32020, -32021, -32022].includes(error.code as number)) return 400;
  return error.code === -32602 && isObject(error.data) && "field" in error.data ? 400 : 200;
}

// modern 请求：没有会话（带来的 Mcp-Session-Id 不理，也不发新的），一个请求一个答复
function modern(req: IncomingMessage, res: ServerResponse, msg: Message, as: "json" | "sse"): void {
  const id = typeof msg.id === "string" || (typeof msg.id === "number" && Number.isFinite(msg.id)) ? msg.id : undefined;
  if (id !== undefined && typeof msg.method === "string") {
    // 先看信封齐不齐，再核对请求头和请求体，然后看版本支不支持，最后才干活
    const shape = envelopeShapeError(id, msg);
    if (shape) return deliver(res, 400, shape, as);
    const mismatch = headerMismatch(req, msg);
    if (mismatch) return deliver(res, 400, { jsonrpc: "2.0", id, error: { code: -32020, message: `请求头和请求体不一致：${mismatch}` } }, as);
    const version = versionError(id, msg);
    if (version) return deliver(res, 400, version, as);
  }
  const reply = answer(msg);
  if (reply === undefined) return send(res, 202);
  deliver(res, modernStatus(reply), reply, as);
}

export function serveHttp(port: number): void {
  const server = createServer(
    { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 500 },
    (req, res) => {
      handle(req, res).catch(() => {
        // 自己的 bug 也只坏这一个请求
        if (!res.headersSent) refuse(res, 500, "服务器内部错误");
        else res.destroy();
      });
    },
  );
  // 空闲连接留得比客户端久（Node 默认 5 秒，和 fetch 的 4 秒挨得太近）：客户端忙了一拍，就会在我们刚关掉的连接上发请求
  server.keepAliveTimeout = 65_000;
  server.maxConnections = 256; // 连接数也有上限：多出来的直接断开（保持连接的客户端会开着好几个）
  server.on("error", (err: NodeJS.ErrnoException) => {
    process.stderr.write(`timeserver: 没法在 127.0.0.1:${port} 上听（${err.code ?? err.name}）\n`);
    process.exit(1);
  });
  // 只绑 127.0.0.1：别的机器连不进来
  server.listen(port, "127.0.0.1", () => {
    const address = server.address();
    const bound = typeof address === "object" && address ? address.port : port;
    // 用 --port 0 让系统挑端口时，测试和检查器从这一行读出端口
    process.stderr.write(`timeserver: 在 http://127.0.0.1:${bound}${ENDPOINT} 上听\n`);
  });
  const stop = () => {
    server.close();
    server.closeAllConnections();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
