// timeserver 的协议核心：工具、日期、JSON-RPC 的方法表。不碰 stdin、stdout 和网络——
// 一条已经解析好的消息进来，一条答复（或者什么也没有）出去；stdio.ts 和 http.ts 各自负责把它搬上线。

export type Id = string | number;
export type Message = Record<string, unknown>;

// 两个时代。legacy（≤ 2025-11-25）先握手：initialize 商定一个版本，之后的请求都按它来。
// 客户端要的版本我们支持，就原样答复；不支持，按规范答我们支持的最新版，由客户端决定接不接受。
// 对只有工具的服务器来说，这三个版本在用到的部分没有区别。2025-03-26 不在其中：答应了它，
// 就得收下一行里的一批请求（JSON 数组），这个服务器不收——与其答应了做不到，不如不答应。
// modern（2026-07-28）不握手：每个请求自己在 params._meta 里写明版本和客户端能力，服务器一个一个地答
export const KNOWN_VERSIONS = ["2024-11-05", "2025-06-18", "2025-11-25"];
export const MODERN_VERSIONS = ["2026-07-28"];
// server/discover 和 -32022 里报的：新的在前
export const SUPPORTED_VERSIONS = [...MODERN_VERSIONS, ...[...KNOWN_VERSIONS].reverse()];
const FALLBACK_VERSION = KNOWN_VERSIONS[KNOWN_VERSIONS.length - 1];
const SERVER_INFO = { name: "timeserver", version: "0.1" };
export const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
const CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";
// 工具列表在进程活着时不会变：客户端可以放心缓存一小时
const CACHE = { ttlMs: 3_600_000, cacheScope: "public" };
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
export function parseNow(text: string): Date | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(text);
  if (!m || parseDate(m[1]!) === undefined) return undefined;
  if (Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4] ?? 0) > 59) return undefined;
  const date = new Date(text); // 不带时区偏移时按本地时间理解
  return Number.isNaN(date.getTime()) ? undefined : date;
}

