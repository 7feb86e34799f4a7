// 说 Streamable HTTP 的陪练服务器（练习 22-5）。一个进程、一个端口，路径的第一段是模式：http://127.0.0.1:端口/<模式>/mcp
//   forget   正经的服务器：会话（Mcp-Session-Id，依次叫 s1、s2…）、查 MCP-Protocol-Version 头；tools/call 用 SSE 答，
//            回答之前先发一个通知和一个 ping 请求。可它健忘：第一个会话（s1）的第一个 tools/call 答 404（会话没了），客户端得重新握手再发一次。
//            whoami 工具报出它看到的：会话、协议头、Authorization、这是第几次 initialize、之前结束了哪些会话（DELETE）。
//            tools/call 的 SSE 发完回答也不关：先把整条流读完再找回答的客户端，要一直等到自己的 timeout
//   gone     initialize 正常，之后的请求一律 404：重新握手一次还是 404，就该放弃，不能没完没了地重来
//   html     200，Content-Type 是 text/html（一个登录页；里面夹着终端控制序列）
//   huge     200 的 application/json，initialize 的回答里塞了 80 MiB 的填充（不查大小的客户端就全收下了）
//   endless  200 的 text/event-stream，一个接一个的通知，等不到回答（写满 80 MiB 才停：测试机上的防卡死上限）
//   slow     收下请求，5 秒里一个字节也不回（连响应头也不发），之后才像 forget 那样正经回答（不健忘）：
//            没守 startupTimeout（1 秒）的客户端等得到它、握手完成，几秒之内就露馅，不用等场景的时限
//   stall    握手、列工具都正常（一个 wait 工具），tools/call 先发 SSE 的响应头和一行注释，5 秒以后才回答：
//            时限只管到响应头、或者没守 timeout 的客户端，拿到的是一个成功的结果。收尾的 DELETE 它收下了就不理（记一行）：
//            等 DELETE 不设时限的客户端退不了
//   moved    307，叫客户端换到 /forget/mcp 去（跟过去的客户端会把 headers 里的令牌一起带过去）
//   pings    initialize 用 SSE 答：先是规范里的预备事件（只有 id，data 是空的），再一口气两万个 ping 请求，最后才是回答；
//            之后和 forget 一样正经（不健忘），whoami 另报出这个模式同时在途的请求最多几个。
//            每个 ping 的回答都是一次 POST：不限在途回答的客户端会同时发出几千个。这些回答先一个也不答，留到 whoami 时一起答
//            （400：它们来的时候还没有会话号）——所以服务器看到的同时在途的请求，就是客户端同时发出了多少，不看两边谁快
//   cut      和 forget 一样正经（不健忘），可 tools/call 的 SSE 只发预备事件（id cut-1，retry: 300）和一个进度通知（id cut-2）就关上，
//            回答留给续传：GET 同一个地址、带着会话号、协议版本头和 Last-Event-ID: cut-2（收到的最后一个事件），回答才在那条流上来。
//            whoami 报出续传时带的 Last-Event-ID，和断开以后等没等够 retry 说的时间
//   cutloop  initialize 的 SSE 只有一个预备事件（retry: 0）就关上；来续的 GET 也一样，一次又一次：续传也得有个头
//   refill   initialize 的 SSE 给两个约 1.5 MiB 的通知（带着事件 id）就关上，来续的 GET 也一样：每条流都不大，
//            续上的合起来却没有尽头——整条流的上限要把续上的算进去。给过十条以后只给预备事件（免得没数的客户端在这里转上 30 秒）
//   wrongid  initialize 答一个 200 的 JSON，可里面的 id 对不上（"不是你的"）：回答里没有这个请求的响应，客户端不能干等
//   hop      和 cut 一样断在回答之前（id hop-1、hop-2，retry: 0），可来续的 GET 和收尾的 DELETE 都答 307，叫你换到 /trap/mcp 去
//   trap     谁来了都在 stderr 上记一行（带着哪些头），答 404：跟着跳转走的客户端把令牌带到了这里
// 会话里的规矩（forget、stall、pings、cut、hop、slow）：initialize 时带的 Authorization、X-Api-Key（mcp.json 的 headers），
// 之后的每个请求（POST、续传的 GET、DELETE）都要一样地带着，不然答 401——重新握手、续传、收尾这些不常走的路最容易漏；
// tools/call 之前要收到过 notifications/initialized（重新握手以后也要补发）。DELETE 在会话里带过 MCP-Protocol-Version 的，也要带着它
// huge、endless 的 80 MiB 真被读完了（客户端没数字节），在 stderr 上记一行
// 启动后在 stderr 上报一行地址（场景的运行器从这一行读端口）；之后只在收到 DELETE 时记一行。只用标准库。
import http from "node:http";

