// agent.ts：agent 循环。一轮 = 一次请求 + 执行这次回答里的全部工具调用；
// 模型不再调用工具，这一问就答完了。
// 第 13 章改动：每轮打印一行用量（输入多少、命中缓存多少），一问答完打印一行总结。
// 练习 13-1：每次回答的用量折成钱记下；发下一次请求之前看预算，到了就停（先把总结行印出来）。
import { dollars, type Meter } from "./cost.ts";
import { chat, type Message, type ModelConfig, type Reply } from "./model.ts";
import type { Registry } from "./registry.ts";
import { withRetry } from "./retry.ts";
import { replyPrinter, safeLine } from "./terminal.ts";
import { roundLine, summaryLine } from "./usage.ts";

export interface AgentOptions {
  config: ModelConfig;
  registry: Registry;
  maxRounds: number;
  signal?: AbortSignal; // 用户按了 Ctrl-C
  meter?: Meter; // 有价钱才有
}

// 轮数到顶不算模型服务的错，历史也完整（最后一条是工具结果），说一句“继续”就能接着跑
export class RoundLimitError extends Error {}

export async function runAgent(history: Message[], opts: AgentOptions): Promise<string> {
  const spent = () => (opts.meter ? dollars(opts.meter.spent) : undefined);
  let last: Reply | undefined;
  for (let round = 1; round <= opts.maxRounds; round++) {
    // 上一次回答花到了预算：这一次请求不发。这一问停在半路，它的总结照样印
    if (opts.meter?.reached() && last) console.error(summaryLine(round - 1, last.usage, last.finishReason, spent()));
    opts.meter?.check();
    const { message, finishReason, usage } = (last = await ask(history, opts));
    history.push(message);
    opts.meter?.add(usage);
    // 最后一轮的用量并进总结那一行，其余每轮一行
    if (!message.tool_calls?.length) {
      console.error(summaryLine(round, usage, finishReason, spent()));
      return message.content ?? "";
    }
    console.error(roundLine(round, usage));
    for (const call of message.tool_calls) {
      // 参数原样打印（只有控制字符显形）：模型发来什么就是什么，调试时最有用的恰恰是它写歪了的那些
      console.error(`[round ${round}] ${safeLine(call.function.name)}(${safeLine(call.function.arguments)})`);
      // 每个 tool_call 都必须有一条结果，哪怕是“没有执行”：否则下一次请求会被服务商拒绝
      const result = opts.signal?.aborted
        ? "错误: 用户按了 Ctrl-C，这个调用没有执行"
        : await opts.registry.execute(call.function.name, call.function.arguments, opts.signal);
      history.push({ role: "tool", tool_call_id: call.id, content: result });
    }
    opts.signal?.throwIfAborted();
  }
  throw new RoundLimitError(`已经跑了 ${opts.maxRounds} 轮，模型还在调用工具，先停下（上限由 HARNESS_MAX_ROUNDS 设置）`);
}

// 发一次请求（失败了按策略重试）：回答边收边打印，返回完整的回答
function ask(history: Message[], opts: AgentOptions): Promise<Reply> {
  return withRetry(opts.config.retry, async (signal) => {
    const out = replyPrinter(); // 模型的字只显形、不执行；思考另走 stderr
    try {
      return await chat(opts.config, history, opts.registry.definitions(), out, signal);
    } finally {
      out.end(); // 流断在半句话上时，让错误或重试的提示另起一行
    }
  }, opts.signal);
}
