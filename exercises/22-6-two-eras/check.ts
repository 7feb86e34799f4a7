// 练习 22-6 的检查器：两个时代。两次运行。two-eras 接五个服务器：shared/mcp-servers/era.ts 里官方 SDK v2 只说新版的（modern）、
// 两个时代都说的（dual）、SDK v1 的老服务器（legacy 答 -32602）、只说 2027-01-01 的 future，再加书里自己的时间服务器
// （timeserver/，也两个时代都说）；探路的时限设成一小时，每个判断只能靠认出回答。no-answer 接探路不答的两个：
// SDK v1 的 silent、只说新版却起得很慢的 slow，时限设成 1 毫秒——它们不答是构造出来的，判断不看机器快慢。
// 依赖都在 devDependencies 里，不联网。era 工具报出服务器这一边看到了什么（收到几次 server/discover、initialize……），
// 所以查的是线上的事实，不看读者怎么措辞；握手行只要求写出协议版本。
import { describe, eachServer, toolResults, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

const SCENARIO = "two-eras";
const NO_ANSWER = "no-answer";
// 第一轮里调用的顺序（和 checks/two-eras、checks/no-answer 的 scenario.json 一致）
const [ADD, PLAIN, CONFIRM, MODERN_ERA, DUAL_ERA, LEGACY_ADD, TIME] = [0, 1, 2, 3, 4, 5, 6];
const [SILENT_ADD, SLOW_ERA] = [0, 1];
const result = (run: RunResult, i: number) => toolResults(run, 2)[i];
const quote = (value: string | undefined) => (value === undefined ? describe(value) : `“${describe(value)}”`);
const handshake = (run: RunResult, server: string) => run.transcript.split("\n").find((line) => line.includes(`"${server}"`) && line.includes("握手"));
const failed = (run: RunResult) => (run.requests < 2 || run.exitCode !== 0 ? `（这次运行没有正常结束：模型收到 ${run.requests} 次请求，退出码 ${run.exitCode}；VERBOSE=1 看完整输出）` : "");
// era 工具的报告：“收到 server/discover 1 次、initialize 0 次……；_meta 不全的请求 0 个”
const count = (report: string, what: string) => Number(report.match(new RegExp(`${what.replace("/", "\\/")} (\\d+) (次|个)`))?.[1] ?? NaN);

export const requirements: Requirement[] = [
  {
    name: "只说新版的服务器（SDK v2，legacy: \"reject\"）：探路以后说新版，工具调得通，握手行写着 2026-07-28",
    scenario: SCENARIO,
    check(run) {
      const sum = result(run, ADD);
      if (!sum?.includes("= 42")) {
        const line = handshake(run, "modern");
        return `期望：先发 server/discover（_meta 里带 io.modelcontextprotocol/protocolVersion 2026-07-28、clientCapabilities、clientInfo），拿到 DiscoverResult 就说新版，不发 initialize（它会答 -32022）；modern 的 add(2, 40) 答 42；实际：模型收到 ${quote(sum)}；握手那一行是 ${quote(line)}${failed(run)}`;
      }
      const line = handshake(run, "modern");
      if (!line?.includes("2026-07-28")) return `期望：握手那一行写出这个服务器说的是哪个时代的协议（2026-07-28）；实际：${quote(line)}`;
    },
  },
  {
    name: "新版不握手：每个请求都带 _meta，不发 initialize、notifications/initialized、ping，探一次路就记住",
    scenario: SCENARIO,
    check(run) {
      const report = result(run, MODERN_ERA) ?? "";
      if (!report.includes("新版")) return `期望：modern 的 era 工具答“本连接：新版 2026-07-28；…”；实际：模型收到 ${quote(report)}${failed(run)}`;
      const bare = count(report, "_meta 不全的请求");
      if (bare !== 0) return `期望：说新版时 server/discover、tools/list、tools/call 每个请求的 params._meta 里都有协议版本、客户端能力和客户端身份（io.modelcontextprotocol/protocolVersion、clientCapabilities、clientInfo：服务器不记得你，每个请求各自说清）；实际：服务器收到 ${bare} 个 _meta 不全的请求（${describe(report)}）`;
      const extra = ["initialize", "notifications/initialized", "ping"].filter((m) => count(report, m) > 0);
      if (extra.length > 0) return `期望：新版没有握手，也没有 ping：一个 ${extra.join("、")} 都不发；实际：${describe(report)}`;
      const probes = count(report, "server/discover");
      if (probes !== 1) return `期望：时代是服务器进程的属性，探一次就记住，不是每个请求前都探一次（modern 第一次就答了 DiscoverResult，没有再探的理由）；实际：服务器收到 server/discover ${probes} 次（${describe(report)}）`;
    },
  },
  {
    name: "两个时代都说的服务器（SDK v2 默认）：探路答了 DiscoverResult，就说新版",
    scenario: SCENARIO,
    check(run) {
      const report = result(run, DUAL_ERA);
      if (!report?.includes("新版")) return `期望：dual 答了 server/discover，说明它会新版，这条连接就说新版（era 工具答“本连接：新版 …”）；实际：模型收到 ${quote(report)}；握手那一行是 ${quote(handshake(run, "dual"))}${failed(run)}`;
    },
  },
  {
    name: "起得慢的新版服务器：探路没等到回答、退回 initialize 却被答 -32022，就再探一次（只一次），说新版",
    scenario: NO_ANSWER,
    check(run) {
      const report = result(run, SLOW_ERA);
      if (!report?.includes("新版")) {
        return `期望：slow 在收到 initialize 之前什么也不处理——探路等不到回答，退回 initialize，它才醒来，答 -32022（data.supported 里是 2026-07-28）。以为它老，错了：再探一次，最后说新版，era 工具答“本连接：新版 …”；实际：模型收到 ${quote(report)}；握手那一行是 ${quote(handshake(run, "slow"))}${failed(run)}`;
      }
      const [probes, handshakes] = [count(report, "server/discover"), count(report, "initialize")];
      if (probes > 2 || handshakes > 1) {
        return `期望：认错只认一次——第一次探路没等到回答、initialize 换来 -32022，再探一次就够了（它刚说了自己是新版、而且醒着，这一次不设时限，等它答），一共 server/discover 两次、initialize 一次；实际：服务器收到 server/discover ${probes} 次、initialize ${handshakes} 次（${describe(report)}）——再探的那次还套着探路的时限，或者认错没有次数上限`;
      }
    },
  },
  {
    name: "书里自己的时间服务器（两个时代都说）：也说新版，工具照常",
    scenario: SCENARIO,
    check(run) {
      const line = handshake(run, "time");
      if (!line?.includes("2026-07-28")) return `期望：时间服务器答 server/discover（supportedVersions 里有 2026-07-28），这条连接就说新版，握手那一行写着 2026-07-28；实际：${quote(line)}${failed(run)}`;
      const now = result(run, TIME);
      if (!now?.includes("2026-08-07")) return `期望：说新版时 current_time 照常答（场景把时钟定在 2026-08-07）；实际：模型收到 ${quote(now)}${failed(run)}`;
    },
  },
  {
    name: "老服务器：探路碰壁（不管答的是哪个错误码），退回 initialize 握手",
    scenario: SCENARIO,
    check(run) {
      // 这个场景把探路的时限设成一小时（HARNESS_MCP_PROBE_MS），远过场景的时限：等到点再退回，场景先超时了，只有认出这个错误才通过
      const legacy = result(run, LEGACY_ADD);
      if (!legacy?.includes("= 3")) {
        return `期望：legacy 对握手前的 server/discover 答 -32602（不是 -32601：老服务器各有各的答法），这不是新版的错误，当场退回 initialize 照旧握手（这个场景的探路时限是一小时，等到点再退回就超时了），add(1, 2) 答 3；实际：模型收到 ${quote(legacy)}；握手那一行是 ${quote(handshake(run, "legacy"))}${failed(run)}`;
      }
    },
  },
  {
    name: "没有回音的老服务器：探路到了时限就退回 initialize 握手",
    scenario: NO_ANSWER,
    check(run) {
      const silent = result(run, SILENT_ADD);
      if (!silent?.includes("= 7")) {
        return `期望：silent 对握手前的 server/discover 一声不吭；探路有时限（这个场景用 HARNESS_MCP_PROBE_MS 设成 1 毫秒；读者的实现不读它也行，只是多等几秒），到点就当它是老服务器，退回 initialize，add(3, 4) 答 7；实际：模型收到 ${quote(silent)}；握手那一行是 ${quote(handshake(run, "silent"))}${failed(run)}`;
      }
    },
  },
  {
    name: "resultType：没有就当 complete；不认得的（input_required）是一个说清楚的错误，不卡住",
    scenario: SCENARIO,
    check(run) {
      const plain = result(run, PLAIN);
      if (plain !== "没有 resultType 也是完整的结果") return `期望：plain 的结果里没有 resultType，规范说这就是 "complete"，照常交给模型；实际：模型收到 ${quote(plain)}${failed(run)}`;
      const confirm = result(run, CONFIRM);
      if (!confirm?.trimStart().startsWith("错误") || !confirm.includes("input_required") || confirm.includes("已经删掉了")) {
        return `期望：confirm 的结果是 {"resultType": "input_required", "inputRequests": …, "content": [“已经删掉了”]}：服务器要客户端补充输入再问一次，什么也没做。不认得的 resultType 整个结果都无效（哪怕带着 content），模型收到以“错误”开头、说出 input_required 的结果，不能是“已经删掉了”；实际：模型收到 ${quote(confirm)}${failed(run)}`;
      }
    },
  },
  {
    name: "新版的服务器答 -32022：不退回 initialize；列出的版本我们会，就换它再问一次（只一次）；都不会，警告里说出它支持的版本",
    scenario: SCENARIO,
    check(run) {
      const warning = (server: string) => run.transcript.split("\n").find((line) => line.includes(`"${server}"`) && line.startsWith("警告"));
      const future = warning("future");
      // picky 收到的方法记在 era-picky.log 里，场景的 afterwards（cat）把它接在转录末尾
      const log = run.transcript.split("$ cat era-picky.log\n")[1]?.split("\n") ?? [];
      const asked = log.filter((line) => line === "server/discover").length;
      return eachServer("答 -32022 的两个新版服务器各有各的结局", [
        [
          "future",
          run.transcript.includes("era future: 收到 initialize")
            ? `期望：future 对 server/discover 答 -32022，data.supported 是 ["2027-01-01"]——这是新版服务器认得出的错误，说明它是新版的，只是版本对不上；不该再退回 initialize；实际：它收到了 initialize（它的日志：“era future: 收到 initialize”）`
            : !future?.includes("2027-01-01")
              ? `期望：跳过 future 时打一行警告，说出它支持的版本 2027-01-01，用户才知道该升级哪一边；实际：${quote(future)}${failed(run)}`
              : undefined,
        ],
        [
          "picky",
          log.includes("initialize")
            ? `期望：picky 答的是 -32022，它是新版的服务器，不退回 initialize；实际：它收到了 initialize`
            : asked !== 2 || !warning("picky")
              ? `期望：picky 答 -32022，data.supported 里正是我们会的 2026-07-28：换这个版本再问一次；它还是答 -32022，就不再问，一行警告跳过它——一共 server/discover 两次（它把收到的方法记在 era-picky.log 里）；实际：它收到 server/discover ${asked} 次，${warning("picky") ? "有" : "没有"}跳过它的警告${asked > 2 ? "——来回问没有上限：它前五次都这样答" : asked < 2 ? "——它列出的版本我们会，该换它再问一次" : ""}${failed(run)}`
              : undefined,
        ],
      ]);
    },
  },
];
