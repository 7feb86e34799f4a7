// tools/workflow.ts：workflow 工具——把一件大事拆成有依赖关系的几步，每一步派一个子 agent 去做。
// 第 21 章新增：没有依赖关系的步骤同时跑；一步的任务里带上它依赖的那些步骤的结果；一步失败，依赖它的步骤跳过。
// 练习 21-1：一步可以带 retries（0–3）——失败了换一个新的子 agent 再试，最多再试这么多次；依赖它的步骤等它最后一次尝试。
import type { ToolSpec } from "../model.ts";
import type { Tool } from "../registry.ts";
import { runSubAgent, type SubAgentOptions } from "./sub-agent.ts";
import { safeLine } from "../terminal.ts";

interface Step {
  id: string;
  task: string;
  depends_on: string[];
  retries?: number; // 没写就是 0
}

const MAX_RETRIES = 3;

type Outcome = { status: "成功" | "失败" | "跳过"; text: string; attempts: number };

const spec: ToolSpec = {
  name: "workflow",
  description: "按依赖关系执行几个步骤，每一步由一个子 agent 完成。互不依赖的步骤同时跑；一个步骤能看到它依赖的步骤的结果。适合“先分头调查，再汇总”这类任务。",
  parameters: {
    type: "object",
    properties: {
      steps: {
        type: "array",
        items: {
          type: "object",
          properties: {
            id: { type: "string", description: "步骤的名字，在 depends_on 里引用它" },
            task: { type: "string", description: "交给这一步的子 agent 的完整任务说明" },
            depends_on: { type: "array", items: { type: "string" }, description: "要等哪些步骤先完成（可选）" },
            retries: { type: "integer", minimum: 0, maximum: MAX_RETRIES, description: "这一步失败后最多再试几次，每次换一个新的子 agent（可选，默认 0）" },
          },
          required: ["id", "task"],
        },
      },
    },
    required: ["steps"],
  },
};

export function workflowTool(system: string, options: SubAgentOptions): Tool {
  return {
    definition: () => spec,
    async execute(args, signal) {
      const parsed = parseSteps(JSON.parse(args).steps);
      if (typeof parsed === "string") return `错误: ${parsed}，工作流没有执行`;
      const outcomes = await run(parsed, (step, inputs) => runSubAgent(system, options, withInputs(step, inputs), signal, `  │${safeLine(step.id)} `)); // 步骤名是模型起的，成了日志前缀也只显形
      return report(parsed, outcomes);
    },
  };
}

// 动手之前先把整张图验一遍：重名、引用了不存在的步骤、依赖成环——任何一种都一步也不跑
export function parseSteps(raw: unknown): Step[] | string {
  if (!Array.isArray(raw) || raw.length === 0) return "steps 要是一个非空数组";
  const steps: Step[] = [];
  for (const [i, s] of raw.entries()) {
    if (typeof s?.id !== "string" || s.id.trim() === "") return `第 ${i + 1} 步缺少 id`;
    if (typeof s.task !== "string" || s.task.trim() === "") return `步骤 ${s.id} 缺少 task`;
    const deps = s.depends_on ?? [];
    if (!Array.isArray(deps) || deps.some((d: unknown) => typeof d !== "string")) return `步骤 ${s.id} 的 depends_on 要是字符串数组`;
    const { retries } = s;
    if (retries !== undefined && (!Number.isInteger(retries) || retries < 0 || retries > MAX_RETRIES)) return `步骤 ${s.id} 的 retries 要是 0 到 ${MAX_RETRIES} 的整数`; // "2"、1.5 都不算
    if (steps.some((t) => t.id === s.id)) return `步骤 id 重复：${s.id}`;
    steps.push(retries === undefined ? { id: s.id, task: s.task, depends_on: deps } : { id: s.id, task: s.task, depends_on: deps, retries });
  }
  for (const s of steps) {
    const unknown = s.depends_on.find((d) => !steps.some((t) => t.id === d));
    if (unknown) return `步骤 ${s.id} 依赖的 ${unknown} 不存在`;
  }
  const cycle = findCycle(steps);
  if (cycle) return `依赖成环：${cycle.join(" → ")}`;
  return steps;
}

// 深度优先走一遍：走着走着又回到了还在路上的步骤，就是一个环。返回环上的步骤，首尾相同
function findCycle(steps: Step[]): string[] | undefined {
  const state = new Map<string, "walking" | "done">();
  const path: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === "done") return undefined;
    if (state.get(id) === "walking") return [...path.slice(path.indexOf(id)), id];
    state.set(id, "walking");
    path.push(id);
    for (const dep of steps.find((s) => s.id === id)!.depends_on) {
      const cycle = visit(dep);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(id, "done");
    return undefined;
  };
  for (const s of steps) {
    const cycle = visit(s.id);
    if (cycle) return cycle;
  }
  return undefined;
}

// 每一步在它的依赖都有了结果之后才开始；所有步骤一起“等”，互不依赖的自然就同时跑起来了
async function run(steps: Step[], work: (step: Step, inputs: Map<string, string>) => Promise<string>): Promise<Map<string, Outcome>> {
  const started = new Map<string, Promise<Outcome>>();
  const start = (step: Step): Promise<Outcome> => {
    if (!started.has(step.id)) started.set(step.id, runStep(step));
    return started.get(step.id)!;
  };
  const runStep = async (step: Step): Promise<Outcome> => {
    const deps = step.depends_on.map((id) => steps.find((s) => s.id === id)!);
    const results = await Promise.all(deps.map(start));
    const failed = deps.filter((_, i) => results[i].status !== "成功").map((d) => d.id);
    if (failed.length > 0) return { status: "跳过", text: `依赖的 ${failed.join("、")} 没有成功`, attempts: 0 };
    const inputs = new Map(deps.map((d, i) => [d.id, results[i].text]));
    // 重试在这一步自己的 Promise 里：依赖它的步骤 await 的是整个循环，只看得见最后一次尝试
    const retries = step.retries ?? 0;
    for (let attempt = 1; ; attempt++) {
      const text = await work(step, inputs);
      const ok = !text.startsWith("错误:");
      if (ok || attempt > retries) return { status: ok ? "成功" : "失败", text, attempts: attempt };
    }
  };
  const outcomes = await Promise.all(steps.map(start));
  return new Map(steps.map((s, i) => [s.id, outcomes[i]]));
}

function withInputs(step: Step, inputs: Map<string, string>): string {
  if (inputs.size === 0) return step.task;
  const lines = [...inputs].map(([id, text]) => `【${id}】${text}`);
  return `${step.task}\n\n前面步骤的结果：\n${lines.join("\n")}`;
}

function report(steps: Step[], outcomes: Map<string, Outcome>): string {
  const count = (status: Outcome["status"]) => [...outcomes.values()].filter((o) => o.status === status).length;
  const head = `工作流结束：共 ${steps.length} 步，成功 ${count("成功")}，失败 ${count("失败")}，跳过 ${count("跳过")}`;
  return [head, ...steps.map((s) => `【${s.id}】${outcomes.get(s.id)!.status}${tries(outcomes.get(s.id)!)}：${outcomes.get(s.id)!.text}`)].join("\n");
}

// 只试了一次的步骤照旧不写；重试过的写明第几次成功、一共试了几次
function tries(o: Outcome): string {
  if (o.attempts <= 1) return "";
  return o.status === "成功" ? `（第 ${o.attempts} 次尝试）` : `（试了 ${o.attempts} 次）`;
}