type Msg = { jsonrpc?: string; id?: number | string | null; method?: string; params?: any; result?: unknown; error?: unknown };
const VERSIONS = ["2024-11-05", "2025-06-18", "2025-11-25"];

interface Session {
  id: string;
  version: string;
  calls: number; // 这个会话上收到过几个 tools/call
  key: string; // initialize 时带的 Authorization、X-Api-Key：之后每个请求都要一样
  ready: boolean; // 收到过 notifications/initialized
  versioned: boolean; // 客户端在这个会话里带过 MCP-Protocol-Version 头
}
const sessions = new Map<string, Session>(); // 键是“模式 会话号”：每个模式的会话号各自从 s1 数起
const counters = new Map<string, number>(); // 每个模式发出过几个会话
const initializes = new Map<string, number>();
const deleted: string[] = [];
const active = new Map<string, number>(); // 每个模式此刻在途的请求（收到了、还没答完）
const peaks = new Map<string, number>(); // 和它的最大值
const CUT_RETRY_MS = 300; // cut 模式让客户端断开以后至少等这么久再续
const held: (() => void)[] = []; // pings 模式：还没答的、对 ping 的回答
const cuts = new Map<string, { id: Msg["id"]; at: number }>(); // cut 模式：会话号 → 断在回答之前的那个调用，和断开的时刻
const LATE_MS = 5000; // slow、stall 过这么久才回答：客户端的时限（1 秒）早该到了
// 请求带着的凭据（mcp.json 的 headers 会带上的那两种），比一比就知道重新握手、续传、DELETE 有没有漏带
const keyOf = (req: http.IncomingMessage) => `Authorization: ${String(req.headers.authorization ?? "（没有）")}，X-Api-Key: ${String(req.headers["x-api-key"] ?? "（没有）")}`;

// 量数字用（HOSTILE_HTTP_STATS=1）：同时开着的连接最多几个，退出前写在 stderr 上。场景不设它，转录里没有这一行
let open = 0;
let peak = 0;
if (process.env.HOSTILE_HTTP_STATS) process.on("SIGTERM", () => (process.stderr.write(`hostile-http: 同时开着的连接最多 ${peak} 个\n`), process.exit(0)));

const server = http.createServer((req, res) => {
  const mode = (req.url ?? "").split("/")[1] ?? "";
  if (mode === "trap") {
    process.stderr.write(`hostile-http: 有客户端跟着跳转来了：${req.method} /trap/mcp，带着 ${keyOf(req)}\n`);
    return void res.writeHead(404).end();
  }
  active.set(mode, (active.get(mode) ?? 0) + 1);
  peaks.set(mode, Math.max(peaks.get(mode) ?? 0, active.get(mode)!));
  res.once("close", () => active.set(mode, active.get(mode)! - 1));
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  // slow：过 LATE_MS 才开始回答（之前连响应头也不发）
  req.on("end", () => {
    const go = () => handle(mode, req, res, Buffer.concat(chunks).toString("utf8"));
    if (mode === "slow") setTimeout(go, LATE_MS);
    else go();
  });
});

// 一块接一块地写到 80 MiB，再写上结尾；客户端先挂断就停
function flood(mode: string, res: http.ServerResponse, block: string, end: string) {
  let left = Math.ceil((80 * 1024 * 1024) / Buffer.byteLength(block));
  const more = () => {
    while (!res.destroyed && left > 0) if ((left--, !res.write(block))) return void res.once("drain", more);
    if (!res.destroyed) res.end(end, () => process.stderr.write(`hostile-http: ${mode} 的 80 MiB 全送出去了：客户端一直读到了底\n`));
  };
  more();
}

// Content-Type 带着 charset 参数（规范允许）：只认得 "application/json" 原样一串的客户端在这里露馅
function json(res: http.ServerResponse, status: number, body: object, headers: Record<string, string> = {}) {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify(body));
}

