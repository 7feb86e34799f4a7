// timeserver：第 22 章的陪练 MCP 服务器。两个工具——current_time、days_between——
// 都是模型自己做不好的事：它不知道今天是几号，也数不准两个日期隔几天。
// 协议全部手写（只用 Node 标准库），好让你看清 stdio 上到底流过什么：一行一个 JSON-RPC 消息。
// stdout 只许出现协议消息，日志一律走 stderr。
// 运行：node --import tsx timeserver/main.ts（Node 20）或 node timeserver/main.ts（Node ≥ 22.18）

type Id = string | number;
type Message = Record<string, unknown>;

// 客户端要的版本我们支持，就原样答复；不支持，按规范答我们支持的最新版，由客户端决定接不接受。
// 对只有工具的服务器来说，这三个版本在用到的部分没有区别。2025-03-26 不在其中：答应了它，
// 就得收下一行里的一批请求（JSON 数组），这个服务器不收——与其答应了做不到，不如不答应
const KNOWN_VERSIONS = ["2024-11-05", "2025-06-18", "2025-11-25"];
const FALLBACK_VERSION = KNOWN_VERSIONS[KNOWN_VERSIONS.length - 1];
const WEEKDAYS = ["星期日", "星期一", "星期二", "星期三", "星期四", "星期五", "星期六"];

const TOOLS = [
  {
    name: "current_time",
    description: "读本机时钟，给出此刻的本地日期、时间和星期几。不需要参数。",
    inputSchema: { type: "object", properties: {} },
  },
  {
    name: "days_between",
    description: "算出从 start 到 end 相差多少天。日期写成 2026-01-02 这样；end 早于 start 时结果是负数。",
    inputSchema: {
      type: "object",
      properties: {
        start: { type: "string", description: "起点日期，YYYY-MM-DD" },
        end: { type: "string", description: "终点日期，YYYY-MM-DD" },
      },
      required: ["start", "end"],
    },
  },
];

// ---- 日期 ----

// 把 YYYY-MM-DD 换成当天 UTC 零点的毫秒数；不是真实存在的日期返回 undefined。
// 两个日期都落在 UTC 里相减，不经过本地时区，夏令时就插不进来。
function parseDate(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // 不用 Date.UTC：它会把 0–99 年当成 1900–1999 年
  const t = new Date(0).setUTCFullYear(y, mo - 1, d);
  const back = new Date(t);
  // Date 会把 2 月 30 日悄悄滚成 3 月 2 日——换回来对不上，就是不存在的日期（闰年也靠这一步）
  return back.getUTCMonth() === mo - 1 && back.getUTCDate() === d ? t : undefined;
}

// TIMESERVER_NOW 把时钟钉死，测试和演示才能每次得到同一个答案。
// 自己先查一遍格式：V8 的 Date 连 2026-02-30 都照单全收。
function parseNow(text: string): Date | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(text);
  if (!m || parseDate(m[1]!) === undefined) return undefined;
  if (Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4] ?? 0) > 59) return undefined;
  const date = new Date(text); // 不带时区偏移时按本地时间理解
  return Number.isNaN(date.getTime()) ? undefined : date;
}

const fixedNow = process.env.TIMESERVER_NOW ? parseNow(process.env.TIMESERVER_NOW) : undefined;
if (process.env.TIMESERVER_NOW && !fixedNow) {
  process.stderr.write(
    `timeserver: TIMESERVER_NOW 不是合法的 ISO 8601 时间: ${process.env.TIMESERVER_NOW}` +
      `（要像 2026-08-07T14:03:09+08:00 或 2026-08-07T14:03:09）\n`,
  );
  process.exit(1);
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

function currentTime(): string {
  const t = fixedNow ?? new Date();
  // 年份也补足四位：999 年是 0999，和 days_between 收的 YYYY-MM-DD 是同一个格式
  const date = `${pad(t.getFullYear(), 4)}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}`;
  const time = `${pad(t.getHours())}:${pad(t.getMinutes())}:${pad(t.getSeconds())}`;
  return `${date} ${time} ${WEEKDAYS[t.getDay()]}`;
}

// ---- 工具 ----

// 工具干活失败不是协议错误：放进结果里、标上 isError，模型才看得见，也才能改了参数再试。
function toolResult(text: string, isError = false) {
  return isError ? { content: [{ type: "text", text }], isError: true } : { content: [{ type: "text", text }] };
}

function daysBetween(args: Message) {
  const days: number[] = [];
  for (const key of ["start", "end"]) {
    const value = args[key];
    const t = typeof value === "string" ? parseDate(value) : undefined;
    if (t === undefined) {
      const got = value === undefined ? "缺少这个参数" : `收到的是 ${JSON.stringify(value)}`;
      return toolResult(`参数 ${key} 不是合法日期（${got}）：要 YYYY-MM-DD 格式的真实日期，比如 2026-01-02`, true);
    }
    days.push(t / 86_400_000);
  }
  return toolResult(`${days[1]! - days[0]!} 天`);
}

function callTool(name: string, args: Message) {
  if (name === "current_time") return toolResult(currentTime());
  if (name === "days_between") return daysBetween(args);
  return toolResult(`没有这个工具: ${name}（只有 current_time 和 days_between）`, true);
}

// ---- JSON-RPC ----

const isObject = (v: unknown): v is Message => typeof v === "object" && v !== null && !Array.isArray(v);

function send(msg: Message): void {
  process.stdout.write(JSON.stringify(msg) + "\n");
}

function sendError(id: Id | null, code: number, message: string): void {
  send({ jsonrpc: "2.0", id, error: { code, message } });
}

// 每个方法一个处理函数；返回 undefined 表示 params 的形状不对（-32602）
const METHODS: Record<string, (params: Message) => Message | undefined> = {
  initialize: (params) => {
    const asked = params.protocolVersion;
    const version = typeof asked === "string" && KNOWN_VERSIONS.includes(asked) ? asked : FALLBACK_VERSION;
    return { protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: "timeserver", version: "0.1" } };
  },
  ping: () => ({}),
  "tools/list": () => ({ tools: TOOLS }),
  "tools/call": (params) => {
    const args = params.arguments ?? {};
    if (typeof params.name !== "string" || !isObject(args)) return undefined;
    return callTool(params.name, args);
  },
};

