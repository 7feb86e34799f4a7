// 脚本模型：一个真正的 HTTP 服务器，说 OpenAI 兼容的 POST /chat/completions。
// 它按脚本一轮一轮地回答（流式与非流式都支持），用来让每一章离线、确定地跑起来。
// 它不是 mock：harness 发出的是真请求，收到的是真 SSE 字节流，出错时是真的 HTTP 状态码。
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Profile = "deepseek" | "openai" | "ollama" | "vllm" | "mistral" | "groq";
// 场景写 "profiles": "all" 就是这四家（流式、工具调用、用量的形状）。mistral、groq 只在讲思考的场景里点名：
// mistral 把思考放进 content 数组（thinking 段），groq 拒绝请求里带回的任何思考字段
export const PROFILES: Profile[] = ["deepseek", "openai", "ollama", "vllm"];

export interface ScriptedToolCall {
  name: string;
  arguments: string; // 原样发给 harness；可以含 {{tool}} 模板
}

// 对收到的请求做的检查；任何一条不满足，服务器就回一个点名这一轮的错误
export interface Expect {
  stream?: boolean;
  tools?: string[]; // 声明的工具名，按顺序完全一致（继承到后面的章：这些名字按这个顺序都在，中间可以多出后来加的工具）
  toolsInclude?: string[]; // 这些名字必须出现在 tools 里
  toolsExclude?: string[]; // 这些名字不许出现在 tools 里
  system?: string; // system 消息包含
  systemExcludes?: string; // system 消息不包含
  lastUser?: string; // 最后一条 user 消息包含
  lastTool?: string; // 最后一条 tool 消息包含
  messages?: number; // 消息条数
  dialogue?: number; // 不算 system 的消息条数（第 04 章起多了一条 system，早先的场景用它，后面的章照样成立）
  contains?: string; // 某一条消息（不论角色）包含
  lastAssistant?: string; // 最后一条 assistant 消息的 content 是一段文字（不是数组、不是 JSON），而且包含这段
  plainNoThinking?: boolean; // 没有 tool_calls 的 assistant 消息不带思考：没有 reasoning_content、reasoning 字段，content 是一段文字
  model?: string; // 请求的 model 字段正好是它（换了备用模型以后，哪次请求问的是哪个模型）
}

export interface Turn {
  when?: Expect; // 只有符合这些条件的请求才会用到这一轮（默认按顺序）
  expect?: Expect;
  content?: string; // 可以含 {{tool}}、{{tool:2}}、{{tool:1|正则}} 模板
  reasoning?: string; // 思考内容（DeepSeek 的 reasoning_content / Ollama、vLLM、Groq 的 reasoning / Mistral 的 thinking 段）
  tool_calls?: ScriptedToolCall[];
  finish_reason?: string;
  status?: number; // 回一个 HTTP 错误
  error?: string; // 错误体里的 message
  retryAfter?: number; // 429 时的 Retry-After 秒数
  malformed?: boolean; // 200，但正文不是合法 JSON
  delayMs?: number; // 先等这么久再回答（客户端断开就不再等）
  afterTurn?: number; // 先等脚本里的第 N 轮答完再回答：几个并发的子 agent，谁的日志在前由它定，不靠睡一会儿
  chunkBytes?: number; // 流式：把 SSE 字节按这个大小切开，一片一片地写
  dropAfterBytes?: number; // 流式：写出这么多字节后直接掐断连接（模拟网络中断）
  // 流式：写完前 N 个 SSE 事件后停下，连接开着不关（模拟服务端卡在半路）：过 pauseMs 再接着写；没给 pauseMs 就一直停到客户端断开
  pauseAfterEvents?: number;
  pauseMs?: number;
  keepAliveMs?: number; // 停下的那段时间里每隔这么久发一行 SSE 注释 ": keep-alive"（服务繁忙时 DeepSeek 就这样报平安），要配 pauseMs
  trickleMs?: number; // 流式：每写一片（配 chunkBytes）就等这么久再写下一片：慢，但字节一直在来
  endlessLine?: boolean; // 流式：一行 data: 永远不换行，一直写到客户端断开（最多 64 MiB）——检查读取器给一行设了上限
  endlessBody?: boolean; // 不管流不流式，回一段 JSON 正文（给了 status 就是错误体），一直写到客户端断开（最多 64 MiB）——检查正文也有上限
  // 这一轮报这样的用量，不从请求估（没写的项照旧估）：计费的练习要整齐、不随请求内容变的数；也可以故意写成负数、字符串
  usage?: Partial<Usage>;
}

