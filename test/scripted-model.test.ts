// 脚本模型自己的测试：后面每一章都靠它，所以它先得靠得住。
// 全是真的 HTTP：每个测试起一个自己的服务器，用全局 fetch 发真请求，读真的字节流。
import assert from "node:assert/strict";
import http from "node:http";
import { describe, it } from "node:test";
import { PROFILES, estimateTokens, startScriptedModel, type ModelOptions, type Profile, type Script, type ScriptedModel } from "../shared/scripted-model.ts";

// ---- 小工具 ----

async function withModel(script: Script, fn: (m: ScriptedModel) => Promise<void>, options?: ModelOptions): Promise<void> {
  const m = await startScriptedModel(script, options);
  try {
    await fn(m);
  } finally {
    await m.close();
  }
}

const USER = [{ role: "user", content: "你好" }];

function post(m: ScriptedModel, body: Record<string, unknown>, init: RequestInit = {}): Promise<Response> {
  return fetch(`${m.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk-test" },
    body: JSON.stringify({ model: "test-model", messages: USER, ...body }),
    ...init,
  });
}

async function chat(m: ScriptedModel, body: Record<string, unknown> = {}): Promise<any> {
  const res = await post(m, body);
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return JSON.parse(text);
}

async function errorOf(res: Response, status: number): Promise<string> {
  assert.equal(res.status, status);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  const body: any = await res.json();
  assert.equal(typeof body.error.message, "string");
  return body.error.message;
}

// 进程里挂着（ref 着）的计时器个数
const activeTimers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;

// 用 node:http 发一个非流式请求，交回正文
function rawChat(m: ScriptedModel): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${m.url}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" } }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (d: string) => (text += d));
      res.on("end", () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`HTTP ${res.statusCode}: ${text}`))));
    });
    req.on("error", reject);
    req.end(JSON.stringify({ model: "test-model", messages: USER }));
  });
}

// 整段 SSE 文本 → 每个事件 data: 的内容（含最后的 [DONE]）。故意不用第 03 章的读取器，免得互相作证
function sseData(text: string): string[] {
  return text
    .split("\n\n")
    .filter((event) => event.trim() !== "")
    .map((event) =>
      event
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).replace(/^ /, ""))
        .join("\n"),
    );
}

async function streamChunks(m: ScriptedModel, body: Record<string, unknown> = {}): Promise<any[]> {
  const res = await post(m, { stream: true, ...body });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /text\/event-stream/);
  const text = await res.text();
  assert.ok(text.endsWith("data: [DONE]\n\n"), "流的最后一个事件必须是 [DONE]");
  const data = sseData(text);
  assert.equal(data.at(-1), "[DONE]");
  assert.equal(data.filter((d) => d === "[DONE]").length, 1, "[DONE] 只出现一次");
  return data.slice(0, -1).map((d) => JSON.parse(d));
}

interface Assembled {
  content: string;
  reasoning: string;
  calls: { id: string; name: string; arguments: string }[];
  finish: string | null;
}

// 按 OpenAI SDK 的办法拼：按 index 归并、arguments 接起来；同一个 index 上来了新 id 就是新调用（Ollama）
function assemble(chunks: any[]): Assembled {
  const out: Assembled = { content: "", reasoning: "", calls: [], finish: null };
  const byIndex = new Map<number, Assembled["calls"][number]>();
  for (const chunk of chunks) {
    for (const choice of chunk.choices) {
      const d = choice.delta;
      out.content += d.content ?? "";
      out.reasoning += d.reasoning_content ?? d.reasoning ?? "";
      for (const t of d.tool_calls ?? []) {
        let call = byIndex.get(t.index);
        if (!call || (t.id && t.id !== call.id)) {
          call = { id: t.id, name: "", arguments: "" };
          byIndex.set(t.index, call);
          out.calls.push(call);
        }
        if (t.function?.name) call.name = t.function.name;
        call.arguments += t.function?.arguments ?? "";
      }
      if (choice.finish_reason) out.finish = choice.finish_reason;
    }
  }
  return out;
}

const reasoningKey = (p: Profile) => (p === "deepseek" || p === "openai" ? "reasoning_content" : "reasoning");

const ARGS_1 = '{"path":"笔记/今天.md","content":"第一行\\n第二行，带\\"引号\\""}';
const ARGS_2 = '{"city":"北京","unit":"celsius"}';
const TOOL_TURN = {
  content: "我先看看文件，再查天气。",
  reasoning: "用户想要两件事：读文件、查天气。",
  tool_calls: [
    { name: "read_file", arguments: ARGS_1 },
    { name: "get_weather", arguments: ARGS_2 },
  ],
};

// ---- 非流式 ----

describe("脚本模型：非流式回答", () => {
  it("纯文字：id、choices[0].message、finish_reason stop、usage 都在", async () => {
    await withModel({ turns: [{ content: "你好！有什么可以帮你？" }] }, async (m) => {
      const r = await chat(m);
      assert.equal(typeof r.id, "string");
      assert.ok(r.id.length > 0);
      assert.equal(r.object, "chat.completion");
      assert.equal(r.model, "test-model");
      assert.equal(r.choices.length, 1);
      assert.equal(r.choices[0].index, 0);
      assert.deepEqual(r.choices[0].message, { role: "assistant", content: "你好！有什么可以帮你？" });
      assert.equal(r.choices[0].finish_reason, "stop");
      assert.equal(typeof r.usage.prompt_tokens, "number");
      assert.ok(r.usage.prompt_tokens > 0);
      assert.equal(r.usage.completion_tokens, estimateTokens("你好！有什么可以帮你？"));
      assert.equal(r.usage.total_tokens, r.usage.prompt_tokens + r.usage.completion_tokens);
      assert.equal(m.requests.length, 1);
      assert.equal(m.requests[0]!.status, 200);
      assert.deepEqual(m.requests[0]!.body.messages, USER);
    });
  });

  for (const profile of PROFILES) {
    it(`工具调用 [${profile}]：finish_reason tool_calls，content 为 null，id 各不相同，思考放在 ${reasoningKey(profile)}`, async () => {
      await withModel({ profile, turns: [{ ...TOOL_TURN, content: undefined }] }, async (m) => {
        const r = await chat(m);
        const msg = r.choices[0].message;
        assert.equal(r.choices[0].finish_reason, "tool_calls");
        assert.equal(msg.role, "assistant");
        assert.equal(msg.content, null);
        assert.equal(msg[reasoningKey(profile)], TOOL_TURN.reasoning);
        assert.equal(msg.tool_calls.length, 2);
        assert.deepEqual(
          msg.tool_calls.map((c: any) => [c.type, c.function.name, c.function.arguments]),
          [
            ["function", "read_file", ARGS_1],
            ["function", "get_weather", ARGS_2],
          ],
        );
        const ids = msg.tool_calls.map((c: any) => c.id);
        assert.equal(new Set(ids).size, 2);
        const shape = { deepseek: /^call_\w+$/, openai: /^call_\w+$/, ollama: /^call_[a-z0-9]{8}$/, vllm: /^chatcmpl-tool-[0-9a-f]{32}$/, mistral: /^[a-z0-9]{9}$/, groq: /^call_\w+$/ }[profile];
        for (const id of ids) assert.match(id, shape);
      });
    });
  }

  it("脚本里写了 finish_reason 就用它", async () => {
    await withModel({ turns: [{ content: "写到一半", finish_reason: "length" }] }, async (m) => {
      assert.equal((await chat(m)).choices[0].finish_reason, "length");
    });
  });

  it("不是 POST /chat/completions 回 404；请求体不是 JSON 回 400；两者都不占脚本的轮次", async () => {
    await withModel({ turns: [{ content: "第一轮" }] }, async (m) => {
      const wrongPath = await fetch(`${m.url}/v1/models`);
      assert.match(await errorOf(wrongPath, 404), /没有这个地址 GET \/v1\/models/);
      const bad = await fetch(`${m.url}/chat/completions`, { method: "POST", body: "{不是 json" });
      assert.match(await errorOf(bad, 400), /请求体不是合法 JSON/);
      assert.equal(m.requests.length, 0);
      assert.equal((await chat(m)).choices[0].message.content, "第一轮");
    });
  });
});

// ---- 流式 ----

describe("脚本模型：流式回答", () => {
  for (const profile of PROFILES) {
    it(`[${profile}] 把 SSE 拼回来，正好是脚本里的文字、思考和工具调用；[DONE] 在最后`, async () => {
      await withModel({ profile, turns: [TOOL_TURN, { content: "只有文字，没有工具。" }] }, async (m) => {
        const chunks = await streamChunks(m);
        for (const c of chunks) {
          assert.equal(c.object, "chat.completion.chunk");
          assert.equal(c.id, chunks[0].id, "所有块的 id 相同");
          assert.equal(c.model, "test-model");
        }
        assert.equal(chunks[0].choices[0].delta.role, "assistant");
        const got = assemble(chunks);
        assert.equal(got.content, TOOL_TURN.content);
        assert.equal(got.reasoning, TOOL_TURN.reasoning);
        assert.deepEqual(
          got.calls.map((c) => ({ name: c.name, arguments: c.arguments })),
          TOOL_TURN.tool_calls,
        );
        assert.equal(new Set(got.calls.map((c) => c.id)).size, 2);
        for (const c of got.calls) JSON.parse(c.arguments);
        assert.equal(got.finish, "tool_calls");
        // 思考只出现在这一家用的字段里
        const other = reasoningKey(profile) === "reasoning" ? "reasoning_content" : "reasoning";
        assert.ok(chunks.every((c) => c.choices.every((ch: any) => !(other in ch.delta))));
        // finish_reason 只出现一次，在一个空的 delta 上
        const finishing = chunks.filter((c) => c.choices[0]?.finish_reason);
        assert.equal(finishing.length, 1);
        assert.deepEqual(finishing[0].choices[0].delta, {});

        const second = assemble(await streamChunks(m));
        assert.deepEqual(second, { content: "只有文字，没有工具。", reasoning: "", calls: [], finish: "stop" });
      });
    });
  }

  for (const profile of ["openai", "deepseek", "vllm"] as const) {
    it(`[${profile}] 工具参数分好几片到达，按 index 区分；第一片带 id、type、name`, async () => {
      await withModel({ profile, turns: [TOOL_TURN] }, async (m) => {
        const deltas = (await streamChunks(m)).flatMap((c) => c.choices.flatMap((ch: any) => ch.delta.tool_calls ?? []));
        for (const index of [0, 1]) {
          const mine = deltas.filter((t: any) => t.index === index);
          assert.ok(mine.length >= 3, `index ${index} 只来了 ${mine.length} 片`);
          const [first, ...rest] = mine;
          assert.equal(typeof first.id, "string");
          assert.equal(first.type, "function");
          assert.equal(first.function.name, TOOL_TURN.tool_calls[index]!.name);
          for (const t of rest) {
            assert.equal(t.id, undefined, "后面的片不再带 id");
            assert.equal(t.function.name, undefined, "后面的片不再带 name");
          }
          const args = mine.map((t: any) => t.function.arguments ?? "").join("");
          assert.equal(args, TOOL_TURN.tool_calls[index]!.arguments);
          assert.ok(rest.every((t: any) => t.function.arguments !== TOOL_TURN.tool_calls[index]!.arguments), "没有哪一片是整段参数");
        }
        assert.ok(deltas.every((t: any) => t.index === 0 || t.index === 1));
      });
    });
  }

  it("[ollama] 每个工具调用整条一块到达，index 都是 0，只能靠新的 id 认出第二个", async () => {
    await withModel({ profile: "ollama", turns: [TOOL_TURN] }, async (m) => {
      const withCalls = (await streamChunks(m)).filter((c) => c.choices[0]?.delta.tool_calls);
      assert.equal(withCalls.length, 2);
      const calls = withCalls.map((c) => c.choices[0].delta.tool_calls);
      for (const [i, list] of calls.entries()) {
        assert.equal(list.length, 1);
        const t = list[0];
        assert.equal(t.index, 0);
        assert.equal(t.type, "function");
        assert.equal(t.function.name, TOOL_TURN.tool_calls[i]!.name);
        assert.equal(t.function.arguments, TOOL_TURN.tool_calls[i]!.arguments);
      }
      assert.notEqual(calls[0][0].id, calls[1][0].id);
    });
  });

  it("工具调用的 id 跨轮次不重复", async () => {
    const turns = [{ tool_calls: [{ name: "a", arguments: "{}" }] }, { tool_calls: [{ name: "b", arguments: "{}" }] }];
    await withModel({ profile: "ollama", turns }, async (m) => {
      const first = assemble(await streamChunks(m)).calls[0]!.id;
      const second = (await chat(m)).choices[0].message.tool_calls[0].id;
      assert.notEqual(first, second);
    });
  });
});

// ---- 用量 ----

describe("脚本模型：用量", () => {
  for (const profile of PROFILES) {
    it(`[${profile}] include_usage：用量放在这一家该放的地方`, async () => {
      await withModel({ profile, turns: [TOOL_TURN] }, async (m) => {
        const chunks = await streamChunks(m, { stream_options: { include_usage: true } });
        const withUsage = chunks.filter((c) => c.usage);
        assert.equal(withUsage.length, 1, "恰好一块带用量");
        const last = chunks.at(-1);
        assert.equal(last, withUsage[0], "带用量的是最后一块");
        const u = last.usage;
        assert.ok(u.prompt_tokens > 0);
        assert.equal(u.completion_tokens, estimateTokens(TOOL_TURN.content + ARGS_1 + ARGS_2));
        assert.equal(u.total_tokens, u.prompt_tokens + u.completion_tokens);
        if (profile === "deepseek") {
          // DeepSeek：搭在带 finish_reason 的那一块上，没有 choices: [] 的块
          assert.equal(last.choices.length, 1);
          assert.equal(last.choices[0].finish_reason, "tool_calls");
          assert.ok(chunks.every((c) => c.choices.length === 1));
        } else {
          // 其余三家：单独一块，choices 为空；前一块带 finish_reason
          assert.deepEqual(last.choices, []);
          assert.equal(chunks.at(-2).choices[0].finish_reason, "tool_calls");
          assert.equal(chunks.at(-2).usage ?? null, null);
        }
        // 其余的块：OpenAI 的规矩是 usage: null；Ollama 干脆不带这个字段
        for (const c of chunks.slice(0, -1)) {
          if (profile === "ollama") assert.ok(!("usage" in c));
          else assert.equal(c.usage, null);
        }
      });
    });

    it(`[${profile}] 不要 include_usage 就一块用量都没有`, async () => {
      await withModel({ profile, turns: [TOOL_TURN, { content: "好" }] }, async (m) => {
        for (const chunk of await streamChunks(m)) assert.ok(!("usage" in chunk), JSON.stringify(chunk));
        for (const chunk of await streamChunks(m, { stream_options: { include_usage: false } })) assert.ok(!("usage" in chunk));
      });
    });
  }

  it("缓存字段：openai 用 prompt_tokens_details.cached_tokens，deepseek 用 hit+miss（和为 prompt_tokens），ollama、vllm 没有", async () => {
    for (const profile of PROFILES) {
      await withModel({ profile, turns: [{ content: "一" }, { content: "二" }] }, async (m) => {
        const nonStream = (await chat(m)).usage;
        const chunks = await streamChunks(m, { stream_options: { include_usage: true } });
        const streamed = chunks.at(-1).usage;
        for (const u of [nonStream, streamed]) {
          const keys = Object.keys(u).sort();
          if (profile === "openai") {
            assert.deepEqual(keys, ["completion_tokens", "prompt_tokens", "prompt_tokens_details", "total_tokens"]);
            assert.equal(typeof u.prompt_tokens_details.cached_tokens, "number");
          } else if (profile === "deepseek") {
            assert.deepEqual(keys, ["completion_tokens", "prompt_cache_hit_tokens", "prompt_cache_miss_tokens", "prompt_tokens", "total_tokens"]);
            assert.equal(u.prompt_cache_hit_tokens + u.prompt_cache_miss_tokens, u.prompt_tokens);
          } else {
            assert.deepEqual(keys, ["completion_tokens", "prompt_tokens", "total_tokens"], profile);
          }
        }
      });
    }
  });

  for (const [profile, block] of [
    ["deepseek", 64],
    ["openai", 128],
  ] as const) {
    it(`[${profile}] 缓存命中：第一次为 0；共享前缀越长命中越多，按 ${block} 取整；前缀一变就归零`, async () => {
      const system = { role: "system", content: "你是一个编程助手，回答要简洁、准确、可以直接运行。".repeat(20) }; // 约 500 个 token
      const turns = [{ content: "第一个回答" }, { content: "第二个回答" }, { content: "第三个回答" }, { content: "第四个回答" }];
      await withModel({ profile, turns }, async (m) => {
        const cachedOf = (u: any) => (profile === "openai" ? u.prompt_tokens_details.cached_tokens : u.prompt_cache_hit_tokens);
        const history: any[] = [system, { role: "user", content: "问题一" }];
        const u1 = (await chat(m, { messages: history })).usage;
        assert.equal(cachedOf(u1), 0);

        history.push({ role: "assistant", content: "第一个回答" }, { role: "user", content: "问题二：" + "请详细解释。".repeat(60) });
        const u2 = (await chat(m, { messages: history })).usage;
        history.push({ role: "assistant", content: "第二个回答" }, { role: "user", content: "问题三" });
        const u3 = (await chat(m, { messages: history })).usage;
        for (const u of [u2, u3]) {
          assert.equal(cachedOf(u) % block, 0, `命中 ${cachedOf(u)} 不是 ${block} 的倍数`);
          assert.ok(cachedOf(u) <= u.prompt_tokens);
          if (profile === "deepseek") assert.equal(u.prompt_cache_hit_tokens + u.prompt_cache_miss_tokens, u.prompt_tokens);
        }
        assert.ok(cachedOf(u2) >= 384, `第二次只命中了 ${cachedOf(u2)}`);
        assert.ok(cachedOf(u3) > cachedOf(u2), `${cachedOf(u3)} 应大于 ${cachedOf(u2)}`);
        assert.ok(u3.prompt_tokens - cachedOf(u3) < block + 20, "几乎整个上一次请求都该命中");

        // system 一开头就改了：没有共享前缀
        const u4 = (await chat(m, { messages: [{ role: "system", content: "换了一个" + system.content }, ...history.slice(1)] })).usage;
        assert.equal(cachedOf(u4), 0);
      });
    });
  }

  it("normalize：每次运行都不同的东西先替换掉，再计 token 和做检查", async () => {
    const normalize = (s: string) => s.replace(/\/tmp\/run-[a-z0-9]+/g, "$WORK");
    const turns = [{ expect: { lastUser: "$WORK/a.txt" }, content: "好" }];
    const prompts: number[] = [];
    for (const dir of ["/tmp/run-abc", "/tmp/run-zzzzzzzzzzzzzzzzzzzz"]) {
      await withModel(
        { turns },
        async (m) => {
          prompts.push((await chat(m, { messages: [{ role: "user", content: `看看 ${dir}/a.txt` }] })).usage.prompt_tokens);
        },
        { normalize },
      );
    }
    assert.equal(prompts[0], prompts[1]);
  });
});

// ---- 字节切片 ----

describe("脚本模型：chunkBytes", () => {
  it("chunkBytes: 3 把多字节字符切开送到；拼起来和不切时一字不差", async () => {
    const content = "a你好，世界！这是一段多字节的内容，用来检查切片。";
    await withModel({ turns: [{ content, chunkBytes: 3 }, { content }] }, async (m) => {
      const res = await post(m, { stream: true });
      assert.equal(res.status, 200);
      const reader = res.body!.getReader();
      const received: Uint8Array[] = [];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        received.push(value);
      }
      const all = Buffer.concat(received);
      // 服务器确实按 3 字节写：单看字节边界，就有落在汉字中间的（测试自己的前提）
      let cutsInside = 0;
      for (let i = 3; i < all.length; i += 3) if ((all[i]! & 0xc0) === 0x80) cutsInside++;
      assert.ok(cutsInside > 0, "3 字节的切口都恰好落在字符边界上，测不出东西");
      // 网络上真收到了小块，而且至少有一块自己解不出来（尾巴是半个汉字）
      assert.ok(received.length > 20, `只收到 ${received.length} 块`);
      const broken = received.filter((chunk) => {
        try {
          new TextDecoder("utf-8", { fatal: true }).decode(chunk);
          return false;
        } catch {
          return true;
        }
      });
      assert.ok(broken.length > 0, "没有哪一块在字符中间断开");

      const whole = await (await post(m, { stream: true })).text();
      assert.equal(new TextDecoder().decode(all), whole);
      assert.equal(assemble(sseData(whole).slice(0, -1).map((d) => JSON.parse(d))).content, content);
    });
  });
});

// ---- 检查 ----

describe("脚本模型：expect 检查", () => {
  const good = {
    stream: false,
    tools: [{ type: "function", function: { name: "read_file", parameters: { type: "object" } } }],
    messages: [
      { role: "system", content: "你是编程助手。当前目录 /work" },
      { role: "user", content: "读一下 a.txt" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_01", type: "function", function: { name: "read_file", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "call_01", content: "文件内容：你好" },
    ],
  };
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ["stream", { stream: true }, /stream 应为 true，实际是 false/],
    ["tools", { tools: ["read_file", "write_file"] }, /tools 应为 \["read_file","write_file"\]，实际是 \["read_file"\]/],
    ["toolsExclude", { toolsExclude: ["read_file"] }, /tools 里不该有 read_file/],
    ["system", { system: "简洁" }, /system 应包含 "简洁"，实际是 "你是编程助手。当前目录 \/work"/],
    ["systemExcludes", { systemExcludes: "/work" }, /system 不该包含 "\/work"/],
    ["lastUser", { lastUser: "b.txt" }, /最后一条 user 消息应包含 "b.txt"，实际是 "读一下 a.txt"/],
    ["lastTool", { lastTool: "再见" }, /最后一条 tool 消息应包含 "再见"，实际是 "文件内容：你好"/],
    ["messages", { messages: 3 }, /应有 3 条消息，实际是 4/],
  ];

  it("每一条检查：满足就照常回答", async () => {
    const expect = { stream: false, tools: ["read_file"], toolsExclude: ["bash"], system: "编程助手", systemExcludes: "简洁", lastUser: "a.txt", lastTool: "你好", messages: 4 };
    await withModel({ turns: [{ expect, content: "读到了" }] }, async (m) => {
      assert.equal((await chat(m, good)).choices[0].message.content, "读到了");
    });
  });

  for (const [field, expect, message] of cases) {
    it(`${field} 不满足：400，错误点名第 1 轮和期望的是什么`, async () => {
      await withModel({ turns: [{ expect, content: "不该看到" }] }, async (m) => {
        const msg = await errorOf(await post(m, good), 400);
        assert.match(msg, /第 1 轮检查失败/);
        assert.match(msg, message);
        assert.equal(m.requests[0]!.status, 400);
      });
    });
  }

  it("第二轮的检查失败就点名第 2 轮", async () => {
    await withModel({ turns: [{ content: "一" }, { expect: { lastUser: "继续" }, content: "二" }] }, async (m) => {
      await chat(m);
      const msg = await errorOf(await post(m, { messages: [{ role: "user", content: "停" }] }), 400);
      assert.match(msg, /第 2 轮检查失败：最后一条 user 消息应包含 "继续"，实际是 "停"/);
    });
  });

  it("超出脚本的请求：400，点名是第几次请求、脚本有几轮", async () => {
    await withModel({ turns: [{ content: "只有一轮" }] }, async (m) => {
      await chat(m);
      const msg = await errorOf(await post(m, {}), 400);
      assert.match(msg, /第 2 次请求超出了脚本（脚本只有 1 轮）/);
      assert.deepEqual(
        m.requests.map((r) => r.status),
        [200, 400],
      );
    });
  });
});

// ---- 故障 ----

describe("脚本模型：故障轮", () => {
  it("401 / 404 / 429（带 Retry-After）/ 500：OpenAI 形状的错误体", async () => {
    const turns = [{ status: 401 }, { status: 404 }, { status: 429, retryAfter: 7 }, { status: 500 }, { status: 503, error: "自定义的错误" }, { content: "恢复了" }];
    await withModel({ turns }, async (m) => {
      const r401 = await post(m, {});
      assert.match(await errorOf(r401, 401), /api key/i);
      assert.equal(r401.headers.get("retry-after"), null);
      assert.match(await errorOf(await post(m, { model: "no-such-model" }), 404), /no-such-model/);
      const r429 = await post(m, { stream: true }); // 流式请求出错也是普通的 JSON 错误，不是 SSE
      assert.equal(r429.headers.get("retry-after"), "7");
      assert.match(await errorOf(r429, 429), /rate limit/i);
      assert.ok((await errorOf(await post(m, {}), 500)).length > 0);
      assert.equal(await errorOf(await post(m, {}), 503), "自定义的错误");
      assert.equal((await chat(m)).choices[0].message.content, "恢复了");
      assert.deepEqual(
        m.requests.map((r) => r.status),
        [401, 404, 429, 500, 503, 200],
      );
    });
  });

  it("malformed：非流式正文不是 JSON；流式有一行 data 不是 JSON（也没有 [DONE]）", async () => {
    await withModel({ turns: [{ content: "x", malformed: true }, { content: "y", malformed: true }] }, async (m) => {
      const r1 = await post(m, {});
      assert.equal(r1.status, 200);
      const text = await r1.text();
      assert.throws(() => JSON.parse(text), SyntaxError);

      const r2 = await post(m, { stream: true });
      assert.equal(r2.status, 200);
      assert.match(r2.headers.get("content-type") ?? "", /text\/event-stream/);
      const data = sseData(await r2.text());
      assert.ok(data.length > 0);
      assert.ok(!data.includes("[DONE]"));
      assert.ok(
        data.some((d) => {
          try {
            JSON.parse(d);
            return false;
          } catch {
            return true;
          }
        }),
      );
    });
  });

  // 不量时间：脚本模型说它收到了请求，这时它还没回答、计时器挂着；计时器到点，回答才来
  it("delayMs：收到请求先睡（计时器挂着，还没回答），睡醒才回答", async () => {
    await withModel({ turns: [{ content: "慢", delayMs: 150 }] }, async (m) => {
      const before = activeTimers();
      // 用 node:http 发：它不像 fetch 那样自己挂计时器，数到的多出来的那个只能是脚本模型的
      const answer = rawChat(m);
      await m.received(1);
      assert.equal(m.requests[0]!.reply, undefined, "收到请求就回答了，没睡");
      assert.equal(activeTimers(), before + 1, "脚本模型没在睡（没有挂着的计时器）");
      assert.equal(JSON.parse(await answer).choices[0].message.content, "慢");
      await m.finished(1);
      assert.equal(activeTimers(), before);
    });
  });

  it("delayMs 期间客户端放弃：服务器不崩、当场停掉计时器，不回答；下一个请求照常", async () => {
    await withModel({ turns: [{ content: "永远等不到", delayMs: 60_000 }, { content: "下一轮" }] }, async (m) => {
      const before = activeTimers();
      const ac = new AbortController();
      const first = post(m, {}, { signal: ac.signal });
      await m.received(1); // 请求确实到了、服务器正在睡，这时才放弃（先放弃的话第 1 轮就轮到下一个请求了）
      ac.abort();
      await assert.rejects(first, { name: "AbortError" });
      await m.finished(1); // 服务器看到了断开
      // 服务器若没在断开时取消那 60 秒的计时器，它还挂着（这个测试文件也会多等 60 秒才退出）
      assert.ok(activeTimers() <= before, `还有 ${activeTimers() - before} 个计时器没停`);
      assert.equal(m.requests[0]!.reply, undefined, "放弃了的请求不该得到回答");
      assert.equal((await chat(m)).choices[0].message.content, "下一轮");
      assert.equal(m.requests.length, 2);
    });
  });

  it("dropAfterBytes：流到一半断掉，客户端读正文时被拒绝；已收到的正是完整流的开头", async () => {
    const turn = { content: "这段话会在中途被掐断，后面的字永远到不了。", tool_calls: [{ name: "read_file", arguments: ARGS_1 }] };
    let full = Buffer.alloc(0);
    await withModel({ turns: [turn] }, async (m) => {
      full = Buffer.from(await (await post(m, { stream: true })).arrayBuffer());
    });
    await withModel({ turns: [{ ...turn, dropAfterBytes: 300 }, { content: "还活着" }] }, async (m) => {
      const res = await post(m, { stream: true });
      assert.equal(res.status, 200);
      const reader = res.body!.getReader();
      const received: Uint8Array[] = [];
      await assert.rejects(async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          received.push(value);
        }
      }, TypeError);
      const got = Buffer.concat(received);
      assert.ok(full.length > 300);
      assert.equal(got.length, 300);
      assert.deepEqual(got, full.subarray(0, 300));
      assert.equal((await chat(m)).choices[0].message.content, "还活着");
    });
  });
});

// ---- 服务商的规矩 ----

describe("脚本模型：服务商的规矩", () => {
  it("vllm 拒绝 tools: [] 和没有 stream: true 的 stream_options；别的写法照常", async () => {
    const turns = Array.from({ length: 6 }, (_, i) => ({ content: `第 ${i + 1} 轮` }));
    await withModel({ profile: "vllm", turns }, async (m) => {
      assert.match(await errorOf(await post(m, { tools: [] }), 400), /vLLM 拒绝空的 tools 数组/);
      assert.match(await errorOf(await post(m, { stream_options: { include_usage: true } }), 400), /vLLM 拒绝没有 stream: true 的 stream_options/);
      assert.match(await errorOf(await post(m, { stream: false, stream_options: { include_usage: true } }), 400), /stream_options/);
      assert.equal((await chat(m)).choices[0].message.content, "第 4 轮");
      const chunks = await streamChunks(m, { stream_options: { include_usage: true } });
      assert.ok(chunks.at(-1).usage);
      const tools = [{ type: "function", function: { name: "read_file" } }];
      assert.equal((await chat(m, { tools })).choices[0].message.content, "第 6 轮");
    });
  });

  it("别家不管 tools: [] 和多余的 stream_options", async () => {
    for (const profile of ["deepseek", "openai", "ollama"] as const) {
      await withModel({ profile, turns: [{ content: "好" }] }, async (m) => {
        await chat(m, { tools: [], stream_options: { include_usage: true } });
      });
    }
  });

  // 第一轮带思考地调用工具，harness 把结果送回来
  const reasoningScript = (profile: Profile): Script => ({
    profile,
    turns: [{ reasoning: "先读文件。", tool_calls: [{ name: "read_file", arguments: '{"path":"a.txt"}' }] }, { content: "读完了" }],
  });
  const followUp = (first: any, withReasoning: boolean) => {
    const msg = first.choices[0].message;
    const assistant: Record<string, unknown> = { role: "assistant", content: null, tool_calls: msg.tool_calls };
    if (withReasoning) assistant.reasoning_content = msg.reasoning_content;
    return { messages: [...USER, assistant, { role: "tool", tool_call_id: msg.tool_calls[0].id, content: "a 的内容" }] };
  };

  it("deepseek：带思考的工具调用，回传时少了 reasoning_content → 400", async () => {
    await withModel(reasoningScript("deepseek"), async (m) => {
      const first = await chat(m);
      assert.equal(first.choices[0].message.reasoning_content, "先读文件。");
      const msg = await errorOf(await post(m, followUp(first, false)), 400);
      assert.match(msg, /DeepSeek 思考模式：带 tool_calls 的 assistant 消息必须带回 reasoning_content/);
    });
  });

  it("deepseek：带着 reasoning_content 回传就照常回答（流式拼出来的也算）", async () => {
    await withModel(reasoningScript("deepseek"), async (m) => {
      const first = await chat(m);
      assert.equal((await chat(m, followUp(first, true))).choices[0].message.content, "读完了");
    });
    await withModel(reasoningScript("deepseek"), async (m) => {
      const got = assemble(await streamChunks(m));
      const assistant = { role: "assistant", content: null, reasoning_content: got.reasoning, tool_calls: got.calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })) };
      const messages = [...USER, assistant, { role: "tool", tool_call_id: got.calls[0]!.id, content: "a 的内容" }];
      assert.equal((await chat(m, { messages })).choices[0].message.content, "读完了");
    });
  });

  it("deepseek：没有思考的工具调用不要求 reasoning_content；别家也不要求", async () => {
    await withModel({ turns: [{ tool_calls: [{ name: "read_file", arguments: "{}" }] }, { content: "好" }] }, async (m) => {
      await chat(m, followUp(await chat(m), false));
    });
    for (const profile of ["openai", "ollama", "vllm"] as const) {
      await withModel(reasoningScript(profile), async (m) => {
        await chat(m, followUp(await chat(m), false));
      });
    }
  });
});

describe("脚本模型：思考的另外两种形状（mistral、groq）", () => {
  const THINK = { reasoning: "17×20=340，17×3=51，合起来 391。", content: "17 × 23 = 391" };

  it("mistral 非流式：content 是分段——thinking 段（里面是 text 段）在前，text 段是回答；没有思考就是普通字符串", async () => {
    await withModel({ profile: "mistral", turns: [THINK, { content: "好" }] }, async (m) => {
      const msg = (await chat(m)).choices[0].message;
      assert.deepEqual(msg.content, [
        { type: "thinking", thinking: [{ type: "text", text: THINK.reasoning }] },
        { type: "text", text: THINK.content },
      ]);
      assert.ok(!("reasoning" in msg) && !("reasoning_content" in msg));
      assert.equal((await chat(m)).choices[0].message.content, "好");
    });
  });

  it("mistral 流式：想的时候 content 是只有 thinking 段的数组；想完那一块同时带着回答的第一截；之后是字符串", async () => {
    await withModel({ profile: "mistral", turns: [THINK] }, async (m) => {
      const contents = (await streamChunks(m)).map((c) => c.choices[0]?.delta?.content).filter((c) => c !== undefined && c !== "");
      const arrays = contents.filter(Array.isArray);
      const last = arrays.at(-1)!;
      assert.ok(arrays.length >= 2);
      assert.ok(arrays.slice(0, -1).every((a) => a.length === 1 && a[0].type === "thinking"));
      assert.deepEqual(last.map((p: any) => p.type), ["thinking", "text"]);
      const thought = arrays.flatMap((a) => a.filter((p: any) => p.type === "thinking").map((p: any) => p.thinking[0].text)).join("");
      assert.equal(thought, THINK.reasoning);
      const strings = contents.filter((c) => typeof c === "string");
      assert.ok(strings.length > 0);
      assert.equal(last[1].text + strings.join(""), THINK.content);
      // 只认字符串的客户端丢了第一截
      assert.notEqual(strings.join(""), THINK.content);
    });
  });

  it("groq：思考放在 reasoning；请求里带回 reasoning（或别的它不认的字段）→ 400，点名是哪一条、哪个字段", async () => {
    const turns = [{ ...THINK, tool_calls: [{ name: "read_file", arguments: "{}" }] }, { content: "好" }, { content: "好" }];
    await withModel({ profile: "groq", turns }, async (m) => {
      const msg = (await chat(m)).choices[0].message;
      assert.equal(msg.reasoning, THINK.reasoning);
      const tool = { role: "tool", tool_call_id: msg.tool_calls[0].id, content: "结果" };
      const echoed = { role: "assistant", content: null, tool_calls: msg.tool_calls, reasoning: msg.reasoning };
      const said = await errorOf(await post(m, { messages: [...USER, echoed, tool] }), 400);
      assert.match(said, /'messages\.1' : for 'role:assistant' the following must be satisfied\[\('messages\.1' : property 'reasoning' is unsupported\)\]/);
      const clean = { role: "assistant", content: null, tool_calls: msg.tool_calls };
      assert.equal((await chat(m, { messages: [...USER, clean, tool] })).choices[0].message.content, "好");
    });
  });

  it("expect.lastAssistant、expect.plainNoThinking：历史里的回答不是完整的那段字、普通回答带着思考 → 400", async () => {
    const history = (assistant: object) => [...USER, assistant, { role: "user", content: "再说一遍" }];
    const cases: [object, RegExp][] = [
      [{ role: "assistant", content: "23 = 391" }, /最后一条 assistant 消息的 content 应是包含 "17 × 23 = 391" 的一段文字/],
      [{ role: "assistant", content: [{ type: "text", text: "17 × 23 = 391" }] }, /的一段文字，实际是 \[/],
      [{ role: "assistant", content: "17 × 23 = 391", reasoning_content: "想过了" }, /没有 tool_calls 的 assistant 消息不该带思考/],
    ];
    for (const [assistant, message] of cases) {
      await withModel({ turns: [{ expect: { lastAssistant: "17 × 23 = 391", plainNoThinking: true }, content: "好" }] }, async (m) => {
        assert.match(await errorOf(await post(m, { messages: history(assistant) }), 400), message);
      });
    }
    await withModel({ turns: [{ expect: { lastAssistant: "17 × 23 = 391", plainNoThinking: true }, content: "好" }] }, async (m) => {
      await chat(m, { messages: history({ role: "assistant", content: "17 × 23 = 391" }) });
    });
  });
});

// ---- 模板 ----

describe("脚本模型：引用工具结果的模板", () => {
  const tool1 = "现在是 2026 年 1 月 1 日";
  const tool2 = '时间 12:30，天气"晴"\n下一行 \\ 反斜杠';
  const messages = [
    ...USER,
    { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "now", arguments: "{}" } }] },
    { role: "tool", tool_call_id: "c1", content: tool1 },
    { role: "assistant", content: null, tool_calls: [{ id: "c2", type: "function", function: { name: "weather", arguments: "{}" } }] },
    { role: "tool", tool_call_id: "c2", content: tool2 },
  ];

  it("content 里的 {{tool}}、{{tool:1}}、{{tool:1|正则}}", async () => {
    const content = "最后：{{tool}}｜第一：{{tool:1}}｜年：{{tool:1|(\\d+) 年}}｜整段匹配：{{tool:2|\\d+:\\d+}}";
    await withModel({ turns: [{ content }, { content }] }, async (m) => {
      const want = `最后：${tool2}｜第一：${tool1}｜年：2026｜整段匹配：12:30`;
      assert.equal((await chat(m, { messages })).choices[0].message.content, want);
      assert.equal(assemble(await streamChunks(m, { messages })).content, want);
    });
  });

  for (const profile of ["deepseek", "ollama"] as const) {
    it(`[${profile}] 工具参数里的模板：引号、换行、反斜杠都被转义，参数仍是合法 JSON`, async () => {
      const args = '{"text":"{{tool}}","first":"{{tool:1}}","year":"{{tool:1|(\\d+)}}"}';
      await withModel({ profile, turns: [{ tool_calls: [{ name: "echo", arguments: args }] }, { tool_calls: [{ name: "echo", arguments: args }] }] }, async (m) => {
        const nonStream = (await chat(m, { messages })).choices[0].message.tool_calls[0].function.arguments;
        const streamed = assemble(await streamChunks(m, { messages })).calls[0]!.arguments;
        for (const a of [nonStream, streamed]) assert.deepEqual(JSON.parse(a), { text: tool2, first: tool1, year: "2026" });
      });
    });
  }

  const failures: [string, string, string, RegExp][] = [
    ["没有任何 tool 结果时的 {{tool}}", "{{tool}}", "content", /第 1 轮要引用的 tool 结果不存在（\{\{tool\}\}）/],
    ["{{tool:3}} 但只有 2 个结果", "看：{{tool:3}}", "content", /第 1 轮要引用的 tool 结果不存在（\{\{tool:3\}\}）/],
    ["正则匹配不上", "{{tool:1|(\\d+) 点}}", "content", /第 1 轮：tool 结果里找不到 \/\(\\d\+\) 点\/：现在是 2026 年/],
    ["工具参数里正则匹配不上", '{"x":"{{tool|没有这个}}"}', "arguments", /第 1 轮：tool 结果里找不到 \/没有这个\//],
  ];
  for (const [what, template, where, message] of failures) {
    it(`${what} → 400，点名这一轮`, async () => {
      const turn = where === "content" ? { content: template } : { tool_calls: [{ name: "echo", arguments: template }] };
      await withModel({ turns: [turn] }, async (m) => {
        const body = what.startsWith("没有任何") ? {} : { messages };
        assert.match(await errorOf(await post(m, body), 400), message);
        assert.equal(m.requests[0]!.status, 400);
      });
    });
  }

  it("第二轮的模板出错就点名第 2 轮", async () => {
    await withModel({ turns: [{ content: "一" }, { content: "{{tool}}" }] }, async (m) => {
      await chat(m);
      assert.match(await errorOf(await post(m, {}), 400), /第 2 轮要引用的 tool 结果不存在/);
    });
  });
});

// ---- 估 token ----

describe("estimateTokens", () => {
  it("中日韩字符与全角标点每个 1 个，其余每 4 个 1 个（向上取整）", () => {
    assert.equal(estimateTokens(""), 0);
    assert.equal(estimateTokens("a"), 1);
    assert.equal(estimateTokens("abcd"), 1);
    assert.equal(estimateTokens("abcde"), 2);
    assert.equal(estimateTokens("hello world!"), 3);
    assert.equal(estimateTokens("你"), 1);
    assert.equal(estimateTokens("你好世界"), 4);
    assert.equal(estimateTokens("，。！？（）"), 6);
    assert.equal(estimateTokens("「」、"), 3);
    assert.equal(estimateTokens("こんにちは"), 5);
    assert.equal(estimateTokens("你好abc"), 3);
    assert.equal(estimateTokens("你a好b世c界d"), 5); // 非 CJK 的字符不必相邻，合起来算
    assert.equal(estimateTokens("🌏🌏🌏🌏"), 1); // 按码点数，不按 UTF-16 单元
  });

  it("确定：同样的输入永远是同样的数", () => {
    const text = "读取 src/main.ts 并解释 function main() { return 42; }。".repeat(50);
    const first = estimateTokens(text);
    for (let i = 0; i < 5; i++) assert.equal(estimateTokens(text), first);
    assert.equal(estimateTokens("a".repeat(400)), 100);
    assert.equal(estimateTokens("汉".repeat(400)), 400);
  });
});
