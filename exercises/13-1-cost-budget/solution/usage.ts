// usage.ts：用量。每轮一行——这次请求的输入有多少 tokens、其中多少命中了服务商的前缀缓存；
// 一问答完再一行总结。缓存命中的部分通常只收几分之一的钱，所以这两个数值得一直看着。
// 第 13 章新增。
// 练习 13-1：算钱的时候，总结行末尾再带上这次运行一共花了多少。
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

export function summaryLine(rounds: number, last: Usage | undefined, finishReason: string, spent?: string): string {
  const input = last ? `最后一轮输入 ${last.input} tokens（命中缓存 ${last.cached}）` : "最后一轮用量未知 ";
  const cost = spent === undefined ? "" : ` · 累计花费 ${spent}`; // 没有价钱就不印
  return safeLine(`[共 ${rounds} 轮 · ${input}· finish_reason=${finishReason}${cost}]`);
}
