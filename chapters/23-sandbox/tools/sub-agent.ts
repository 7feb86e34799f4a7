// tools/sub-agent.ts：sub_agent 工具——派一个子 agent 去完成一件事：新的历史、自己的循环，做完交回最后那段话。
// 第 21 章改动：派子 agent 的那段抽成 runSubAgent，workflow 的每一步也用它。
import { RoundLimitError, runAgent, type AgentOptions } from "../agent.ts";
import { ModelError, type ToolSpec } from "../model.ts";
import type { Tool } from "../registry.ts";

const spec: ToolSpec = {
  name: "sub_agent",
  description: "派一个子 agent 独立完成一个子任务（比如调查某个问题、读一批文件后汇总）。它从零开始、看不到当前对话，所以 task 要写清楚背景和要交回什么。返回它最后的汇报。",
  parameters: {
    type: "object",
    properties: { task: { type: "string", description: "交给子 agent 的完整任务说明" } },
    required: ["task"],
  },
};

export type SubAgentOptions = Omit<AgentOptions, "signal" | "nested">;

// options 里的 registry 是登记 sub_agent 之前那一刻的快照
export function subAgentTool(system: string, options: SubAgentOptions): Tool {
  let launched = 0;
  return {
    definition: () => spec,
    async execute(args, signal) {
      const { task } = JSON.parse(args);
      if (typeof task !== "string" || task.trim() === "") return "错误: 缺少参数 task（字符串）";
      return runSubAgent(system, options, task, signal, `  │${++launched} `);
    },
  };
}

// 派一个子 agent 做完 task，交回它的汇报。它没做完（轮数到顶、模型服务出错）时交回一句“错误:”
export async function runSubAgent(system: string, options: SubAgentOptions, task: string, signal: AbortSignal | undefined, nested: string): Promise<string> {
  const history = [
    { role: "system" as const, content: `${system}\n\n你是被派出来完成一个子任务的助手。做完以后，用一段话汇报结果；你的汇报会原样交给派你来的 agent。` },
    { role: "user" as const, content: task },
  ];
  try {
    const report = await runAgent(history, { ...options, signal, nested });
    return report || "（子 agent 没有留下汇报）";
  } catch (e) {
    // 子 agent 出了事是这一个工具调用失败，父 agent 还能接着想办法；用户按 Ctrl-C 则整问都停
    if (e instanceof RoundLimitError || e instanceof ModelError) return `错误: 子 agent 没有完成：${e.message}`;
    throw e;
  }
}
