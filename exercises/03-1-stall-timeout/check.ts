// 练习 03-1 的检查器：流停住了要掐断。场景全用脚本模型新添的“停在半路”：pauseAfterEvents 写完前几个事件就停下，
// 连接开着；没给 pauseMs 就一直停到客户端断开——不掐断的 harness 会一直等，由场景的时限（20 秒）兜底。
// 判决不看钟：停住的流永远不会自己好，慢的流每 100 毫秒就来一次字节（设定是 2000 毫秒，隔得再慢二十倍也够）。
// 措辞不逐字比对：错误那一行以“错误:”开头，说出流停了（停、卡、没收到……）和停了多久（2 秒 / 2000 毫秒）就行。
import { describe, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

const lines = (run: RunResult) => run.transcript.split("\n");
const errors = (run: RunResult) => lines(run).filter((line) => line.startsWith("错误:"));
const saysStalled = (line: string) => /停|卡|没有?收到|没有?字节|stall|idle/i.test(line);
// “2 秒”“2.0 秒”“2s”都算；写成“2000 毫秒”“2000ms”也算
const saysSeconds = (line: string, s: number) => new RegExp(`(?<![\\d.])(${s}(\\.0+)?\\s*(秒|s\\b)|${s * 1000}\\s*(毫秒|ms))`).test(line);

// harness 怎么了：卡到场景时限、退出码、错误行——要求自己的“实际”不够说明问题时补上
function how(run: RunResult): string {
  if (run.timedOut) return "harness 一直在等，直到场景的时限（20 秒）把它结束";
  const shown = errors(run);
  return `harness 以退出码 ${run.exitCode} 结束${shown.length > 0 ? `，错误行：${describe(shown.join(" / "))}` : "，没有“错误:”行"}`;
}

// 一行“错误:”，说流停了、停了多久
function stallError(run: RunResult, seconds: number): string | undefined {
  const shown = errors(run);
  if (shown.length !== 1) return `恰好一行“错误:”，实际有 ${shown.length} 行${shown.length > 0 ? `：${describe(shown.join(" / "))}` : ""}`;
  const line = shown[0]!;
  const missing = [saysStalled(line) ? "" : "流停住了（比如“停”“没有收到字节”）", saysSeconds(line, seconds) ? "" : `停了多久（${seconds} 秒）`].filter(Boolean);
  return missing.length > 0 ? `错误行要说出${missing.join("和")}，实际是 ${describe(line)}` : undefined;
}

export const requirements: Requirement[] = [
  {
    name: "流停在半路：到点掐断请求，已经印出的字留着，一行“错误:”说流停了、停了多久，退出码非 0",
    scenario: "stall-mid-stream",
    check(run) {
      if (run.timedOut) {
        return `期望：HARNESS_STALL_MS=2000，前半句到了以后服务端一个字节也不再发（连接开着），2 秒后掐断请求、报错退出；实际：${how(run)}。多半是没有看门狗，或者到点只报了错、没有掐断请求（fetch 的连接还开着，进程退不出去）`;
      }
      if (!run.transcript.includes("前半句已经到了屏幕上")) {
        return `期望：停住之前已经收到的“前半句已经到了屏幕上”照样印在 stdout 上，不因为后来出错就丢掉；实际：转录里没有它（${how(run)}）`;
      }
      const problem = stallError(run, 2);
      if (problem) return `期望：${problem}`;
      if (run.exitCode === 0) return `期望：流停住了，这次问答失败，退出码非 0；实际：退出码 0`;
      return undefined;
    },
  },
  {
    name: "一个字节都还没来（连响应头都没有）也算停住：计时从发出请求开始，REPL 接着问下一句",
    scenario: "stall-before-first-byte",
    check(run) {
      if (run.timedOut) {
        return `期望：第一问发出以后服务端连响应头都不回，计时从发出请求就开始，2 秒后报错，REPL 接着答第二问；实际：${how(run)}。多半是计时器等响应头到了才开始数（fetch() 那一步也要交给看门狗管：把它的 signal 给 fetch）`;
      }
      const problem = stallError(run, 2);
      if (problem) return `期望：第一问停住，${problem}`;
      if (!run.transcript.includes("第二问的回答照常到了")) {
        return `期望：REPL 里一问失败不退出，第二问照常发出、答完（它的计时器从头数，不受第一问的影响）；实际：没看到第二问的回答，脚本模型收到 ${run.requests} 次请求（${how(run)}）`;
      }
      return undefined;
    },
  },
  {
    name: "慢而不停的流不是停住：每片字节都让计时器从头数，总共多久都行",
    scenario: "slow-but-steady",
    check(run) {
      const done = run.transcript.includes("计时从头数。完了");
      if (done && run.exitCode === 0 && errors(run).length === 0) return undefined;
      const early = !run.transcript.includes("计时从头数。"); // 注释行之前的字都还没收全
      const cause = early
        ? "回答还在一片一片地来（每 100 毫秒一片）就被掐断了：计时器从发出请求数起、一次也没从头数（那是整次请求的时限，不是停流计时器），或者只在某些时候才从头数"
        : "见下一条要求：字都收全了，停在只有注释行的那段时间里";
      return `期望：HARNESS_STALL_MS=2000，回答每 100 毫秒来一片、前后五六秒，任何时候都没有 2 秒不来字节，应当整句答完、退出码 0；实际：${how(run)}。${cause}`;
    },
  },
  {
    name: "SSE 注释行也是字节：只发 \": keep-alive\" 的那几秒不算停住",
    scenario: "slow-but-steady",
    check(run) {
      const before = run.transcript.includes("计时从头数。"); // 注释行之前的字
      if (!before) return `期望：先看上一条要求——注释行之前的字都还没收全就被掐断了；实际：${how(run)}`;
      if (run.transcript.includes("计时从头数。完了") && errors(run).length === 0) return undefined;
      return `期望：服务端想了近 3 秒，这段时间里每 100 毫秒发一行 ": keep-alive" 注释，这也是收到了字节，计时器要从头数；实际：字都收全以后，停在注释行那段被掐断了（${how(run)}）。多半是在 readSSE 交出 data: 事件的地方才让计时器从头数——注释行不会变成事件，要在收到字节的地方数`;
    },
  },
  {
    name: "没设 HARNESS_STALL_MS 用宽松的默认值；答完立刻退出，不陪着计时器等",
    scenario: "default-setting",
    check(run) {
      if (run.timedOut) {
        return `期望：回答说完以后 harness 立刻退出；实际：回答${run.transcript.includes("又接着说完了") ? "早就说完了" : "没说完"}，${how(run)}。多半是请求结束时没有 clearTimeout：计时器还挂着，进程要陪它等满默认值才退出`;
      }
      if (!run.transcript.includes("停了三秒，又接着说完了。") || run.exitCode !== 0) {
        return `期望：没设 HARNESS_STALL_MS 时用默认值（几分钟这个量级：想得久的模型隔很久才出一个字），说到一半停 3 秒不算停住，整句答完、退出码 0；实际：${how(run)}。默认值太短了，或者没设时读成了 0、NaN`;
      }
      return undefined;
    },
  },
];