let fixedNow: Date | undefined;
export function pinClock(at: Date | undefined): void {
  fixedNow = at;
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

export const isObject = (v: unknown): v is Message => typeof v === "object" && v !== null && !Array.isArray(v);

export function errorReply(id: Id | null, code: number, message: string): Message {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

// 每个方法一个处理函数；返回 undefined 表示 params 的形状不对（-32602）
type Handler = (params: Message) => Message | undefined;
const callToolHandler: Handler = (params) => {
  const args = params.arguments ?? {};
  if (typeof params.name !== "string" || !isObject(args)) return undefined;
  return callTool(params.name, args);
};

const LEGACY_METHODS: Record<string, Handler> = {
  initialize: (params) => {
    const asked = params.protocolVersion;
    const version = typeof asked === "string" && KNOWN_VERSIONS.includes(asked) ? asked : FALLBACK_VERSION;
    return { protocolVersion: version, capabilities: { tools: {} }, serverInfo: SERVER_INFO };
  },
  ping: () => ({}),
  "tools/list": () => ({ tools: TOOLS }),
  "tools/call": callToolHandler,
};

// 2026-07-28 没有 initialize 和 ping 了；server/discover 是服务器必须有的
const MODERN_METHODS: Record<string, Handler> = {
  "server/discover": () => ({ supportedVersions: SUPPORTED_VERSIONS, capabilities: { tools: {} }, ...CACHE }),
  "tools/list": () => ({ tools: TOOLS, ...CACHE }), // 顺序固定：客户端的提示词缓存才命中得了
  "tools/call": callToolHandler,
};

// 这个请求说的是哪个时代：params._meta 里写了协议版本（不管写的是什么）就是 modern；
// server/discover 只有 modern 才有，没写版本也按 modern 查，好告诉对方缺了什么
export function isModern(msg: Message): boolean {
  const meta = isObject(msg.params) ? msg.params._meta : undefined;
  return (isObject(meta) && VERSION_KEY in meta) || msg.method === "server/discover";
}

// modern 请求的信封：_meta 要有版本和客户端能力。缺了、类型不对是 -32602，data.field 点名是哪一项，
// HTTP 传输据此答 400（工具参数不对的 -32602 是请求本身的事，照样 200）
export function envelopeShapeError(id: Id, msg: Message): Message | undefined {
  const meta = isObject(msg.params) ? msg.params._meta : undefined;
  const bad = (field: string, problem: string) => ({
    jsonrpc: "2.0",
    id,
    error: { code: -32602, message: `参数无效：_meta 的 ${field} ${problem}`, data: { field } },
  });
  if (!isObject(meta)) return bad("_meta", "缺少（2026-07-28 的每个请求都要带上协议版本和客户端能力）");
  const version = meta[VERSION_KEY];
  if (typeof version !== "string") return bad(VERSION_KEY, version === undefined ? "缺少" : "应当是字符串");
  if (!isObject(meta[CAPABILITIES_KEY])) return bad(CAPABILITIES_KEY, meta[CAPABILITIES_KEY] === undefined ? "缺少" : "应当是对象");
  return undefined;
}

// 版本写对了形状、但我们不支持：-32022，data 里列出支持的版本、带回它要的那个，客户端好挑一个重试
export function versionError(id: Id, msg: Message): Message | undefined {
  const version = (msg.params as Message)._meta as Message;
  const requested = version[VERSION_KEY] as string;
  if (MODERN_VERSIONS.includes(requested)) return undefined;
  return {
    jsonrpc: "2.0",
    id,
    error: { code: -32022, message: `不支持这个协议版本: ${requested}`, data: { supported: SUPPORTED_VERSIONS, requested } },
  };
}

// 一条解析好的消息 → 它的答复；通知和客户端发来的响应没有答复（undefined）
export function answer(msg: unknown): Message | undefined {
  if (!isObject(msg)) return errorReply(null, -32600, "无效请求：应当是一个 JSON 对象");
  // 我们从不向客户端发请求，所以收到的响应没人在等，丢掉
  if (msg.method === undefined && ("result" in msg || "error" in msg)) return undefined;
  const hasId = "id" in msg;
  // 1e400 解析出来是 Infinity，写回去成了 null：带不回原样的 id 和没有合法 id 一样，当无效请求
  const id = typeof msg.id === "string" || (typeof msg.id === "number" && Number.isFinite(msg.id)) ? msg.id : null;
  if (msg.jsonrpc !== "2.0" || typeof msg.method !== "string" || (hasId && id === null)) {
    return errorReply(id, -32600, "无效请求：需要 jsonrpc \"2.0\"、字符串 method，id 只能是数字或字符串");
  }
  // 没有 id 的是通知：规范说绝不回复，认不认识都一样
  if (id === null) return undefined;
  const modern = isModern(msg);
  if (modern) {
    const bad = envelopeShapeError(id, msg) ?? versionError(id, msg);
    if (bad) return bad;
  }
  const methods = modern ? MODERN_METHODS : LEGACY_METHODS;
  if (!Object.hasOwn(methods, msg.method)) {
    const gone = modern && Object.hasOwn(LEGACY_METHODS, msg.method) ? "（2026-07-28 里没有它了）" : "";
    return errorReply(id, -32601, `没有这个方法: ${msg.method}${gone}`);
  }
  const params = msg.params ?? {};
  if (!isObject(params)) return errorReply(id, -32602, "参数无效：params 应当是对象");
  try {
    const result = methods[msg.method]!(params);
    if (result === undefined) return errorReply(id, -32602, "参数无效：tools/call 需要字符串 name，arguments 须是对象");
    // modern 的每个结果都写明 resultType（这个服务器从不需要客户端补充输入，总是 complete），_meta 里报上自己是谁
    if (modern) return { jsonrpc: "2.0", id, result: { resultType: "complete", ...result, _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO } } };
    return { jsonrpc: "2.0", id, result };
  } catch (err) {
    // 自己的 bug 也只坏这一个请求，服务照常。只说异常的类别：它的原话出自 V8，随 Node 版本而变，不该进客户端的转录
    return errorReply(id, -32603, `内部错误: 处理 ${msg.method} 时出了意外（${err instanceof Error ? err.name : typeof err}）`);
  }
}

// 一行文字 → 答复。坏 JSON 答 -32700（id null），stdio 上是一行一条，HTTP 上是一个请求体一条
export function answerText(text: string): Message | undefined {
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    // Go 版本在这里就退出了；一行坏数据不该让整个服务下线，报错然后接着读
    return errorReply(null, -32700, "解析失败：这一行不是合法 JSON");
  }
  return answer(msg);
}
