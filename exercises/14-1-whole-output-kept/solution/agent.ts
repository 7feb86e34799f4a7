// agent.ts：agent 循环。一轮 = 一次请求 + 执行这次回答里的全部工具调用；
// 模型不再调用工具，这一问就答完了。
// 第 14 章改动：工具结果先过预算（fitBudget）再进历史。
// 练习 14-1 改动：超出预算的结果整份存下来（outputs.ts），模型拿到头尾和路径；读回存下的那份不再过预算。
import { fitBudget } from "./budget.ts";
import { chat, type Message, type ModelConfig, type Reply, type ToolCall } from "./model.ts";
import type { SavedOutputs } from "./outputs.ts";
import type { Registry } from "./registry.ts";
import { withRetry } from "./retry.ts";
import { replyPrinter, safeLine } from "./terminal.ts";
import { roundLine, summaryLine } from "./usage.ts";

export interface AgentOptions {
  config: ModelConfig;
  registry: Registry;
  maxRounds: number;
  budget: number; // 一个工具结果最多交给模型多少字符
  outputs?: SavedOutputs; // 超出预算的结果整份存在哪
  signal?: AbortSignal; // 用户按了 Ctrl-C
}

// 轮数到顶不算模型服务的错，历史也完整（最后一条是工具结果），说一句“继续”就能接着跑
export class RoundLimitError extends Error {}

export async function runAgent(history: Message[], opts: AgentOptions): Promise<string> {
  for (let round = 1; round <= opts.maxRounds; round++) {
    const { message, finishReason, usage } = await ask(history, opts);
    history.push(message);
    // 最后一轮的用量并进总结那一行，其余每轮一行
    if (!message.tool_calls?.length) {
      console.error(summaryLine(round, usage, finishReason));
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
      history.push({ role: "tool", tool_call_id: call.id, content: keep(result, call, opts) });
    }
    opts.signal?.throwIfAborted();
  }
  throw new RoundLimitError(`已经跑了 ${opts.maxRounds} 轮，模型还在调用工具，先停下（上限由 HARNESS_MAX_ROUNDS 设置）`);
}

// 结果进历史之前：没超预算的原样；超了的留头尾，完整的一份存下来，告诉模型在哪、多大、怎么读。
// 模型用 read_file 读回存下的那份时不再过预算——它要的就是被省略的部分（read_file 自己有 256 KB 的上限）
function keep(result: string, call: ToolCall, opts: AgentOptions): string {
  if (call.function.name === "read_file" && opts.outputs?.has(pathOf(call.function.arguments))) return result;
  const cut = fitBudget(result, opts.budget);
  if (cut === result) return result;
  const file = opts.outputs?.save(result);
  if (!file) return cut;
  return `${cut}\n[完整的结果有 ${Buffer.byteLength(result)} 字节，原样存在 ${file} ；要看省略的部分，用 read_file 读这个文件]`;
}

function pathOf(args: string): unknown {
  try {
    return JSON.parse(args)?.path;
  } catch {
    return undefined;
  }
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