const rpcError = (id: unknown, message: string) => ({ jsonrpc: "2.0", id: id ?? null, error: { code: -32600, message } });

function handle(mode: string, req: http.IncomingMessage, res: http.ServerResponse, body: string) {
  if (mode === "moved") return void res.writeHead(307, { Location: "/forget/mcp" }).end();
  if (!["forget", "gone", "html", "huge", "endless", "slow", "stall", "pings", "cut", "cutloop", "hop", "refill", "wrongid"].includes(mode)) return json(res, 404, rpcError(null, `没有这个模式：${mode}`));
  const sid = req.headers["mcp-session-id"];
  if (mode === "hop" && req.method !== "POST") return void res.writeHead(307, { Location: "/trap/mcp" }).end();
  if (req.method === "DELETE" && mode === "stall") return void process.stderr.write("hostile-http: stall 收到 DELETE，不理它\n");
  if (req.method === "DELETE") {
    const session = typeof sid === "string" ? sessions.get(`${mode} ${sid}`) : undefined;
    const missing = !session ? "" : keyOf(req) !== session.key ? "initialize 时带的凭据" : session.versioned && req.headers["mcp-protocol-version"] !== session.version ? "MCP-Protocol-Version 头" : "";
    if (session && missing) {
      process.stderr.write(`hostile-http: 会话 ${sid} 的 DELETE 没带上${missing}（收到 ${keyOf(req)}，MCP-Protocol-Version: ${String(req.headers["mcp-protocol-version"] ?? "（没有）")}），不结束\n`);
      res.writeHead(400).end();
    } else if (typeof sid === "string" && sessions.delete(`${mode} ${sid}`)) {
      deleted.push(sid);
      process.stderr.write(`hostile-http: 会话 ${sid} 收到 DELETE，结束\n`);
      res.writeHead(200).end();
    } else res.writeHead(404).end();
    return;
  }
  if (req.method === "GET" && mode === "cut") return resume(req, res, sid);
  if (mode === "cutloop" && req.method !== "DELETE") return primeAndClose(res);
  if (mode === "refill" && req.method !== "DELETE") return refill(res);
  if (req.method !== "POST") return void res.writeHead(405, { Allow: "POST, DELETE" }).end();
  const accept = String(req.headers.accept ?? "");
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) {
    return json(res, 406, rpcError(null, "Accept 头里要同时有 application/json 和 text/event-stream"));
  }
  if (mode === "html") {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    return void res.end("<html><title>\x1b]0;PWNED\x07请先登录</title><body>登录</body></html>");
  }
  if (mode === "huge") {
    res.writeHead(200, { "Content-Type": "application/json" });
    res.write(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2024-11-05","capabilities":{"tools":{}},"serverInfo":{"name":"huge","version":"1"},"pad":"`);
    const block = "x".repeat(64 * 1024);
    return flood(mode, res, block, `"}}`);
  }
  if (mode === "endless") {
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    // 每个通知都不小（约 1.5 MiB，一行的上限之内：检查场景把上限调成 4 MiB）：客户端要靠整条流的上限停下来
    const event = `data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "还在忙".repeat(170_000) } })}\n\n`;
    // 打头的一个事件不是 JSON，还夹着终端控制序列：客户端自己印的警告也得显形
    res.write("data: 不是 JSON\x1b]0;PWNED\x07\x1b[2J\n\n");
    return flood(mode, res, event, "");
  }
  let msg: Msg;
  try {
    msg = JSON.parse(body);
  } catch {
    return json(res, 400, rpcError(null, "请求体不是 JSON"));
  }
  if (mode === "pings" && msg.method === undefined && String(msg.id).startsWith("ping-")) {
    return void held.push(() => json(res, 400, rpcError(msg.id, "缺少 Mcp-Session-Id 头")));
  }
  if (mode === "wrongid") return json(res, 200, { jsonrpc: "2.0", id: "不是你的", result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "wrongid", version: "1" } } });
  if (msg.method === "initialize") {
    const n = (counters.get(mode) ?? 0) + 1;
    counters.set(mode, n);
    initializes.set(mode, (initializes.get(mode) ?? 0) + 1);
    const asked = msg.params?.protocolVersion;
    const version = VERSIONS.includes(asked) ? asked : VERSIONS.at(-1)!;
    const session = { id: `s${n}`, version, calls: 0, key: keyOf(req), ready: false, versioned: false };
    sessions.set(`${mode} ${session.id}`, session);
    const result = { protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: `hostile-http-${mode}`, version: "1" } };
    if (mode === "pings") {
      res.writeHead(200, { "Content-Type": "text/event-stream", "Mcp-Session-Id": session.id });
      res.write("id: prime-0\nretry: 1000\ndata: \n\n");
      for (let i = 1; i <= 20_000; i++) res.write(`data: ${JSON.stringify({ jsonrpc: "2.0", id: `ping-${i}`, method: "ping" })}\n\n`);
      return void res.end(`data: ${JSON.stringify({ jsonrpc: "2.0", id: msg.id, result })}\n\n`);
    }
    return json(res, 200, { jsonrpc: "2.0", id: msg.id, result }, { "Mcp-Session-Id": session.id });
  }
  // 初始化之后的每个请求：会话号要带、要认得；协议版本头要和谈好的一样
  if (typeof sid !== "string") return json(res, 400, rpcError(msg.id, "缺少 Mcp-Session-Id 头"));
  const session = sessions.get(`${mode} ${sid}`);
  if (!session || mode === "gone") return json(res, 404, rpcError(msg.id, mode === "gone" ? "会话不存在\x1b]0;PWNED\x07\x1b[2J" : "会话不存在"));
  if (req.headers["mcp-protocol-version"] !== session.version) {
    return json(res, 400, rpcError(msg.id, `MCP-Protocol-Version 头要是 ${session.version}，收到的是 ${String(req.headers["mcp-protocol-version"] ?? "（没有）")}`));
  }
  session.versioned = true;
  if (keyOf(req) !== session.key) return json(res, 401, rpcError(msg.id, `凭据和 initialize 时带的不一样：那时 ${session.key}，这次 ${keyOf(req)}`));
  if (msg.method === "notifications/initialized") session.ready = true;
  if (msg.method === undefined || msg.id === undefined) return void res.writeHead(202).end(); // 通知和客户端的回答
  if (msg.method === "tools/list") {
    const tools = [
      mode === "stall"
        ? { name: "wait", description: "收下调用就再也不回", inputSchema: { type: "object", properties: {} } }
        : { name: "whoami", description: "报出服务器看到的请求头和会话", inputSchema: { type: "object", properties: {} } },
    ];
    return json(res, 200, { jsonrpc: "2.0", id: msg.id, result: { tools } });
  }
  if (msg.method === "tools/call" && !session.ready) return json(res, 400, rpcError(msg.id, "还没收到 notifications/initialized（重新握手以后也要补发）"));
  if (msg.method === "tools/call" && mode === "stall") {
    // 响应头和一行注释马上到，回答过 LATE_MS 才来
    res.writeHead(200, { "Content-Type": "text/event-stream" }).write(": 在想\n\n");
    return void setTimeout(() => res.end(`data: ${JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: { content: [{ type: "text", text: `stall 过了 ${LATE_MS / 1000} 秒才回答` }] } })}\n\n`), LATE_MS);
  }
  if (msg.method === "tools/call" && (mode === "cut" || mode === "hop")) {
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    res.write(`id: ${mode}-1\nretry: ${mode === "cut" ? CUT_RETRY_MS : 0}\ndata: \n\n`);
    res.write(`id: ${mode}-2\nevent: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } })}\n\n`);
    if (mode === "cut") cuts.set(sid, { id: msg.id, at: performance.now() });
    return void res.end(); // 回答之前就关上：回答等客户端来续（hop 的续传只换来 307）
  }
  if (msg.method === "tools/call") {
    // 服务器“重启过”：这个会话的第一个调用答 404，它已经不认得这个会话了
    if (++session.calls === 1 && sid === "s1" && mode === "forget") {
      sessions.delete(`${mode} ${sid}`);
      return json(res, 404, rpcError(msg.id, "会话不存在"));
    }
    const facts = [
      `会话 ${sid}`,
      `MCP-Protocol-Version: ${String(req.headers["mcp-protocol-version"])}`,
      `Authorization: ${String(req.headers.authorization ?? "（没有）")}`,
      `第 ${initializes.get(mode)} 次 initialize`,
      `结束过的会话: ${deleted.join("、") || "（没有）"}`,
      ...(mode === "pings" ? [`同时在途的请求最多 ${peaks.get(mode)} 个`] : []),
    ];
    for (const answer of held.splice(0)) answer(); // 压着的回答这时才答
    // SSE：先一个通知、一个 ping 请求，再是回答
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    const event = (m: object) => res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", ...m })}\n\n`);
    res.write(": 注释行，客户端该跳过\n\n");
    event({ method: "notifications/progress", params: { progressToken: 1, progress: 1 } });
    event({ id: "srv-ping-1", method: "ping" });
    event({ id: msg.id, result: { content: [{ type: "text", text: facts.join("\n") }] } });
    // 回答发完了也不关流（规范允许）：等到回答就该停下的客户端不受影响，等服务器关流的客户端要等到 timeout
    return;
  }
  json(res, 200, { jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: `不支持 ${msg.method}` } });
}

