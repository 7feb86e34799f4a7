// tools/sub-agent.ts：sub_agent 工具——派一个子 agent 去完成一件事：新的历史、自己的循环，做完交回最后那段话。
// 第 18 章新增：子任务的来回（读了哪些文件、试了哪些命令）留在子 agent 自己的历史里，不挤占父 agent 的上下文。
// 练习 18-1：可选的 agent_type 挑一种子 agent（agents.ts）：它的正文换掉 system prompt，它的 tools 只能从父 agent 的工具里挑。
import { RoundLimitError, runAgent, type AgentOptions } from "../agent.ts";
import type { AgentType } from "../agents.ts";
import { ModelError, type ToolSpec } from "../model.ts";
import type { Tool } from "../registry.ts";

const DESCRIPTION = "派一个子 agent 独立完成一个子任务（比如调查某个问题、读一批文件后汇总）。它从零开始、看不到当前对话，所以 task 要写清楚背景和要交回什么。返回它最后的汇报。";
const SUFFIX = "你是被派出来完成一个子任务的助手。做完以后，用一段话汇报结果；你的汇报会原样交给派你来的 agent。";

// 有类型时，描述末尾列出每种的名字和说明：模型看着它挑
function spec(types: AgentType[]): ToolSpec {
  const list = types.map((t) => `\n- ${t.name}：${t.description}`).join("");
  return {
    name: "sub_agent",
    description: types.length > 0 ? `${DESCRIPTION}\n可用的子 agent 类型（agent_type）：${list}` : DESCRIPTION,
    parameters: {
      type: "object",
      properties: {
        task: { type: "string", description: "交给子 agent 的完整任务说明" },
        agent_type: { type: "string", description: "子 agent 的类型（可选），不写就是通用的子 agent" },
      },
      required: ["task"],
    },
  };
}

// options 里的 registry 是登记 sub_agent 之前那一刻的快照
export function subAgentTool(system: string, options: Omit<AgentOptions, "signal" | "nested">, types: AgentType[] = []): Tool {
  return {
    definition: () => spec(types),
    async execute(args, signal) {
      const { task, agent_type } = JSON.parse(args);
      if (typeof task !== "string" || task.trim() === "") return "错误: 缺少参数 task（字符串）";
      let prompt = system;
      let registry = options.registry;
      if (agent_type !== undefined) {
        // 按名字找，一字不差：模型给的是一个名字，不是文件名，也不是前缀
        const type = types.find((t) => t.name === agent_type);
        const known = types.length > 0 ? types.map((t) => t.name).join("、") : "（没有定义任何类型）";
        if (!type) return `错误: 没有这种子 agent：${String(agent_type)}（可用的有：${known}）`;
        prompt = type.prompt;
        // 白名单只从快照里挑：父 agent 没有的工具、sub_agent 自己，写了也拿不到
        if (type.tools) registry = options.registry.snapshot(type.tools);
      }
      const history = [
        { role: "system" as const, content: `${prompt}\n\n${SUFFIX}` },
        { role: "user" as const, content: task },
      ];
      try {
        const report = await runAgent(history, { ...options, registry, signal, nested: "  │ " });
        return report || "（子 agent 没有留下汇报）";
      } catch (e) {
        // 子 agent 出了事是这一个工具调用失败，父 agent 还能接着想办法；用户按 Ctrl-C 则整问都停
        if (e instanceof RoundLimitError || e instanceof ModelError) return `错误: 子 agent 没有完成：${e.message}`;
        throw e;
      }
    },
  };
}
