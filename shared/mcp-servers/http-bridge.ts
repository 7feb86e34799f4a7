// stdio ↔ Streamable HTTP 的桥（只给测试用）：对 harness 它是一个 stdio 服务器，
// 收到的每一行 POST 到命令行给的 URL，答复（JSON 或 SSE 里的每个事件）一行一个写回 stdout。
// 用法：http-bridge.ts <url>。一致性套件的客户端场景只起 HTTP 的测试服务器，只说 stdio 的客户端（练习 22-4）借它去连。
// 会话 id 和协商出的版本记下来，之后每个 POST 都带上；stdin 关了就 DELETE 会话、退出。只用标准库。
const url = process.argv[2];
if (!url) {
  process.stderr.write("http-bridge: 用法 http-bridge.ts <url>\n");
  process.exit(2);
}

const MAX_LINE = 16 * 1024 * 1024; // 一行、一个答复最长 16 MiB：对面是测试服务器，再长就是出错了
let session: string | undefined;
let version: string | undefined;

const write = (msg: unknown): void => void process.stdout.write(JSON.stringify(msg) + "\n");

// 这一行是个带 id 的请求，HTTP 那边却没给 JSON-RPC 答复：替它答一个错误，客户端就不会一直等
function failed(msg: any, why: string): void {
  if (msg && typeof msg === "object" && "id" in msg && typeof msg.method === "string") {
    write({ jsonrpc: "2.0", id: msg.id, error: { code: -32000, message: `http-bridge: ${why}` } });
  }
}

async function forward(line: string): Promise<void> {
  let msg: any;
  try {
    msg = JSON.parse(line);
  } catch {
    return write({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "http-bridge: 不是合法 JSON" } });
  }
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
  if (session) headers["Mcp-Session-Id"] = session;
  if (version) headers["MCP-Protocol-Version"] = version;
  // 2026-07-28 的请求自己在 _meta 里写着版本：请求头里照抄一份版本、方法和名字（对面的服务器要核对）
  const modern = msg?.params?._meta?.["io.modelcontextprotocol/protocolVersion"];
  if (typeof modern === "string" && typeof msg.method === "string") {
    headers["MCP-Protocol-Version"] = modern;
    headers["Mcp-Method"] = msg.method;
    const name = msg.params.name ?? msg.params.uri;
    // 放不下的名字（非 ASCII、首尾空白、本身像编码过的）按规范写成 =?base64?…?=
    if (typeof name === "string") headers["Mcp-Name"] = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(name) && !/^=\?base64\?.*\?=$/.test(name) ? name : `=?base64?${Buffer.from(name).toString("base64")}?=`;
  }
  let res: Response;
  try {
    res = await fetch(url!, { method: "POST", headers, body: line, signal: AbortSignal.timeout(60_000) });
  } catch (e) {
    return failed(msg, `连不上 ${url}（${(e as Error).name}）`);
  }
  session = res.headers.get("mcp-session-id") ?? session;
  if (res.status === 202) return;
  const type = res.headers.get("content-type") ?? "";
  const body = await readCapped(res);
  if (body === undefined) return failed(msg, `答复超过了 ${MAX_LINE} 字节`);
  const replies = type.startsWith("text/event-stream") ? sseData(body) : [body];
  let answered = false;
  for (const text of replies) {
    let reply: any;
    try {
      reply = JSON.parse(text);
    } catch {
      continue;
    }
    if (msg?.method === "initialize" && typeof reply?.result?.protocolVersion === "string") version = reply.result.protocolVersion;
    // HTTP 层的拒绝（id 为 null 的错误体）换成对这个请求的错误答复，把原因带上
    if (reply?.id === null && typeof reply.error?.message === "string") {
      failed(msg, `HTTP ${res.status}: ${reply.error.message}`);
      return;
    }
    if (reply && typeof reply === "object" && "id" in reply && reply.id === msg?.id) answered = true;
    write(reply);
  }
  if (!answered) failed(msg, `HTTP ${res.status}，没有这个请求的答复`);
}

async function readCapped(res: Response): Promise<string | undefined> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    size += chunk.length;
    if (size > MAX_LINE) return undefined;
    parts.push(Buffer.from(chunk));
  }
  return Buffer.concat(parts).toString("utf8");
}

// SSE：事件之间空一行，事件里 data: 开头的行拼起来就是一条消息
function sseData(text: string): string[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((event) =>
      event
        .split(/\r?\n/)
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).replace(/^ /, ""))
        .join("\n"),
    )
    .filter((data) => data !== "");
}

// 一条一条按顺序转发：initialize 的答复（会话 id、版本）到了，后面的请求才带得上它们
let queue = Promise.resolve();
let buffered = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk: string) => {
  buffered += chunk;
  if (buffered.length > MAX_LINE) {
    process.stderr.write("http-bridge: 一行太长，退出\n");
    process.exit(1);
  }
  let nl: number;
  while ((nl = buffered.indexOf("\n")) !== -1) {
    const line = buffered.slice(0, nl).trim();
    buffered = buffered.slice(nl + 1);
    if (line) queue = queue.then(() => forward(line));
  }
});
process.stdin.on("end", async () => {
  await queue;
  if (session) await fetch(url!, { method: "DELETE", headers: { "Mcp-Session-Id": session } }).catch(() => {});
  process.exit(0);
});
