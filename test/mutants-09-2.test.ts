// 练习 09-2 的变异体：在参考答案上改一处，正是 HINTS.md 提醒过的错（或者任务明说不许的事）。
// 检查器必须认出每一个，而且是管这件事的那条要求不通过。参考答案通过、原样的第 09 章不通过，由 test/exercises.test.ts 检查。
// 没有变异体的几句话：
// - “钩子正常退出时也结束它留在后台的子孙”（hooks.ts 里 exit 时的 killGroup）：检查器的钩子正常退出时不留后台进程，
//   看不出差别；留后台进程的钩子只有 hang.sh，它归超时管。
// - 钩子的理由打给用户的那一行：答案只打“[钩子] 拦下 …”，不打理由；原样的 ESC 不会出现在转录里由第一条要求一并查。
// - matcher 的别名（Bash → bash）和坏正则“宁可多跑”：场景里没有这样的 matcher，写进 README 的是 Claude Code 的规矩，不是检查的内容。
import { requirements } from "../exercises/09-2-pre-tool-hooks/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

// 超时的钩子不被结束的两个变异体让 harness 卡到场景的时限（30 秒），先起跑
const MUTANTS: Mutant[] = [
  {
    name: "超时了只是不等，不结束钩子（issue 点名；提示 4）：sleep 留着，harness 退不出去",
    file: "hooks.ts",
    from: /killGroup\(child\.pid\);\n(?=\s*console\.error\(`警告: PreToolUse 钩子 \$\{shown\} 超过)/,
    to: "",
    fails: "超时的钩子",
    because: /进程组|场景的时限/,
  },
  {
    name: "只结束钩子本身，不结束它的进程组（提示 4）：后台的 sleep 成了孤儿",
    file: "hooks.ts",
    from: "process.kill(-pid, \"SIGKILL\")",
    to: "process.kill(pid, \"SIGKILL\")",
    fails: "超时的钩子",
    because: /进程组|场景的时限/,
  },
  {
    name: "退出码 1 也当拦下（issue 点名；提示 3）",
    file: "hooks.ts",
    from: "if (code === 2) return resolve(reasonOf(stderr, total));",
    to: "if (code !== null) return resolve(reasonOf(stderr, total));",
    fails: "别的退出码（1）不算拦下",
    because: /echo oops 照常执行/,
  },
  {
    name: "仓库设置里的钩子也算数（issue 点名；提示 1）：和规则一样把两份合起来",
    file: "permissions.ts",
    from: "hooks: user.hooks };",
    to: "hooks: [...(user.hooks ?? []), ...(project.hooks ?? [])] };",
    fails: "仓库的 .harness/settings.json 里的钩子不生效",
    because: /仓库的钩子/,
  },
  {
    name: "timeout 当成毫秒（提示 4：Claude Code 的 timeout 是秒）：30 毫秒就把想半秒的钩子结束了，rm 照跑",
    file: "hooks.ts",
    from: "timeoutMs: timeout * 1000",
    to: "timeoutMs: timeout",
    fails: "退出码 2 拦下调用",
    because: /单位是秒/,
  },
  {
    name: "理由原样交给模型，不显形（提示 3）",
    file: "hooks.ts",
    from: "return safeText(cut);",
    to: "return cut;",
    fails: "退出码 2 拦下调用",
    because: /原样的 ESC/,
  },
  {
    name: "理由不设上限（提示 3）",
    file: "hooks.ts",
    from: "const cut = total > MAX_REASON ?",
    to: "const cut = false ?",
    fails: "退出码 2 拦下调用",
    because: /有上限/,
  },
  {
    name: "tool_input 给的是参数的 JSON 文本，不是对象（提示 2）",
    file: "hooks.ts",
    from: "tool_input: input,",
    to: "tool_input: JSON.stringify(input),",
    fails: "钩子从 stdin 收到一行 JSON",
    because: /不是 JSON 文本/,
  },
  {
    name: "只给规则放行的调用跑钩子（提示 1：钩子在规则之前）：规则会拒绝的 edit_file 没过钩子",
    file: "permissions.ts",
    from: "const blocked = await preToolUse(policy.hooks ?? [], name, parsed);",
    to: 'const blocked = decide(policy, name, parsed).decision === "allow" ? await preToolUse(policy.hooks ?? [], name, parsed) : undefined;',
    fails: "钩子从 stdin 收到一行 JSON",
    because: /规则会拒绝的 edit_file 也先过钩子/,
  },
  {
    name: "matcher 一律当正则（提示 2）：read 管到了 read_file",
    file: "hooks.ts",
    from: "if (/^[\\w|]+$/.test(matcher))",
    to: "if (false)",
    fails: "matcher 写的是名字",
    because: /当成正则/,
  },
];

mutantSuite("09-2-pre-tool-hooks", requirements, MUTANTS, 4);
