// 练习 22-3 的变异体：在参考答案（main.ts 登记 MCP 工具的那一段、tool-search.ts）上改一处，正是 README 的任务
// 或 HINTS.md 提醒过的错。检查器必须认出每一个，而且是管这件事的那条要求不通过（做法和 test/mutants.test.ts 一样）。
// 没有变异体的几条，检查器看不见，原因写在这里：
// - 账单那一行（[工具搜索：…清单约 N tokens…]）：措辞随读者，README 明说检查器不比对它。
// - 桥在拍注册表快照之前登记、清单在取 system 给子 agent 之前接上（提示 3）：没有场景派子 agent；
//   参考答案里改一处做不出“先快照后登记”，那是换了一种写法。
// - 清单用 definition() 而不是 McpTool 的字段（提示 4）：只有和 22-2 做在同一份副本里才看得出，
//   test/exercises.test.ts 把六个练习的答案叠在一起跑每个检查器，管的就是这个。
// - mcp_call 先查 arguments 是不是对象（提示 2）：不查的话，时间服务器、filesystem 服务器自己会回 -32602，
//   模型收到的照样是“错误: …”，从模型那边看不出是谁挡下的；查它只省一次往返。
// - 第一句超过 60 个字符截断、去掉“[来自 MCP 服务 x] ”前缀（提示 4）：检查器只看总账（至少省下一半）。
//   实验二的两个服务器上，不截断是 1692 tokens（省下 52%），留着前缀是 1741（省下 50%），都还在一半以内；
//   它们是参考答案省钱的办法，不是要求——第一句就很长的服务器才显出截断的用处，检查器的场景里没有。
import { requirements } from "../exercises/22-3-tool-search/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

