// plan.ts：计划模式（练习 09-1）。--plan 或 REPL 里的 /plan 进入；用户批准计划之前，只有什么也不改的工具照常执行，
// 别的调用一律不执行，结果告诉模型它在做计划、怎样交出计划。exit_plan_mode 把计划交给用户过目，问一句 y/N：
// 答 y，从下一个调用起回到第 09 章的规则（该问的照样问、deny 照样拒绝）；答 n，接着计划；没有终端可问，批准不了。
import type { ToolSpec } from "./model.ts";
import type { Confirm } from "./permissions.ts";
import type { Registry, Tool } from "./registry.ts";
import { safeText } from "./terminal.ts";

const READ_ONLY = new Set(["read_file"]); // 什么也不改的工具：计划时照常用
export const MAX_PLAN_CHARS = 2000; // 计划最多显示这么多字：模型写多长都不能刷满用户的屏幕

const spec: ToolSpec = {
  name: "exit_plan_mode",
  description: "计划模式下，计划写好了就调用它：把计划交给用户批准。批准之后才能改文件、跑命令。",
  parameters: {
    type: "object",
    properties: { plan: { type: "string", description: "要做的事，一步一步写清楚（Markdown）" } },
    required: ["plan"],
  },
};

export class PlanMode {
  active = false;
  private readonly registry: Registry;
  private readonly confirm: Confirm;

  constructor(registry: Registry, confirm: Confirm) {
    this.registry = registry;
    this.confirm = confirm;
  }

  // 进入计划模式。exit_plan_mode 这时才登记：不做计划的会话，tools 数组和第 09 章一模一样
  start(): void {
    if (!this.registry.names().includes(spec.name)) this.registry.register({ definition: () => spec, execute: (args) => this.exit(args) });
    this.active = true;
    console.error("[计划模式] 批准计划之前只读不改：模型写好计划后交给你批准");
  }

  // 套在权限检查外面：计划时，不是只读的工具连权限规则都不走——allow 规则放行的命令也不跑，也不问人
  gate(tool: Tool): Tool {
    const name = tool.definition().name;
    if (READ_ONLY.has(name)) return tool;
    return {
      definition: () => tool.definition(),
      execute: async (args) => {
        if (!this.active) return tool.execute(args); // 每次调用时才看：批准之后，同一轮里的下一个调用就照常执行
        console.error(`[计划模式] 没有执行 ${name}：计划还没有被批准`);
        return `错误: 现在是计划模式，用户批准计划之前只能用 read_file 查看，${name} 没有执行。先把要做的事写成计划，调用 exit_plan_mode（参数 plan）交给用户批准。`;
      },
    };
  }

  private async exit(args: string): Promise<string> {
    const plan = JSON.parse(args).plan;
    if (typeof plan !== "string" || plan.trim() === "") return "错误: 缺少参数 plan（字符串）：把计划写在里面";
    if (!this.active) return "现在不在计划模式，不用批准：按权限规则直接做就行。";
    if (!this.confirm) {
      // 批准只能来自用户；没有终端，就没有人能说“好”
      return "错误: 没有终端可以让用户批准计划（输入不是终端），仍在计划模式，什么也不能改。把计划写在回答里交给用户；要动手，请用户在终端里启动 harness 再批准。";
    }
    console.error(`[计划模式] 模型交来的计划：\n${shown(plan)}`);
    if (!(await this.confirm("[计划模式] 批准这个计划、开始动手吗？[y/N] "))) {
      return "错误: 用户没有批准这个计划，想要改一改。仍在计划模式：问清楚用户想怎么改，改好计划再调用 exit_plan_mode。";
    }
    this.active = false;
    return "用户批准了计划。从下一个调用起按平常的权限规则执行，开始动手吧。";
  }
}

// 计划是模型写的：控制字符、转义序列一律显形（safeText），每行前面加一道竖线，伪造不出一行 harness 自己的话；太长只显示开头
function shown(plan: string): string {
  const cut = plan.length > MAX_PLAN_CHARS;
  const lines = safeText(cut ? plan.slice(0, MAX_PLAN_CHARS) : plan).split("\n").map((line) => `│ ${line}`);
  if (cut) lines.push(`│ ……（计划太长，后面 ${plan.length - MAX_PLAN_CHARS} 字没有显示）`);
  return lines.join("\n");
}
