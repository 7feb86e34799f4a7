// compact.ts：上下文压缩。估算的上下文超过阈值时，把较早的消息交给模型总结成一段话，用它换掉那些消息。
// 第 18 章改动：摘要调用也花钱，用量记进账本；子 agent 里的压缩记在子 agent 名下，日志也带它的缩进。
import { chat, type Message, type ModelConfig, type ToolSpec } from "./model.ts";
import { withRetry } from "./retry.ts";
import { estimateMessages, estimateText } from "./tokens.ts";
import type { UsageLedger } from "./usage.ts";

// 摘要请求的字（连同模型的思考）不上屏：用户看到的只是压缩前后的那一行
const silent = { text() {}, thinking() {}, note() {} };

export interface CompactOptions {
  config: ModelConfig;
  tools: ToolSpec[]; // 工具声明也占上下文，每轮都发
  threshold: number; // 估算超过这么多 tokens 就压缩
  keep: number; // 最近的多少条消息原样保留
  signal?: AbortSignal;
  ledger?: UsageLedger;
  nested?: string; // 子 agent 的日志前缀；有它就说明压缩的是子 agent 的历史
}

export async function compactIfNeeded(history: Message[], opts: CompactOptions): Promise<void> {
  const size = () => estimateMessages(history) + estimateText(JSON.stringify(opts.tools));
  const before = size();
  if (before <= opts.threshold) return;
  const start = history[0]?.role === "system" ? 1 : 0; // system prompt 永远不动
  let split = Math.max(start, history.length - opts.keep);
  // 保留的部分不能从 tool 消息开始：那样它的 tool_call 会被总结掉，只剩一个来历不明的结果，服务商会拒绝
  while (split > start && history[split].role === "tool") split--;
  if (split - start < 2) return; // 更早的只剩一两条，总结了也省不下什么
  const older = history.slice(start, split);
  const summary = await summarize(older, opts);
  history.splice(start, older.length, { role: "user", content: `（以下是之前对话的摘要，原文已经压缩掉了）\n${summary}` });
  console.error(`${opts.nested ?? ""}[压缩上下文：约 ${before} tokens → 约 ${size()} tokens，${older.length} 条较早的消息换成了一段摘要]`);
}

// 摘要请求不带工具：要的只是一段话。较早的消息先摊平成纯文字，这样也不必操心 tool_call 的配对
async function summarize(older: Message[], opts: CompactOptions): Promise<string> {
  const transcript = older.map(asText).join("\n");
  const request: Message[] = [
    { role: "system", content: "你负责把一段编程助手的对话压缩成摘要。" },
    {
      role: "user",
      content: `把下面这段对话总结成一段简洁的摘要，后面的工作要靠它接着做。保留：用户的目标和要求、已经做了什么、得到的关键结果（文件名、数字、错误信息）、还没做完的事。\n\n${transcript}`,
    },
  ];
  const reply = await withRetry(opts.config.retry, (signal) => chat(opts.config, request, [], silent, signal), opts.signal);
  opts.ledger?.add(reply.usage, opts.nested !== undefined);
  return reply.message.content ?? "";
}

function asText(m: Message): string {
  if (m.role === "tool") return `[工具结果] ${m.content}`;
  if (m.role === "assistant") {
    const calls = (m.tool_calls ?? []).map((c) => `[调用 ${c.function.name}(${c.function.arguments})]`);
    return [`[助手] ${m.content ?? ""}`, ...calls].join("\n");
  }
  return `[${m.role === "user" ? "用户" : "系统"}] ${m.content}`;
}
