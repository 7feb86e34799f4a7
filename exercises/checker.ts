// 练习检查器的公共部分。每个练习的 check.ts 导出一组要求；每条要求看一个场景（exercises/<练习>/checks/<场景>/）的一次运行，
// 再看脚本模型收到的请求——读者的实现措辞各不相同，所以查的是行为（工具结果里有没有“超时”、调用有没有被拒绝），
// 不是逐字比对转录。
import fs from "node:fs";
import path from "node:path";
import { findChapter, runProblems, runScenario, type RunOptions, type RunResult, type Scenario, type ScenarioSpec } from "../shared/scenario.ts";

export interface Requirement {
  name: string; // 要求，一句话
  scenario: string; // checks/ 下的场景目录名
  // 通过返回 undefined；不通过返回“期望……，实际……”，读者照着就能改
  check(run: RunResult): string | undefined;
}

export interface Outcome {
  requirement: Requirement;
  problem: string | undefined;
  transcript: string;
}

// 几条要求查同一个场景时，场景只跑一遍，每条要求各看同一次运行。不同的场景互不相干（各有各的临时目录和脚本模型），
// 三个一起跑：大半时间在等超时，不占 CPU。结果按要求的顺序交回
export async function runRequirements(exerciseDir: string, requirements: Requirement[], impl: string, options: RunOptions = {}): Promise<Outcome[]> {
  const names = [...new Set(requirements.map((r) => r.scenario))];
  const runs = new Map<string, { run: RunResult; spec: ScenarioSpec }>();
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const name = names[next++]!;
      runs.set(name, await runCheck(exerciseDir, name, impl, options));
    }
  };
  await Promise.all([worker(), worker(), worker()]);
  return requirements.map((requirement) => {
    const { run, spec } = runs.get(requirement.scenario)!;
    const { first, rest } = judgeRun(run, spec);
    const problems = [first, requirement.check(run), rest].filter((p) => p !== undefined);
    return { requirement, problem: problems.length > 0 ? problems.join("\n") : undefined, transcript: run.transcript };
  });
}

// 只要证明“不通过”的时候（npm test 拿没做练习的那一章跑检查器）：场景一个一个跑，哪个场景上有要求没过就停，
// 交回那个场景的结果；全都通过才交回空的。多数检查器的第一个场景就说明了问题，省下后面几次运行
export async function firstFailures(exerciseDir: string, requirements: Requirement[], impl: string): Promise<Outcome[]> {
  for (const name of new Set(requirements.map((r) => r.scenario))) {
    const outcomes = await runRequirements(exerciseDir, requirements.filter((r) => r.scenario === name), impl);
    if (outcomes.some((o) => o.problem)) return outcomes;
  }
  return [];
}

async function runCheck(exerciseDir: string, name: string, impl: string, options: RunOptions): Promise<{ run: RunResult; spec: ScenarioSpec }> {
  const dir = path.join(exerciseDir, "checks", name);
  const spec = JSON.parse(fs.readFileSync(path.join(dir, "scenario.json"), "utf8")) as ScenarioSpec;
  const scenario: Scenario = { chapter: findChapter(path.basename(exerciseDir)) ?? "22-mcp-client", name, dir, spec }; // 练习名开头的章号就是它做在哪一章上
  return { run: await runScenario(scenario, impl, options), spec };
}

// 和 npm test 同一个裁判：措辞可以不同，但 harness 要自己结束、退出码为 0（场景另有约定的除外）、不留进程、
// 不发脚本模型会拒绝的请求。卡住的实现哪怕工具结果全对，也不算做完了这条要求。
// 整次运行出了事（卡住、什么也没打印、退出码不对）排在最前面（first）：要求自己的“期望……”多半是它连带出来的，先修它
function judgeRun(run: RunResult, spec: ScenarioSpec & { exitCode?: number }): { first?: string; rest?: string } {
  const problems = runProblems(run);
  const want = spec.exitCode ?? 0;
  let first: string | undefined;
  if (run.timedOut) first = problems.shift(); // runProblems 的第一条就是撞上时限
  else if (run.quiet) first = `harness 什么也没打印就以退出码 ${run.exitCode} 结束了${run.exitCode === want ? "：多半是某个 Promise 永远不会有结果、事件循环空了，Node 就退出了（比如等一个永远不会来的回答）" : `（期望退出码 ${want}）`}`;
  else if (run.exitCode !== want) first = `harness 以退出码 ${run.exitCode} 结束，期望 ${want}：先看转录末尾的那行错误${process.env.VERBOSE ? "" : "（VERBOSE=1 附上完整转录）"}`;
  return { first, rest: problems.length > 0 ? problems.join("\n") : undefined };
}

// 一条要求管着几个服务器时，每个服务器各有一句结论：哪个过了、哪个没过、没过的差在哪。都过了返回 undefined
export function eachServer(expectation: string, verdicts: [server: string, problem: string | undefined][]): string | undefined {
  if (verdicts.every(([, problem]) => problem === undefined)) return undefined;
  return [`期望：${expectation}。每个服务器：`, ...verdicts.map(([server, problem]) => (problem === undefined ? `  ✓ ${server}` : `  ✗ ${server}：${problem}`))].join("\n");
}

// ---- 写检查时常用的几样 ----

// 第 n 次请求（从 1 数）里全部的 tool 消息内容：第 n 次请求带着的，正是上一轮工具的结果
export function toolResults(run: RunResult, request: number): string[] {
  const body = run.bodies[request - 1];
  if (!body) return [];
  const messages: any[] = body.messages ?? [];
  // 只要最后一条 assistant 之后的那些：也就是上一轮的结果
  const lastAssistant = messages.map((m) => m.role).lastIndexOf("assistant");
  return messages.slice(lastAssistant + 1).filter((m) => m.role === "tool").map((m) => String(m.content));
}

export function toolNames(run: RunResult, request: number): string[] {
  return (run.bodies[request - 1]?.tools ?? []).map((t: any) => t.function?.name);
}

export function systemPrompt(run: RunResult, request: number): string {
  const first = run.bodies[request - 1]?.messages?.[0];
  return first?.role === "system" ? String(first.content) : "";
}

export function promptTokens(run: RunResult, request: number): number | undefined {
  const match = run.transcript.match(new RegExp(`\\[round ${request} 输入 (\\d+) tokens`));
  return match ? Number(match[1]) : undefined;
}

export function describe(value: unknown): string {
  if (value === undefined) return "（没有）";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 300 ? text.slice(0, 300) + "…" : text;
}
