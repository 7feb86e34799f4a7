// 练习 20-1 的检查器：HARNESS_MAX_PARALLEL，一轮里同时最多跑几个工具调用。
// 同时在跑几个不看钟点，数日志：checks/limit/workspace/probe.sh 开始、结束各往本组的日志追加一行，
// 开始那行写在进程起来之后、结束那行写在退出之前，数出来的只会比真实的少——守限额的实现数不出超过限额的。
// 探针要凑够限额个同时在跑才往下走（守限额的实现一次就派出这么多，马上凑齐）；奇数号等下一号先结束，
// 完成的先后一定和调用的先后不同。harness 退出后，场景的 afterwards 用 awk 按日志的先后数出每组最多同时几个，印在转录末尾
// （日志本身不印：同时开始的两个谁先写下一行说不准，转录就不固定了）。
// 不守限额的实现：凑齐以后探针还要多留半秒，它早派出了更多，日志里数得出来（只有这一句靠“半秒够它派出去”）。
import { describe, toolResults, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

const LIMIT = 2; // limit 场景的 HARNESS_MAX_PARALLEL

// afterwards 用 awk 数出的某一组：最多同时几个在跑、有没有探针凑不齐。没有这一行：这一组一个探针也没跑（日志文件都没有）
function probes(run: RunResult, group: string): { peak: number; stuck: boolean } | undefined {
  const match = run.transcript.match(new RegExp(`^probes-${group}: 最多同时 (\\d+) 个(，有探针凑不齐)?$`, "m"));
  return match ? { peak: Number(match[1]), stuck: match[2] !== undefined } : undefined;
}

// 父 agent 的第 n 次请求（子 agent 的请求夹在中间，按第一条 user 消息认出父 agent）
function parentRequest(run: RunResult, n: number): number | undefined {
  const indexes = run.bodies.flatMap((b, i) => (String(b.messages?.[1]?.content ?? "").startsWith("跑五个探针") ? [i + 1] : []));
  return indexes[n - 1];
}

function how(run: RunResult): string {
  if (run.timedOut) return `（harness 没能结束，被场景时限终止；模型一共收到 ${run.requests} 次请求）`;
  return `（模型一共收到 ${run.requests} 次请求，harness 退出码 ${run.exitCode}）`;
}

// 一轮的结果是不是按调用的顺序：第 i 个结果里是第 i 个探针的输出
function outOfOrder(results: string[], group: string, total: number): string | undefined {
  const got = results.map((r) => r.match(new RegExp(`探针 ${group}(\\d)`))?.[1] ?? "?");
  const want = Array.from({ length: total }, (_, i) => String(i + 1));
  return got.join(",") === want.join(",") ? undefined : got.join(",");
}

export const requirements: Requirement[] = [
  {
    name: "HARNESS_MAX_PARALLEL=2：一轮里同时在跑的调用从不超过 2 个",
    scenario: "limit",
    check(run) {
      const m = probes(run, "m");
      if (!m) return `期望：第一轮的五个探针跑过，留下日志 probes-m.log；实际：一个探针也没跑${how(run)}`;
      if (m.peak > LIMIT) {
        return `期望：场景设了 HARNESS_MAX_PARALLEL=2，五个调用同时最多跑 2 个，跑完一个才补上一个；实际：日志里一度有 ${m.peak} 个同时在跑——HARNESS_MAX_PARALLEL 没有读，或者没有交给这一轮的池子（第 20 章写死的是 8）`;
      }
      return undefined;
    },
  },
  {
    name: "限额是几就真的同时跑几个，不是一个一个来",
    scenario: "limit",
    check(run) {
      const m = probes(run, "m");
      if (!m) return `期望：第一轮的五个探针跑过，留下日志 probes-m.log；实际：一个探针也没跑${how(run)}`;
      if (m.stuck || m.peak < LIMIT) {
        return `期望：HARNESS_MAX_PARALLEL=2 时一次派出 2 个调用，两个探针同时在跑；实际：日志里最多只有 ${m.peak} 个同时在跑，有探针等了 3 秒也没等到同伴——限额差了一个（比如 < 写成了 <=、或者池子开了 limit - 1 个），或者调用又是一个一个跑的`;
      }
      return undefined;
    },
  },
  {
    name: "结果按调用的顺序交回，不按谁先跑完",
    scenario: "limit",
    check(run) {
      const second = parentRequest(run, 2);
      if (second === undefined) return `期望：第一轮的五个探针跑完，父 agent 发出第二次请求；实际：没有${how(run)}`;
      const wrong = outOfOrder(toolResults(run, second), "m", 5);
      if (wrong) {
        return `期望：五个结果按调用的顺序 1,2,3,4,5 交回（奇数号的探针等下一个跑完才结束：2 一定先于 1 跑完）；实际：模型收到的结果依次是探针 ${wrong}——结果是按跑完的先后放回去的？每个结果要放回它自己的位置（results[i]），tool 消息按调用的顺序推进历史`;
      }
      return undefined;
    },
  },
  {
    name: "子 agent 的调用按它自己的限额算：两个子 agent 各跑 3 个调用，都跑完，不死锁",
    scenario: "limit",
    check(run) {
      const third = parentRequest(run, 3);
      if (run.timedOut || third === undefined) {
        const ran = ["a", "b"].filter((group) => probes(run, group) !== undefined);
        const stuck = ran.length < 2 && run.requests >= 4 ? `——两个子 agent 都发出了探针调用，可${ran.length === 0 ? "一个探针也没跑" : `只有 ${ran.join("")} 组的跑了`}：多半是整个进程共用了一个名额池，父 agent 的两个 sub_agent 调用占满了 2 个名额、等着子 agent 答完，子 agent 自己的调用又在等名额，谁也动不了（Promise 全在等，事件循环空了，Node 就这么退出了，或者卡到场景时限）` : "";
        return `期望：第二轮父 agent 派出两个子 agent（占满它的 2 个名额），每个子 agent 一轮发 3 个探针，进的是子 agent 自己那一轮的池子（同样最多 2 个），都跑完，父 agent 发出第三次请求；实际：父 agent 没有发出第三次请求${how(run)}${stuck}`;
      }
      const problems = ["a", "b"].flatMap((group) => {
        const p = probes(run, group);
        if (!p) return [`${group} 组一个探针也没跑`];
        if (p.peak > LIMIT) return [`${group} 组一度有 ${p.peak} 个同时在跑——子 agent 没有照 HARNESS_MAX_PARALLEL 来`];
        if (p.stuck || p.peak < LIMIT) return [`${group} 组最多只有 ${p.peak} 个同时在跑——子 agent 的调用在和别人抢名额？`];
        const sub = run.bodies.findIndex((b) => (b.messages ?? []).length === 6 && String(b.messages?.[1]?.content ?? "").includes(`${group} 组`));
        const wrong = sub < 0 ? "没有" : outOfOrder(toolResults(run, sub + 1), group, 3);
        return wrong ? [`${group} 组的子 agent 收到的结果依次是探针 ${wrong}，期望 1,2,3`] : [];
      });
      if (problems.length > 0) return `期望：每个子 agent 的三个调用同时最多跑 2 个、结果按调用的顺序交回；实际：${problems.join("；")}`;
      return undefined;
    },
  },
  {
    name: "HARNESS_MAX_PARALLEL 写坏了：一行警告，照默认的 8 个来",
    scenario: "bad-value",
    check(run) {
      if (run.requests === 0) return `期望：HARNESS_MAX_PARALLEL=0 不是正整数，说一行警告、照默认值来，harness 照常启动；实际：模型一次请求也没收到，harness 退出码 ${run.exitCode}`;
      const warned = run.transcript.split("\n").some((line) => !line.startsWith("[round") && line.includes("HARNESS_MAX_PARALLEL"));
      if (!warned) return `期望：HARNESS_MAX_PARALLEL=0 时 stderr 上一行警告，点名 HARNESS_MAX_PARALLEL，用户才知道设置没生效；实际：harness 一声不吭`;
      const results = toolResults(run, 2);
      const all = results.length === 3 && results.every((r) => r.includes("一起开始的有 3 个"));
      if (!all) {
        return `期望：照默认的 8 个来，一轮的三个调用一起跑，每个都看到三个都开始了（“一起开始的有 3 个”）；实际：模型收到 ${describe(results)}${run.requests < 2 ? how(run) : ""}——0 被当成了别的数？Math.min(0, n) 个 worker 一个调用也不跑，NaN 也一样`;
      }
      return undefined;
    },
  },
];