export interface Script {
  turns: Turn[];
  profile?: Profile;
  improvise?: (request: any) => Turn; // 不照剧本：每个请求现编一轮（npm run demo -- NN --repl 让读者随便敲）
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
}

export interface RecordedRequest {
  body: any;
  status: number;
  rejected?: string; // 脚本模型拒绝了这个请求（检查没过、服务商会回 400、脚本里没有对应的轮）：为什么
  reply?: RecordedReply; // 它得到的回答（npm run site 的线路视图要看）；报错、坏 JSON 的回答没有这一项
}

export interface RecordedReply {
  content: string;
  reasoning?: string;
  tool_calls: { id: string; name: string; arguments: string }[];
  finish_reason: string;
  usage?: object; // 发出去的 usage 字段，按服务商的形状；流式又没要 include_usage 时没发，就没有
}

export interface ScriptedModel {
  url: string;
  requests: RecordedRequest[];
  unusedTurns(): number[]; // 脚本里一直没被用到的轮（从 1 数）
  received(n: number): Promise<void>; // 收到第 n 次请求（从 1 数）时兑现：测试等它再动手，不靠睡一会儿
  finished(n: number): Promise<void>; // 第 n 次请求了结时兑现：回答写完了，或者客户端先断开了
  close(): Promise<void>;
}

export interface ModelOptions {
  inherited?: boolean; // 场景出自更早的一章：后面的章加了工具是有意的，tools 只要求按顺序都在
  // 计 token 之前先替换掉每次运行都不同的东西（临时目录、今天的日期……），
  // 这样同一个场景在任何机器、任何一天算出的用量都一样
  normalize?: (text: string) => string;
}

class TurnError extends Error {}

