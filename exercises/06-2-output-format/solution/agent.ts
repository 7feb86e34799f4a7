// agent.ts：agent 循环。一轮 = 一次请求 + 执行这次回答里的全部工具调用；
// 模型不再调用工具，这一问就答完了。
// 第 06 章新增。练习 06-2：循环把每一步告诉 listener（给程序读的输出），回答的字可以改印到 stderr。
import { chat, type AssistantMessage, type Message, type ModelConfig } from "./model.ts";
import type { Registry } from "./registry.ts";
import { replyPrinter, safeLine } from "./terminal.ts";

export interface AgentOptions {
  config: ModelConfig;
  registry: Registry;
  maxRounds: number;
  listener?: AgentListener; // 想知道每一步的人（--output-format stream-json / json）
  out?: NodeJS.WriteStream; // 回答的字印到哪：默认 stdout；给程序读时 stdout 只留给 JSON，字改印到 stderr
}

export interface AgentListener {
  request(): void; // 要发一次请求了
  reply(message: AssistantMessage): void; // 收到一条完整的回答
  toolResult(id: string, result: string): void; // 一个工具调用有了结果
}

// 轮数到顶不算模型服务的错，历史也完整（最后一条是工具结果），说一句“继续”就能接着跑
export class RoundLimitError extends Error {}

export async function runAgent(history: Message[], opts: AgentOptions): Promise<string> {
  for (let round = 1; round <= opts.maxRounds; round++) {
    opts.listener?.request();
    const reply = await ask(history, opts);
    history.push(reply);
    opts.listener?.reply(reply);
    if (!reply.tool_calls?.length) return reply.content ?? "";
    for (const call of reply.tool_calls) {
      // 参数原样打印（只有控制字符显形）：模型发来什么就是什么，调试时最有用的恰恰是它写歪了的那些
      console.error(`[round ${round}] ${safeLine(call.function.name)}(${safeLine(call.function.arguments)})`);
      const result = await opts.registry.execute(call.function.name, call.function.arguments);
      history.push({ role: "tool", tool_call_id: call.id, content: result });
      opts.listener?.toolResult(call.id, result);
    }
  }
  throw new RoundLimitError(`已经跑了 ${opts.maxRounds} 轮，模型还在调用工具，先停下（上限由 HARNESS_MAX_ROUNDS 设置）`);
}

// 发一次请求：回答边收边打印（思考另走 stderr），返回完整的 assistant 消息
async function ask(history: Message[], opts: AgentOptions): Promise<AssistantMessage> {
  const out = replyPrinter(opts.out); // 模型的字只显形、不执行
  try {
    return await chat(opts.config, history, opts.registry.definitions(), out);
  } finally {
    out.end(); // 流断在半句话上时，让错误信息另起一行
  }
}
