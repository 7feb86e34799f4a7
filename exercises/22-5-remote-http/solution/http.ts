// http.ts：远程 MCP 服务（mcp.json 里写 "type": "http" 的那些），走 Streamable HTTP。练习 22-5 新增。
// McpClient 只会和子进程说话：往它的 stdin 写一行 JSON-RPC，从它的 stdout 读回一行行消息。这里造一个“长得像子进程”的东西交给它：
// 写进 stdin 的每一行变成一次 POST，回答（一个 JSON，或者一条 SSE 流）拆回一行行写到 stdout。
// 于是对号入座、Ctrl-C、关闭的先后、（做了练习 22-1 的话）超时和取消，McpClient 里的那些一行不改，照样管用。
// 只有 HTTP 才有的事在这里办：会话号、协议版本头、会话过期（404）就重新握手、关闭时 DELETE、回答的类型和大小。
import type { ChildProcess } from "node:child_process";
import { EventEmitter } from "node:events";
import { PassThrough, Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { LineSplitter, MAX_LINE, type Id } from "./jsonrpc.ts";
import type { ServerConfig } from "./mcp-config.ts";
import { LineTooLongError, readSSE, StreamEndedError, type Resumable } from "./sse.ts";
import { safeLine } from "./terminal.ts";

export interface HttpConfig extends ServerConfig {
  url: string;
  headers: Record<string, string>; // ${VAR} 已经展开
  timeoutMs: number; // 一次工具调用最多等多久（和 Claude Code 一样叫 timeout）
  startupTimeoutMs: number; // 其余的请求（握手、列工具）最多等多久
}

export const isHttp = (config: ServerConfig): config is HttpConfig => typeof (config as Partial<HttpConfig>).url === "string";

// {"type": "http", "url": …, "headers": {…}}：查形状，再借本地服务的那段代码（mcp.ts 的 serverConfig）展开 ${VAR}——url 当 command、headers 当 env。
// 没设置的变量照样是一句警告、跳过这个服务：带着 "Bearer ${TOKEN}" 原文去连，只会换来一个莫名其妙的 401。
// local 只用前两个参数：别的练习给 serverConfig 加了参数（22-1 加了默认超时）也照样能传进来
type LocalConfig = (entry: unknown, environ: NodeJS.ProcessEnv, ...more: never[]) => ServerConfig | string;
export function httpConfig(entry: Record<string, unknown>, environ: NodeJS.ProcessEnv, local: LocalConfig): HttpConfig | string {
  if (typeof entry.url !== "string" || entry.url === "") return "没有写 url";
  const headers = entry.headers ?? {};
  if (!isObject(headers)) return `的 headers 要是一个对象（头的名字 → 字符串），现在是 ${clip(JSON.stringify(headers))}`;
  const odd = Object.entries(headers).find(([, value]) => typeof value !== "string");
  if (odd) return `的 headers 里 ${odd[0]} 的值要是字符串，现在是 ${clip(JSON.stringify(odd[1]))}`;
  const timeoutMs = entry.timeout ?? 60_000;
  if (typeof timeoutMs !== "number" || !(timeoutMs > 0)) return `的 timeout 要是正数（毫秒），现在是 ${clip(JSON.stringify(timeoutMs))}`;
  const startupTimeoutMs = entry.startupTimeout ?? 30_000;
  if (typeof startupTimeoutMs !== "number" || !(startupTimeoutMs > 0)) return `的 startupTimeout 要是正数（毫秒），现在是 ${clip(JSON.stringify(startupTimeoutMs))}`;
  const config = local({ command: entry.url, env: headers, timeout: timeoutMs, startupTimeout: startupTimeoutMs }, environ);
  if (typeof config === "string") return config;
  let url: URL;
  try {
    url = new URL(config.command);
  } catch {
    return `的 url ${clip(JSON.stringify(config.command))} 不是合法的网址`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `的 url 要以 http:// 或 https:// 开头，现在是 ${clip(JSON.stringify(config.command))}`;
  return { ...config, url: url.href, headers: config.env, timeoutMs, startupTimeoutMs };
}

// 一个回答最多 maxBody 字节（默认 MAX_LINE，64 MiB，和 stdio 上一行的上限是同一个设置 HARNESS_MCP_MAX_LINE）：
// JSON 的整个响应体、SSE 的整条流都算
// 关闭时的 DELETE 最多等这么久：对面不理，也不能让 harness 退不了（McpClient.close 两秒后就不再等“进程”退出）
const DELETE_WAIT_MS = 1000;
// 我们对服务器发来的请求（ping）的回答，同时在途最多这么多个；再来的不回答，说一声。每个回答是一次 POST：
// 一个在 SSE 里一口气发两万个 ping 的服务器，不该让我们同时开两万个连接
export const MAX_REPLIES = 16;
// 一个远程服务的警告最多印这么多行，之后说一声就不再印：一个服务器的毛病不该刷掉用户的整个屏幕
export const MAX_WARNINGS = 20;
// SSE 流断在回答之前：服务器给过事件 id，就隔一会儿用 GET 带上 Last-Event-ID 续上（规范的“续传”）。
// 服务器没说隔多久（retry:）就等一秒；接连这么多次续上的流什么也没带来，就不再续
const RETRY_MS = 1000;
export const MAX_RESUMES = 5;

class TransportError extends Error {}

type Message = { id?: Id | null; method?: string; params?: any; result?: unknown; error?: unknown };

// 像一个子进程：stdin、stdout、stderr 三根“管道”，exit 事件；ref/unref、pid 是 McpClient 要用的，这里不占什么
class HttpServerProcess extends EventEmitter {
  readonly pid = undefined;
  exitCode: number | null = null;
  readonly signalCode = null;
  ref() {}
  unref() {}
  readonly stdin: Writable;
  readonly stdout = quiet(new PassThrough());
  readonly stderr = quiet(new PassThrough());
  private readonly config: HttpConfig;
  private readonly name: string;
  private readonly log: (line: string) => void;
  private session: string | undefined; // 服务器在 initialize 的回答上给的 Mcp-Session-Id
  private version: string | undefined; // 谈好的协议版本：之后每个请求都带 MCP-Protocol-Version 头
  private initialize: Message | undefined; // 原样记下，会话过期时照着重新握手
  private initialized = false; // 发过 notifications/initialized
  private renewing: Promise<void> | undefined; // 正在重新握手：同时撞上 404 的几个请求等同一次
  private renewals = 0;
  private readonly inflight = new Map<Id, AbortController>();
  private readonly maxBody: number;
  private replying = 0; // 在途的回答（POST）有几个
  private dropped = 0; // 在途的回答太多、没有回答的服务器请求有几个
  private warnings = 0;

  constructor(name: string, config: HttpConfig, log: (line: string) => void, maxBody: number) {
    super();
    this.maxBody = maxBody;
    this.name = name;
    this.config = config;
    // 警告数到 MAX_WARNINGS 就停：多出的只说一次
    this.log = (line) => {
      if (++this.warnings <= MAX_WARNINGS) log(safeLine(line));
      else if (this.warnings === MAX_WARNINGS + 1) log(`警告: MCP 服务 "${safeLine(name)}" 的警告超过 ${MAX_WARNINGS} 条，后面的不再显示`);
    };
    const lines = new LineSplitter();
    this.stdin = quiet(
      new Writable({
        write: (chunk: Buffer, _encoding, done) => {
          lines.push(chunk, (line) => this.send(line)); // 我们自己写的行，不会超长
          done();
        },
        final: (done) => {
          done();
          void this.shutdown(true);
        },
      }),
    );
    // McpClient 不再听它说话（对面不守协议）：在途的请求都掐掉
    this.stdout.on("close", () => void this.shutdown(false));
    setImmediate(() => this.emit("spawn"));
  }

  // McpClient 写来的一行：它自己编的消息，一定是 JSON
  private send(line: string) {
    const message = JSON.parse(line) as Message;
    if (message.method === "initialize") this.initialize = message;
    if (message.method === "notifications/initialized") this.initialized = true;
    if (message.method === "notifications/cancelled") this.inflight.get(message.params?.requestId)?.abort(new TransportError("已取消"));
    if (typeof message.method === "string" && message.id !== undefined && message.id !== null) void this.call(message, line);
    else if (message.method === undefined && this.replying >= MAX_REPLIES) this.drop();
    else void this.tell(message, line);
  }

  // 对服务器请求的回答在途的已经够多：这一个不回答。服务器等不到 ping 的回答，至多认为我们掉线了；第一次说一声
  private drop() {
    if (this.dropped++ === 0) this.log(`警告: MCP 服务 "${this.name}" 发来的请求太多，在途的回答已有 ${MAX_REPLIES} 个，后面的先不回答`);
  }

  // 一个请求：POST，等它的回答；会话过期就重新握手、再发一次（只一次）。失败变成这个 id 的一个错误响应交回去
  private async call(message: Message, body: string) {
    const id = message.id!;
    const method = message.method!;
    const controller = new AbortController();
    this.inflight.set(id, controller);
    const ms = method === "tools/call" ? this.config.timeoutMs : this.config.startupTimeoutMs;
    const timer = setTimeout(() => controller.abort(new TransportError(`${method} 超过 ${ms / 1000} 秒没有回应（超时）`)), ms);
    try {
      const sentWith = this.session;
      let response = await this.post(body, controller.signal, method !== "initialize");
      if (response.status === 404 && sentWith !== undefined && method !== "initialize") {
        // 规范：带着会话号的请求得到 404，说明会话已经没了（服务器重启过、过期了），要重新 initialize。只重来一次
        await response.body?.cancel();
        if (this.session === sentWith && !this.renewing) this.renewing = this.renew(controller.signal).finally(() => (this.renewing = undefined));
        await this.renewing;
        response = await this.post(body, controller.signal, true);
        if (response.status === 404) throw new TransportError(`会话失效了（HTTP 404），重新握手以后还是 ${await refusal(response)}，不再重试`);
      }
      const answered = await this.answer(response, id, (m) => this.deliver(m), controller.signal);
      if (!answered) throw new TransportError(`回答里没有这个请求（id ${JSON.stringify(id)}）的响应`);
      if (method === "initialize") this.agreed(response, answered);
      this.deliver(answered);
    } catch (e) {
      const reason = controller.signal.aborted ? controller.signal.reason : e;
      this.deliver({ id, error: { code: -32000, message: `远程服务 ${this.config.url}：${describe(reason)}` } });
    } finally {
      clearTimeout(timer);
      this.inflight.delete(id);
    }
  }

  // 通知、我们对服务器请求的回答：服务器收下就答 202，没有内容
  private async tell(message: Message, body: string) {
    const reply = message.method === undefined;
    if (reply) this.replying++;
    try {
      const response = await this.post(body, AbortSignal.timeout(this.config.startupTimeoutMs), true);
      await response.body?.cancel();
      // 404：会话没了，下一个请求会发现、重新握手；别的拒绝说一声
      if (response.status >= 400 && response.status !== 404) this.log(`警告: MCP 服务 "${this.name}" 没有收下 ${message.method ?? "我们的回答"}（HTTP ${response.status}）`);
    } catch (e) {
      if (!this.stdout.destroyed) this.log(`警告: MCP 服务 "${this.name}" 的 ${message.method ?? "回答"} 没有送到：${describe(e)}`);
    } finally {
      if (reply) this.replying--;
    }
  }

  private post(body: string, signal: AbortSignal, inSession: boolean): Promise<Response> {
    const headers: Record<string, string> = { ...this.config.headers, "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    if (inSession && this.session !== undefined) headers["Mcp-Session-Id"] = this.session;
    if (inSession && this.version !== undefined) headers["MCP-Protocol-Version"] = this.version;
    // 不跟着跳转：headers 里的令牌会被原样带到新地址去，那可能是别人的机器（见 answer()）
    return fetch(this.config.url, { method: "POST", headers, body, signal, redirect: "manual" });
  }

  // initialize 的回答到了：记下会话号和谈好的版本（版本对不对由 McpClient 判断，不对它会断开）
  private agreed(response: Response, answer: Message) {
    const session = response.headers.get("mcp-session-id");
    // 规范：会话号只能是可见的 ASCII 字符。别的不收，也就不会带着它发出去
    this.session = session !== null && /^[\x21-\x7e]+$/.test(session) ? session : undefined;
    const result = answer.result as { protocolVersion?: unknown } | undefined;
    this.version = typeof result?.protocolVersion === "string" ? result.protocolVersion : undefined;
  }

  // 照记下的 initialize 重新握手（用一个我们自己的 id，回答不交给 McpClient），再补一个 initialized 通知
  private async renew(signal: AbortSignal) {
    this.session = undefined;
    const id = `重新握手-${++this.renewals}`;
    const response = await this.post(JSON.stringify({ ...this.initialize, id }), signal, false);
    const answer = await this.answer(response, id, (m) => this.deliver(m), signal);
    if (!answer || answer.error !== undefined) throw new TransportError(`会话失效了（HTTP 404），重新握手没有成功`);
    this.agreed(response, answer);
    if (this.initialized) await this.tell({ method: "notifications/initialized" }, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  }

  // 读一个请求的回答：JSON 或者 SSE。流里别的消息（通知、服务器的请求）照样交给 McpClient；等到 id 对得上的响应就不再读
  private async answer(response: Response, id: Id, other: (m: Message) => void, signal: AbortSignal): Promise<Message | undefined> {
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      const to = JSON.stringify(clip(response.headers.get("location") ?? "（没说）"));
      throw new TransportError(`HTTP ${response.status}：服务器要我们换到 ${to}。不跟着跳（headers 里的令牌会被带过去）：地址没错的话，改 mcp.json 里的 url`);
    }
    if (!response.ok) throw new TransportError(await refusal(response));
    const type = mediaType(response);
    if (type === "application/json") {
      const text = await readBody(response, this.maxBody);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new TransportError(`回答不是合法的 JSON：${clip(text)}`);
      }
      // 一个 JSON 里可以是一批消息（数组）
      let mine: Message | undefined;
      for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
        if (isObject(m) && m.id === id && m.method === undefined) mine = m;
        else other(m as Message);
      }
      return mine;
    }
    if (type === "text/event-stream" && response.body) return this.events(response.body, id, other, signal);
    await response.body?.cancel();
    throw new TransportError(`回答的 Content-Type 是 ${JSON.stringify(response.headers.get("content-type") ?? "（没有）")}，要的是 application/json 或 text/event-stream`);
  }

  // 一条 SSE 流里等 id 的回答。流正常结束了、回答还没来：服务器给过事件 id 的话，等它说的 retry 毫秒，
  // GET 同一个地址、带上 Last-Event-ID 续上，接着等。整条流（连同续上的）合起来不超过 maxBody
  private async events(body: ReadableStream<Uint8Array>, id: Id, other: (m: Message) => void, signal: AbortSignal): Promise<Message> {
    const seen: Resumable = {};
    let size = 0;
    const max = this.maxBody;
    const count = () =>
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, stream) {
          size += chunk.length;
          if (size > max) stream.error(new TransportError(`SSE 流超过 ${max / 1024 / 1024} MiB 还没有等到回答，不再读下去`));
          else stream.enqueue(chunk);
        },
      });
    for (let fruitless = 0; ; ) {
      let messages = 0;
      try {
        for await (const data of readSSE(body.pipeThrough(count()), undefined, seen)) {
          if (data === "") continue; // 规范里的“预备”事件：只有 id（也许还有 retry），data 是空的，留着断线时续上用
          let m: unknown;
          try {
            m = JSON.parse(data);
          } catch {
            this.log(`警告: MCP 服务 "${this.name}" 的 SSE 里有一个事件不是 JSON，跳过：${clip(data)}`);
            continue;
          }
          if (isObject(m) && m.id === id && m.method === undefined) return m; // 跳出循环就取消了这条流：不等服务器自己关
          messages++;
          other(m as Message);
        }
      } catch (e) {
        if (e instanceof LineTooLongError || !(e instanceof StreamEndedError)) throw e; // 只有“流正常结束了”才往下走
      }
      if (seen.lastEventId === undefined) throw new TransportError("SSE 流结束了，没有等到回答（流里没有事件 id，续不上）");
      fruitless = messages > 0 ? 0 : fruitless + 1;
      if (fruitless > MAX_RESUMES) throw new TransportError(`SSE 流断了，接连续上 ${MAX_RESUMES} 次什么也没等到，不再续`);
      await sleep(seen.retry ?? RETRY_MS, undefined, { signal }); // 规范：至少等服务器说的那么久
      body = await this.resume(seen.lastEventId, signal);
    }
  }

  // 续传：GET 同一个地址，Last-Event-ID 说我们收到了哪里；回答的只能是一条 SSE 流
  private async resume(lastEventId: string, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    const headers: Record<string, string> = { ...this.config.headers, Accept: "text/event-stream", "Last-Event-ID": lastEventId };
    if (this.session !== undefined) headers["Mcp-Session-Id"] = this.session;
    if (this.version !== undefined) headers["MCP-Protocol-Version"] = this.version;
    const response = await fetch(this.config.url, { method: "GET", headers, signal, redirect: "manual" });
    const type = mediaType(response);
    if (response.ok && type === "text/event-stream" && response.body) return response.body;
    const why = response.ok ? `Content-Type 是 ${JSON.stringify(response.headers.get("content-type") ?? "（没有）")}` : await refusal(response);
    await response.body?.cancel();
    throw new TransportError(`SSE 流断在回答之前，带着 Last-Event-ID 续的时候服务器答 ${why}`);
  }

  // 一条消息交给 McpClient：一行一个 JSON，和子进程写在 stdout 上的一样
  private deliver(message: Message) {
    if (!this.stdout.destroyed) this.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
  }

  // 收尾：在途的请求都掐掉；体面的关闭（stdin 关了）还要 DELETE 会话，告诉服务器可以扔掉它了
  private async shutdown(polite: boolean) {
    if (this.exitCode !== null) return;
    this.exitCode = 0;
    for (const controller of this.inflight.values()) controller.abort(new TransportError("连接已关闭"));
    if (polite && this.session !== undefined) {
      const headers: Record<string, string> = { ...this.config.headers, "Mcp-Session-Id": this.session };
      if (this.version !== undefined) headers["MCP-Protocol-Version"] = this.version;
      try {
        const response = await fetch(this.config.url, { method: "DELETE", headers, signal: AbortSignal.timeout(DELETE_WAIT_MS), redirect: "manual" });
        await response.body?.cancel(); // 405 也行：规范允许服务器不让客户端结束会话
      } catch {
        // 对面不在了，或者不理：会话终归会过期
      }
    }
    this.emit("exit", 0, null);
  }
}

