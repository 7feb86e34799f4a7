// agent.ts：agent 循环。一轮 = 一次请求 + 执行这次回答里的全部工具调用；
// 模型不再调用工具，这一问就答完了。
// 第 12 章改动：signal 传给请求和工具；中断时没跑的调用也补上结果，历史里不留悬空的 tool_call。
// 练习 12-1：一轮的工具结果都齐了、下一次请求之前，用户这期间敲的话作为 user 消息接上（插话）。
import { chat, type AssistantMessage, type Message, type ModelConfig } from "./model.ts";
import type { Registry } from "./registry.ts";
import { withRetry } from "./retry.ts";
import { replyPrinter, safeLine } from "./terminal.ts";

export interface AgentOptions {
  config: ModelConfig;
  registry: Registry;
  maxRounds: number;
  signal?: AbortSignal; // 用户按了 Ctrl-C
  steer?: () => string[]; // 用户在 agent 干活时敲的行（只有 REPL 里有）
}

// 轮数到顶不算模型服务的错，历史也完整（最后一条是工具结果），说一句“继续”就能接着跑
export class RoundLimitError extends Error {}

export async function runAgent(history: Message[], opts: AgentOptions): Promise<string> {
  for (let round = 1; round <= opts.maxRounds; round++) {
    const reply = await ask(history, opts);
    history.push(reply);
    if (!reply.tool_calls?.length) return reply.content ?? "";
    for (const call of reply.tool_calls) {
      // 参数原样打印（只有控制字符显形）：模型发来什么就是什么，调试时最有用的恰恰是它写歪了的那些
      console.error(`[round ${round}] ${safeLine(call.function.name)}(${safeLine(call.function.arguments)})`);
      // 每个 tool_call 都必须有一条结果，哪怕是“没有执行”：否则下一次请求会被服务商拒绝
      const result = opts.signal?.aborted
        ? "错误: 用户按了 Ctrl-C，这个调用没有执行"
        : await opts.registry.execute(call.function.name, call.function.arguments, opts.signal);
      history.push({ role: "tool", tool_call_id: call.id, content: result });
    }
    opts.signal?.throwIfAborted();
    // 插在这里，不能更早：tool_call 和它的结果之间夹一条 user 消息，服务商会回 400
    for (const line of opts.steer?.() ?? []) {
      console.error(`[插话] ${safeLine(line)}`);
      history.push({ role: "user", content: line });
    }
  }
  throw new RoundLimitError(`已经跑了 ${opts.maxRounds} 轮，模型还在调用工具，先停下（上限由 HARNESS_MAX_ROUNDS 设置）`);
}

// 发一次请求（失败了按策略重试）：回答边收边打印，返回完整的 assistant 消息
function ask(history: Message[], opts: AgentOptions): Promise<AssistantMessage> {
  return withRetry(opts.config.retry, async (signal) => {
    const out = replyPrinter(); // 模型的字只显形、不执行；思考另走 stderr
    try {
      return await chat(opts.config, history, opts.registry.definitions(), out, signal);
    } finally {
      out.end(); // 流断在半句话上时，让错误或重试的提示另起一行
    }
  }, opts.signal);
}
