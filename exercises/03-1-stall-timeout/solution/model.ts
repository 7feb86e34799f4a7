// model.ts：模型配置（环境变量）和对 /chat/completions 的请求；一切失败都归成一句中文。
// 第 03 章改动：请求改成流式（stream: true），边收边把回答和思考分别交给 out；字节流怎么切交给 sse.ts。
// 练习 03-1：流停住（一段时间一个字节也没有）就掐断请求，HARNESS_STALL_MS 可调。
import { readSSE, StreamEndedError } from "./sse.ts";
import { safeLine } from "./terminal.ts";

export interface ModelConfig {
  baseUrl: string;
  apiKey: string;
  model: string;
  stallMs: number; // 流多久没有一个字节就算停住了（HARNESS_STALL_MS）
}

export interface Message {
  role: "system" | "user" | "assistant";
  content: string;
}

// 读者自己改得好的错（缺密钥、地址写错）：退出码 2
export class ConfigError extends Error {}

// 模型服务那头的错（HTTP 错误、连不上、回的不是 JSON）：退出码 1
export class ModelError extends Error {}

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
  return { baseUrl, apiKey, model: env.HARNESS_MODEL || "deepseek-chat", stallMs: stallSetting(env.HARNESS_STALL_MS) };
}

// 默认两分钟：想得久的模型隔很久才出一个字，但正经的服务在想的时候会发注释行报平安，两分钟一个字节都没有，多半是真停了
export const DEFAULT_STALL_MS = 120_000;

function stallSetting(raw: string | undefined): number {
  if (!raw) return DEFAULT_STALL_MS;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms <= 0) throw new ConfigError(`HARNESS_STALL_MS 要写成正整数（毫秒），现在是 ${safeLine(clip(raw))}`);
  return ms;
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

// 看门狗：发出请求时开始数，每收到一块字节就从头数；数到 ms 还没有新字节，就掐断这次请求（连接一起关掉）
function watchdog(ms: number) {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const kick = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(), ms);
  };
  kick();
  return { signal: controller.signal, kick, stop: () => clearTimeout(timer) };
}

// 字节原样往下传，每过一块就踢一下看门狗
function kicking(kick: () => void) {
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, pass) {
      kick();
      pass.enqueue(chunk);
    },
  });
}

// 发一次流式请求：回答、思考边收边交给 out，最后返回完整的回答。流停住了，已经交给 out 的字留着，抛一句“停了多久”
export async function chat(config: ModelConfig, messages: Message[], out: ReplyOut): Promise<string> {
  const dog = watchdog(config.stallMs);
  try {
    return await receive(config, messages, out, dog);
  } catch (e) {
    // 掐断以后 fetch 和读流的地方各自报错（“连不上”“连接断了”），真正的原因是看门狗
    if (dog.signal.aborted) throw new ModelError(`流停住了：${config.stallMs / 1000} 秒没有收到一个字节，放弃这次请求（HARNESS_STALL_MS 可以调长）`);
    throw e;
  } finally {
    dog.stop(); // 不清掉，答完了进程还要陪着计时器再等一轮
  }
}

async function receive(config: ModelConfig, messages: Message[], out: ReplyOut, dog: ReturnType<typeof watchdog>): Promise<string> {
  const res = await post(config, { model: config.model, messages, stream: true }, dog.signal);
  // 有的代理或服务不认 stream: true，照旧回一整段 JSON——别把它当成“流断了”
  const type = res.headers.get("content-type") ?? "";
  if (!type.includes("text/event-stream")) throw new ModelError(`模型服务没有按流式回答（content-type: ${safeLine(type)}）：${safeLine(clip((await readText(res, MAX_ERROR_BODY)).text))}`);
  let content = "";
  let finish = "";
  let thinkingLast = false; // 最后收到的是思考：回复在这时结束，就是想到一半被截断了
  try {
    // 每一块字节都让看门狗从头数，不只是 data: 事件：服务端想得久的时候只发 ": keep-alive" 注释行，那也是活着
    for await (const data of readSSE(res.body!.pipeThrough(kicking(dog.kick)))) {
      const chunk = parseJson(data);
      if (chunk.error) throw new ModelError(`模型服务在回答途中出错：${safeLine(clip(chunk.error.message ?? JSON.stringify(chunk.error)))}`);
      const choice = chunk.choices?.[0];
      if (choice?.finish_reason) finish = String(choice.finish_reason);
      const delta = choice?.delta ?? {};
      const parts: Piece[] = [...REASONING.map((key) => ({ thinking: true, text: delta[key] })), ...contentParts(delta.content)];
      for (const part of parts) {
        if (typeof part.text !== "string" || part.text === "") continue;
        thinkingLast = part.thinking;
        if (part.thinking) out.thinking(part.text);
        else {
          content += part.text;
          out.text(part.text);
        }
      }
    }
  } catch (e) {
    if (e instanceof ModelError) throw e;
    // 连接被掐断时，fetch 只说一句 "terminated"：那是运行时的措辞，不照抄。readSSE 自己的那句照转
    const why = e instanceof StreamEndedError ? `（${e.message}）` : "";
    throw new ModelError(`回答收到一半，连接断了${why}`);
  }
  if (finish === "length" && thinkingLast) out.note("警告: 模型还在思考，这次回复就到了长度上限（finish_reason: length），后面的回答没有收到");
  return content;
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

async function post(config: ModelConfig, body: object, signal?: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  let res: Response;
  try {
    res = await fetch(`${config.baseUrl}/chat/completions`, { method: "POST", headers, body: JSON.stringify(body), signal });
  } catch (e) {
    // fetch 只说 "fetch failed"，真正的原因（ECONNREFUSED、ENOTFOUND……）藏在 cause 里。只取错误码：
    // cause 的原话出自 Node 自带的 HTTP 客户端，换个 Node 版本就可能换个说法；没有错误码就不说
    const code = (e as { cause?: { code?: unknown } }).cause?.code;
    const why = typeof code === "string" ? `（${code}）` : "";
    throw new ModelError(`连不上模型服务 ${config.baseUrl}${why}：请检查 HARNESS_BASE_URL，本地模型要先启动`);
  }
  if (!res.ok) throw new ModelError(describeHttpError(res.status, (await readText(res, MAX_ERROR_BODY)).text, config));
  return res;
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
