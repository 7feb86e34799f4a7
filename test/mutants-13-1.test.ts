// 练习 13-1 的变异体：在参考答案上改一处，正是 HINTS.md 提醒过的错（或者任务明说不许的事）。
// 每一个都要被管这件事的那条要求认出来。四个场景，一个变异体约 2 秒。
// 看不见的：
// - HARNESS_PRICE_CACHED 没设时按输入价算：场景都设了它（设了才比得出缓存价用没用上）。
// - 预算到了以后这一次回答的工具照常跑完、历史照存：检查器只管不再发请求；先停下不跑工具的答案也算对。
// - turn() 在把问题放进历史之前先看预算：少了它，runAgent() 开头的同一道关照样拦住请求，差别只在会话文件里多一个没有回答的问题。
// - HARNESS_MAX_COST 本身写坏了（“5美元”）是配置错误：场景只试了“有预算、没价钱”这一种配置错误。
import { requirements } from "../exercises/13-1-cost-budget/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

const MUTANTS: Mutant[] = [
  {
    name: "多发一次请求（issue、提示 4）：花到正好等于预算还接着发",
    file: "cost.ts",
    from: "this.spent >= this.budget",
    to: "this.spent > this.budget",
    fails: "预算到了就不再发请求",
    because: /比较写成了 >/,
  },
  {
    name: "命中缓存的按输入价算（issue、提示 1）",
    file: "cost.ts",
    from: "cached * prices.cached",
    to: "cached * prices.input",
    fails: "停下时这一问的总结行照印",
    because: /按输入价（4）算了/,
  },
  {
    name: "命中缓存的一分钱不算（提示 1）：缓存白送",
    file: "cost.ts",
    from: "cached * prices.cached + ",
    to: "",
    fails: "预算到了就不再发请求",
    because: /命中缓存的 token 一分钱没算/,
  },
  {
    name: "停在半路时不补印总结行（任务）",
    file: "agent.ts",
    from: /    if \(opts\.meter\?\.reached\(\) && last\) console\.error[^\n]*\n/,
    to: "",
    fails: "停下时这一问的总结行照印",
    because: /没有以“\[共 ”开头的总结行/,
  },
  {
    name: "总结行不带花费（任务）",
    file: "agent.ts",
    from: "console.error(summaryLine(round, usage, finishReason, spent()));",
    to: "console.error(summaryLine(round, usage, finishReason));",
    fails: "花费是整次运行累计的",
    because: /每一问的总结行都带上累计花费/,
  },
  {
    name: "每一问重新从 0 算（提示 4）：预算管成了一问",
    file: "agent.ts",
    from: "  let last: Reply | undefined;\n",
    to: "  let last: Reply | undefined;\n  if (opts.meter) opts.meter.spent = 0;\n",
    fails: "花费是整次运行累计的",
    because: /每一问重新从 0 算/,
  },
  {
    name: "服务端报的用量原样进算术（提示 3）：字符串让总数成了 NaN",
    file: "cost.ts",
    from: '(typeof n === "number" && Number.isFinite(n) && n > 0 ? n : 0)',
    to: "Number(n)",
    fails: "花费是整次运行累计的",
    because: /NaN 进了总数/,
  },
  {
    name: "负数的用量照算（提示 3）：服务端把钱“退”了回来",
    file: "cost.ts",
    from: "Number.isFinite(n) && n > 0 ? n : 0",
    to: "Number.isFinite(n) ? n : 0",
    fails: "花费是整次运行累计的",
    because: /负数等于服务端把钱“退”了回来/,
  },
  {
    name: "REPL 里预算到了，退出码还是 0（任务）",
    file: "main.ts",
    from: "void ((process.exitCode = 1), console.error(`错误: ${e.message}`))",
    to: "console.error(`错误: ${e.message}`)",
    fails: "一行错误说出花了多少、预算多少",
    because: /退出码 0 结束，期望 1/,
  },
  {
    name: "错误只说超了预算、不说数（任务）",
    file: "cost.ts",
    from: "`已经花了 ${dollars(this.spent)}，到了预算 ${dollars(this.budget!)}（HARNESS_MAX_COST），不再发请求`",
    to: "`花到了预算（HARNESS_MAX_COST），不再发请求`",
    fails: "一行错误说出花了多少、预算多少",
    because: /钱数都写成 \$ 加数字/,
  },
  {
    name: "价钱用 parseFloat 读（提示 2）：“16美元”被当成 16",
    file: "cost.ts",
    from: "/^\\d+(\\.\\d+)?$/.test(value.trim()) ? Number(value) : undefined",
    to: "!Number.isNaN(Number.parseFloat(value)) ? Number.parseFloat(value) : undefined",
    fails: "价钱写坏了",
    because: /parseFloat/,
  },
  {
    name: "价钱写坏了一声不吭（任务）",
    file: "cost.ts",
    from: /      console\.error\(`警告: \$\{name\} 要是[^\n]*\n/,
    to: "",
    fails: "价钱写坏了",
    because: /没有这一行/,
  },
  {
    name: "有预算没价钱时悄悄不管预算（提示 2）",
    file: "cost.ts",
    from: 'if (!prices) throw new ConfigError("设了 HARNESS_MAX_COST',
    to: 'if (!prices) return undefined; if (!prices) throw new ConfigError("设了 HARNESS_MAX_COST',
    fails: "设了预算却没有价钱",
    because: /悄悄不管预算/,
  },
];

mutantSuite("13-1-cost-budget", requirements, MUTANTS, 4);
