// tool-search.ts：工具搜索。MCP 工具一多，完整声明（L2）就撤出 tools 数组，换成两个桥工具按名字取用；
// 名字加一句话（L1）常驻 system prompt——和第 17 章的 skill 清单是同一招。
// 练习 22-3 新增。
import type { ToolSpec } from "./model.ts";
import type { Tool } from "./registry.ts";

// 清单（L1）：每个工具一行，名字一个字也不省。声明可以藏，名字不能藏——
// 模型看不见名字的工具，在它眼里就不存在，用户提起来它会一口咬定“没有这个工具”
export function mcpToolList(tools: Tool[]): string {
  // 描述去掉第 22 章加的“[来自 MCP 服务 x] ”前缀：清单本身就说了这些都是 MCP 工具，名字里也带着服务名
  const items = tools.map((t) => `- ${t.definition().name}：${firstSentence(t.definition().description.replace(/^\[来自 MCP 服务 [^\]]*\] /, ""))}`);
  return ["以下 MCP 工具的声明不在工具列表里：先用 mcp_describe 按名字读声明，再用 mcp_call 按名字调用。", ...items].join("\n");
}

// 一句话就够模型判断“用不用”；第三方服务器的描述常常是一大段，整段搬进来就又把钱花回去了
function firstSentence(text: string): string {
  const line = text.trim().split("\n")[0];
  const sentence = line.match(/^.+?(?:[。！？]|[.!?](?=\s|$))/)?.[0] ?? line;
  return sentence.length > 60 ? sentence.slice(0, 60) + "…" : sentence;
}

export function mcpDescribeTool(tools: Tool[]): Tool {
  const spec: ToolSpec = {
    name: "mcp_describe",
    description: "按名字读一个 MCP 工具的完整声明（含参数 schema）。名字见 system prompt 里的清单。",
    parameters: {
      type: "object",
      properties: { name: { type: "string", description: "MCP 工具名" } },
      required: ["name"],
    },
  };
  return {
    definition: () => spec,
    async execute(args) {
      const { name } = JSON.parse(args);
      const tool = find(tools, name);
      // 声明原样给出：就是不开工具搜索时 tools 数组里的那一项
      return tool ? JSON.stringify(tool.definition()) : unknown(tools, name);
    },
  };
}

export function mcpCallTool(tools: Tool[]): Tool {
  const spec: ToolSpec = {
    name: "mcp_call",
    description: "按名字调用一个 MCP 工具，参数照 mcp_describe 读到的声明填。",
    parameters: {
      type: "object",
      properties: {
        name: { type: "string", description: "MCP 工具名" },
        arguments: { type: "object", description: "交给这个工具的参数" },
      },
      required: ["name", "arguments"],
    },
  };
  return {
    definition: () => spec,
    async execute(args, signal) {
      const { name, arguments: input = {} } = JSON.parse(args);
      const tool = find(tools, name);
      if (!tool) return unknown(tools, name);
      if (input === null || typeof input !== "object" || Array.isArray(input)) {
        return `错误: arguments 要是一个 JSON 对象（照 mcp_describe 给出的声明填），收到的是 ${JSON.stringify(input)}`;
      }
      // 走的还是同一个 McpTool.execute：错误文字、isError、Ctrl-C，和直接调用时一模一样
      return tool.execute(JSON.stringify(input), signal);
    },
  };
}

function find(tools: Tool[], name: unknown): Tool | undefined {
  return tools.find((t) => t.definition().name === name);
}

// 名字写错是常事（少个下划线、漏了服务名前缀）：告诉模型去哪找对的名字，它下一轮自己就能改
function unknown(tools: Tool[], name: unknown): string {
  const names = tools.map((t) => t.definition().name).join("、");
  return `错误: 没有叫 ${JSON.stringify(name)} 的 MCP 工具。名字要照抄 system prompt 里的 MCP 工具清单（有：${names}）`;
}