// maxBody：一个回答最多多少字节，McpClient 把它一行的上限交过来
export function httpProcess(name: string, config: HttpConfig, log: (line: string) => void, maxBody = MAX_LINE): ChildProcess {
  return new HttpServerProcess(name, config, log, maxBody) as unknown as ChildProcess;
}

// 一个 4xx/5xx：说出状态码，服务器给了 JSON-RPC 的错误就连它的原话一起（读得不多）
async function refusal(response: Response): Promise<string> {
  let detail = "";
  try {
    const text = await readBody(response, 4096);
    const parsed = JSON.parse(text);
    if (isObject(parsed) && isObject(parsed.error) && typeof parsed.error.message === "string") detail = `：${clip(parsed.error.message)}`;
  } catch {
    // 不是 JSON、太长、读不完：只报状态码
  }
  return `HTTP ${response.status}${detail}`;
}

// 读完整个响应体，最多 max 字节：先看 Content-Length，没写的边读边数
async function readBody(response: Response, max: number): Promise<string> {
  const tooBig = () => new TransportError(`回答超过 ${max >= 1024 * 1024 ? `${max / 1024 / 1024} MiB` : `${max} 字节`} 的上限，不再读下去`);
  const declared = Number(response.headers.get("content-length"));
  if (declared > max) {
    await response.body?.cancel();
    throw tooBig();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    for await (const chunk of response.body) {
      size += chunk.length;
      if (size > max) throw tooBig(); // 抛出时 for await 取消这个流，连接随之断开
      chunks.push(chunk);
    }
  }
  return Buffer.concat(chunks, size).toString("utf8");
}

// Content-Type 去掉 ; charset=… 这类参数、转成小写：只比类型本身
const mediaType = (response: Response) => (response.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();

// 一个失败说成一句话。fetch 自己的报错随 Node 版本而变，只取系统的错误码
function describe(e: unknown): string {
  if (e instanceof TransportError || e instanceof LineTooLongError) return e.message;
  const code = (e as { cause?: { code?: unknown } })?.cause?.code;
  if (typeof code === "string") return `连不上（${code}）`;
  if (e instanceof Error && e.name === "TimeoutError") return "超时";
  return "连接出错";
}

// McpClient 会对这几根“管道”调 ref/unref，它们不占事件循环，什么也不用做
function quiet<T extends object>(stream: T): T & { ref(): void; unref(): void } {
  return Object.assign(stream, { ref() {}, unref() {} });
}

const isObject = (v: unknown): v is Record<string, any> => typeof v === "object" && v !== null && !Array.isArray(v);

function clip(s: string, n = 120): string {
  return s.length > n ? s.slice(0, n) + "…" : s;
}
