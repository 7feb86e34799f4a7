// compact.ts：上下文压缩。估算的上下文超过阈值时，把较早的消息交给模型总结成一段话，用它换掉那些消息。
// 第 15 章新增：只多一次摘要调用；一个 tool_call 和它的结果永远留在同一边，不会被拆开。
// 练习 15-1：compact() 不看阈值、现在就压缩（/compact 用它），可以带上用户交代的侧重点 focus。
import { chat, type Message, type ModelConfig, type ToolSpec } from "./model.ts";
import { withRetry } from "./retry.ts";
import { estimateMessages, estimateText } from "./tokens.ts";

// 摘要请求的字（连同模型的思考）不上屏：用户看到的只是压缩前后的那一行
const silent = { text() {}, thinking() {}, note() {} };

export interface CompactOptions {
  config: ModelConfig;
  tools: ToolSpec[]; // 工具声明也占上下文，每轮都发
  threshold: number; // 估算超过这么多 tokens 就压缩
  keep: number; // 最近的多少条消息原样保留
  signal?: AbortSignal;
  focus?: string; // 用户交代摘要要侧重什么（/compact 后面的话）
}

export async function compactIfNeeded(history: Message[], opts: CompactOptions): Promise<void> {
  const before = estimateMessages(history) + estimateText(JSON.stringify(opts.tools));
  if (before <= opts.threshold) return;
  await compact(history, opts);
}

// 不看阈值，现在就压缩。可以总结的太少（只剩一两条）就什么也不做、不发请求，返回 false
export async function compact(history: Message[], opts: Omit<CompactOptions, "threshold">): Promise<boolean> {
  const size = () => estimateMessages(history) + estimateText(JSON.stringify(opts.tools));
  const before = size();
  const start = history[0]?.role === "system" ? 1 : 0; // system prompt 永远不动
  let split = Math.max(start, history.length - opts.keep);
  // 保留的部分不能从 tool 消息开始：那样它的 tool_call 会被总结掉，只剩一个来历不明的结果，服务商会拒绝
  while (split > start && history[split]?.role === "tool") split--;
  if (split - start < 2) return false; // 更早的只剩一两条，总结了也省不下什么
  const older = history.slice(start, split);
  const summary = await summarize(older, opts);
  history.splice(start, older.length, { role: "user", content: `（以下是之前对话的摘要，原文已经压缩掉了）\n${summary}` });
  console.error(`[压缩上下文：约 ${before} tokens → 约 ${size()} tokens，${older.length} 条较早的消息换成了一段摘要]`);
  return true;
}

// 摘要请求不带工具：要的只是一段话。较早的消息先摊平成纯文字，这样也不必操心 tool_call 的配对
async function summarize(older: Message[], opts: Omit<CompactOptions, "threshold">): Promise<string> {
  const transcript = older.map(asText).join("\n");
  // 用户的侧重点放在要求后面、对话前面：摘要模型先知道要留什么，再读对话
  const focus = opts.focus ? `\n用户特别交代，这次摘要要侧重：${opts.focus}` : "";
  const request: Message[] = [
    { role: "system", content: "你负责把一段编程助手的对话压缩成摘要。" },
    {
      role: "user",
      content: `把下面这段对话总结成一段简洁的摘要，后面的工作要靠它接着做。保留：用户的目标和要求、已经做了什么、得到的关键结果（文件名、数字、错误信息）、还没做完的事。${focus}\n\n${transcript}`,
    },
  ];
  const reply = await withRetry(opts.config.retry, (signal) => chat(opts.config, request, [], silent, signal), opts.signal);
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
