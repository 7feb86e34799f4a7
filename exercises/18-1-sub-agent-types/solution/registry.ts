// registry.ts：工具注册表。任何东西只要实现了 Tool 接口就能登记进来；
// 循环只和注册表打交道，不知道也不关心具体有哪些工具。
// 第 18 章改动：snapshot()——复制此刻登记的全部工具，给子 agent 用。
// 练习 18-1：snapshot() 可以只挑一部分工具。
import { describeJsonError } from "./json.ts";
import { clip, type ToolSpec } from "./model.ts";

export interface Tool {
  definition(): ToolSpec;
  execute(args: string, signal?: AbortSignal): Promise<string>; // 永远返回文字；失败时以 "错误:" 开头
}

export class Registry {
  private readonly tools = new Map<string, Tool>();

  register(tool: Tool): void {
    const name = tool.definition().name;
    if (this.tools.has(name)) throw new Error(`工具重名：${name}`);
    this.tools.set(name, tool);
  }

  definitions(): ToolSpec[] {
    return [...this.tools.values()].map((t) => t.definition());
  }

  // 复制一份此刻的注册表。子 agent 拿到的是“登记在它之前的那些工具”，里面没有它自己，也就没法无限递归
  // only：只复制名字在这里面的（子 agent 类型的工具白名单）；不在注册表里的名字什么也不加
  snapshot(only?: string[]): Registry {
    const copy = new Registry();
    for (const [name, tool] of this.tools) if (!only || only.includes(name)) copy.register(tool);
    return copy;
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  // 模型说什么都可能：叫一个不存在的工具、给一段坏 JSON。这些都变成“错误:”结果交回给它，
  // 它读到以后多半会自己改正——harness 绝不因为一次坏调用而倒下
  async execute(name: string, args: string, signal?: AbortSignal): Promise<string> {
    const tool = this.tools.get(name);
    if (!tool) return `错误: 没有这个工具：${name}（可用的有：${this.names().join("、")}）`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(args || "{}");
    } catch {
      // 不照抄 JSON.parse 的报错：那是 V8 的原话，换个 Node 版本就换个说法。坏在哪、原文是什么，我们自己说
      return `错误: 参数不是合法 JSON（${describeJsonError(args)}）：${clip(args)}`;
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return `错误: 参数要是一个 JSON 对象，收到的是 ${args}`;
    try {
      return await tool.execute(args || "{}", signal);
    } catch (e) {
      // 工具本不该抛异常；真抛了，只说错误码（ENOENT、EACCES……）或异常的类别（TypeError……）：原话多半出自 Node 或 V8，随版本而变
      const code = (e as NodeJS.ErrnoException | undefined)?.code;
      return `错误: 工具 ${name} 执行失败：${code ?? (e instanceof Error ? e.name : "未知异常")}`;
    }
  }
}
