// 练习 07-1 的变异体：在参考答案上改一处，正是 HINTS.md 提醒过的错（或者任务明说不许的事）。
// 检查器必须认出每一个，而且是管这件事的那条要求不通过。
import { requirements } from "../exercises/07-1-background-bash/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

// 不能由哪个场景看出来的几处，为什么：
// - kill_shell 的 SIGTERM 或 SIGKILL 只有一处发给 bash 本人、不发给整个组：bash 一退出，"exit" 里对整个组的 SIGKILL
//   （和前台一样的清理）就把剩下的子孙带走了，结果和发给整组一样。killGroup() 本身只发给 pid 的变异体看得出来（见下）。
// - kill_shell 发完信号不等它结束就交回：宽限期只有 300 毫秒，下一轮查 pid 时 SIGKILL 多半已经发过了——看得出看不出取决于机器快慢，
//   不拿它当变异体（检查器不靠比快慢下结论）。
const MUTANTS: Mutant[] = [
  {
    name: "run_in_background 被忽略（任务第一句）：命令在前台跑到超时",
    file: "tools/bash.ts",
    from: "if (run_in_background === true) return background(command);",
    to: "",
    fails: "run_in_background 立刻交回 id",
    because: /立刻交回一个 id/,
  },
  {
    name: "读过的输出不清掉（提示 2）：第二次 bash_output 又交回第一次的那几行",
    file: "jobs.ts",
    from: "    this.chunks = [];\n    this.size = 0;\n",
    to: "",
    fails: "bash_output 只交上次读过之后的新输出",
    because: /不再重复/,
  },
  {
    name: "只发 SIGTERM、不升级到 SIGKILL（任务：宽限期后 SIGKILL）",
    file: "jobs.ts",
    from: '  killGroup(job.child.pid, "SIGKILL"); // 不理 SIGTERM 的',
    to: "  // 不理 SIGTERM 的",
    fails: "kill_shell 对不理 SIGTERM 的命令",
    because: /SIGKILL/,
  },
  {
    name: "信号只发给 bash 本人、不发给整个进程组（提示 3）：trap 掉 SIGTERM 的命令的 sleep 子进程活下来",
    file: "jobs.ts",
    from: "process.kill(-pid, signal); // 负的 pid = 整个进程组",
    to: "process.kill(pid, signal);",
    fails: "kill_shell 对不理 SIGTERM 的命令",
    because: /还活着：stubborn\.child/,
  },
  {
    name: "输出不设上限（任务：每一路有界）：3 MB 全交给模型",
    file: "jobs.ts",
    from: "    while (this.size > KEEP_BYTES) {",
    to: "    while (this.size > Infinity) {",
    fails: "每一路输出只留有限的字节",
    because: /设置没生效|没设上限/,
  },
  {
    name: "不读 HARNESS_BG_KEEP_BYTES（提示 4：上限要能调小）",
    file: "jobs.ts",
    from: 'setting("HARNESS_BG_KEEP_BYTES", 32 * 1024)',
    to: "32 * 1024",
    fails: "每一路输出只留有限的字节",
    because: /设置没生效/,
  },
  {
    name: "满了丢最新的、留最旧的（提示 4）：最后一行看不到",
    file: "jobs.ts",
    from: "    this.chunks.push(chunk);\n    this.size += chunk.length;\n",
    to: "    if (this.size >= KEEP_BYTES) return void (this.dropped += chunk.length);\n    this.chunks.push(chunk);\n    this.size += chunk.length;\n",
    fails: "每一路输出只留有限的字节",
    because: /最新的输出/,
  },
  {
    name: "丢了多少不说（任务：说清丢了多少）",
    file: "jobs.ts",
    from: "return dropped > 0 ? `...（这之前还有 ${dropped} 字节",
    to: "return dropped < 0 ? `...（这之前还有 ${dropped} 字节",
    fails: "每一路输出只留有限的字节",
    because: /丢了多少字节/,
  },
  {
    name: "状态不跟着进程变（任务：运行中 / 退出码）：结束了还说运行中",
    file: "jobs.ts",
    from: "return job.state === undefined ? \"运行中\" : job.state;",
    to: 'return "运行中";',
    fails: "kill_shell 结束整个进程组",
    because: /不再是“运行中”/,
  },
  {
    name: "不认识的 id 只说没有、不列出有哪些（任务）",
    file: "jobs.ts",
    from: "return `错误: 没有 id 为 ${JSON.stringify(id)} 的后台命令（${list}）`;",
    to: "return `错误: 没有 id 为 ${JSON.stringify(id)} 的后台命令`;",
    fails: "不认识的 id",
    because: /列出还在运行的 id/,
  },
  {
    name: "harness 退出时不收拾（任务：不留进程；提示 5）",
    file: "jobs.ts",
    from: '  process.on("exit", killAll);\n',
    to: "",
    fails: "harness 正常答完退出",
    because: /还活着/,
  },
  {
    name: "后台进程不 unref（提示 5）：模型答完了，harness 还等着后台命令，直到场景时限",
    file: "jobs.ts",
    from: "  child.unref();\n",
    to: "",
    fails: "harness 正常答完退出",
    because: /场景超时|撞上了场景的时限/,
  },
  {
    name: "不接 SIGTERM（提示 5）：harness 被 SIGTERM 直接杀掉，后台命令留下",
    file: "jobs.ts",
    from: 'for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {',
    to: 'for (const signal of ["SIGINT", "SIGHUP"] as const) {',
    fails: "harness 被 SIGTERM 结束",
    because: /还活着/,
  },
  {
    name: "接住 SIGTERM 收拾完却正常退出（提示 5：照原样退出）",
    file: "jobs.ts",
    from: "      process.kill(process.pid, signal);",
    to: "      process.exit(0);",
    fails: "harness 被 SIGTERM 结束",
    because: /退出码 143/,
  },
];

mutantSuite("07-1-background-bash", requirements, MUTANTS, 3);
