// 练习 21-1 的检查器：工作流的一步可以重试。
// 场景 retry 只有一次运行：主 agent 一轮交来五个 workflow 调用。第一个是一条链 fetch → report → flaky → notes，外加不相干的 lone：
//   fetch（retries 3）第一次模型服务报错、第二次成功；report（retries 0）依赖 fetch；flaky（retries 1）两次都报错；
//   notes 依赖 flaky；lone 没写 retries，报错一次。后四个工作流各有一步，retries 分别是 4、-1、1.5、"2"，都不合法。
// 链是串起来的，谁先谁后由依赖定，不靠并发的先后；每一步的子 agent 请求从任务的开头（步骤甲、乙……）认出来。
// 措辞不逐字比对：看每一步的子 agent 收到了几次请求、什么时候、带着什么，以及工作流的结果里每一步那行的状态。
import { describe, toolResults, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

const QUESTION = "把数据流水线跑一遍";
const FETCHED = "数据下载好了"; // fetch 第二次尝试的汇报

// 一个步骤的子 agent 收到的请求：第一条 user 消息（任务）以这一步的记号开头。返回它们在全部请求里的序号（从 0 数）
function attempts(run: RunResult, mark: string): number[] {
  return run.bodies.flatMap((b, i) => (String(b?.messages?.[1]?.content ?? "").startsWith(mark) ? [i] : []));
}

// 主 agent 收到工作流结果的那次请求：第一条 user 是原来的问题，而且带着工具结果
function results(run: RunResult): string[] {
  const n = run.bodies.findLastIndex((b) => b?.messages?.[1]?.content === QUESTION && b.messages.some((m: any) => m.role === "tool"));
  return n < 0 ? [] : toolResults(run, n + 1);
}

// 工作流结果里某一步的那一行
function line(run: RunResult, id: string): string | undefined {
  return results(run)[0]?.split("\n").find((l) => l.startsWith(`【${id}】`));
}

// 主工作流整个被拒绝了（把合法的 retries 当成了不合法），后面几条要求都连带着不通过：先说这个
function refused(run: RunResult): string | undefined {
  const first = results(run)[0];
  if (first === undefined) return `期望：主 agent 收到五个工作流的结果；实际：没有走到那一步（模型一共收到 ${run.requests} 次请求，退出码 ${run.exitCode}）`;
  if (first.trimStart().startsWith("错误")) return `期望：第一个工作流（retries 是 3、0 和不写）照常执行；实际：整个被拒绝了：${describe(first)}——0 到 3 都合法，不写等于 0`;
  return undefined;
}

const times = (n: number) => (n === 0 ? "一次也没跑" : `跑了 ${n} 次`);

export const requirements: Requirement[] = [
  {
    name: "失败的一步换一个新的子 agent 重试，成功了就停，报告写明第几次成功",
    scenario: "retry",
    check(run) {
      const bad = refused(run);
      if (bad) return bad;
      const fetch = attempts(run, "步骤甲");
      if (fetch.length === 1) return `期望：fetch（retries 3）第一次失败后再派一个子 agent，第二次成功；实际：只试了一次——没有读步骤的 retries，或者失败了没有再试`;
      if (fetch.length !== 2) return `期望：fetch 第二次就成功了，一共 2 次；实际：${times(fetch.length)}${fetch.length > 2 ? "——成功了还在试" : ""}`;
      const stale = fetch.find((i) => run.bodies[i].messages.length !== 2);
      if (stale !== undefined) return `期望：每次尝试都是一个新的子 agent，从 system + 任务两条消息开始；实际：第 ${stale + 1} 次请求带着 ${run.bodies[stale].messages.length} 条消息——接着上一次的历史在试`;
      const shown = line(run, "fetch");
      if (!shown?.startsWith("【fetch】成功")) return `期望：工作流的结果里 fetch 是“成功”；实际：${describe(shown)}`;
      if (!/第\s*2\s*次/.test(shown)) return `期望：fetch 那一行写明是第 2 次尝试成功的（比如“【fetch】成功（第 2 次尝试）：…”）；实际：${describe(shown)}`;
      return undefined;
    },
  },
  {
    name: "依赖它的步骤等它最后一次尝试，只跑一次，拿到的是成功那次的结果",
    scenario: "retry",
    check(run) {
      const bad = refused(run);
      if (bad) return bad;
      const fetch = attempts(run, "步骤甲");
      const report = attempts(run, "步骤乙");
      if (fetch.length > 2 || report.length > 1) return `期望：每一步只启动一次（fetch 两次尝试、report 一次）；实际：fetch ${times(fetch.length)}，report ${times(report.length)}——同一步被启动了不止一次：依赖它的步骤各自又把它跑了一遍，或者每次尝试都通知了一遍下游`;
      if (report.length !== 1) {
        return `期望：report（依赖 fetch）在 fetch 第二次成功之后跑一次；实际：一次也没跑（工作流里 report 那行：${describe(line(run, "report"))}——fetch 第一次失败就判了它跳过，没有等 fetch 的最后一次尝试）`;
      }
      if (fetch.length > 0 && report[0]! < fetch.at(-1)!) return `期望：report 等 fetch 的最后一次尝试结束才开始；实际：report 的请求（第 ${report[0]! + 1} 次）排在 fetch 最后一次尝试（第 ${fetch.at(-1)! + 1} 次）前面`;
      const task = String(run.bodies[report[0]!].messages[1].content);
      if (!task.includes(FETCHED) || task.includes("错误")) return `期望：report 的任务里带着 fetch 成功那次的汇报（“${FETCHED}…”），不是失败那次的错误；实际：${describe(task)}`;
      return undefined;
    },
  },
  {
    name: "每次都失败的一步一共跑 1 + retries 次（没写就是 0），依赖它的步骤跳过",
    scenario: "retry",
    check(run) {
      const bad = refused(run);
      if (bad) return bad;
      const flaky = attempts(run, "步骤丙");
      if (flaky.length === 0) return `期望：flaky（依赖 report，retries 1）在 report 成功之后跑；实际：一次也没跑（工作流里那行：${describe(line(run, "flaky"))}）`;
      if (flaky.length !== 2) {
        const why = flaky.length < 2 ? "——少试了一次：retries 是“再试几次”，第一次不算，比较要用 >" : "——没有按这一步的 retries 封顶";
        return `期望：flaky 的 retries 是 1，每次都失败：一共跑 2 次就放弃；实际：${times(flaky.length)}${why}`;
      }
      const shown = line(run, "flaky");
      if (!shown?.startsWith("【flaky】失败")) return `期望：工作流的结果里 flaky 是“失败”；实际：${describe(shown)}`;
      const notes = attempts(run, "步骤丁");
      if (notes.length > 0 || !line(run, "notes")?.startsWith("【notes】跳过")) return `期望：notes 依赖最终失败的 flaky，跳过、一次也不跑；实际：${times(notes.length)}，那一行是 ${describe(line(run, "notes"))}`;
      const lone = attempts(run, "步骤己");
      if (lone.length !== 1) return `期望：lone 没写 retries（默认 0），失败了就是失败，只跑 1 次；实际：${times(lone.length)}${lone.length > 1 ? "——默认值不是 0" : ""}`;
      if (!line(run, "lone")?.startsWith("【lone】失败")) return `期望：工作流的结果里 lone 是“失败”；实际：${describe(line(run, "lone"))}`;
      return undefined;
    },
  },
  {
    name: "retries 不合法（4、-1、1.5、\"2\"）：整个工作流拒绝，一步也不跑；0 到 3 照常",
    scenario: "retry",
    check(run) {
      const all = results(run);
      if (all.length === 0) return `期望：主 agent 收到五个工作流的结果；实际：没有走到那一步（模型一共收到 ${run.requests} 次请求，退出码 ${run.exitCode}）`;
      if (all[0]!.trimStart().startsWith("错误")) return `期望：retries 是 3、0 或者不写的工作流照常执行（上限 3 本身合法，0 也合法）；实际：被拒绝了：${describe(all[0])}`;
      const values = ["4", "-1", "1.5", '"2"'];
      const accepted = values.filter((_, i) => !String(all[i + 1] ?? "").trimStart().startsWith("错误"));
      if (accepted.length > 0) return `期望：retries 为 ${values.join("、")} 的工作流都以“错误:”拒绝，像依赖成环一样一步也不跑（要 0 到 3 的整数，字符串和小数都不算）；实际：retries 为 ${accepted.join("、")} 的没有被拒绝`;
      const ran = attempts(run, "步骤戊");
      if (ran.length > 0) return `期望：retries 不合法的工作流一步也不跑；实际：它的步骤跑了 ${ran.length} 次`;
      return undefined;
    },
  },
];