// 一条只有预备事件的 SSE 流，发完就关：没有回答，也没有别的消息
let primes = 0;
function primeAndClose(res: http.ServerResponse) {
  res.writeHead(200, { "Content-Type": "text/event-stream" });
  res.end(`id: loop-${++primes}\nretry: 0\ndata: \n\n`);
}

// refill：两个约 1.5 MiB 的通知，带着事件 id，然后关上——等客户端来续，续了还是这样
let refills = 0;
const BIG_NOTE = `data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "再来一点".repeat(130_000) } })}\n\n`;
function refill(res: http.ServerResponse) {
  res.writeHead(200, { "Content-Type": "text/event-stream" });
  res.write(`id: refill-${++refills}\nretry: 0\ndata: \n\n`);
  if (refills > 10) return void res.end();
  res.write(BIG_NOTE);
  res.end(BIG_NOTE);
}

// cut 模式的续传：GET 带着会话号、协议版本头和 Last-Event-ID，回答在这条新的 SSE 流上来
function resume(req: http.IncomingMessage, res: http.ServerResponse, sid: unknown) {
  const session = typeof sid === "string" ? sessions.get(`cut ${sid}`) : undefined;
  const cut = typeof sid === "string" ? cuts.get(sid) : undefined;
  if (!session || !cut) return json(res, 404, rpcError(null, "这个会话没有断在半路的调用"));
  if (req.headers["mcp-protocol-version"] !== session.version) return json(res, 400, rpcError(null, `MCP-Protocol-Version 头要是 ${session.version}`));
  if (keyOf(req) !== session.key) return json(res, 401, rpcError(null, `续传的 GET 带的凭据和 initialize 时的不一样：那时 ${session.key}，这次 ${keyOf(req)}`));
  if (!String(req.headers.accept ?? "").includes("text/event-stream")) return json(res, 406, rpcError(null, "续传的 GET 要带 Accept: text/event-stream"));
  const last = req.headers["last-event-id"];
  if (last !== "cut-2") return json(res, 400, rpcError(null, `Last-Event-ID 要是收到的最后一个事件 cut-2，收到的是 ${String(last ?? "（没有）")}`));
  cuts.delete(session.id);
  // clock-ok: 只查下限——客户端断开以后至少等了 retry 说的时间（留 50 毫秒给计时器的误差）；机器再慢也只会等得更久
  const waited = performance.now() - cut.at;
  const facts = [
    `续传：GET 带着 Last-Event-ID: ${last}`,
    waited >= CUT_RETRY_MS - 50 ? `断开以后等够了 retry 说的 ${CUT_RETRY_MS} 毫秒` : `断开以后只等了 ${Math.round(waited)} 毫秒就来续，retry 说的是 ${CUT_RETRY_MS}`,
  ];
  res.writeHead(200, { "Content-Type": "text/event-stream" });
  res.end(`id: cut-3\nevent: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: cut.id, result: { content: [{ type: "text", text: facts.join("\n") }] } })}\n\n`);
}

// 空闲的连接不按时关（Node 默认 5 秒）：忙的机器上客户端晚了一拍，会在刚被关掉的连接上发下一个请求（UND_ERR_SOCKET），
// 检查的结论就成了机器快不快。场景结束时整个进程被结束，连接一起关掉
server.keepAliveTimeout = 0;

server.on("connection", (socket) => {
  peak = Math.max(peak, ++open);
  socket.once("close", () => open--);
});

server.listen(Number(process.argv[2] ?? 0), "127.0.0.1", () => {
  const address = server.address() as { port: number };
  process.stderr.write(`hostile-http: http://127.0.0.1:${address.port}\n`);
});
