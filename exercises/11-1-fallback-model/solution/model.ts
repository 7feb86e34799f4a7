// model.ts：模型配置（环境变量）和对 /chat/completions 的请求；一切失败都归成一句中文。
// 第 11 章改动：ModelError 记下能不能重试、服务端要求等多久；chat 接受一个 signal（超时）；重试策略读进配置。
// 练习 11-1：ModelError 还记下是不是过载（503、529）；HARNESS_FALLBACK_MODEL 读进配置。
import type { RetryPolicy } from "./retry.ts";
import { LineTooLongError, readSSE, StreamEndedError } from "./sse.ts";
import { safeLine } from "./terminal.ts";

export interface ModelConfig {
  baseUrl: string;
  apiKey: string;
  model: string;
  retry: RetryPolicy;
  fallbackModel?: string; // 主模型过载、重试也用完了，改问它
}

// 工具声明：名字、一句话描述、参数的 JSON Schema——模型就是读这三样来决定调不调、怎么调
export interface ToolSpec {
  name: string;
  description: string;
  parameters: object;
}

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string }; // arguments 是一段 JSON 文本，不保证合法
}

// assistant 消息就是下一次请求要带回去的样子：回答的字、工具调用，
// 带工具调用时还有 DeepSeek 思考模式的 reasoning_content（见 chat 的末尾）
export interface AssistantMessage {
  role: "assistant";
  content: string | null;
  tool_calls?: ToolCall[];
  [field: string]: unknown;
}

export type Message =
  | { role: "system" | "user"; content: string }
  | AssistantMessage
  | { role: "tool"; tool_call_id: string; content: string };

// 读者自己改得好的错（缺密钥、地址写错）：退出码 2
export class ConfigError extends Error {}

// 一个整数的环境变量：没设就用默认值；不是整数、或者小于 min，就是配置错误，说清要什么（unit：单位，写进说明）
export function envInt(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, unit = ""): number {
  const n = Number(env[name] ?? fallback);
  const want = (min === 1 ? "正整数" : `不小于 ${min} 的整数`) + (unit ? `（${unit}）` : "");
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`${name} 要是${want}，现在是 ${env[name]}`);
  return n;
}

// 模型服务那头的错（HTTP 错误、连不上、回的不是 JSON）：退出码 1。
// retryable：过一会儿再试可能就好（429、5xx、连不上、流断了）；retryAfterMs：服务端要求等多久；
// overloaded：这个模型过载了（503、529）——换一个模型也许马上就好
export class ModelError extends Error {
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly overloaded: boolean;
  constructor(message: string, options: { retryable?: boolean; retryAfterMs?: number; overloaded?: boolean } = {}) {
    super(message);
    this.retryable = options.retryable ?? false;
    this.retryAfterMs = options.retryAfterMs;
    this.overloaded = options.overloaded ?? false;
  }
}

export function loadConfig(env: NodeJS.ProcessEnv): ModelConfig {
  const baseUrl = (env.HARNESS_BASE_URL || "https://api.deepseek.com").replace(/\/+$/, "");
  if (!URL.canParse(baseUrl)) throw new ConfigError(`HARNESS_BASE_URL 不是合法地址：${baseUrl}`);
  const apiKey = env.HARNESS_API_KEY || env.DEEPSEEK_API_KEY || "";
  // 本机的模型（Ollama、vLLM）不查密钥，远端的服务一定要
  if (!apiKey && !isLocal(baseUrl)) {
    throw new ConfigError(
      "未设置 HARNESS_API_KEY（或 DEEPSEEK_API_KEY）：请先 export HARNESS_API_KEY=你的密钥，或写进 .env 用 node --env-file=.env 读入；本地模型（localhost）不需要密钥",
    );
  }
  const retry = {
    retries: envInt(env, "HARNESS_RETRIES", 3, 0),
    baseMs: envInt(env, "HARNESS_RETRY_BASE_MS", 1000, 0),
    timeoutMs: Math.max(1, envInt(env, "HARNESS_TIMEOUT_MS", 600_000, 0)), // 0 毫秒的超时等于每个请求都立刻失败
  };
  return { baseUrl, apiKey, model: env.HARNESS_MODEL || "deepseek-chat", retry, fallbackModel: env.HARNESS_FALLBACK_MODEL || undefined };
}

function isLocal(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "localhost" || host === "127.0.0.1" || host === "[::1]";
}

// 收到的字交给谁：text 是回答；thinking 是模型的思考（不是回答，别当回答打印）；note 是 harness 自己要说的一整行
export interface ReplyOut {
  text(s: string): void;
  thinking(s: string): void;
  note(line: string): void;
}

