// 练习 22-1 的检查器：MCP 请求的超时。
// 场景都用 shared/mcp-servers/fault.ts：slow 3 秒才回答（被取消了就攒着，抢在下一个 echo_later 前面发出）；
// echo_later 排在在途的 slow 后面回答；收到的 notifications/cancelled 记在 stderr 上（转录里看得到）。
// 不回 initialize 的是 shared/mcp-servers/hung.sh：它的见证人把收到的取消通知原样写到 stderr，并且不退出。
// 措辞不逐字比对：超时的结果以“错误”开头、带“超时”，再说出服务名、方法和秒数就行。
import { describe, toolNames, toolResults, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

const LATE_ANSWER = "终于算完了"; // slow 的回答
const OWN_ANSWER = "echo_later 自己的回答"; // call-timeout 场景让 echo_later 原样返回的文字
const OK_ANSWER = "ok 服务照常工作"; // hung-handshake 场景里 ok 服务 echo 的文字

// 引用模型收到的原文；没有就说“（没有）”
const quote = (value: string | undefined) => (value === undefined ? describe(value) : `“${describe(value)}”`);
const timedOut = (result: string | undefined) => result !== undefined && result.trimStart().startsWith("错误") && result.includes("超时");
// “2 秒”“2.0 秒”“2s”都算；写成“2000 毫秒”“2000ms”也算说清了
const saysSeconds = (result: string, s: number) => new RegExp(`(?<![\\d.])(${s}(\\.0+)?\\s*(秒|s\\b)|${s * 1000}\\s*(毫秒|ms))`).test(result);

// 模型收到的结果不够说明问题时，补上 harness 本身怎么了：卡住被终止、异常退出、没走到这一轮
function how(run: RunResult, request: number): string {
  if (run.transcript.includes("[场景超时")) return `（harness 没能结束，被场景超时终止了；模型一共收到 ${run.requests} 次请求）`;
  if (run.bodies.length < request) return `（模型只收到 ${run.requests} 次请求，没走到第 ${request} 次；harness 退出码 ${run.exitCode}）`;
  return "";
}

export const requirements: Requirement[] = [
  {
    name: "mcp.json 里的 timeout 生效：调用超时，结果是“错误: …超时…”，说出服务名、方法和秒数",
    scenario: "call-timeout",
    check(run) {
      const slow = toolResults(run, 2)[0];
      if (!timedOut(slow)) {
        return `期望：fault 在 mcp.json 里写了 "timeout": 2000（毫秒），slow 要 3 秒才回答，2 秒一到就不再等，模型收到以“错误”开头、带“超时”的结果；实际：模型收到 ${quote(slow)}${how(run, 2)}`;
      }
      const missing = [
        slow.includes("fault") ? "" : "服务名 fault",
        slow.includes("tools/call") ? "" : "方法 tools/call",
        saysSeconds(slow, 2) ? "" : "等了几秒（2 秒）",
      ].filter(Boolean);
      if (missing.length > 0) {
        return `期望：超时的结果说清是哪个服务、哪个方法、等了多久，比如 错误: MCP 服务 "fault" 的 tools/call 超过 2 秒没有回应（超时）；实际：模型收到 ${quote(slow)}，缺少${missing.join("、")}`;
      }
      return undefined;
    },
  },
  {
    name: "HARNESS_MCP_TIMEOUT_MS 写坏了：一行警告，照默认值来，harness 照常启动",
    scenario: "call-timeout",
    check(run) {
      if (run.requests === 0) {
        return `期望：场景把 HARNESS_MCP_TIMEOUT_MS 写成了 2s（不是毫秒数），harness 说一行警告、照默认的 60 秒来，照常启动——一个写坏的环境变量不该让 harness 起不来；实际：模型一次请求也没收到，harness 退出码 ${run.exitCode}`;
      }
      const said = run.transcript.split("\n").some((line) => !line.startsWith("[round") && line.includes("HARNESS_MCP_TIMEOUT_MS"));
      if (said) return undefined;
      return `期望：场景把 HARNESS_MCP_TIMEOUT_MS 写成了 2s，harness 在 stderr 上说一行警告，点名 HARNESS_MCP_TIMEOUT_MS、说清要写毫秒数，用户才知道自己的设置没生效；实际：harness 一声不吭`;
    },
  },
  {
    name: "超时后给服务器发 notifications/cancelled：requestId 是放弃的那个请求，带上 reason",
    scenario: "call-timeout",
    check(run) {
      const cancels = run.transcript.split("\n").filter((line) => line.includes("fault: 收到取消通知"));
      if (cancels.length === 0) {
        return `期望：slow 超时以后，客户端往服务器的 stdin 写一条 {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":…,"reason":…}}，fault 收到会在 stderr 上记一行“fault: 收到取消通知 …”；实际：fault 没有收到取消通知，slow 的结果是 ${quote(toolResults(run, 2)[0])}${how(run, 2)}`;
      }
      if (!cancels.some((line) => line.includes("（tools/call slow）"))) {
        return `期望：requestId 原样用放弃的那个 tools/call（slow）请求的 id，值和类型都不变（数字 3 和字符串 "3" 不是同一个 id）；实际：${describe(cancels.join(" / "))}`;
      }
      if (cancels.some((line) => line.endsWith("reason=undefined"))) {
        return `期望：取消通知的 params 里还有 reason，写明为什么取消（比如超时了），服务器的日志里才查得到原因；实际：${describe(cancels.join(" / "))}`;
      }
      return undefined;
    },
  },
  {
    name: "迟到的回答被丢掉：下一次调用拿到的是它自己的回答",
    scenario: "call-timeout",
    check(run) {
      const slow = toolResults(run, 2)[0];
      if (!timedOut(slow)) {
        return `期望：slow 先超时（见第一条要求），它 3 秒时迟到的回答“${LATE_ANSWER}”到达时被丢掉；实际：slow 没有超时，模型收到 ${quote(slow)}${how(run, 2)}`;
      }
      const later = toolResults(run, 3)[0];
      if (later !== OWN_ANSWER) {
        const stale = later?.includes(LATE_ANSWER) ? "——这正是 slow 迟到的回答，被错交给了下一次调用" : "";
        return `期望：echo_later 拿到它自己的回答“${OWN_ANSWER}”。slow 迟到的回答就在它前面到达，id 是已经放弃的那个请求的，得认出来丢掉，不能交给正在等的调用，也不能让连接出错；实际：模型收到 ${quote(later)}${stale}${how(run, 3)}`;
      }
      return undefined;
    },
  },
  {
    name: "没写 timeout 的服务用默认超时（HARNESS_MCP_TIMEOUT_MS 可调），写了的用自己的",
    scenario: "default-timeout",
    check(run) {
      const [quick, patient] = toolResults(run, 2);
      if (!timedOut(quick) || !saysSeconds(quick, 1)) {
        return `期望：quick 在 mcp.json 里没写 timeout，用默认超时；场景设了 HARNESS_MCP_TIMEOUT_MS=1000，它的 slow 1 秒就超时，结果带“超时”和“1 秒”；实际：模型收到 ${quote(quick)}${how(run, 2)}`;
      }
      if (patient !== LATE_ANSWER) {
        return `期望：patient 在 mcp.json 里写了 "timeout": 40000，它自己的设置优先于默认的 1 秒，3 秒后的回答“${LATE_ANSWER}”等得到；实际：模型收到 ${quote(patient)}`;
      }
      return undefined;
    },
  },
  {
    name: "握手也有超时：不回 initialize 的服务被跳过（警告，不发取消通知，进程杀掉），别的服务照常接入",
    scenario: "hung-handshake",
    check(run) {
      if (run.timedOut) {
        return `期望：握手也受超时管——hung 不回 initialize，它写了 "startupTimeout": 1000，等 1 秒就跳过，harness 几秒就答完；实际：harness 卡在启动上，一直等 hung 的 initialize 回应，被 20 秒的场景时限终止，模型收到 ${run.requests} 次请求。多半是握手没有时限，或者握手用了调用的超时（默认 60 秒）`;
      }
      // 措辞不比：点名这个服务、带“超时”的那一行就是它的警告（第 22 章对 tools/list 失败说的是“列工具失败，跳过”）
      const warnings = run.transcript.split("\n").filter((line) => !line.startsWith("[round") && line.includes("跳过"));
      for (const [name, what] of [["hung", "它不回 initialize"]] as const) {
        const warning = warnings.find((line) => line.includes(`"${name}"`));
        if (!warning?.includes("超时")) {
          return `期望：握手也受超时管——${name} 的 startupTimeout 是 1000，${what}，1 秒后打一行警告（比如“警告: MCP 服务 "${name}" 握手失败，跳过: …超时…”），启动接着往下走；实际：${warning ? describe(warning) : "没有这一行警告"}`;
        }
        if (!saysSeconds(warning, 1)) {
          return `期望：${name} 的握手按它自己的 "startupTimeout": 1000 等 1 秒，警告里写明等了 1 秒；实际：${describe(warning)}——startupTimeout 没生效？`;
        }
      }
      const cancel = run.transcript.split("\n").find((line) => line.includes("notifications/cancelled"));
      if (cancel || run.leftovers.some((p) => p.includes("见证人"))) {
        return `期望：握手超时不发取消通知——规范不许取消 initialize，反正这个进程马上就要结束；实际：hung 收到了 ${describe(cancel ?? "一条取消通知")}`;
      }
      const tools = toolNames(run, 1);
      if (!tools.includes("mcp__ok__echo") || tools.some((name) => name.startsWith("mcp__hung__"))) {
        return `期望：跳过 hung 以后，ok 照常接入，第一次请求的工具里有 mcp__ok__echo，没有 mcp__hung__ 开头的；实际：${describe(tools.filter((name) => name.startsWith("mcp__")))}${how(run, 1)}`;
      }
      const echo = toolResults(run, 2)[0];
      if (echo !== OK_ANSWER) return `期望：ok 的 echo 照常能用，模型收到“${OK_ANSWER}”；实际：模型收到 ${quote(echo)}${how(run, 2)}`;
      if (run.leftovers.length > 0) {
        return `期望：握手超时的服务器进程被杀掉，harness 退出后不留下进程；实际：还活着 ${describe(run.leftovers.join(" / "))}`;
      }
      return undefined;
    },
  },
  {
    name: "按服务写的 startupTimeout 生效：握手（initialize 或 tools/list）比它慢的服务被跳过",
    scenario: "slow-handshake",
    check(run) {
      const tools = toolNames(run, 1);
      const warnings = run.transcript.split("\n").filter((line) => !line.startsWith("[round") && line.includes("跳过"));
      const wrong = [
        ["slowinit", "3 秒才回 initialize"],
        ["slowlist", "当场回了 initialize，3 秒才回 tools/list——tools/list 也是握手，也归 startupTimeout 管"],
      ].flatMap(([name, what]) => {
        if (tools.some((tool) => tool.startsWith(`mcp__${name}__`))) return [`  ✗ ${name}（${what}）：等到了它，它的工具接进来了——startupTimeout 没生效${name === "slowlist" ? "，或者 tools/list 用的是调用的超时" : ""}`];
        const warning = warnings.find((line) => line.includes(`"${name}"`));
        if (!warning?.includes("超时")) return [`  ✗ ${name}（${what}）：没有点名它、带“超时”的警告${warning ? `，只有 ${describe(warning)}` : ""}`];
        if (!saysSeconds(warning, 1)) return [`  ✗ ${name}（${what}）：警告里没写等了 1 秒：${describe(warning)}`];
        return [];
      });
      if (run.bodies.length === 0) return `期望：两个慢服务器 1 秒后被跳过，ok 照常接入，模型收到请求；实际：模型一次请求也没收到${how(run, 1)}`;
      if (!tools.includes("mcp__ok__echo")) wrong.push(`  ✗ ok（没写 startupTimeout，默认 30 秒）：没接进来，第一次请求的工具是 ${describe(tools)}`);
      if (wrong.length === 0) return undefined;
      return [`期望：两个服务器都写了 "startupTimeout": 1000，握手比它慢（3 秒），1 秒就放弃、打一行点名它、带“超时”和“1 秒”的警告、跳过它；默认的 30 秒只管没写 startupTimeout 的。不对的：`, ...wrong].join("\n");
    },
  },
];
