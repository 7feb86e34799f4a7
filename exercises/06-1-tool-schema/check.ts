// 练习 06-1 的检查器：参数先照声明检查，不符合就不执行。
// 工具是检查器自己的探针 probe（checks/*/workspace/.probe.mjs，场景用 NODE_OPTIONS 在 harness 启动前加载它）：
// 它在注册表存工具的那张 Map 里紧挨着 read_file 放进 probe，每执行一次在 stderr 上记一行“[探针] 执行：参数开头”，
// 结果里原样交回收到的参数，并说 Object.prototype 干不干净。
// 措辞不逐字比对：错误以“错误”开头、说出出错的路径（opts.deep、tags[1] 这样，也认 /opts/deep、tags.1），探针没有执行。
import { describe, toolResults, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

const LIMIT = 2000; // 一条错误结果最多这么多字符：问题再多、参数再大也不该超过
// schema 场景第一轮的十二个调用（和 scenario.json 的顺序一致）
const CALLS = {
  A: String.raw`{"name": "甲 \u00e9", "count": 0, "ratio": 2, "mode": "slow", "tags": ["x", "y"], "opts": {"deep": false, "note": ""}}`,
  B: `{"count": 7}`,
  C: `{"name": "C", "count": 2.5}`,
  D: `{"name": "D", "count": 1, "ratio": "1.5"}`,
  E: `{"name": "E", "count": 1, "mode": "FAST"}`,
  F: `{"name": "F", "count": 1, "tags": ["x", 3]}`,
  G: `{"name": "G", "count": 1, "opts": {"deep": true, "colour": "red"}}`,
  H: `{"name": "H", "count": 1, "opts": {"note": "n"}}`,
  I: `{"name": "I", "count": 1, "opts": []}`,
  J: `{"name": "J", "count": 1, "constructor": 1, "__proto__": {"polluted": "yes"}}`,
  K: `{"name": "K", "count": 1, …30 个多出来的参数 k01…k30}`,
  L: `{"name": "L", "count": -3, "ratio": 0.5}`,
} as const;
type Call = keyof typeof CALLS;
const ORDER = Object.keys(CALLS) as Call[];
const GOOD: Call[] = ["A", "L"];

const quote = (value: string | undefined) => (value === undefined ? describe(value) : `“${describe(value)}”`);
const isError = (r: string | undefined) => r !== undefined && r.trimStart().startsWith("错误");

// schema 场景：每个调用的结果（第 2 次请求带着）
function results(run: RunResult): Record<Call, string | undefined> {
  const got = toolResults(run, 2);
  return Object.fromEntries(ORDER.map((c, i) => [c, got[i]])) as Record<Call, string | undefined>;
}

// 探针记下的每一次执行：参数的开头
function executions(run: RunResult): string[] {
  return run.transcript
    .split("\n")
    .filter((line) => line.startsWith("[探针] 执行："))
    .map((line) => {
      try {
        return JSON.parse(line.slice("[探针] 执行：".length)) as string;
      } catch {
        return line;
      }
    });
}
const ran = (run: RunResult, args: string) => executions(run).some((head) => args.startsWith(head));

// 结果里说出了这条路径：opts.deep、opts/deep、opts["deep"]；下标 tags[1]、tags.1、tags/1
function mentions(result: string, path: (string | number)[]): boolean {
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const dotted = path.map((p, i) => (typeof p === "number" ? `(\\[${p}\\]|\\.${p})` : i === 0 ? esc(p) : `(\\.${esc(p)}|\\[["']?${esc(p)}["']?\\])`)).join("");
  const slashed = "/" + path.map((p) => esc(String(p))).join("/");
  return new RegExp(`(?<![\\w$])(${dotted}|${slashed})(?![\\w$])`).test(result);
}

// 一组“这个调用该被拒绝、结果里该说出这条路径”：不通过的逐条说明
function rejects(run: RunResult, cases: [Call, (string | number)[], string][]): string | undefined {
  const got = results(run);
  const bad: string[] = [];
  for (const [call, path, why] of cases) {
    const result = got[call];
    if (!isError(result)) bad.push(`期望：${CALLS[call]} 被拒绝（${why}），模型收到以“错误”开头的结果；实际：模型收到 ${quote(result)}`);
    else if (!mentions(result!, path)) bad.push(`期望：${CALLS[call]} 的错误说出出错的路径 ${path.map((p) => (typeof p === "number" ? `[${p}]` : p)).join(".").replace(".[", "[")}（${why}）；实际：${quote(result)}`);
  }
  return bad.length > 0 ? bad.join("\n") : undefined;
}

// 两个合规的调用没被错拒：整数值算 number，0 是合法的 integer
function goodAccepted(run: RunResult, about: string): string | undefined {
  const got = results(run);
  for (const call of GOOD) {
    if (isError(got[call])) return `期望：${CALLS[call]} 完全合规（${about}），探针照常执行；实际：它被拒绝了，模型收到 ${quote(got[call])}`;
  }
  return undefined;
}

const notReached = (run: RunResult) => (run.bodies.length < 2 ? `（模型只收到 ${run.requests} 次请求，harness 退出码 ${run.exitCode}）` : "");

export const requirements: Requirement[] = [
  {
    name: "合规的参数：工具照常执行，收到的参数一字不差",
    scenario: "schema",
    check(run) {
      const got = results(run);
      for (const call of GOOD) {
        const result = got[call];
        if (!result?.startsWith("探针收到")) {
          const why = isError(result) ? "——它被拒绝了：count 的 0、-3，note 的空字符串，deep 的 false 都是给了值（必填看有没有这个键，不看值真不真），ratio 的 2 是 number（整数也是）" : "";
          return `期望：${CALLS[call]} 完全合规，探针照常执行，交回“探针收到（…）：参数原文”；实际：模型收到 ${quote(result)}${why}${notReached(run)}`;
        }
        if (!result.endsWith(`：${CALLS[call]}`)) {
          return `期望：检查只是看一眼，交给工具的还是模型发来的那段原文（\\u00e9 仍是 \\u00e9，空格、顺序都不变）——别把解析后的对象再 stringify 一遍交下去；实际：探针收到 ${quote(result.slice(result.indexOf("：") + 1))}，模型发的是 ${quote(CALLS[call])}`;
        }
      }
      return undefined;
    },
  },
  {
    name: "不合规的参数：工具不执行，模型收到“错误:”",
    scenario: "schema",
    check(run) {
      const got = results(run);
      const wrong = ORDER.filter((c) => !GOOD.includes(c));
      const executed = wrong.filter((c) => ran(run, c === "K" ? `{"name": "K"` : CALLS[c]));
      if (executed.length > 0) {
        return `期望：参数不符合声明的调用一个也不执行——先检查，有问题就直接交回错误；实际：探针执行了 ${executed.map((c) => CALLS[c]).join("、")}（${executed.map((c) => `它的结果是 ${quote(got[c])}`).join("；")}）。报了错却还往下执行，错误就只是一句话`;
      }
      const silent = wrong.filter((c) => !isError(got[c]));
      if (silent.length > 0) return `期望：每个不合规的调用，模型都收到以“错误”开头的结果；实际：${silent.map((c) => `${CALLS[c]} → ${quote(got[c])}`).join("；")}${notReached(run)}`;
      return undefined;
    },
  },
  {
    name: "required：缺了必填的参数（顶层的、嵌套对象里的）就报出它的路径",
    scenario: "schema",
    check: (run) =>
      rejects(run, [
        ["B", ["name"], "缺了必填的 name"],
        ["H", ["opts", "deep"], "opts 里缺了它自己必填的 deep：嵌套的对象也照它自己的 required 查"],
      ]),
  },
  {
    name: "type：integer 和 number 分得清，object 不收数组",
    scenario: "schema",
    check: (run) =>
      rejects(run, [
        ["C", ["count"], "count 要 integer，2.5 不是整数：别拿 typeof === \"number\" 当 integer"],
        ["D", ["ratio"], "ratio 要 number，\"1.5\" 是字符串"],
        ["I", ["opts"], "opts 要 object，[] 是数组：typeof [] 也是 \"object\""],
      ]) ?? goodAccepted(run, "count 是 0、-3——0 也是参数，别用 !value 判断“没给”；ratio 是 2——整数也是 number"),
  },
  {
    name: "enum：不在可选值里的值被拒绝",
    scenario: "schema",
    check: (run) => rejects(run, [["E", ["mode"], "mode 只能是 fast、slow，FAST 不在里面（大小写也算不同）"]]) ?? goodAccepted(run, "mode 是 slow"),
  },
  {
    name: "items：数组的每一项照 items 检查，报出下标",
    scenario: "schema",
    check: (run) => rejects(run, [["F", ["tags", 1], "tags 的第 2 项（下标 1）是数字 3，不是 string：不只看第一项"]]),
  },
  {
    name: "additionalProperties: false：多出来的参数被拒绝（顶层、嵌套，constructor、__proto__ 也算）",
    scenario: "schema",
    check(run) {
      const problem = rejects(run, [
        ["G", ["opts", "colour"], "opts 声明了 additionalProperties: false，colour 不在它的 properties 里"],
        ["J", ["constructor"], "constructor 不在 properties 里——用 in 查会沿原型链找到 Object 的 constructor，得用 Object.hasOwn"],
        ["J", ["__proto__"], "__proto__ 也是模型写来的一个键，同样不认识"],
      ]);
      if (problem) return problem;
      const later = results(run).L;
      if (later?.includes("原型被污染")) return `期望：处理 {"__proto__": …} 时不往 Object.prototype 上写东西；实际：之后的调用看到 ${quote(later)}`;
      return undefined;
    },
  },
  {
    name: "错误有界：问题很多时只列出几处，再说还有多少",
    scenario: "schema",
    check(run) {
      const result = results(run).K;
      if (!isError(result)) return `期望：K 多出 30 个不认识的参数 k01…k30，模型收到以“错误”开头的结果；实际：${quote(result)}${notReached(run)}`;
      const listed = result!.match(/k\d\d/g)?.length ?? 0;
      const rest = 30 - listed;
      if (result!.length > LIMIT || listed >= 30) {
        return `期望：只列出前几处（比如 5 处），再说一句还有多少处——参数可能有几万个键，一条结果不能跟着长；实际：列出了 ${listed} 处，结果 ${result!.length} 个字符：${quote(result)}`;
      }
      if (listed === 0) return `期望：至少列出前几处问题（k01 这样的路径），模型才知道改哪里；实际：${quote(result)}`;
      if (!new RegExp(`(?<!\\d)(${rest}|30)(?!\\d)`).test(result!)) {
        return `期望：没列出的说个数（一共 30 处，列出了 ${listed} 处，还有 ${rest} 处），模型才知道问题不止这些；实际：${quote(result)}`;
      }
      return undefined;
    },
  },
  {
    name: "恶意参数：十万层嵌套、二十万字的字符串、不是对象的参数——一句有界的错误，不倒下、不打堆栈",
    scenario: "hostile",
    check(run) {
      const stack = run.transcript.split("\n").find((line) => /^\s+at .+[:(]/.test(line) || /RangeError|Maximum call stack/.test(line));
      if (stack) return `期望：参数再深再大，harness 也只交回一句错误，不打异常的堆栈；实际：转录里有 ${describe(stack)}——递归地 JSON.stringify、拷贝或遍历模型给的值，十万层就撑爆调用栈。只沿 schema 往下走，错误里只说类型、不抄值`;
      const [deep, notObject, long] = toolResults(run, 3);
      const cases: [string, string | undefined, (string | number)[] | undefined][] = [
        [`{"name": "N", "count": 1, "tags": [[[…十万层…]]]}`, deep, ["tags", 0]],
        [`[[[…十万层…]]]（参数本身就是数组）`, notObject, undefined],
        [`{"name": "P", "count": 1, "mode": "aaa…二十万个 a"}`, long, ["mode"]],
      ];
      for (const [what, result, path] of cases) {
        if (!isError(result)) return `期望：${what} 得到以“错误”开头的结果；实际：${quote(result)}${run.bodies.length < 3 ? `（模型只收到 ${run.requests} 次请求，harness 退出码 ${run.exitCode}）` : ""}`;
        if (result!.length > LIMIT) return `期望：${what} 的错误不超过 ${LIMIT} 个字符——只说哪里错、错成什么类型，收到的值要么不抄、要么截断；实际：${result!.length} 个字符，开头是 ${quote(result)}`;
        if (path && !mentions(result!, path)) return `期望：${what} 的错误说出出错的路径 ${path.join(".")}；实际：${quote(result)}`;
      }
      return undefined;
    },
  },
];
