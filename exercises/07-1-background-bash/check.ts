// 练习 07-1 的检查器：后台命令（run_in_background、bash_output、kill_shell）。
// 两个场景，各跑一遍：server（本机服务放后台、读端口、客户端说话、结束它，harness 正常答完）和
// flood（HARNESS_BG_KEEP_BYTES=4096、HARNESS_KILL_GRACE_MS=300：灌 3 MB、结束一个 trap 掉 SIGTERM 的命令，harness 最后被 SIGTERM）。
// 先后都由构造保证：等服务就绪、等灌水的命令退出，都是前台命令去看一个文件或 /proc，不靠睡一会儿。
// 措辞不逐字比对：只看 README 定下的几样——id 形如 bash_1，状态里“运行中”“退出码 N”，丢了多少字节写成数字。
import { describe, toolResults, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

// 第 n 个工具结果（从 1 数，整段对话里的顺序）：最后一次请求带着全部历史
function result(run: RunResult, n: number): string | undefined {
  const last = run.bodies.at(-1);
  const tools: any[] = (last?.messages ?? []).filter((m: any) => m.role === "tool");
  return tools[n - 1] === undefined ? undefined : String(tools[n - 1].content);
}

const quote = (value: string | undefined) => (value === undefined ? "（没有这个结果）" : `“${describe(value)}”`);
const idOf = (text: string | undefined) => text?.match(/\bbash_\d+\b/)?.[0];

// 结果不够说明问题时，补上 harness 本身怎么了
function how(run: RunResult): string {
  if (run.timedOut) return `（harness 没能结束，被场景超时终止了；模型一共收到 ${run.requests} 次请求）`;
  if (run.records.some((r) => r.rejected)) return "（脚本模型拒绝了后面的请求，原因见下一行）";
  return "";
}

const FLOOD_BYTES = 3_000_000 + 1 + Buffer.byteLength("洪水退潮\n"); // head -c 3000000，再 echo 换一行、一行“洪水退潮”

export const requirements: Requirement[] = [
  {
    name: "run_in_background 立刻交回 id，bash_output 读得到后台服务报出的端口，状态是运行中，前台客户端连得上",
    scenario: "server",
    check(run) {
      const started = result(run, 1);
      if (!idOf(started) || /^\s*(退出码|错误)/.test(started!)) {
        return `期望：bash 带 run_in_background: true 时不等命令结束，立刻交回一个 id（形如 bash_1）；实际：模型收到 ${quote(started)}${how(run)}——多半是 run_in_background 被忽略了，服务在前台跑到超时才被结束`;
      }
      const first = result(run, 3);
      const port = first?.match(/127\.0\.0\.1:(\d+)/)?.[1];
      if (!port) return `期望：服务就绪以后，bash_output ${idOf(started)} 交回它 stdout 上的“在 127.0.0.1:端口 上等连接”；实际：模型收到 ${quote(first)}${how(run)}`;
      if (!first!.includes("运行中")) return `期望：服务还在跑，bash_output 的状态写“运行中”；实际：${quote(first)}`;
      const client = result(run, 4);
      if (!client?.includes("服务回答：回声：你好")) return `期望：前台的 node client.mjs 127.0.0.1:${port} 连上后台服务，打印“服务回答：回声：你好”；实际：${quote(client)}${how(run)}`;
      return undefined;
    },
  },
  {
    name: "bash_output 只交上次读过之后的新输出",
    scenario: "server",
    check(run) {
      const second = result(run, 5);
      if (second === undefined) return `期望：客户端说完话以后再读一次 bash_output；实际：没走到这一步${how(run)}`;
      if (second.includes("等连接")) return `期望：第二次 bash_output 只有新的“收到：你好”，不再重复第一次已经读过的“在 127.0.0.1:… 上等连接”；实际：${quote(second)}——读过的输出要清掉（或者记住读到哪儿了）`;
      if (!second.includes("收到：你好")) return `期望：第二次 bash_output 交回服务新打印的“收到：你好”；实际：${quote(second)}`;
      return undefined;
    },
  },
  {
    name: "kill_shell 结束整个进程组：服务不在了，状态不再是运行中",
    scenario: "server",
    check(run) {
      const alive = result(run, 7);
      if (!alive?.includes("服务已经不在了")) return `期望：kill_shell 交回时服务已经结束，前台查它的 pid 说“服务已经不在了”；实际：${quote(alive)}${how(run)}`;
      const after = result(run, 8);
      if (after === undefined || after.includes("运行中")) return `期望：结束以后再读 bash_output，状态不再是“运行中”（写出它是怎么结束的）；实际：${quote(after)}`;
      return undefined;
    },
  },
  {
    name: "kill_shell 对不理 SIGTERM 的命令：宽限期（HARNESS_KILL_GRACE_MS）后 SIGKILL，组里的子进程一起结束",
    scenario: "flood",
    check(run) {
      const killed = result(run, 5);
      const check = result(run, 6);
      if (check === undefined) return `期望：kill_shell 交回以后，前台查那个命令和它的 sleep 子进程；实际：没走到这一步，kill_shell 的结果是 ${quote(killed)}${how(run)}`;
      if (!check.includes("查完了") || check.includes("还活着")) {
        return `期望：trap '' TERM 的命令收不到 SIGTERM，HARNESS_KILL_GRACE_MS=300 毫秒后 kill_shell 对整个进程组发 SIGKILL，它和它的 sleep 子进程都不在了；实际：前台查到 ${quote(check)}（kill_shell 的结果是 ${quote(killed)}）——只发 SIGTERM 不够，SIGKILL 要发给 -pid（整个组）`;
      }
      return undefined;
    },
  },
  {
    name: "每一路输出只留有限的字节（HARNESS_BG_KEEP_BYTES），留最新的，说清丢了多少；退出后状态写出退出码",
    scenario: "flood",
    check(run) {
      const out = result(run, 4);
      if (out === undefined) return `期望：灌水的命令退出以后读 bash_output；实际：没走到这一步${how(run)}`;
      if (out.length > 3 * 4096) return `期望：HARNESS_BG_KEEP_BYTES=4096，灌了约 3 MB 的命令，bash_output 只交回最多约 4096 字节的输出；实际：交回了 ${out.length} 个字符——设置没生效，或者输出根本没设上限`;
      if (!out.includes("洪水退潮")) return `期望：留下的是最新的输出（最后一行“洪水退潮”在里面），丢的是最旧的；实际：${quote(out)}`;
      const numbers = (out.match(/\d+/g) ?? []).map(Number);
      if (!numbers.some((n) => n >= FLOOD_BYTES - 4096 - 8 && n <= FLOOD_BYTES)) {
        return `期望：说清丢了多少字节，写成数字（约 ${FLOOD_BYTES - 4096}，输出共 ${FLOOD_BYTES} 字节、留了最多 4096）；实际：${quote(out)}`;
      }
      if (!/退出码\D{0,3}7(?!\d)/.test(out)) return `期望：命令以 exit 7 结束后，bash_output 的状态写“退出码 7”；实际：${quote(out)}`;
      return undefined;
    },
  },
  {
    name: "不认识的 id：错误，列出还在运行的 id",
    scenario: "server",
    check(run) {
      const live = idOf(result(run, 9));
      const answer = result(run, 10);
      if (!answer?.trimStart().startsWith("错误") || !live || !answer.includes(live)) {
        return `期望：bash_output 问一个不存在的 bash_99，结果以“错误”开头，列出还在运行的 id（${live ?? "刚启动的那个"}），模型下一步就能改对；实际：${quote(answer)}${how(run)}`;
      }
      return undefined;
    },
  },
  {
    name: "harness 正常答完退出：还在跑的后台命令（不理 SIGTERM）也被结束，不留进程",
    scenario: "server",
    check(run) {
      if (run.timedOut) return `期望：模型答完 harness 就退出，后台命令不该拖住它；实际：harness 没能结束，被场景超时终止——后台子进程和它的管道要 unref()，不然事件循环一直不空`;
      if (run.leftovers.length > 0) return `期望：harness 退出时结束所有还在跑的后台命令（整个进程组，SIGKILL：process 的 "exit" 里只能做同步的事）；实际：还活着 ${describe(run.leftovers.join(" / "))}`;
      return undefined;
    },
  },
  {
    name: "harness 被 SIGTERM 结束：还在跑的后台命令也被结束，harness 照样因 SIGTERM 退出",
    scenario: "flood",
    check(run) {
      if (run.leftovers.length > 0) return `期望：SIGTERM 默认直接杀掉 harness、不经过 "exit"，所以要接住 SIGTERM（还有 SIGINT、SIGHUP），先结束后台命令，再照原样退出；实际：harness 退出后还活着 ${describe(run.leftovers.join(" / "))}`;
      if (run.exitCode !== 143) return `期望：收拾完以后照原样因 SIGTERM 退出（退出码 143），不是假装正常结束；实际：退出码 ${run.exitCode}${how(run)}`;
      return undefined;
    },
  },
];
