// agent.ts：agent 循环。一轮 = 一次请求 + 执行这次回答里的全部工具调用；
// 模型不再调用工具，这一问就答完了。
// 第 18 章改动：可以嵌套——子 agent 的日志带缩进前缀、文字不打到 stdout；每轮的用量记进账本。
import { fitBudget } from "./budget.ts";
import { compactIfNeeded } from "./compact.ts";
import { chat, type Message, type ModelConfig, type Reply } from "./model.ts";
import type { Registry } from "./registry.ts";
import { withRetry } from "./retry.ts";
import { replyPrinter, safeLine } from "./terminal.ts";
import { roundLine, summaryLine, type UsageLedger } from "./usage.ts";

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
    for (const call of message.tool_calls) {
      // 参数原样打印（只有控制字符显形）：模型发来什么就是什么，调试时最有用的恰恰是它写歪了的那些
      log(`[round ${round}] ${safeLine(call.function.name)}(${safeLine(call.function.arguments)})`);
      // 每个 tool_call 都必须有一条结果，哪怕是“没有执行”：否则下一次请求会被服务商拒绝
      const result = opts.signal?.aborted
        ? "错误: 用户按了 Ctrl-C，这个调用没有执行"
        : await opts.registry.execute(call.function.name, call.function.arguments, opts.signal);
      history.push({ role: "tool", tool_call_id: call.id, content: fitBudget(result, opts.budget) });
    }
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