function handleLine(line: string): void {
  let msg: unknown;
  try {
    msg = JSON.parse(line);
  } catch {
    // Go 版本在这里就退出了；一行坏数据不该让整个服务下线，报错然后接着读
    return sendError(null, -32700, "解析失败：这一行不是合法 JSON");
  }
  if (!isObject(msg)) return sendError(null, -32600, "无效请求：应当是一个 JSON 对象");
  // 我们从不向客户端发请求，所以收到的响应没人在等，丢掉
  if (msg.method === undefined && ("result" in msg || "error" in msg)) return;
  const hasId = "id" in msg;
  // 1e400 解析出来是 Infinity，写回去成了 null：带不回原样的 id 和没有合法 id 一样，当无效请求
  const id = typeof msg.id === "string" || (typeof msg.id === "number" && Number.isFinite(msg.id)) ? msg.id : null;
  if (msg.jsonrpc !== "2.0" || typeof msg.method !== "string" || (hasId && id === null)) {
    return sendError(id, -32600, "无效请求：需要 jsonrpc \"2.0\"、字符串 method，id 只能是数字或字符串");
  }
  // 没有 id 的是通知：规范说绝不回复，认不认识都一样
  if (id === null) return;
  if (!Object.hasOwn(METHODS, msg.method)) return sendError(id, -32601, `没有这个方法: ${msg.method}`);
  const params = msg.params ?? {};
  if (!isObject(params)) return sendError(id, -32602, "参数无效：params 应当是对象");
  try {
    const result = METHODS[msg.method]!(params);
    if (result === undefined) return sendError(id, -32602, "参数无效：tools/call 需要字符串 name，arguments 须是对象");
    send({ jsonrpc: "2.0", id, result });
  } catch (err) {
    // 自己的 bug 也只坏这一个请求，服务照常。只说异常的类别：它的原话出自 V8，随 Node 版本而变，不该进客户端的转录
    sendError(id, -32603, `内部错误: 处理 ${msg.method} 时出了意外（${err instanceof Error ? err.name : typeof err}）`);
  }
}

// ---- stdio ----

// 一行最长 64 MiB（和第 22 章的客户端一样）。超过了就不再攒：答一个 -32600，丢掉这一行剩下的字节，
// 从下一个换行接着服务——没有上限的话，一个不换行的客户端能让我们一直长内存，直到进程被杀。
// 这时还没解析，不知道 id，所以 id 是 null；选 -32600（不是合法的请求）而不是 -32700：不是 JSON 写错了，是太长了
const MAX_LINE = 64 * 1024 * 1024;

// 第 22 章 LineSplitter 的做法：还没等到换行的块放在数组里，换行到了才拼一次、解码一次。
// 每来一块就把整个缓冲区重拼一遍的话，一行 20 MB 要拼几百次，时间随长度平方增长，其间别的请求全被堵着。
// 按字节攒到换行再解码：一个汉字的三个字节可能分在两次 data 事件里，半个字先解码就成了乱码。
let parts: Buffer[] = [];
let size = 0;
let dropping = false; // 这一行已经超长，丢弃直到换行

function collect(piece: Buffer): void {
  if (dropping || piece.length === 0) return;
  size += piece.length;
  if (size <= MAX_LINE) return void parts.push(piece);
  dropping = true;
  parts = [];
  sendError(null, -32600, `无效请求：一行超过了 ${MAX_LINE / 1024 / 1024} MiB，整行丢弃`);
}

function endLine(): void {
  const line = dropping ? "" : Buffer.concat(parts).toString("utf8").replace(/\r$/, "");
  parts = [];
  size = 0;
  dropping = false;
  if (line.trim() !== "") handleLine(line);
}

process.stdin.on("data", (chunk: Buffer) => {
  let start = 0;
  let nl: number;
  while ((nl = chunk.indexOf(0x0a, start)) !== -1) {
    collect(chunk.subarray(start, nl));
    endLine();
    start = nl + 1;
  }
  collect(chunk.subarray(start));
});
// 客户端关掉我们的 stdin 就是"结束会话"：最后一行没带换行也照样处理；
// 之后事件循环里没有别的事了，进程等 stdout 写完自己以 0 退出
process.stdin.on("end", endLine);
// 客户端先走了，stdout 写不出去（EPIPE）：没人听了，安静退出
process.stdout.on("error", () => process.exit(0));
