// agent.ts：agent 循环。一轮 = 一次请求 + 执行这次回答里的全部工具调用；
// 模型不再调用工具，这一问就答完了。
// 第 20 章改动：一轮里的几个工具调用同时执行，结果按调用的顺序放回历史。
// 一轮最多执行 MAX_CALLS 个调用、同时最多跑 MAX_PARALLEL 个：模型一口气发来 2000 个，也只是多收到几条“错误:”。
// 练习 20-1：同时跑几个由 HARNESS_MAX_PARALLEL 定（默认还是 MAX_PARALLEL）；每个 agent 的每一轮各算各的。
import { fitBudget } from "./budget.ts";
import { compactIfNeeded } from "./compact.ts";
import { chat, type Message, type ModelConfig, type Reply } from "./model.ts";
import type { Registry } from "./registry.ts";
import { withRetry } from "./retry.ts";
import { replyPrinter, safeLine } from "./terminal.ts";
import { roundLine, summaryLine, type UsageLedger } from "./usage.ts";

export const MAX_CALLS = 64; // 一轮最多执行这么多个调用，多出来的答一句“错误:”
export const MAX_PARALLEL = 8; // 同时最多跑这么多个：500 个 sleep 不会变成 500 个进程

// HARNESS_MAX_PARALLEL 读成一个正整数。写坏了不值得让 harness 起不来：一行警告，照默认的来
export function maxParallelFrom(env: NodeJS.ProcessEnv): number {
  const raw = env.HARNESS_MAX_PARALLEL;
  if (raw === undefined) return MAX_PARALLEL;
  const n = Number(raw);
  if (raw.trim() !== "" && Number.isInteger(n) && n >= 1) return n;
  console.error(`警告: HARNESS_MAX_PARALLEL 要是正整数，现在是 ${safeLine(raw)}，用默认的 ${MAX_PARALLEL}`);
  return MAX_PARALLEL;
}

// 按顺序交回结果的 Promise.all，只是同时最多跑 limit 个
async function pooled<T>(jobs: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return results;
}

export interface AgentOptions {
  config: ModelConfig;
  registry: Registry;
  maxRounds: number;
  budget: number; // 一个工具结果最多交给模型多少字符
  compactAt: number; // 上下文估算超过这么多 tokens 就压缩
  save?: () => void; // 每轮结束时调用：压缩会换掉历史里较早的消息，换掉之前它们得已经存进会话文件
  signal?: AbortSignal; // 用户按了 Ctrl-C
  ledger?: UsageLedger; // 这一问所有请求的用量，子 agent 的也记在这里
  nested?: string; // 子 agent 的日志前缀；有它就说明这是个子 agent，它的文字不直接给用户看
  maxParallel?: number; // 一轮里同时最多跑几个调用（默认 MAX_PARALLEL）
}

// 轮数到顶不算模型服务的错，历史也完整（最后一条是工具结果），说一句“继续”就能接着跑
export class RoundLimitError extends Error {}

export async function runAgent(history: Message[], opts: AgentOptions): Promise<string> {
  for (let round = 1; round <= opts.maxRounds; round++) {
    const tools = opts.registry.definitions();
    await compactIfNeeded(history, { config: opts.config, tools, threshold: opts.compactAt, keep: 4, signal: opts.signal, ledger: opts.ledger, nested: opts.nested });
    const { message, finishReason, usage } = await ask(history, opts);
    history.push(message);
    opts.ledger?.add(usage, opts.nested !== undefined);
    const log = (line: string) => console.error((opts.nested ?? "") + line);
    // 最后一轮的用量并进总结那一行，其余每轮一行
    if (!message.tool_calls?.length) {
      log(summaryLine(round, usage, finishReason));
      return message.content ?? "";
    }
    log(roundLine(round, usage));
    // 参数原样打印（只有控制字符显形）：模型发来什么就是什么，调试时最有用的恰恰是它写歪了的那些
    const calls = message.tool_calls;
    for (const call of calls.slice(0, MAX_CALLS)) log(`[round ${round}] ${safeLine(call.function.name)}(${safeLine(call.function.arguments)})`);
    if (calls.length > MAX_CALLS) log(`[round ${round}] 还有 ${calls.length - MAX_CALLS} 个调用超过了每轮 ${MAX_CALLS} 个的上限，没有执行`);
    const over = `错误: 这一轮的工具调用有 ${calls.length} 个，超过了每轮 ${MAX_CALLS} 个的上限，这个没有执行；少一点，分几轮来`;
    // 模型在同一轮里发出的调用彼此独立，一起跑（同时最多 maxParallel 个）；结果按调用的顺序交回，不按谁先跑完。
    // 这个池子是这一轮自己的：子 agent 的调用进的是子 agent 那一轮的池子，不和派它的调用抢名额——
    // 全进程共用一个的话，父 agent 的 sub_agent 调用占满名额、等着子 agent，子 agent 的调用等着名额，谁也动不了
    const results = await pooled(
      calls.map((call, i) => async () =>
        // 每个 tool_call 都必须有一条结果，哪怕是“没有执行”：否则下一次请求会被服务商拒绝
        i >= MAX_CALLS
          ? over
          : opts.signal?.aborted
            ? "错误: 用户按了 Ctrl-C，这个调用没有执行"
            : opts.registry.execute(call.function.name, call.function.arguments, opts.signal),
      ),
      opts.maxParallel ?? MAX_PARALLEL,
    );
    message.tool_calls.forEach((call, i) => history.push({ role: "tool", tool_call_id: call.id, content: fitBudget(results[i], opts.budget) }));
    opts.save?.();
    opts.signal?.throwIfAborted();
  }
  throw new RoundLimitError(`已经跑了 ${opts.maxRounds} 轮，模型还在调用工具，先停下（上限由 HARNESS_MAX_ROUNDS 设置）`);
}

const quiet = { text() {}, thinking() {}, note() {}, end() {} };

// 发一次请求（失败了按策略重试）：回答边收边打印，返回完整的回答
function ask(history: Message[], opts: AgentOptions): Promise<Reply> {
  return withRetry(opts.config.retry, async (signal) => {
    // 子 agent 的文字（连同思考）是交给父 agent 的，不是给用户的；模型的字只显形、不执行，思考另走 stderr
    const out = opts.nested === undefined ? replyPrinter() : quiet;
    try {
      return await chat(opts.config, history, opts.registry.definitions(), out, signal);
    } finally {
      out.end(); // 流断在半句话上时，让错误或重试的提示另起一行
    }
  }, opts.signal);
}
