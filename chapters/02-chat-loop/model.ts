// model.ts：模型配置（环境变量）和对 /chat/completions 的请求；一切失败都归成一句中文。
// 第 01 章新增：一次请求，等回答整段返回。

export interface ModelConfig {
  baseUrl: string;
  apiKey: string;
  model: string;
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
  return { baseUrl, apiKey, model: env.HARNESS_MODEL || "deepseek-chat" };
}

function isLocal(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "localhost" || host === "127.0.0.1" || host === "[::1]";
}

// 发一次请求，返回模型的回答文本
export async function chat(config: ModelConfig, messages: Message[]): Promise<string> {
  const res = await post(config, { model: config.model, messages });
  const { text, cut } = await readText(res, MAX_BODY);
  if (cut) throw new ModelError(`模型服务的回答超过了 ${MAX_BODY} 字节，不像正常的回答，不再读下去`);
  const body = parseJson(text);
  return answerText(body.choices?.[0]?.message?.content);
}

// content 多半就是一段字。有的服务（Mistral 的推理模型）给的是一串分段：{type: "text"} 段连起来是回答，
// {type: "thinking"} 段是模型的思考，不是回答。不是字的东西一律不当回答，免得打印出一个对象
function answerText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (part?.type === "text" && typeof part.text === "string" ? part.text : "")).join("");
}

async function post(config: ModelConfig, body: object): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  let res: Response;
  try {
    res = await fetch(`${config.baseUrl}/chat/completions`, { method: "POST", headers, body: JSON.stringify(body) });
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

// 正文最多读这么多字节：一个不停发字节的服务器不该吃光内存。一次回答不过几十 KB，16 MiB 足够宽；
// 错误体只给人看开头的两百个字符，读 64 KiB 足够
export const MAX_BODY = 16 * 1024 * 1024;
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
  said = clip(said.trim());
  if (status === 401) return `模型服务拒绝了密钥（HTTP 401）：请检查 HARNESS_API_KEY。服务端说：${said}`;
  if (status === 404) return `找不到模型或地址（HTTP 404）：请检查 HARNESS_MODEL（现在是 ${config.model}）和 HARNESS_BASE_URL。服务端说：${said}`;
  if (status === 429) return `请求太频繁或额度已用完（HTTP 429）：稍后再试。服务端说：${said}`;
  return `模型服务出错（HTTP ${status}）：${said}`;
}

function parseJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    throw new ModelError(`模型服务返回的不是合法 JSON：${clip(text)}`);
  }
}

// 别人的话（服务端的错误体、坏 JSON）只引一小段：前 n 个字，截掉的用“…”标出来。后面各章引别人的话都用它
export function clip(s: string, n = 200): string {
  return s.length > n ? s.slice(0, n) + "…" : s;
}
