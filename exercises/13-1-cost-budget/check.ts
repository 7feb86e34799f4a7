// 练习 13-1 的检查器：价钱、花费、预算。
// 脚本模型报的用量是场景里写死的（turn 的 usage），数取得整齐：价钱每百万 tokens 输入 4、命中缓存 1、输出 16 美元时，
// 用量 250000/0/62500 正好 2.00 美元，500000（其中命中缓存 250000）/62500 正好 2.25 美元——浮点数算出来也一分不差，
// 花到“正好等于预算”才比得出 >= 和 >。
// 措辞不比：花费是总结行（以“[共 ”开头）里 $ 后面的数，错误是以“错误”开头的那一行里 $ 后面的数。
import { describe, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

const lines = (run: RunResult) => run.transcript.split("\n");
const summaries = (run: RunResult) => lines(run).filter((line) => line.startsWith("[共 "));
const errors = (run: RunResult) => lines(run).filter((line) => line.trimStart().startsWith("错误"));
// 一行里所有 $ 后面的钱数（“$4.2500”“$ 4.25” 都算）；“$NaN”记成 NaN
const amounts = (line: string) => [...line.matchAll(/\$\s*(-?\d+(?:\.\d+)?|NaN)/g)].map((m) => Number(m[1]));
const near = (a: number, b: number) => Math.abs(a - b) < 0.00005;
const money = (line: string | undefined) => (line === undefined ? undefined : amounts(line).at(-1));
const shown = (n: number | undefined) => (n === undefined ? "没有 $ 金额" : `$${n}`);

export const requirements: Requirement[] = [
  {
    name: "预算到了就不再发请求：第二次回答花到正好等于预算，一共两次请求",
    scenario: "budget",
    check(run) {
      if (run.requests === 2) return undefined;
      if (run.requests < 2) {
        return `期望：第一次回答只花 $2.00，没到 $4.25 的预算，第二次请求照发；实际：模型只收到 ${run.requests} 次请求。多半是预算检查得太早（没花钱就停了），或者算钱时单位错了（价钱是每百万 tokens 的）`;
      }
      const summary = summaries(run).at(-1);
      return `期望：第一次回答 $2.00，第二次 $2.25（一半输入命中缓存，按缓存价），累计正好 $4.25 = HARNESS_MAX_COST——到了就算，第三次请求不发；实际：模型收到 ${run.requests} 次请求${summary ? `，最后的总结行是 ${describe(summary)}` : ""}。多半是比较写成了 >（正好等于预算还接着发），或者命中缓存的 token 一分钱没算`;
    },
  },
  {
    name: "停下时这一问的总结行照印，带着累计花费；命中缓存的输入按缓存价算",
    scenario: "budget",
    check(run) {
      const summary = summaries(run).at(-1);
      if (!summary) {
        return `期望：预算到了，这一问停在第 2 轮之后，它的总结行（[共 2 轮 · … · 累计花费 $4.2500]）照样印出来——用户要知道这一问花了多少、停在哪儿；实际：没有以“[共 ”开头的总结行`;
      }
      const spent = money(summary);
      if (spent === undefined) return `期望：设了价钱，总结行末尾带上累计花费，比如“ · 累计花费 $4.2500”；实际：${describe(summary)}`;
      if (near(spent, 4.25)) return undefined;
      const why = near(spent, 5) ? "——这是把命中缓存的 250000 tokens 也按输入价（4）算了：它们该按 HARNESS_PRICE_CACHED（1）算" : near(spent, 2.25) ? "——这只是第二次回答的花费，总结行要的是累计" : "";
      return `期望：第一次回答 250000 输入（没命中）× 4 + 62500 输出 × 16 = $2.00；第二次 250000 没命中 × 4 + 250000 命中缓存 × 1 + 62500 × 16 = $2.25；累计 $4.25（价钱都是每百万 tokens）；实际：总结行里是 ${shown(spent)}${why}：${describe(summary)}`;
    },
  },
  {
    name: "花费是整次运行累计的：REPL 第三问花到了预算，第四问不发请求；服务端报的字符串、负数用量算 0",
    scenario: "repl-total",
    check(run) {
      const [first, , third] = summaries(run).map(money);
      if (first === undefined) {
        return `期望：设了价钱，每一问的总结行都带上累计花费（比如“ · 累计花费 $0.0000”）；实际：第一问的总结行是 ${describe(summaries(run)[0])}，模型一共收到 ${run.requests} 次请求`;
      }
      if (Number.isNaN(first) || first < 0) {
        return `期望：第一问的服务报了 "prompt_tokens": "很多"、"completion_tokens": -62500——用量是服务端填的，不是非负的数就当 0，花费还是 $0.0000，后面的回答照常往上记；实际：第一问的总结行是 ${describe(summaries(run)[0])}。一个 NaN 进了总数，总数就永远是 NaN，和预算怎么比都是 false，预算再也管不住；一个负数等于服务端把钱“退”了回来`;
      }
      if (run.requests === 3 && third !== undefined && near(third, 4.25)) return undefined;
      if (run.requests > 3) {
        return `期望：第一问 $0、第二问 $2.00、第三问 $2.25，累计 $4.25 过了 $4 的预算，第四问一个请求也不发；实际：第四问也发了请求（一共 ${run.requests} 次），第三问的总结行是 ${describe(summaries(run)[2])}。多半是每一问重新从 0 算（预算管的是整次运行），或者字符串、负数的用量让总数算歪了`;
      }
      if (run.requests < 3) return `期望：前三问都照常发请求（第三问答完才到预算）；实际：模型只收到 ${run.requests} 次请求`;
      return `期望：总结行里的花费是整次运行累计的，第三问之后是 $4.25；实际：${describe(summaries(run)[2])}`;
    },
  },
  {
    name: "一行错误说出花了多少、预算多少，退出码 1",
    scenario: "repl-total",
    check(run) {
      const line = errors(run).find((l) => amounts(l).length > 0);
      if (!line) {
        return `期望：第四问被预算拦下时打一行“错误: 已经花了 $4.2500，到了预算 $4.0000（HARNESS_MAX_COST）…”，钱数都写成 $ 加数字；实际：${errors(run).length ? describe(errors(run).join(" / ")) : "没有以“错误”开头的行"}`;
      }
      const found = amounts(line);
      if (!found.some((n) => near(n, 4.25)) || !found.some((n) => near(n, 4))) {
        return `期望：错误里既有花了的 $4.25，也有预算 $4——用户要知道超了多少，才好决定把预算调到多少；实际：${describe(line)}`;
      }
      return undefined;
    },
  },
  {
    name: "价钱写坏了（16美元）：一行警告点名这个变量，这次不算钱（没有花费），照常回答",
    scenario: "bad-price",
    check(run) {
      const warned = lines(run).some((l) => l.trimStart().startsWith("警告") && l.includes("HARNESS_PRICE_OUTPUT"));
      const summary = summaries(run)[0];
      if (!summary) return `期望：价钱写坏了只是不算钱，这一问照常答完、印总结行；实际：没有总结行，模型收到 ${run.requests} 次请求`;
      if (amounts(summary).length > 0) {
        return `期望：HARNESS_PRICE_OUTPUT=16美元 不是一个数，这次不算钱，总结行里没有花费；实际：${describe(summary)}。多半是用了 parseFloat（它把“16美元”读成 16）或者 Number（读成 NaN）却没查`;
      }
      if (!warned) return `期望：stderr 上一行以“警告”开头、点名 HARNESS_PRICE_OUTPUT 的话，用户才知道自己设的价钱没生效；实际：没有这一行`;
      return undefined;
    },
  },
  {
    name: "设了预算却没有价钱：一个请求也不发，退出码 2",
    scenario: "budget-without-prices",
    check(run) {
      if (run.requests === 0 && run.exitCode === 2) return undefined;
      return `期望：HARNESS_MAX_COST=1 却没设任何价钱，算不出花了多少，预算就管不住——和别的配置错误一样，一行错误、退出码 2，一个请求也不发；实际：退出码 ${run.exitCode}，模型收到 ${run.requests} 次请求。多半是没有价钱时悄悄不管预算了`;
    },
  },
];
