// 练习 11-1 的检查器：过载以后换备用模型。
// 三个场景都设 HARNESS_MODEL=big-model、HARNESS_FALLBACK_MODEL=small-model；脚本模型的每一轮用 when.model 认请求问的是哪个模型，
// 所以问错了模型的请求对不上任何一轮、被拒绝——检查器直接看每次请求体里的 model，按顺序排出来。
// 措辞不比：换模型的那行警告只要以“警告”开头、说出备用模型的名字。
import { describe, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

const MAIN = "big-model";
const FALLBACK = "small-model";

// 每次请求问的是哪个模型，按顺序
const models = (run: RunResult): string[] => run.bodies.map((b) => String(b?.model));
const sequence = (run: RunResult) => (run.bodies.length === 0 ? "一次请求也没有" : models(run).join(" → "));
const count = (list: string[], model: string) => list.filter((m) => m === model).length;
const warnings = (run: RunResult) => run.transcript.split("\n").filter((line) => line.trimStart().startsWith("警告") && line.includes(FALLBACK));

export const requirements: Requirement[] = [
  {
    name: "过载（529）先照常重试，HARNESS_RETRIES 次都用完了才换备用模型",
    scenario: "overloaded",
    check(run) {
      const list = models(run);
      const first = list.indexOf(FALLBACK);
      if (first === -1) {
        return `期望：big-model 一直回 529（过载），一次请求加 3 次重试都失败以后，换 HARNESS_FALLBACK_MODEL 里的 small-model 把这次请求再发一遍；实际：请求依次问的是 ${sequence(run)}，从没问过 small-model。多半是没读 HARNESS_FALLBACK_MODEL，或者没认出 529 是过载，或者重试用完时抛出的那个错丢了“过载”这个标记`;
      }
      if (first < 4) {
        return `期望：换模型之前先照第 11 章的规矩重试——一次请求加 HARNESS_RETRIES=3 次重试，前 4 次请求都问 big-model，第 5 次才问 small-model；实际：第 ${first + 1} 次请求就换了（${sequence(run)}）。重试还没用完就换模型：一次偶然的 529 也会让整个会话落到备用模型上`;
      }
      if (first > 4) {
        return `期望：big-model 问 4 次（一次请求加 3 次重试）就换；实际：换之前问了 ${first} 次（${sequence(run)}），重试超出了 HARNESS_RETRIES`;
      }
      return undefined;
    },
  },
  {
    name: "换模型时一行警告，说出换成了哪个模型",
    scenario: "overloaded",
    check(run) {
      const lines = warnings(run);
      if (lines.length === 1) return undefined;
      if (lines.length === 0) {
        const switched = models(run).includes(FALLBACK) ? "请求换成了 small-model，可 stderr 上没有一行以“警告”开头、说出 small-model 的话" : `请求一直没有换模型（${sequence(run)}）`;
        return `期望：换成备用模型时在 stderr 上打一行“警告: …改用备用模型 small-model…”——用户得知道后面的回答出自另一个（往往更小的）模型；实际：${switched}`;
      }
      return `期望：整个会话只换一次，警告只有一行；实际：${lines.length} 行：${describe(lines.join(" / "))}`;
    },
  },
  {
    name: "换了就一直用它：这一问后面的轮、REPL 的下一问都问备用模型",
    scenario: "overloaded",
    check(run) {
      const list = models(run);
      const after = list.slice(list.indexOf(FALLBACK));
      if (!list.includes(FALLBACK)) return `期望：先换到 small-model（见第一条要求）；实际：${sequence(run)}`;
      if (after.length === 3 && after.every((m) => m === FALLBACK) && list.length === 7) return undefined;
      const back = after.indexOf(MAIN);
      const where = back === 1 ? "这一问的第 2 轮（读完 a.md 之后）" : back === 2 ? "REPL 的第二问" : "后面的请求";
      if (back !== -1) {
        return `期望：换了以后这次会话都问 small-model：读完 a.md 的第 2 轮、REPL 的第二问也是；实际：${where}又问回了 big-model（${sequence(run)}）。多半只把备用模型用在了失败的那次请求上（拷了一份配置、或者存在一轮的局部变量里），没改会话用的那份配置`;
      }
      return `期望：换了以后还有 3 次请求，都问 small-model（读 a.md、回答、第二问），一共 7 次；实际：${sequence(run)}`;
    },
  },
  {
    name: "401、429、500 不是过载：不换备用模型（401 不重试，429、500 照常重试）",
    scenario: "not-overloaded",
    check(run) {
      const list = models(run);
      if (list.includes(FALLBACK)) {
        const at = list.indexOf(FALLBACK);
        const why = at === 1 ? "401（密钥不对）之后" : at <= 5 ? "429（发得太快）重试用完之后" : "500（服务端出了 bug）重试用完之后";
        return `期望：只有过载（503、529）才换模型——401 是密钥不对，换个模型还是这把密钥；429 是这个账号发得太快，换模型也一样在限流；500 是服务端的 bug，不是忙不过来；实际：${why}换成了 small-model（${sequence(run)}）。多半是什么错都换，或者把“能重试”“5xx”当成了“过载”`;
      }
      if (list.length !== 9) {
        return `期望：第一问 401，不重试，1 次请求；第二问 429、第三问 500，各是一次请求加 3 次重试，4 次；一共 9 次，都问 big-model；实际：${sequence(run)}（${list.length} 次）`;
      }
      return undefined;
    },
  },
  {
    name: "备用模型也过载（503）：只换一次，不来回换，报错结束；HARNESS_RETRIES=0 时第一次过载就换",
    scenario: "all-overloaded",
    check(run) {
      const list = models(run);
      if (list.length === 2 && list[0] === MAIN && list[1] === FALLBACK) return undefined;
      if (!list.includes(FALLBACK)) {
        return `期望：HARNESS_RETRIES=0，big-model 回一次 503（过载，和 529 一样）就换 small-model；实际：${sequence(run)}。多半是只认了 529、没认 503，或者只在“重试 N 次后仍然失败”那条路上记下了过载——HARNESS_RETRIES=0 时第 11 章直接抛出原来的错，它也得带着“过载”`;
      }
      if (count(list, MAIN) > 1 && list.indexOf(FALLBACK) > 0 && list.indexOf(FALLBACK) < list.lastIndexOf(MAIN)) {
        return `期望：small-model 也过载时，这一问就失败了（错误、退出码 1），不再换回 big-model——两个模型都过载时来回换，请求永远停不下来；实际：${sequence(run)}`;
      }
      if (count(list, FALLBACK) > 1) {
        return `期望：HARNESS_RETRIES=0，small-model 的 503 不重试，也不再“换”一次（已经在用备用模型了），一共 2 次请求；实际：small-model 问了 ${count(list, FALLBACK)} 次（${sequence(run)}）。换模型要有个头：已经是备用模型就不再换`;
      }
      return `期望：一共 2 次请求：big-model 一次（503），small-model 一次（503），然后一行错误、退出码 1；实际：${sequence(run)}`;
    },
  },
];
