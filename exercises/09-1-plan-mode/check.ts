// 练习 09-1 的检查器：计划模式。
// plan-approve 在伪终端里跑 --plan：批准之前改东西的调用都不执行（也不问人），read_file 照常；第一份计划夹着转义序列、长过上限，
// 答 n；第二份答 y，同一轮里接下来的调用回到第 09 章的规则。最后的 ls 说明盘上到底发生了什么。
// plan-no-terminal 是没有终端的 REPL：/plan 进入计划模式，exit_plan_mode 没人能批准。
// 措辞不逐字比对：被拒的结果以“错误”开头、提到 exit_plan_mode 就算告诉了模型它在计划、该怎样交出计划。
import { describe, toolNames, toolResults, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

const NOTES = "待办：加一个 hello.txt\n"; // 工作目录里 notes.txt 的内容
const REFUSED_WHILE_PLANNING = ["plan-write.txt", "planned-bash.txt", "after-no.txt"]; // 计划时想建的文件：一个都不该有

const quote = (value: string | undefined) => (value === undefined ? describe(value) : `“${describe(value)}”`);
const refused = (result: string | undefined) => result !== undefined && result.trimStart().startsWith("错误");
// 计划时被拒：以“错误”开头，并且告诉模型怎样交出计划（点名 exit_plan_mode）
const planRefusal = (result: string | undefined) => refused(result) && result!.includes("exit_plan_mode");

function how(run: RunResult, request: number): string {
  if (run.transcript.includes("[场景超时")) return `（harness 没能结束，被场景超时终止了；模型一共收到 ${run.requests} 次请求——多半是它在终端上多问了一句 y/N，没人回答）`;
  if (run.bodies.length < request) return `（模型只收到 ${run.requests} 次请求，没走到第 ${request} 次；harness 退出码 ${run.exitCode}）`;
  return "";
}

// 最后一次 ls 的文件名（plan-approve 的第 6 次请求里最后一个结果）
function listing(run: RunResult): string[] | undefined {
  const ls = toolResults(run, 6)[3];
  if (ls === undefined || !ls.includes("[stdout]")) return undefined;
  return ls.split("[stdout]")[1]!.split("\n").map((line) => line.trim()).filter(Boolean);
}

export const requirements: Requirement[] = [
  {
    name: "--plan：批准之前 write_file、edit_file、bash 都不执行也不问人，结果提到 exit_plan_mode；read_file 照常",
    scenario: "plan-approve",
    check(run) {
      if (!toolNames(run, 1).includes("exit_plan_mode")) {
        return `期望：--plan 启动，进入计划模式，第一次请求的工具里有 exit_plan_mode；实际：工具是 ${describe(toolNames(run, 1))}${how(run, 1)}`;
      }
      const [write, edit, bash, read] = toolResults(run, 2);
      const bad = (
        [
          ["write_file", write],
          ["edit_file", edit],
          ["bash（allow 规则放行的 touch）", bash],
        ] as const
      ).filter(([, result]) => !planRefusal(result));
      if (bad.length > 0) {
        const named = bad.map(([tool, result]) => `${tool} 收到 ${quote(result)}`).join("；");
        return `期望：计划被批准之前，除了 read_file 别的工具都不执行——allow 规则放行的命令也不跑，也不在终端上问人——结果以“错误”开头，告诉模型它在计划、写好计划调用 exit_plan_mode；实际：${named}${how(run, 2)}`;
      }
      const beforePlan = run.transcript.split("exit_plan_mode(")[0]!;
      if (beforePlan.includes("[y/N]")) {
        return `期望：计划时改东西的调用直接被拒，不在终端上问 y/N（用户还没看到计划，问了也是白问）；实际：模型交计划之前终端上就有问题：${describe(beforePlan.split("\n").filter((l) => l.includes("[y/N]")).join(" / "))}`;
      }
      if (read !== NOTES) return `期望：read_file 什么也不改，计划时照常执行，模型读到 notes.txt 的内容 ${quote(NOTES)}；实际：模型收到 ${quote(read)}`;
      return undefined;
    },
  },
  {
    name: "计划给用户过目：控制字符和转义序列显形，太长只显示前 2000 个字符",
    scenario: "plan-approve",
    check(run) {
      // 调用行（[round 2] exit_plan_mode(…)）是第 06 章就有的，照原样印 JSON；要看的是另外显示给用户的计划
      const shown = run.transcript.split("\n").filter((line) => !line.includes("exit_plan_mode("));
      if (!shown.some((line) => line.includes("第一步：读 notes.txt"))) {
        return `期望：exit_plan_mode 问 y/N 之前，把计划显示给用户（调用行之外另外显示）；实际：转录里除了调用行，找不到计划的第一行“第一步：读 notes.txt”${how(run, 2)}`;
      }
      const escaped = ["␛[2K", "␛]0;pwned"].filter((s) => !shown.some((line) => line.includes(s)));
      if (escaped.length > 0) {
        return `期望：计划是模型写的，显示之前经过 terminal.ts 的 safeText：\\r、ESC 序列（清行 ESC[2K、改终端标题的 ESC]0;…BEL）显示成 \\r、␛[2K、␛]0;…，伪造不了一行“[权限] 已自动批准”；实际：显示的计划里没有 ${escaped.join("、")}——序列被原样写给了终端`;
      }
      const tail = shown.find((line) => line.includes("计划的结尾TAIL"));
      if (tail !== undefined) {
        return `期望：计划有上限，最多显示前 2000 个字符，超出的说一句省略了多少（这份计划 2500 多字，结尾“计划的结尾TAIL”不该显示）；实际：整份都显示了`;
      }
      return undefined;
    },
  },
  {
    name: "用户答 n：仍在计划中，接下来的 bash 照样被拒",
    scenario: "plan-approve",
    check(run) {
      const [answer] = toolResults(run, 3);
      if (answer === undefined) return `期望：模型调用 exit_plan_mode，终端上问 y/N，用户答 n，模型收到一个结果；实际：没有这个结果${how(run, 3)}`;
      const [bash] = toolResults(run, 4);
      if (!planRefusal(bash)) {
        return `期望：用户答 n（想改计划），仍在计划模式，模型接着调用的 bash touch after-no.txt 照样被拒（结果以“错误”开头、提到 exit_plan_mode）；实际：exit_plan_mode 的结果是 ${quote(answer)}，bash 收到 ${quote(bash)}${how(run, 4)}`;
      }
      return undefined;
    },
  },
  {
    name: "用户答 y：同一轮里下一个调用起回到第 09 章的规则（写文件要问、allow 放行、deny 拒绝），盘上只有批准后做的事",
    scenario: "plan-approve",
    check(run) {
      const [write, touch, rm, ls] = toolResults(run, 6);
      if (refused(write) || refused(touch)) {
        return `期望：用户答 y 批准第二份计划，同一轮里接下来的 write_file hello.txt（问 y/N，答 y）和 allow 规则放行的 touch done.txt 都执行；实际：write_file 收到 ${quote(write)}，touch 收到 ${quote(touch)}${how(run, 6)}`;
      }
      const afterApproval = run.transcript.split("1. 写 hello.txt").slice(1).join("");
      if (!afterApproval.split("\n").some((line) => line.includes("[y/N]") && line.includes("hello.txt"))) {
        return `期望：批准的是计划，不是绕过权限：写 hello.txt 照第 09 章的默认还要在终端上问一句 y/N；实际：没有问就写了`;
      }
      if (!refused(rm)) return `期望：批准以后 deny 规则照样算数，bash(rm *) 拒绝 rm notes.txt；实际：rm 收到 ${quote(rm)}——批准计划绕过了权限规则`;
      const files = listing(run);
      if (!files) return `期望：最后的 ls 执行，列出工作目录；实际：ls 收到 ${quote(ls)}`;
      const leaked = REFUSED_WHILE_PLANNING.filter((f) => files.includes(f));
      const missing = ["done.txt", "hello.txt", "notes.txt"].filter((f) => !files.includes(f));
      if (leaked.length > 0 || missing.length > 0) {
        return `期望：盘上只有批准之后做的事：有 done.txt、hello.txt、notes.txt，没有计划时想建的 ${REFUSED_WHILE_PLANNING.join("、")}；实际：ls 列出 ${describe(files.join(" "))}`;
      }
      return undefined;
    },
  },
  {
    name: "REPL 里的 /plan 进入计划模式",
    scenario: "plan-no-terminal",
    check(run) {
      const [write] = toolResults(run, 2);
      if (!planRefusal(write)) {
        return `期望：REPL 里输入 /plan 进入计划模式，接着的问题里 write_file（用户的 allow 规则放行它）也不执行，结果以“错误”开头、提到 exit_plan_mode；实际：模型收到 ${quote(write)}${how(run, 2)}`;
      }
      return undefined;
    },
  },
  {
    name: "没有终端：exit_plan_mode 批准不了（结果以“错误”开头），仍在计划中，文件没有写出来",
    scenario: "plan-no-terminal",
    check(run) {
      const [answer] = toolResults(run, 3);
      const [write] = toolResults(run, 4);
      const [read] = toolResults(run, 5);
      if (!refused(answer) || !planRefusal(write) || !refused(read)) {
        return `期望：输入不是终端，没有人能批准计划：exit_plan_mode 的结果以“错误”开头，仍在计划模式，再调 write_file（allow 规则放行它）还是被拒，read_file 读 hello.txt 读不到；实际：exit_plan_mode 收到 ${quote(answer)}，write_file 收到 ${quote(write)}，read_file 收到 ${quote(read)}${how(run, 5)}`;
      }
      return undefined;
    },
  },
];
