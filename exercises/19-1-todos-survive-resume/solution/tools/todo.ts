// tools/todo.ts：todo_write 工具——模型自己维护一张看得见的待办清单。每次交来完整的新清单，有变化就打印出来。
// 第 19 章新增：把计划写下来，模型在长任务里不容易忘事，用户也看得见它打算干什么、干到哪了。
// 练习 19-1：restoreTodos() 从读回的历史里找出最后一张被收下的清单，--resume 接着用它。
import type { AssistantMessage, Message, ToolSpec } from "../model.ts";
import type { Tool } from "../registry.ts";
import { safeLine } from "../terminal.ts";

export type TodoStatus = "pending" | "in_progress" | "done";

export interface Todo {
  content: string;
  status: TodoStatus;
}

const STATUSES: TodoStatus[] = ["pending", "in_progress", "done"];
const MARK: Record<TodoStatus, string> = { pending: "[ ]", in_progress: "[>]", done: "[x]" };

const spec: ToolSpec = {
  name: "todo_write",
  description: "写下（或更新）这次任务的待办清单：每次交完整的清单。开始一项前把它标成 in_progress，做完标成 done。多步骤的任务先列清单再动手。",
  parameters: {
    type: "object",
    properties: {
      todos: {
        type: "array",
        items: {
          type: "object",
          properties: {
            content: { type: "string", description: "这一项要做什么" },
            status: { type: "string", enum: STATUSES },
          },
          required: ["content", "status"],
        },
      },
    },
    required: ["todos"],
  },
};

// 清单归这个对象所有：谁改它都得经过 update
export class TodoList {
  private items: Todo[] = [];

  update(items: Todo[]): boolean {
    const changed = JSON.stringify(items) !== JSON.stringify(this.items);
    this.items = items;
    return changed;
  }

  // 每一项的文字是模型写的：只显形，也不许换行冒充别的输出
  render(): string {
    return ["[待办]", ...this.items.map((t) => `  ${MARK[t.status]} ${safeLine(t.content)}`)].join("\n");
  }

  get size(): number {
    return this.items.length;
  }

  summary(): string {
    const count = (s: TodoStatus) => this.items.filter((t) => t.status === s).length;
    return `待办已更新：共 ${this.items.length} 项，完成 ${count("done")} 项，进行中 ${count("in_progress")} 项`;
  }
}

export function todoTool(list: TodoList): Tool {
  return {
    definition: () => spec,
    async execute(args) {
      const { todos } = JSON.parse(args);
      const problem = validate(todos);
      if (problem) return `错误: ${problem}，清单没有改动`;
      if (list.update(normalize(todos))) console.error(list.render());
      return list.summary();
    },
  };
}

const normalize = (todos: Todo[]): Todo[] => todos.map((t) => ({ content: t.content.trim(), status: t.status }));

// 读回的历史里，最后一次被收下的 todo_write 就是当时的清单。从后往前找，一条消息里的几个调用也从后往前；
// 被拒绝过的（参数不是 JSON、验不过）当时没改清单，现在也不算——会话文件谁都可能改过，用同一个 validate() 再验一遍
export function restoreTodos(history: Message[]): Todo[] | undefined {
  for (const m of [...history].reverse()) {
    if (m.role !== "assistant") continue;
    for (const call of [...((m as AssistantMessage).tool_calls ?? [])].reverse()) {
      if (call.function.name !== "todo_write") continue;
      let todos: unknown;
      try {
        todos = JSON.parse(call.function.arguments)?.todos;
      } catch {
        continue; // 坏 JSON：当时就被拒绝了
      }
      if (!validate(todos)) return normalize(todos as Todo[]);
    }
  }
  return undefined;
}

// 模型交来的东西先验一遍：错一项就整张不收，免得清单半新半旧
function validate(todos: unknown): string | undefined {
  if (!Array.isArray(todos)) return "todos 要是一个数组";
  for (const [i, t] of todos.entries()) {
    if (typeof t?.content !== "string" || t.content.trim() === "") return `第 ${i + 1} 项缺少 content（非空字符串）`;
    if (!STATUSES.includes(t.status)) return `第 ${i + 1} 项的 status 是 ${JSON.stringify(t.status)}，只能是 pending、in_progress 或 done`;
  }
  return undefined;
}
