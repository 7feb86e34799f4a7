// usage.ts：用量。每轮一行——这次请求的输入有多少 tokens、其中多少命中了服务商的前缀缓存；
// 一问答完再一行总结。缓存命中的部分通常只收几分之一的钱，所以这两个数值得一直看着。
// 第 18 章改动：加上账本（UsageLedger）——子 agent 的请求也花钱，要一起算。
import { safeLine } from "./terminal.ts";

export interface Usage {
  input: number;
  cached: number;
  output: number;
}

// 各家的字段不一样：DeepSeek 报 prompt_cache_hit_tokens，OpenAI 报 prompt_tokens_details.cached_tokens，
// Ollama、vLLM（默认配置）两个都没有——那就是 0
export function readUsage(raw: any): Usage {
  return {
    input: raw.prompt_tokens ?? 0,
    cached: raw.prompt_cache_hit_tokens ?? raw.prompt_tokens_details?.cached_tokens ?? 0,
    output: raw.completion_tokens ?? 0,
  };
}

// 用量的字段和 finish_reason 是服务端填的：它填的若不是数字而是一串 ESC 序列，也只显形
export function roundLine(round: number, usage: Usage | undefined): string {
  if (!usage) return `[round ${round} 用量未知：服务没有返回 usage]`;
  return safeLine(`[round ${round} 输入 ${usage.input} tokens，命中缓存 ${usage.cached}]`);
}

export function summaryLine(rounds: number, last: Usage | undefined, finishReason: string): string {
  const input = last ? `最后一轮输入 ${last.input} tokens（命中缓存 ${last.cached}）` : "最后一轮用量未知 ";
  return safeLine(`[共 ${rounds} 轮 · ${input}· finish_reason=${finishReason}]`);
}

// 账本：从启动到现在所有请求（包括子 agent 的）的用量加起来
export class UsageLedger {
  input = 0;
  cached = 0;
  output = 0;
  nestedInput = 0; // 其中子 agent 的输入

  add(usage: Usage | undefined, nested: boolean): void {
    if (!usage) return;
    this.input += usage.input;
    this.cached += usage.cached;
    this.output += usage.output;
    if (nested) this.nestedInput += usage.input;
  }

  line(): string {
    return safeLine(`[累计用量：输入 ${this.input} tokens（命中缓存 ${this.cached}），输出 ${this.output} tokens；其中子 agent 输入 ${this.nestedInput} tokens]`);
  }
}