// 思考有三种来法：DeepSeek 的 reasoning_content、Ollama 等家的 reasoning，还有 Mistral 放进 content 数组的 thinking 段
const REASONING = ["reasoning_content", "reasoning"];

// 发一次流式请求：回答、思考边收边交给 out；返回完整的 assistant 消息（可能带 tool_calls）
export async function chat(config: ModelConfig, messages: Message[], tools: ToolSpec[], out: ReplyOut, signal?: AbortSignal): Promise<AssistantMessage> {
  const body: Record<string, unknown> = { model: config.model, messages, stream: true };
  // 没有工具就不发 tools 字段：有的服务（vLLM）会拒绝空的 tools: []
  if (tools.length > 0) body.tools = tools.map((t) => ({ type: "function", function: t }));
  const res = await post(config, body, signal);
  // 有的代理或服务不认 stream: true，照旧回一整段 JSON——别把它当成“流断了”
  const type = res.headers.get("content-type") ?? "";
  if (!type.includes("text/event-stream")) throw new ModelError(`模型服务没有按流式回答（content-type: ${safeLine(type)}）：${safeLine(clip((await readText(res, MAX_ERROR_BODY)).text))}`);
  const message: AssistantMessage = { role: "assistant", content: "" };
  const calls: ToolCall[] = [];
  const byIndex = new Map<number, ToolCall>();
  let reasoning = ""; // DeepSeek 的 reasoning_content，一字不改地攒着
  let finish = "";
  let thinkingLast = false; // 最后收到的是思考：回复在这时结束，就是想到一半被截断了
  try {
    for await (const data of readSSE(res.body!)) {
      const chunk = parseJson(data);
      if (chunk.error) throw new ModelError(`模型服务在回答途中出错：${safeLine(clip(chunk.error.message ?? JSON.stringify(chunk.error)))}`);
      const choice = chunk.choices?.[0];
      if (choice?.finish_reason) finish = String(choice.finish_reason);
      const delta = choice?.delta ?? {};
      if (typeof delta.reasoning_content === "string") reasoning += delta.reasoning_content;
      const parts: Piece[] = [...REASONING.map((key) => ({ thinking: true, text: delta[key] })), ...contentParts(delta.content)];
      for (const part of parts) {
        if (typeof part.text !== "string" || part.text === "") continue;
        thinkingLast = part.thinking;
        if (part.thinking) out.thinking(part.text);
        else {
          message.content += part.text;
          out.text(part.text);
        }
      }
      for (const piece of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
        addToolCallPiece(piece, byIndex, calls);
        thinkingLast = false;
      }
    }
  } catch (e) {
    if (e instanceof ModelError || signal?.aborted) throw e; // 超时（或者被中断）交给调用方处理
    // 连接被掐断时，fetch 只说一句 "terminated"：那是运行时的措辞，不照抄。readSSE 自己的那句照转
    const why = e instanceof StreamEndedError ? `（${e.message}）` : "";
    // 一行长得离谱：对方不按规矩说话，重试也还是这样，不重试
    throw new ModelError(`回答收到一半，连接断了${why}`, { retryable: !(e instanceof LineTooLongError) });
  }
  if (finish === "length" && thinkingLast) out.note("警告: 模型还在思考，这次回复就到了长度上限（finish_reason: length），后面的回答没有收到");
  if (calls.length > 0) {
    message.tool_calls = calls;
    if (message.content === "") message.content = null;
    // 思考只在这里回到请求里：DeepSeek 要求带工具调用的那条消息在以后的每次请求里都带着它的 reasoning_content，
    // 不带就回 400。没有工具调用的回答、别家的 reasoning 和 thinking 段都不带回去——Groq 见到请求里有 reasoning 就回 400
    if (reasoning) message.reasoning_content = reasoning;
  }
  return message;
}

// delta.content 多半是一段字。Mistral 的推理模型给的是一串分段：text 段是回答，thinking 段（里面又是一串 text 段）是思考。
// 别的段（图片、引用）和不是字的东西都跳过：当成字打印，屏幕上只会多出一个对象
type Piece = { thinking: boolean; text: unknown };
function contentParts(content: unknown): Piece[] {
  if (!Array.isArray(content)) return [{ thinking: false, text: content }];
  return content.flatMap((part): Piece[] => {
    if (part?.type === "text") return [{ thinking: false, text: part.text }];
    if (part?.type !== "thinking") return [];
    const inner: unknown[] = Array.isArray(part.thinking) ? part.thinking : [part.thinking];
    return inner.map((t) => ({ thinking: true, text: typeof t === "string" ? t : (t as { text?: unknown } | null)?.text }));
  });
}