export async function startScriptedModel(script: Script, options: ModelOptions = {}): Promise<ScriptedModel> {
  const profile = script.profile ?? "deepseek";
  const normalize = options.normalize ?? ((s: string) => s);
  const requests: RecordedRequest[] = [];
  const reasoningCalls = new Set<string>(); // 带着思考内容发出的 tool_call id
  const previousPrompts: string[] = [];
  const used: boolean[] = [];
  const answered = new Map<number, Promise<void>>(); // 第 i 轮（从 0 数）答完了没有
  const markAnswered: ((() => void) | undefined)[] = [];
  const answeredTurn = (i: number) => {
    if (!answered.has(i)) answered.set(i, new Promise<void>((resolve) => (markAnswered[i] = resolve)));
    return answered.get(i)!;
  };
  let callCounter = 0;
  // “第 n 次请求到了”“第 n 次请求了结了”：先问先等、后到先记，谁先谁后都行
  const moments = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  const moment = (key: string) => {
    let m = moments.get(key);
    if (!m) {
      let resolve = () => {};
      const promise = new Promise<void>((r) => (resolve = r));
      moments.set(key, (m = { promise, resolve }));
    }
    return m;
  };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const raw = await readBody(req);
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      return sendError(res, 404, `脚本模型：没有这个地址 ${req.method} ${req.url}`);
    }
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      return sendError(res, 400, "脚本模型：请求体不是合法 JSON");
    }
    const record: RecordedRequest = { body, status: 200 };
    requests.push(record);
    const n = requests.length;
    res.once("close", () => moment(`finished ${n}`).resolve());
    moment(`received ${n}`).resolve();
    // 检查看的是归一化之后的请求：脚本里可以写 "$WORK"，而不必知道这次运行的临时目录
    const seen = JSON.parse(normalize(raw));
    // 按顺序取第一个还没用过的 turn；带 when 的 turn 只给符合条件的请求——并发的请求（几个子 agent）到达的先后不定，
    // 靠 when 把它们各自对上自己的 turn，转录才是确定的
    const improvised = script.improvise?.(seen);
    const index = improvised ? -1 : script.turns.findIndex((t, i) => !used[i] && (!t.when || matches(t.when, seen)));
    const label = improvised ? `第 ${requests.length} 次请求` : `第 ${index + 1} 轮`;
    const turn = improvised ?? script.turns[index];
    if (turn && index >= 0) {
      used[index] = true;
      answeredTurn(index);
      res.once("close", () => markAnswered[index]?.()); // 回答交出去了（或者连接断了），等它的轮可以动了
    }
    try {
      checkProvider(profile, body, reasoningCalls);
      if (!turn && used.filter(Boolean).length === script.turns.length) throw new TurnError(`第 ${requests.length} 次请求超出了脚本（脚本只有 ${script.turns.length} 轮）`);
      if (!turn) throw new TurnError(`第 ${requests.length} 次请求没有对得上 when 条件的 turn`);
      checkExpect(turn.expect, seen, label, options.inherited);
    } catch (e) {
      if (!(e instanceof TurnError)) throw e;
      record.status = 400;
      record.rejected = e.message;
      return sendError(res, 400, `脚本模型：${e.message}`);
    }
    if (turn.afterTurn) await answeredTurn(turn.afterTurn - 1);
    if (turn.delayMs && !(await sleepUnlessClosed(turn.delayMs, res))) return;
    if (turn.endlessBody) {
      record.status = turn.status ?? 200;
      res.writeHead(record.status, { "content-type": "application/json" });
      return void (await writeEndless(res, turn.status ? '{"error": {"message": "' : '{"choices": [{"message": {"content": "'));
    }
    if (turn.status) {
      record.status = turn.status;
      const headers: Record<string, string> = {};
      if (turn.retryAfter !== undefined) headers["retry-after"] = String(turn.retryAfter);
      return sendError(res, turn.status, turn.error ?? defaultError(turn.status, body.model), headers);
    }

    // 用量从请求本身算出：先归一化，再估 token；缓存命中 = 与之前任何一次已经答完的请求的最长公共前缀，按块取整
    // （服务商的缓存不只记得上一次请求：插进一次摘要请求，原来的前缀照样还在）
    const prompt = normalize(promptText(body));
    const promptTokens = estimateTokens(prompt);
    const shared = Math.max(0, ...previousPrompts.map((p) => commonPrefix(prompt, p)));
    const block = profile === "openai" ? 128 : 64;
    const cached = Math.floor(estimateTokens(prompt.slice(0, shared)) / block) * block;

    let reply: { content: string; calls: { id: string; name: string; arguments: string }[] };
    try {
      reply = {
        content: fill(turn.content ?? "", body, label, false),
        calls: (turn.tool_calls ?? []).map((c) => ({
          id: toolCallId(profile, ++callCounter),
          name: c.name,
          arguments: fill(c.arguments, body, label, true),
        })),
      };
    } catch (e) {
      if (!(e instanceof TurnError)) throw e;
      record.status = 400;
      record.rejected = e.message;
      return sendError(res, 400, `脚本模型：${e.message}`);
    }
    if (turn.reasoning) for (const c of reply.calls) reasoningCalls.add(c.id);
    const usage: Usage = {
      prompt_tokens: promptTokens,
      completion_tokens: estimateTokens(reply.content + reply.calls.map((c) => c.arguments).join("")),
      cached_tokens: cached,
      ...turn.usage,
    };
    const finish = turn.finish_reason ?? (reply.calls.length > 0 ? "tool_calls" : "stop");
    const answer = { ...reply, reasoning: turn.reasoning, finish, usage, model: String(body.model) };

    if (turn.malformed) {
      res.writeHead(200, { "content-type": body.stream ? "text/event-stream" : "application/json" });
      return res.end(body.stream ? 'data: {"id": "chatcmpl-scripted", "choices": [\n\n' : '{"id": "chatcmpl-scripted", "choices": [');
    }
    const usageSent = !body.stream || body.stream_options?.include_usage === true;
    record.reply = { content: reply.content, reasoning: turn.reasoning, tool_calls: reply.calls, finish_reason: finish, usage: usageSent ? usageField(profile, usage) : undefined };
    if (!body.stream) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(completion(profile, answer)));
      return previousPrompts.push(prompt);
    }
    const events = streamChunks(profile, answer, body.stream_options?.include_usage === true)
      .map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`)
      .concat("data: [DONE]\n\n");
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    if (turn.endlessLine) return void (await writeEndless(res, "data: "));
    // 回答的最后一块写出去之前，这个前缀进缓存：客户端收到最后一块才发下一个请求，因果上在后的请求一定命中它
    // （等写完再记，下一个请求可能先一步到、先一步算，命中数就看运气）；同时在途的请求（并发的子 agent）照样互相命中不了
    let remembered = false;
    const remember = () => void (remembered || ((remembered = true), previousPrompts.push(prompt)));
    await writeSlices(res, events, turn.chunkBytes, turn.dropAfterBytes, remember, turn);
    res.end();
    remember();
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e) => {
      if (!res.headersSent) sendError(res, 500, `脚本模型内部错误：${e?.message ?? e}`);
      else res.destroy();
    });
  });
  // 空闲的连接不由服务器这边按时关掉（Node 默认 5 秒）：harness 忙着处理一个大结果、事件循环晚了一拍时，
  // 它会在服务器刚关掉的连接上发下一个请求（UND_ERR_SOCKET），转录里多出一次重试——判决就成了机器快不快。close 时一并关掉
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    unusedTurns: () => script.turns.flatMap((_t, i) => (used[i] ? [] : [i + 1])),
    received: (n) => moment(`received ${n}`).promise,
    finished: (n) => moment(`finished ${n}`).promise,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---- 检查 ----

// 服务商自己的规矩：违反了，真服务也会回 400
function checkProvider(profile: Profile, body: any, reasoningCalls: Set<string>) {
  // 所有服务商都要求：每条 tool 消息回应的是前面某个 tool_call，每个 tool_call 在下一条 user/assistant 之前都有结果
  const pending = new Set<string>();
  for (const m of body.messages ?? []) {
    if (m.role === "tool") {
      if (!pending.delete(m.tool_call_id)) throw new TurnError(`tool 消息（tool_call_id ${m.tool_call_id}）前面没有对应的 tool_call`);
      continue;
    }
    if (pending.size > 0) throw new TurnError(`tool_call ${[...pending].join("、")} 没有结果`);
    for (const c of m.tool_calls ?? []) pending.add(c.id);
  }
  if (pending.size > 0) throw new TurnError(`tool_call ${[...pending].join("、")} 没有结果`);
  if (profile === "vllm") {
    if (Array.isArray(body.tools) && body.tools.length === 0) throw new TurnError("vLLM 拒绝空的 tools 数组（tools: []）");
    if (body.stream_options && body.stream !== true) throw new TurnError("vLLM 拒绝没有 stream: true 的 stream_options");
  }
  if (profile === "groq") {
    // Groq：消息里多出任何它不认的字段（带回去的 reasoning、reasoning_content……）都是 400
    (body.messages ?? []).forEach((m: any, i: number) => {
      const known = ["role", "content", "name", ...(m.role === "assistant" ? ["tool_calls"] : []), ...(m.role === "tool" ? ["tool_call_id"] : [])];
      const extra = Object.keys(m ?? {}).find((k) => !known.includes(k));
      if (extra) throw new TurnError(`'messages.${i}' : for 'role:${m.role}' the following must be satisfied[('messages.${i}' : property '${extra}' is unsupported)]`);
    });
  }
  if (profile === "deepseek") {
    for (const m of body.messages ?? []) {
      const needs = (m.tool_calls ?? []).some((c: any) => reasoningCalls.has(c.id));
      if (m.role === "assistant" && needs && typeof m.reasoning_content !== "string") {
        throw new TurnError("DeepSeek 思考模式：带 tool_calls 的 assistant 消息必须带回 reasoning_content");
      }
    }
  }
}

function matches(when: Expect, body: any): boolean {
  try {
    checkExpect(when, body, "");
    return true;
  } catch (e) {
    if (e instanceof TurnError) return false;
    throw e;
  }
}

function checkExpect(expect: Expect | undefined, body: any, label: string, inherited = false) {
  if (!expect) return;
  const messages: any[] = body.messages ?? [];
  const tools: string[] = (body.tools ?? []).map((t: any) => t.function?.name);
  const fail = (what: string, got: unknown) => {
    throw new TurnError(`${label}检查失败：${what}，实际是 ${clip(JSON.stringify(got) ?? String(got))}`);
  };
  const text = (m: any) => (typeof m?.content === "string" ? m.content : JSON.stringify(m?.content ?? null));
  const last = (role: string) => [...messages].reverse().find((m) => m.role === role);
  if (expect.stream !== undefined && Boolean(body.stream) !== expect.stream) fail(`stream 应为 ${expect.stream}`, body.stream);
  if (expect.model !== undefined && body.model !== expect.model) fail(`model 应为 "${expect.model}"`, body.model);
  if (expect.tools && !(inherited ? inOrder(expect.tools, tools) : JSON.stringify(tools) === JSON.stringify(expect.tools))) {
    fail(`tools 应为 ${JSON.stringify(expect.tools)}${inherited ? "（按顺序都在，可以夹着后来加的）" : ""}`, tools);
  }
  for (const name of expect.toolsInclude ?? []) if (!tools.includes(name)) fail(`tools 里应该有 ${name}`, tools);
  for (const name of expect.toolsExclude ?? []) if (tools.includes(name)) fail(`tools 里不该有 ${name}`, tools);
  if (expect.system !== undefined && !text(last("system")).includes(expect.system)) fail(`system 应包含 "${expect.system}"`, text(last("system")));
  if (expect.systemExcludes !== undefined && text(last("system")).includes(expect.systemExcludes)) fail(`system 不该包含 "${expect.systemExcludes}"`, text(last("system")));
  if (expect.lastUser !== undefined && !text(last("user")).includes(expect.lastUser)) fail(`最后一条 user 消息应包含 "${expect.lastUser}"`, text(last("user")));
  if (expect.lastTool !== undefined && !text(last("tool")).includes(expect.lastTool)) fail(`最后一条 tool 消息应包含 "${expect.lastTool}"`, text(last("tool")));
  if (expect.messages !== undefined && messages.length !== expect.messages) fail(`应有 ${expect.messages} 条消息`, messages.length);
  const dialogue = messages.filter((m) => m.role !== "system").length;
  if (expect.dialogue !== undefined && dialogue !== expect.dialogue) fail(`不算 system 应有 ${expect.dialogue} 条消息`, dialogue);
  if (expect.contains !== undefined && !messages.some((m) => text(m).includes(expect.contains!))) fail(`应有一条消息包含 "${expect.contains}"`, messages.map(text));
  if (expect.lastAssistant !== undefined) {
    const content = last("assistant")?.content;
    if (typeof content !== "string" || !content.includes(expect.lastAssistant)) fail(`最后一条 assistant 消息的 content 应是包含 "${expect.lastAssistant}" 的一段文字`, content);
  }
  if (expect.plainNoThinking) {
    const bad = messages.find((m) => m.role === "assistant" && !m.tool_calls?.length && ("reasoning_content" in m || "reasoning" in m || typeof m.content !== "string"));
    if (bad) fail("没有 tool_calls 的 assistant 消息不该带思考（reasoning_content、reasoning、content 数组）", bad);
  }
}

// want 里的名字按顺序出现在 got 里（got 可以多出别的）
function inOrder(want: string[], got: string[]): boolean {
  let at = 0;
  for (const name of got) if (name === want[at]) at++;
  return at === want.length;
}

// {{tool}} = 最后一条 tool 消息；{{tool:2}} = 第 2 条；{{tool:1|(\d+)}} = 第 1 条里正则的第一个捕获组。
// 这样脚本可以引用真实工具（比如时间服务器）的结果，转录却仍然确定。
function fill(template: string, body: any, label: string, inJson: boolean): string {
  const results: string[] = (body.messages ?? []).filter((m: any) => m.role === "tool").map((m: any) => String(m.content));
  return template.replace(/\{\{tool(?::(\d+))?(?:\|(.+?))?\}\}(?!\})/g, (_all, n?: string, pattern?: string) => {
    const result = n ? results[Number(n) - 1] : results[results.length - 1];
    if (result === undefined) throw new TurnError(`${label}要引用的 tool 结果不存在（${_all}）`);
    let value = result;
    if (pattern) {
      const m = result.match(new RegExp(pattern));
      if (!m) throw new TurnError(`${label}：tool 结果里找不到 /${pattern}/：${clip(result)}`);
      value = m[1] ?? m[0];
    }
    return inJson ? JSON.stringify(value).slice(1, -1) : value;
  });
}

// ---- 用量 ----

// 估 token 的规则（脚本模型自己用，不追求和任何真实分词器一致，只求确定且随内容变化）：
// 汉字、假名与全角标点每个算 1 个 token，其余字符每 4 个算 1 个。
export function estimateTokens(text: string): number {
  let cjk = 0;
  let other = 0;
  for (const ch of text) {
    if (/[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]/.test(ch)) cjk++;
    else other++;
  }
  return cjk + Math.ceil(other / 4);
}

function promptText(body: any): string {
  const parts = (body.messages ?? []).map((m: any) => `<${m.role}>${typeof m.content === "string" ? m.content : ""}${JSON.stringify(m.tool_calls ?? "")}`);
  return JSON.stringify(body.tools ?? []) + parts.join("");
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

// ---- 回答的形状：各家服务商各有各的习惯（见 REFERENCE.md D3） ----

interface Answer {
  content: string;
  reasoning?: string;
  calls: { id: string; name: string; arguments: string }[];
  finish: string;
  usage: Usage;
  model: string;
}

function toolCallId(profile: Profile, n: number): string {
  if (profile === "ollama") return `call_${n.toString(36).padStart(8, "0")}`;
  if (profile === "mistral") return n.toString(36).padStart(9, "0"); // Mistral：9 个字母数字
  if (profile === "vllm") return `chatcmpl-tool-${n.toString(16).padStart(32, "0")}`;
  return `call_${String(n).padStart(2, "0")}`;
}

function usageField(profile: Profile, u: Usage) {
  const base = { prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens, total_tokens: u.prompt_tokens + u.completion_tokens };
  if (profile === "openai") return { ...base, prompt_tokens_details: { cached_tokens: u.cached_tokens } };
  if (profile === "deepseek") return { ...base, prompt_cache_hit_tokens: u.cached_tokens, prompt_cache_miss_tokens: u.prompt_tokens - u.cached_tokens };
  return base; // Ollama、vLLM（默认配置）、Mistral、Groq 不报缓存
}

function reasoningKey(profile: Profile) {
  return profile === "deepseek" || profile === "openai" ? "reasoning_content" : "reasoning";
}

// Mistral 的推理模型：content 是一串分段，思考在 thinking 段里（它本身又是一串 text 段），回答在 text 段里
const thinkingPart = (text: string) => ({ type: "thinking", thinking: [{ type: "text", text }] });
const textPart = (text: string) => ({ type: "text", text });

function completion(profile: Profile, a: Answer) {
  const message: Record<string, unknown> = { role: "assistant", content: a.content || (a.calls.length ? null : "") };
  if (a.reasoning && profile === "mistral") message.content = [thinkingPart(a.reasoning), ...(a.content ? [textPart(a.content)] : [])];
  else if (a.reasoning) message[reasoningKey(profile)] = a.reasoning;
  if (a.calls.length) message.tool_calls = a.calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }));
  return {
    id: "chatcmpl-scripted",
    object: "chat.completion",
    created: 1767225600,
    model: a.model,
    choices: [{ index: 0, message, finish_reason: a.finish, logprobs: null }],
    usage: usageField(profile, a.usage),
  };
}

function streamChunks(profile: Profile, a: Answer, includeUsage: boolean): object[] {
  const chunk = (delta: object, finish: string | null = null, extra: object = {}) => ({
    id: "chatcmpl-scripted",
    object: "chat.completion.chunk",
    created: 1767225600,
    model: a.model,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    ...(includeUsage && profile !== "ollama" ? { usage: null } : {}),
    ...extra,
  });
  const out: object[] = [chunk({ role: "assistant", content: "" })];
  const text = pieces(a.content, 5);
  if (profile === "mistral" && a.reasoning) {
    // Mistral：思考期间 content 是只有一个 thinking 段的数组；想完的那一块把最后一截思考和回答的第一截放在同一个数组里，
    // 之后的回答才是普通的字符串。只认字符串的客户端就丢了这第一截（391 只剩 91）
    const thought = pieces(a.reasoning, 6);
    thought.forEach((piece, i) => {
      const parts: object[] = [thinkingPart(piece)];
      if (i === thought.length - 1 && text.length > 0) parts.push(textPart(text.shift()!));
      out.push(chunk({ content: parts }));
    });
  } else {
    for (const piece of pieces(a.reasoning ?? "", 6)) out.push(chunk({ [reasoningKey(profile)]: piece }));
  }
  for (const piece of text) out.push(chunk({ content: piece }));
  a.calls.forEach((c, i) => {
    if (profile === "mistral") {
      // Mistral：每个调用整条一块送到，index 照常
      out.push(chunk({ tool_calls: [{ index: i, id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }] }));
      return;
    }
    if (profile === "ollama") {
      // Ollama：每个调用整条一块送到，而且并行的第二个调用可能还用 index 0——只能靠新的 id 认出来
      out.push(chunk({ tool_calls: [{ index: 0, id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }] }));
      return;
    }
    out.push(chunk({ tool_calls: [{ index: i, id: c.id, type: "function", function: { name: c.name, arguments: "" } }] }));
    for (const piece of pieces(c.arguments, 7)) out.push(chunk({ tool_calls: [{ index: i, function: { arguments: piece } }] }));
  });
  const usage = usageField(profile, a.usage);
  if (profile === "deepseek" || profile === "mistral") {
    // DeepSeek、Mistral：usage 搭在带 finish_reason 的最后一块上，没有单独的 choices: [] 块
    out.push(chunk({}, a.finish, includeUsage ? { usage } : {}));
    return out;
  }
  out.push(chunk({}, a.finish));
  if (includeUsage) out.push({ id: "chatcmpl-scripted", object: "chat.completion.chunk", created: 1767225600, model: a.model, choices: [], usage });
  return out;
}

// 按字符（码点）切成小段，模拟模型一点一点地吐字
function pieces(text: string, size: number): string[] {
  const chars = [...text];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}

// 每写一片就让出一次事件循环，让它们分成不同的 TCP 段到达客户端
type Pace = Pick<Turn, "pauseAfterEvents" | "pauseMs" | "keepAliveMs" | "trickleMs">;

async function writeSlices(res: http.ServerResponse, events: string[], chunkBytes?: number, dropAfter?: number, beforeLast = () => {}, pace: Pace = {}) {
  let slices: Buffer[] = events.map((e) => Buffer.from(e, "utf8"));
  // 停在第 N 个事件末尾：从这里切开，停顿时插进去的注释行落在两个事件之间，不会把一行 data: 劈开
  const pauseAt = pace.pauseAfterEvents === undefined ? undefined : Buffer.byteLength(events.slice(0, pace.pauseAfterEvents).join(""));
  if (chunkBytes || pauseAt !== undefined) {
    const all = Buffer.concat(slices);
    const step = chunkBytes || all.length;
    slices = [];
    for (let i = 0; i < all.length; ) {
      const end = pauseAt !== undefined && i < pauseAt ? Math.min(i + step, pauseAt) : i + step;
      slices.push(all.subarray(i, end));
      i = end;
    }
  }
  let written = 0;
  for (const [i, s] of slices.entries()) {
    if (res.destroyed) return;
    if (written === pauseAt && !(await pauseStream(res, pace))) return;
    if (dropAfter !== undefined && written + s.length >= dropAfter) {
      // 写完这一截、等它真的交给了内核，再关掉连接（FIN，不发结束块）：客户端一定先收到这些字节，
      // 再看到“流到一半没了”。直接 destroy 可能发 RST，对方还没读的字节会被丢掉——转录就看运气了
      beforeLast();
      await new Promise<void>((r) => res.write(s.subarray(0, dropAfter - written), () => r()));
      res.socket?.end();
      return;
    }
    if (i === slices.length - 1) beforeLast();
    res.write(s);
    written += s.length;
    if (pace.trickleMs) {
      if (!(await sleepUnlessClosed(pace.trickleMs, res))) return;
    } else await new Promise((r) => setImmediate(r));
  }
}

// 流停在半路：连接开着，一个字节也不发（或者只发注释行）。返回 false：客户端等不及先断开了
async function pauseStream(res: http.ServerResponse, pace: Pace): Promise<boolean> {
  if (pace.pauseMs === undefined) return sleepUnlessClosed(2 ** 31 - 1, res); // 一直停到客户端断开
  if (!pace.keepAliveMs) return sleepUnlessClosed(pace.pauseMs, res);
  for (let waited = 0; waited < pace.pauseMs; waited += pace.keepAliveMs) {
    if (!(await sleepUnlessClosed(pace.keepAliveMs, res))) return false;
    res.write(": keep-alive\n\n");
  }
  return true;
}

// 不换行的一行：每次 64 KiB，等内核收下再写下一块，客户端断开就停
async function writeEndless(res: http.ServerResponse, start: string) {
  const block = Buffer.alloc(64 * 1024, "x");
  res.write(start);
  for (let written = 0; written < 64 * 1024 * 1024 && !res.destroyed; written += block.length) {
    let onClose = () => {};
    const ok = await new Promise<boolean>((resolve) => {
      onClose = () => resolve(false);
      res.once("close", onClose);
      res.write(block, (err) => resolve(!err));
    });
    res.off("close", onClose);
    if (!ok) return;
  }
  res.end();
}

// ---- 小工具 ----

function defaultError(status: number, model: string): string {
  if (status === 401) return "Authentication Fails, Your api key is invalid";
  if (status === 404) return `The model \`${model}\` does not exist`;
  if (status === 429) return "Rate limit reached, please retry later";
  return "The server had an error while processing your request";
}

function sendError(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ error: { message, type: "scripted_error", code: status } }));
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function sleepUnlessClosed(ms: number, res: http.ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      res.off("close", onClose);
      resolve(true);
    }, ms);
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    res.once("close", onClose);
  });
}

function clip(s: string, n = 160): string {
  return s.length > n ? s.slice(0, n) + "…" : s;
}
