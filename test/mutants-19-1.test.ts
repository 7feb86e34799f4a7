// 练习 19-1 的变异体：在参考答案上改一处，正是 HINTS.md 提醒过的错（或者任务明说不许的事）。
// 每一个都要被管这件事的那条要求认出来。场景只有一个（resume，一次 --resume 进 REPL），一个变异体约 1 秒。
// 看不见的：子 agent 改过的清单（子 agent 的调用不在主会话的历史里，任务也不要求恢复它）。
import { requirements } from "../exercises/19-1-todos-survive-resume/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

const MUTANTS: Mutant[] = [
  {
    name: "恢复的是第一张清单：从前往后找（提示 1）",
    file: "tools/todo.ts",
    from: "for (const m of [...history].reverse())",
    to: "for (const m of history)",
    fails: "--resume 恢复最后一张被收下的清单",
    because: /第一张/,
  },
  {
    name: "根本不恢复（任务）",
    file: "main.ts",
    from: "const restored = resuming ? restoreTodos(history) : undefined;",
    to: "const restored = resuming && false ? restoreTodos(history) : undefined;",
    fails: "--resume 恢复最后一张被收下的清单",
    because: /没有打印清单/,
  },
  {
    name: "恢复了，但启动时不打印（任务）",
    file: "main.ts",
    from: "if (restored && todos.update(restored)) console.error(todos.render());",
    to: "if (restored) todos.update(restored);",
    fails: "--resume 恢复最后一张被收下的清单",
    because: /没有打印清单/,
  },
  {
    name: "每条 assistant 消息只看第一个调用（提示 1）：那一轮 read_file 之后的 todo_write 被漏掉",
    file: "tools/todo.ts",
    from: "(m as AssistantMessage).tool_calls ?? []",
    to: "(m as AssistantMessage).tool_calls?.slice(0, 1) ?? []",
    fails: "--resume 恢复最后一张被收下的清单",
    because: /第二个调用/,
  },
  {
    name: "不再验一遍，最后一次 todo_write 就算数（提示 2）：恢复了被拒绝的那张",
    file: "tools/todo.ts",
    from: "if (!validate(todos)) return normalize(todos as Todo[]);",
    to: "if (todos) return normalize(todos as Todo[]);",
    fails: "会话里的清单不可信",
    because: /被拒绝/,
  },
  {
    name: "JSON.parse 不包 try（提示 2）：会话里那次坏 JSON 让 harness 启动就倒下",
    file: "tools/todo.ts",
    from: "continue; // 坏 JSON：当时就被拒绝了",
    to: "throw new SyntaxError('坏 JSON');",
    fails: "会话里的清单不可信",
    because: /坏 JSON/,
  },
  {
    name: "恢复的清单自己拼着打印，不经过 render()（提示 3）：OSC 序列原样上屏",
    file: "main.ts",
    from: "if (restored && todos.update(restored)) console.error(todos.render());",
    to: 'if (restored && todos.update(restored)) console.error(["[待办]", ...restored.map((t) => `  ${t.status === "done" ? "[x]" : t.status === "pending" ? "[ ]" : "[>]"} ${t.content}`)].join("\\n"));',
    fails: "会话里的清单不可信",
    because: /显形/,
  },
  {
    name: "todo_write 拿到的是另一个 TodoList（提示 3）：/todos 一直是恢复的那张",
    file: "main.ts",
    from: "registry.register(todoTool(todos));",
    to: "registry.register(todoTool(new TodoList()));",
    fails: "恢复之后 todo_write 接着更新同一张清单",
    because: /同一个 TodoList/,
  },
  {
    name: "/todos 没有拦下来，当成问题发给了模型",
    file: "main.ts",
    from: 'if (line === "/todos")',
    to: 'if (line === "/todo")',
    fails: "REPL 里 /todos 打印当前的清单",
    because: /发给模型/,
  },
];

mutantSuite("19-1-todos-survive-resume", requirements, MUTANTS, 4);