// 一个工具调用在流里是分好几块到的：第一块带 id 和名字，后面的块只带 arguments 的一截，
// 按 index 对上号再拼起来。有的服务（Ollama）给并行的几个调用都用 index 0，只能靠新的 id 认出新调用
function addToolCallPiece(piece: any, byIndex: Map<number, ToolCall>, calls: ToolCall[]) {
  const index = piece.index ?? 0;
  let call = byIndex.get(index);
  if (!call || (piece.id && piece.id !== call.id)) {
    call = { id: piece.id ?? "", type: "function", function: { name: "", arguments: "" } };
    byIndex.set(index, call);
    calls.push(call);
  }
  if (piece.function?.name) call.function.name = piece.function.name;
  if (piece.function?.arguments) call.function.arguments += piece.function.arguments;
}

async function post(config: ModelConfig, body: object, signal?: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  let res: Response;
  try {
    res = await fetch(`${config.baseUrl}/chat/completions`, { method: "POST", headers, body: JSON.stringify(body), signal });
  } catch (e) {
    if (signal?.aborted) throw e;
    // fetch 只说 "fetch failed"，真正的原因（ECONNREFUSED、ENOTFOUND……）藏在 cause 里。只取错误码：
    // cause 的原话出自 Node 自带的 HTTP 客户端，换个 Node 版本就可能换个说法；没有错误码就不说
    const code = (e as { cause?: { code?: unknown } }).cause?.code;
    const why = typeof code === "string" ? `（${code}）` : "";
    throw new ModelError(`连不上模型服务 ${config.baseUrl}${why}：请检查 HARNESS_BASE_URL，本地模型要先启动`, { retryable: true });
  }
  if (!res.ok) {
    const retryable = res.status === 429 || res.status >= 500;
    // 过载只认 503 和 529（Anthropic 的 overloaded_error）；429 是这个账号发得太快，换模型也一样，401、404 更是
    const overloaded = res.status === 503 || res.status === 529;
    throw new ModelError(describeHttpError(res.status, (await readText(res, MAX_ERROR_BODY)).text, config), { retryable, retryAfterMs: retryAfter(res), overloaded });
  }
  return res;
}

// Retry-After 可以是秒数，也可以是一个 HTTP 日期
function retryAfter(res: Response): number | undefined {
  const value = res.headers.get("retry-after");
  if (!value) return undefined;
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.max(0, ms) : undefined;
}

// 错误体和不是流的正文最多读这么多字节：一个不停发字节的服务器不该吃光内存。它们只给人看开头的两百个字符，
// 读 64 KiB 足够（流式的回答由 sse.ts 给一行、一个事件设上限）
export const MAX_ERROR_BODY = 64 * 1024;

// 读出正文，最多 max 字节。超了就只留前 max 字节、cut 为 true：从 for await 里返回会取消这个流、断开连接
export async function readText(res: Response, max: number): Promise<{ text: string; cut: boolean }> {
  if (!res.body) return { text: "", cut: false };
  const decoder = new TextDecoder(); // stream: true：一个汉字的三个字节分在两块里到达，也不会解成乱码
  let text = "";
  let bytes = 0;
  for await (const chunk of res.body) {
    if (bytes + chunk.length > max) return { text: text + decoder.decode(chunk.subarray(0, max - bytes)), cut: true };
    bytes += chunk.length;
    text += decoder.decode(chunk, { stream: true });
  }
  return { text: text + decoder.decode(), cut: false };
}

function describeHttpError(status: number, text: string, config: ModelConfig): string {
  let said = text;
  try {
    said = JSON.parse(text).error?.message ?? text;
  } catch {
    // 错误体不是 JSON，就原样给人看
  }
  said = safeLine(clip(said.trim())); // 显形了再引：错误体里的 ESC 序列、换行不能在用户的屏幕上画东西
  if (status === 401) return `模型服务拒绝了密钥（HTTP 401）：请检查 HARNESS_API_KEY。服务端说：${said}`;
  if (status === 404) return `找不到模型或地址（HTTP 404）：请检查 HARNESS_MODEL（现在是 ${config.model}）和 HARNESS_BASE_URL。服务端说：${said}`;
  if (status === 429) return `请求太频繁或额度已用完（HTTP 429）：稍后再试。服务端说：${said}`;
  return `模型服务出错（HTTP ${status}）：${said}`;
}

function parseJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    throw new ModelError(`模型服务返回的不是合法 JSON：${safeLine(clip(text))}`);
  }
}

// 别人的话（服务端的错误体、坏 JSON）只引一小段：前 n 个字，截掉的用“…”标出来。后面各章引别人的话都用它
export function clip(s: string, n = 200): string {
  return s.length > n ? s.slice(0, n) + "…" : s;
}
