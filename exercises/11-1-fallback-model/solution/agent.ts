// agent.ts：agent 循环。一轮 = 一次请求 + 执行这次回答里的全部工具调用；
// 模型不再调用工具，这一问就答完了。
// 第 11 章改动：每次请求都经过 withRetry——失败了按策略重试。
// 练习 11-1：过载、重试也用完了，换备用模型把这次请求再发一遍，这次会话接下来都问它。
import { chat, ModelError, type AssistantMessage, type Message, type ModelConfig } from "./model.ts";
import type { Registry } from "./registry.ts";
import { withRetry } from "./retry.ts";
import { replyPrinter, safeLine } from "./terminal.ts";

export interface AgentOptions {
  config: ModelConfig;
  registry: Registry;
  maxRounds: number;
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
      const result = await opts.registry.execute(call.function.name, call.function.arguments);
      history.push({ role: "tool", tool_call_id: call.id, content: result });
    }
  }
  throw new RoundLimitError(`已经跑了 ${opts.maxRounds} 轮，模型还在调用工具，先停下（上限由 HARNESS_MAX_ROUNDS 设置）`);
}

// 发一次请求（失败了按策略重试，过载了换备用模型）：回答边收边打印，返回完整的 assistant 消息
async function ask(history: Message[], opts: AgentOptions): Promise<AssistantMessage> {
  for (;;) {
    try {
      return await askWithRetry(history, opts);
    } catch (e) {
      if (!switchToFallback(opts.config, e)) throw e;
    }
  }
}

// 过载、重试也用完了，而且还没换过：改 config 本身，这一问后面的轮、下一问都问备用模型。
// 已经在用备用模型了就不再换——它也过载，这次就是失败（不然两个模型之间来回换，永远停不下来）
function switchToFallback(config: ModelConfig, e: unknown): boolean {
  const fallback = config.fallbackModel;
  if (!(e instanceof ModelError) || !e.overloaded || !fallback || fallback === config.model) return false;
  console.error(`警告: ${e.message}——改用备用模型 ${safeLine(fallback)}（HARNESS_FALLBACK_MODEL），这次会话接下来都问它`);
  config.model = fallback;
  return true;
}

function askWithRetry(history: Message[], opts: AgentOptions): Promise<AssistantMessage> {
  return withRetry(opts.config.retry, async (signal) => {
    const out = replyPrinter(); // 模型的字只显形、不执行；思考另走 stderr
    try {
      return await chat(opts.config, history, opts.registry.definitions(), out, signal);
    } finally {
      out.end(); // 流断在半句话上时，让错误或重试的提示另起一行
    }
  });
}
