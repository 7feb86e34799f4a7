// 练习 09-1 的变异体：在参考答案上改一处，正是 HINTS.md 提醒过的错（或者任务明说不许的事）。
// 检查器必须认出每一个，而且是管这件事的那条要求不通过。参考答案通过、原样的第 09 章不通过，由 test/exercises.test.ts 检查。
// 没有变异体的几句话：
// - “进入计划模式时才登记 exit_plan_mode”：一开始就登记，检查器看不出来，破坏的是第 09 章自己的场景（它们逐字比 tools 数组），
//   由 npm run verify -- 09 exercises/09-1-plan-mode/solution --own 把关，不归检查器。
// - 上限是 > 还是 >=：计划正好 2000 字时差一行省略说明，不值得为它多跑一个场景；检查用的计划 2500 多字。
import { requirements } from "../exercises/09-1-plan-mode/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

const MUTANTS: Mutant[] = [
  {
    name: "计划时没拦 bash（任务；issue 点名）：allow 规则放行的 touch 照样跑了",
    file: "plan.ts",
    from: 'new Set(["read_file"])',
    to: 'new Set(["read_file", "bash"])',
    fails: "--plan：批准之前",
    because: /bash（allow 规则放行的 touch）/,
  },
  {
    name: "只拦 write_file 和 bash，漏了 edit_file（提示 2：按“只读的放行”来拦，不按“会改的拦下”）",
    file: "plan.ts",
    from: "if (READ_ONLY.has(name)) return tool;",
    to: 'if (READ_ONLY.has(name) || name === "edit_file") return tool;',
    fails: "--plan：批准之前",
    because: /edit_file 收到/,
  },
  {
    name: "连 read_file 也拦了（任务：什么也不改的工具照常）",
    file: "plan.ts",
    from: 'new Set(["read_file"])',
    to: "new Set<string>([])",
    fails: "--plan：批准之前",
    because: /read_file 什么也不改/,
  },
  {
    name: "命令行上的 --plan 没接上",
    file: "main.ts",
    from: 'if (args.includes("--plan")) plan.start();',
    to: "",
    fails: "--plan：批准之前",
    because: /exit_plan_mode/,
  },
  {
    name: "计划原样写给终端，不经过 safeText（提示 3）",
    file: "plan.ts",
    from: "safeText(cut ? plan.slice(0, MAX_PLAN_CHARS) : plan)",
    to: "(cut ? plan.slice(0, MAX_PLAN_CHARS) : plan)",
    fails: "计划给用户过目",
    because: /原样写给了终端/,
  },
  {
    name: "计划不设上限（提示 3）",
    file: "plan.ts",
    from: "const cut = plan.length > MAX_PLAN_CHARS;",
    to: "const cut = false;",
    fails: "计划给用户过目",
    because: /整份都显示了/,
  },
  {
    name: "用户答 n 也当批准（任务：n = 接着计划）",
    file: "plan.ts",
    from: '.confirm("[计划模式] 批准这个计划、开始动手吗？[y/N] "))',
    to: '.confirm("[计划模式] 批准这个计划、开始动手吗？[y/N] ")) && false',
    fails: "用户答 n",
    because: /after-no\.txt/,
  },
  {
    name: "批准了却没离开计划模式（提示 4）",
    file: "plan.ts",
    from: "this.active = false;",
    to: "",
    fails: "用户答 y",
    because: /write_file 收到 “错误/,
  },
  {
    name: "批准以后绕过权限规则：bash 只套计划模式、不套 guard（提示 4：计划模式套在权限检查外面）",
    file: "main.ts",
    from: "plan.gate(guard(bashTool, policy, ask))",
    to: "plan.gate(bashTool)",
    fails: "用户答 y",
    because: /绕过了权限规则/,
  },
  {
    name: "没有终端也批准（任务；issue 点名）：没人说“好”，计划就通过了",
    file: "plan.ts",
    from: "if (!this.confirm) {",
    to: 'if (!this.confirm) {\n      this.active = false;\n      return "没有终端，当作批准了。";\n    }\n    if (false) {',
    fails: "没有终端：exit_plan_mode 批准不了",
    because: /write_file 收到 “已写入/,
  },
  {
    name: "REPL 里的 /plan 没接上（它被当成一句话发给了模型）",
    file: "main.ts",
    from: 'if (line === "/plan") return plan.start();',
    to: "",
    fails: "REPL 里的 /plan",
    because: /已写入/,
  },
];

mutantSuite("09-1-plan-mode", requirements, MUTANTS, 4);
