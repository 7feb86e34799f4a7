// mcp-tools.ts：适配器——把服务器的工具包成第 06 章的 Tool，注册表分不出它和 read_file 有什么不同。
// 第 22 章新增。工具名换成 mcp__<服务名>__<工具名>，描述标明出处，结果里的每块内容变成交给模型的文字。
import { describeJsonError } from "./json.ts";
import type { McpClient } from "./mcp-client.ts";
import { isObject, show } from "./mcp-config.ts";
import { clip, type ToolSpec } from "./model.ts";
import type { Tool } from "./registry.ts";

interface RemoteTool {
  name: string;
  description?: string;
  inputSchema: object;
}

export class McpTool implements Tool {
  private readonly client: McpClient;
  private readonly remote: RemoteTool;
  private readonly spec: ToolSpec;

  constructor(client: McpClient, remote: RemoteTool, exposedName: string) {
    this.client = client;
    this.remote = remote;
    // 参数 schema 原样透传：参数长什么样，是工具的作者说了算
    this.spec = {
      name: exposedName,
      description: `[来自 MCP 服务 ${client.name}] ${remote.description ?? ""}`,
      parameters: remote.inputSchema,
    };
  }

  definition(): ToolSpec {
    return this.spec;
  }

  async execute(args: string, signal?: AbortSignal): Promise<string> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(args);
    } catch {
      return `错误: 参数不是合法 JSON（${describeJsonError(args)}）：${clip(args)}`; // 和注册表的说法一样
    }
    let result: unknown;
    try {
      result = await this.client.request("tools/call", { name: this.remote.name, arguments: parsed }, signal);
    } catch (e) {
      // 这一层的错是“调用没送到工具手上”：进程死了、协议出错、用户不等了
      return `错误: ${(e as Error).message}`;
    }
    if (!isObject(result) || !Array.isArray(result.content)) {
      return `错误: MCP 服务 "${this.client.name}" 的 tools/call 结果不合协议：要是带 content 数组的对象，收到的是 ${show(result)}`;
    }
    const lines = result.content.map(contentLine);
    // 只给了 structuredContent、没有文字块（规范说该同时给一份文字，不是人人都给）：把 JSON 交给模型，别交一个空串。
    // 它可能把图片原样再抄一遍（server-filesystem 的 read_media_file 就这样）：二进制数据先换成一句说明
    if (!result.content.some((c) => isObject(c) && c.type === "text") && isObject(result.structuredContent)) lines.push(JSON.stringify(withoutBinary(result.structuredContent)));
    const text = lines.join("\n");
    // isError 是另一层：工具收到了调用，干活失败了。结果的一部分，进程还活着，下一次照常调用
    return result.isError === true ? `错误: 工具执行失败: ${text}` : text;
  }
}

// 结果里的一块内容变成交给模型的一行字。模型只收文字：不是文字的，如实说它是什么、在哪、多大，
// 模型才知道有东西没看到，不至于把一张图当成“什么也没有”
function contentLine(c: unknown): string {
  if (!isObject(c)) return `[未处理的内容 ${show(withoutBinary(c))}]`;
  const size = (data: unknown) => (typeof data === "string" ? `${Buffer.byteLength(data, "base64")} 字节` : "大小不明");
  const kind = (mime: unknown) => (typeof mime === "string" ? mime : "类型不明");
  const r = isObject(c.resource) ? c.resource : undefined;
  if (c.type === "text" && typeof c.text === "string") return c.text;
  if (c.type === "image") return `[图片 ${kind(c.mimeType)}，${size(c.data)}：这里只把文字交给模型，图片本身没有转交]`;
  if (c.type === "audio") return `[音频 ${kind(c.mimeType)}，${size(c.data)}：这里只把文字交给模型，音频本身没有转交]`;
  if (c.type === "resource" && r && typeof r.text === "string") return `[资源 ${String(r.uri)}]\n${r.text}`;
  if (c.type === "resource" && r) return `[资源 ${String(r.uri)}：二进制 ${kind(r.mimeType)}，${size(r.blob)}，没有转交]`;
  if (c.type === "resource_link") return `[资源链接 ${show(c.name)}：${String(c.uri)}]`;
  return `[未处理的内容类型 ${show(c.type)}]`;
}

// 看着像二进制的字符串：data: URI、很长的一串只由 base64 字符组成的字。短的 base64 只在明说是数据的地方认
// （图片、音频的 data，资源的 blob）——别把一个哈希值、一个普通的英文单词当成图片
const DATA_URI = /^data:[^,]{0,200};base64,/;
const LONG_BASE64 = /^[A-Za-z0-9+/_-]{1024,}={0,2}$/;

// 结构化结果原样交给模型之前，把里面的二进制数据换成一句说明：模型只收文字，几万个 base64 字符它读不懂，还白占上下文
function withoutBinary(value: unknown, key = "", parent?: Record<string, unknown>): unknown {
  if (typeof value === "string") {
    const media = parent && (key === "blob" || (key === "data" && (parent.type === "image" || parent.type === "audio")));
    if (media || DATA_URI.test(value) || LONG_BASE64.test(value)) return `[二进制数据，约 ${Buffer.byteLength(value.replace(DATA_URI, ""), "base64")} 字节，没有转交]`;
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => withoutBinary(v));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutBinary(v, k, value)]));
  return value;
}

// 模型服务商只接受 [A-Za-z0-9_-]、最长 64 的函数名；MCP 的工具名可以带点号，也可以很长
export const MAX_NAME = 64;

export function exposedName(server: string, tool: string): string {
  return `mcp__${server}__${tool.replace(/[^A-Za-z0-9_-]/g, "_")}`;
}

// tools/list 里的一项：name 是字符串，inputSchema 是 {"type": "object", …}。返回字符串就是它哪里不对
export function remoteTool(item: unknown): RemoteTool | string {
  if (!isObject(item)) return `的 tools/list 里有一项不是对象（${show(item)}）`;
  if (typeof item.name !== "string" || item.name === "") return `的 tools/list 里有一个工具没有字符串 name（${show(item)}）`;
  const schema = item.inputSchema;
  // 参数 schema 会原样进 tools 数组：不是对象 schema 的，服务商会拒绝整个请求
  if (schema === undefined) return `的工具 ${item.name} 没有 inputSchema`;
  if (!isObject(schema) || schema.type !== "object") return `的工具 ${item.name} 的 inputSchema 要是 {"type": "object", …}，收到的是 ${show(schema)}`;
  // 2025-11-25 的任务（tasks）：这种工具只接受带任务的调用，这个客户端不会，接进来每次调用都失败
  if (isObject(item.execution) && item.execution.taskSupport === "required") return `的工具 ${item.name} 只能按任务（execution.taskSupport 为 "required"）调用，这个客户端不支持任务`;
  return { name: item.name, description: typeof item.description === "string" ? item.description : undefined, inputSchema: schema };
}