// “省下一半”要用“没超过门槛”那一条在同一次检查里量到的首轮输入：after 让它先跑
const MUTANTS: Mutant[] = [
  {
    name: "门槛用 >=（任务：“超过”门槛才开）：工具正好 16 个、门槛 16 也开了工具搜索",
    file: "main.ts",
    from: "if (mcp.tools.length <= searchAt)",
    to: "if (mcp.tools.length < searchAt)",
    fails: "工具数没超过门槛",
    because: /不是 >=/,
  },
  {
    name: "不读 HARNESS_TOOL_SEARCH_AT，门槛写死成默认的 10（任务：门槛由环境变量给）",
    file: "main.ts",
    from: 'envInt(process.env, "HARNESS_TOOL_SEARCH_AT", 10, 0, "MCP 工具数")',
    to: "10",
    fails: "工具数没超过门槛",
    because: /门槛 16/,
  },
  {
    name: "门槛一个服务器一个服务器地比（提示 1：看所有服务器的总数）：fs 14 个、time 2 个，都没超过 15",
    file: "main.ts",
    from: "if (mcp.tools.length <= searchAt)",
    to: 'if (Math.max(...["fs", "time"].map((s) => mcp.tools.filter((t) => t.definition().name.startsWith(`mcp__${s}__`)).length)) <= searchAt)',
    fails: "工具多了",
    because: /总数/,
  },
  {
    name: "门槛把内置工具也算进去（任务：数的是 MCP 工具）：5 个内置加 16 个，门槛 16 也开了",
    file: "main.ts",
    from: "if (mcp.tools.length <= searchAt)",
    to: "if (registry.names().length + mcp.tools.length <= searchAt)",
    fails: "工具数没超过门槛",
    because: /门槛 16/,
  },
  {
    name: "HARNESS_TOOL_SEARCH_AT 用 Number() 读（任务：不是非负整数就报配置错误、退出码 2）：“十个”成了 NaN，照样跑下去",
    file: "main.ts",
    from: 'envInt(process.env, "HARNESS_TOOL_SEARCH_AT", 10, 0, "MCP 工具数")',
    to: 'Number(process.env.HARNESS_TOOL_SEARCH_AT ?? "10")',
    fails: "不是非负整数的 HARNESS_TOOL_SEARCH_AT",
    because: /退出码 2/,
  },
  {
    name: "过了门槛，桥登记了，MCP 工具也照旧登记（任务：声明撤出 tools 数组）",
    file: "main.ts",
    from: "registry.register(mcpDescribeTool(mcp.tools));",
    to: "for (const tool of mcp.tools) registry.register(tool);\n    registry.register(mcpDescribeTool(mcp.tools));",
    fails: "工具多了",
    because: /还有 16 个 mcp__ 工具/,
  },
  {
    name: "没过门槛也把清单接到 system prompt 上（任务：没超过门槛时和第 22 章一模一样）",
    file: "main.ts",
    from: 'const searchAt = envInt(process.env, "HARNESS_TOOL_SEARCH_AT", 10, 0, "MCP 工具数");',
    to: 'const searchAt = envInt(process.env, "HARNESS_TOOL_SEARCH_AT", 10, 0, "MCP 工具数");\n  history[0] = { role: "system", content: `${history[0].content}\\n\\n${mcpToolList(mcp.tools)}` };',
    fails: "工具数没超过门槛",
    because: /不接 MCP 工具清单/,
  },
  {
    name: "--resume 时也往 system prompt 上接清单（任务：恢复的会话沿用存下的 system prompt）：清单接了两遍，前缀变了",
    file: "main.ts",
    from: "if (!resuming) history[0] = ",
    to: "history[0] = ",
    fails: "接着的会话（--resume）",
    because: /清单接了 2 遍/,
  },
  {
    name: "清单只写描述、不写名字（任务：名字绝不能藏）",
    file: "tool-search.ts",
    from: "`- ${t.definition().name}：${",
    to: "`- ${",
    fails: "名字一个都不藏",
    because: /缺 16 个/,
  },
  {
    name: "清单只列前 10 个工具（任务：每个 MCP 工具的名字都在）",
    file: "tool-search.ts",
    from: "const items = tools.map(",
    to: "const items = tools.slice(0, 10).map(",
    fails: "名字一个都不藏",
    because: /缺 6 个/,
  },
  {
    name: "清单照搬整段描述（提示 4：只取第一句）：省下的钱又花回去了",
    file: "tool-search.ts",
    from: "：${firstSentence(t.definition().description",
    to: "：${(t.definition().description",
    fails: "首轮输入至少省下一半",
    after: ["工具数没超过门槛"],
    because: /system prompt 约 \d+ tokens/,
  },
  {
    name: "mcp_describe 把全部声明都交回来（任务：交回这个工具的声明）：这一轮又把两千多 tokens 发了回去",
    file: "tool-search.ts",
    from: "return tool ? JSON.stringify(tool.definition()) : unknown(tools, name);",
    to: "return tool ? JSON.stringify(tools.map((t) => t.definition())) : unknown(tools, name);",
    fails: "mcp_describe 按名字交回完整声明",
    because: /15 个别的工具的声明/,
  },
  {
    name: "mcp_describe 只交回参数 schema（任务：完整声明，名字、描述、schema）",
    file: "tool-search.ts",
    from: "return tool ? JSON.stringify(tool.definition()) : unknown(tools, name);",
    to: "return tool ? JSON.stringify(tool.definition().parameters) : unknown(tools, name);",
    fails: "mcp_describe 按名字交回完整声明",
    because: /有名字/,
  },
  {
    name: "mcp_call 把整个参数（连 name 一起）转给工具（提示 2：转交的是 arguments）",
    file: "tool-search.ts",
    from: "return tool.execute(JSON.stringify(input), signal);",
    to: "return tool.execute(args, signal);",
    fails: "mcp_describe 按名字交回完整声明",
    because: /每周四 20:00/,
  },
  {
    name: "mcp_call 不把 signal 交给工具（任务：Ctrl-C 和直接调用时一样）：按了 Ctrl-C 还要等服务器算完",
    file: "tool-search.ts",
    from: "return tool.execute(JSON.stringify(input), signal);",
    to: "return tool.execute(JSON.stringify(input));",
    fails: "经 mcp_call 的调用也能被 Ctrl-C 打断",
    because: /Ctrl-C 没有传到 MCP 调用上/,
  },
  {
    name: "按子串找工具（任务：名字不对就是错误）：少了前缀的 current_time 被认成 mcp__time__current_time",
    file: "tool-search.ts",
    from: "t.definition().name === name",
    to: "t.definition().name.includes(name)",
    fails: "名字要一字不差",
    because: /一字不差/,
  },
  {
    name: "按结尾找工具：少了服务名前缀也算数",
    file: "tool-search.ts",
    from: "t.definition().name === name",
    to: "t.definition().name.endsWith(String(name))",
    fails: "名字要一字不差",
    because: /current_time/,
  },
  {
    name: "名字不对时只说“没有这个工具”，不说对的名字去哪找（任务）",
    file: "tool-search.ts",
    from: "return `错误: 没有叫 ${JSON.stringify(name)} 的 MCP 工具。名字要照抄 system prompt 里的 MCP 工具清单（有：${names}）`;",
    to: "return `错误: 没有叫 ${JSON.stringify(name)} 的 MCP 工具（${names.length}）`;",
    fails: "名字写错时两个桥都回",
    because: /去哪找|在哪/,
  },
];

mutantSuite("22-3-tool-search", requirements, MUTANTS, 3);
