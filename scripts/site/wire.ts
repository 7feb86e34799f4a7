// 一个场景的线路视图：脚本模型收到的每个请求（只列出比之前的请求新出来的消息，外加 tools 数组有多大）、
// 每个回答、每一轮输入 tokens 的条形图（命中缓存的和没命中的分开），第 22 章还有 JSON-RPC 的每一行。
// 数字全是录下来的：条形图上的数就是 harness 的用量行读到的那两个字段。
import { ROOT, tempRoot } from "../../shared/scenario.ts";
import { estimateTokens, type RecordedRequest } from "../../shared/scripted-model.ts";
import { codeBlock, escapeHtml, inlineCode, transcriptBlock } from "./markup.ts";
import type { Recording } from "./record.ts";

const CLIP = 3000;
const FOLD = 240; // JSON-RPC 的一行超过这么多字符就折起来

// 临时目录、仓库位置、node 的路径每台机器都不一样，换成转录里用的那套写法；
// 今天的日期（system prompt 里有）换成 2026-01-01：脚本模型计 token 之前也这么换，网页和数字说的是同一天
const TODAY = new Date().toISOString().slice(0, 10);
function normalize(text: string): string {
  const tmp = tempRoot().replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); // 场景的运行目录建在这里（runDir：lh- 加补齐长度的 _ 和 6 个随机字符）
  return text
    .replaceAll(TODAY, "2026-01-01")
    .replace(new RegExp(`${tmp}/lh-_*[A-Za-z0-9]{6}/(work|home)(?![\\w.-])`, "g"), (_m, w: string) => (w === "work" ? "$WORK" : "$HOME"))
    .replace(new RegExp(`${tmp}/lh-_*[A-Za-z0-9]{6}(?![\\w.-])`, "g"), "$TMP")
    .replaceAll(process.execPath, "$NODE")
    .replaceAll(ROOT, "$ROOT");
}

// 和 harness 的 readUsage() 读同样的字段：DeepSeek 的 prompt_cache_hit_tokens，OpenAI 的 prompt_tokens_details.cached_tokens
export function usageOf(r: RecordedRequest): { input: number; cached: number } | undefined {
  const u: any = r.reply?.usage;
  if (!u) return undefined;
  return { input: u.prompt_tokens ?? 0, cached: u.prompt_cache_hit_tokens ?? u.prompt_tokens_details?.cached_tokens ?? 0 };
}

function clipText(text: string): string {
  return text.length > CLIP ? `${text.slice(0, CLIP)}\n…（后面还有 ${text.length - CLIP} 个字符，这里不全列）` : text;
}

function bars(records: RecordedRequest[], transcript: string): string {
  const rows = records.flatMap((r, i) => {
    const u = usageOf(r);
    return u ? [{ i, ...u }] : [];
  });
  if (rows.length === 0) {
    const unasked = records.some((r) => r.reply && r.body?.stream && r.body?.stream_options?.include_usage !== true);
    return `<p class="note">${unasked ? "流式请求没带 <code>stream_options.include_usage</code>，服务商就不发用量（第 13 章才要）。" : "这个场景没有一次请求拿到用量（模型没答，或者答的是错误）。"}</p>`;
  }
  const printed = /^\[round \d+ 输入 |^\[共 \d+ 轮 · 最后一轮输入 /m.test(transcript)
    ? "数字与转录里的用量行相同：<code>[round N 输入 X tokens，命中缓存 Y]</code>"
    : "这是脚本模型发出去的 usage；这一章的 harness 还不把它打印出来（第 13 章起才有用量行）";
  const max = Math.max(...rows.map((r) => r.input));
  const html = rows.map((r) => {
    const pct = (n: number) => `${((n / max) * 100).toFixed(2)}%`;
    return `<li class="bar-row"><a class="bar-label" href="#req-${r.i + 1}">请求 ${r.i + 1}</a>
<span class="bar" data-input="${r.input}" data-cached="${r.cached}" role="img" aria-label="输入 ${r.input} tokens，命中缓存 ${r.cached}"><span class="cached" style="width:${pct(r.cached)}"></span><span class="uncached" style="width:${pct(r.input - r.cached)}"></span></span>
<span class="bar-nums">${r.input}<small>（缓存 ${r.cached}）</small></span></li>`;
  });
  return `<p class="legend"><span class="swatch cached"></span>命中缓存 <span class="swatch uncached"></span>没命中（全价）　${printed}</p>
<ol class="bars">${html.join("\n")}</ol>`;
}

function message(m: any, n: number): string {
  const role = String(m?.role ?? "?");
  const parts: string[] = [];
  const content = typeof m?.content === "string" ? m.content : m?.content == null ? "" : JSON.stringify(m.content);
  if (m?.tool_call_id) parts.push(`<span class="meta">回应 <code>${escapeHtml(m.tool_call_id)}</code></span>`);
  if (m?.reasoning_content) parts.push(`<details><summary>思考内容（reasoning_content）</summary><pre class="code plain">${escapeHtml(clipText(normalize(m.reasoning_content)))}</pre></details>`);
  if (content) {
    const body = `<pre class="code plain">${escapeHtml(clipText(normalize(content)))}</pre>`;
    parts.push(content.length > 1200 ? `<details><summary>${content.length} 个字符</summary>${body}</details>` : body);
  }
  for (const c of m?.tool_calls ?? []) parts.push(callLine(c.id, c.function?.name, c.function?.arguments));
  return `<li class="msg role-${escapeHtml(role)}"><span class="role">${n}. ${escapeHtml(role)}</span>${parts.join("")}</li>`;
}

function callLine(id: string, name: string, args: string): string {
  return `<div class="call">${inlineCode(`${name}(${normalize(String(args))})`)} <span class="meta">${escapeHtml(String(id))}</span></div>`;
}

// 之前的请求里，和这一次的消息前缀最长的那一个：子 agent 的请求夹在中间时，对比的是它自己那条对话
function longestPrefix(records: RecordedRequest[], k: number): { from: number; same: number } {
  const mine = (records[k].body?.messages ?? []).map((m: any) => JSON.stringify(m));
  let best = { from: -1, same: 0 };
  for (let j = 0; j < k; j++) {
    const theirs = (records[j].body?.messages ?? []).map((m: any) => JSON.stringify(m));
    let i = 0;
    while (i < mine.length && i < theirs.length && mine[i] === theirs[i]) i++;
    if (i > best.same) best = { from: j, same: i };
  }
  return best;
}

function toolNames(r: RecordedRequest): string[] {
  return (r.body?.tools ?? []).map((t: any) => String(t?.function?.name));
}

function request(records: RecordedRequest[], k: number): string {
  const r = records[k];
  const body = r.body ?? {};
  const tools = toolNames(r);
  const toolsJson = JSON.stringify(body.tools ?? []);
  const prevTools = k > 0 ? JSON.stringify(records[k - 1].body?.tools ?? []) : undefined;
  const toolInfo = body.tools === undefined
    ? `没有 tools 字段`
    : `tools 数组：${tools.length} 个工具，${Buffer.byteLength(toolsJson)} 字节，约 ${estimateTokens(toolsJson)} tokens${prevTools === toolsJson ? "（和上一次请求一字不差）" : ""}`;
  const toolList = prevTools === toolsJson || tools.length === 0
    ? ""
    : `<details class="tools"><summary>${tools.map((t) => `<code>${escapeHtml(t)}</code>`).join(" ")}</summary>${codeBlock(JSON.stringify(body.tools, null, 2), "json")}</details>`;
  const { from, same } = longestPrefix(records, k);
  const messages: any[] = body.messages ?? [];
  const skipped = same > 0 ? `<p class="note">前 ${same} 条消息和<a href="#req-${from + 1}">请求 ${from + 1}</a>的一样，不再列出。</p>` : "";
  const fresh = messages.slice(same).map((m, i) => message(m, same + i + 1)).join("\n");
  const flags = [`<code>${escapeHtml(String(body.model))}</code>`, body.stream ? "流式" : "非流式", `${messages.length} 条消息`].join(" · ");
  return `<section class="request" id="req-${k + 1}">
<h3>请求 ${k + 1} <span class="meta">${flags}</span></h3>
<p class="tools-size">${escapeHtml(toolInfo)}</p>
${toolList}
${skipped}
<ol class="messages">${fresh}</ol>
${reply(r)}
</section>`;
}

function reply(r: RecordedRequest): string {
  if (r.rejected) return `<div class="reply rejected"><strong>脚本模型拒绝了这个请求（HTTP ${r.status}）</strong><p>${escapeHtml(normalize(r.rejected))}</p></div>`;
  if (!r.reply) return `<div class="reply failed"><strong>回答：HTTP ${r.status}</strong>${r.status === 200 ? "（正文故意不是合法 JSON）" : "（脚本要它报错，用来练重试或错误提示）"}</div>`;
  const u = usageOf(r);
  const parts: string[] = [];
  if (r.reply.reasoning) parts.push(`<details><summary>思考内容</summary><pre class="code plain">${escapeHtml(clipText(r.reply.reasoning))}</pre></details>`);
  if (r.reply.content) parts.push(`<pre class="code plain">${escapeHtml(clipText(normalize(r.reply.content)))}</pre>`);
  for (const c of r.reply.tool_calls) parts.push(callLine(c.id, c.name, c.arguments));
  const usage = u ? ` · 输入 ${u.input} tokens，命中缓存 ${u.cached}` : " · 这次没有发 usage";
  return `<div class="reply"><strong>回答</strong> <span class="meta">finish_reason=${escapeHtml(r.reply.finish_reason)}${usage}</span>${parts.join("")}</div>`;
}

// 这一行属于哪个时代：新时代（2026-07-28）的请求在 _meta 里带着版本，老时代先 initialize 握手
function era(line: string): string {
  let msg: any;
  try {
    msg = JSON.parse(line);
  } catch {
    return "";
  }
  const modern = msg?.params?._meta?.["io.modelcontextprotocol/protocolVersion"];
  if (typeof modern === "string") return `<span class="badge era">新时代 ${escapeHtml(modern)}</span> `;
  if (msg?.method === "initialize") return `<span class="badge era">握手 ${escapeHtml(String(msg.params?.protocolVersion ?? "?"))}</span> `;
  return "";
}

function rpcTable(rec: Recording): string {
  if (rec.rpc.length === 0) return "";
  const t0 = rec.rpc[0].t;
  const rows = rec.rpc.map((l) => {
    const arrow = l.dir === "out" ? `harness → ${escapeHtml(l.server)}` : `${escapeHtml(l.server)} → harness`;
    let text = normalize(l.line);
    if (Buffer.byteLength(l.line) < l.bytes) text += ` …（整${l.http ? "段" : "行"} ${l.bytes} 字节）`;
    const breakable = (t: string) => escapeHtml(t).replace(/([,{])(?=\S)/g, "$1<wbr>");
    // 长的一行（十几个工具的 tools/list）折起来：先给开头，点开看全文
    const body = text === "" ? "" : text.length > FOLD ? `<details><summary><code>${breakable(text.slice(0, FOLD))}</code> …（共 ${text.length} 个字符，点开看全文）</summary><code>${breakable(text)}</code></details>` : `<code>${breakable(text)}</code>`;
    // HTTP 的一条：先是请求行或状态行和要紧的头（会话号、协议版本），再是正文
    const head = l.http ? `<div class="http">${escapeHtml(normalize(l.http))}</div>` : "";
    return `<tr class="${l.dir}"><td class="ms">${(l.t - t0).toFixed(1)}</td><td class="dir">${arrow}</td><td class="line">${head}${era(l.line)}${body}</td></tr>`;
  });
  const http = rec.rpc.some((l) => l.http);
  const eras = rec.rpc.some((l) => era(l.line) !== "");
  return `<h2 id="jsonrpc">JSON-RPC：harness 和 MCP 服务器之间的每一行</h2>
<p class="note">一个窃听器（<code>scripts/site/tap.ts</code>）站在每个服务器前面，原样转发字节，每凑满一行记一条。左列是从第一行算起的毫秒数。服务器的 stderr 不经过它（那是日志通道），在上面的转录里。${http ? "远程服务器前面站的是 <code>scripts/site/http-tap.ts</code>：每个请求、每个响应一条，带着要紧的头（会话号 <code>mcp-session-id</code>、协议版本 <code>mcp-protocol-version</code>），SSE 的响应每个事件一条。" : ""}${eras ? "标着“握手”的是老时代的 <code>initialize</code>；标着“新时代”的请求不握手，每一个都在 <code>_meta</code> 里带着协议版本（2026-07-28）。" : ""}</p>
<div class="scroll"><table class="rpc"><thead><tr><th>毫秒</th><th>方向</th><th>这一行</th></tr></thead><tbody>
${rows.join("\n")}
</tbody></table></div>`;
}

export function renderWire(rec: Recording, chapterLabel: string): string {
  const s = rec.scenario;
  const warn = rec.matches ? "" : `<p class="warning">这次录制时的转录和 <code>expected.txt</code> 不一样，下面的数字未必就是测试里的那一次。</p>`;
  return `<h1><small>${escapeHtml(chapterLabel)} · 线路视图</small><br><code>${escapeHtml(s.name)}</code></h1>
${s.spec.description ? `<p class="lead">${escapeHtml(s.spec.description)}</p>` : ""}
${warn}
<p class="toc"><a href="#transcript">转录</a> · <a href="#tokens">每轮的输入</a> · <a href="#requests">${rec.records.length} 个请求</a>${rec.rpc.length ? ` · <a href="#jsonrpc">JSON-RPC（${rec.rpc.length} 行）</a>` : ""}</p>
<h2 id="transcript">转录</h2>
${transcriptBlock(rec.transcript)}
<h2 id="tokens">每轮的输入 tokens</h2>
${bars(rec.records, rec.transcript)}
<h2 id="requests">模型收到的请求，按到达的顺序</h2>
${rec.records.length === 0 ? `<p class="note">这个场景一次也没有请求模型。</p>` : rec.records.map((_r, k) => request(rec.records, k)).join("\n")}
${rpcTable(rec)}`;
}
