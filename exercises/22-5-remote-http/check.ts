// 练习 22-5 的检查器：远程服务走 Streamable HTTP。服务器是场景开跑之前起好的 HTTP 服务器（scenario.json 的 servers）：
// 书里的时间服务器（timeserver --http）和 shared/mcp-servers/hostile-http.ts（按路径分成几种脾气）。
// 查的是模型收到的工具结果（陪练服务器把它看到的请求头、会话号写在结果里）和转录里的警告——措辞随你，说到点子上就行。
// 一条要求管着几个服务器，就每个服务器各说一句结论；整次运行出了事（什么也没打印、退出码不对）由 checker.ts 排在最前面先说。
import { describe, eachServer, toolNames, toolResults, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

const warningsAbout = (run: RunResult, server: string) => run.transcript.split("\n").filter((line) => line.startsWith("警告") && line.includes(`"${server}"`));
const warningAbout = (run: RunResult, server: string) => warningsAbout(run, server)[0];
// 陪练服务器在 stderr 上记的一行（检查器接在转录末尾）
const serverSaid = (run: RunResult, text: string) => run.transcript.split("\n").find((line) => line.startsWith("hostile-http: ") && line.includes(text));

// 不守规矩的服务器各自该换来的那行警告里，要说到的东西
const HOSTILE: { server: string; what: string; says: RegExp; hint: string }[] = [
  { server: "cutloop", what: "SSE 流一断再断，续上的流也什么都不给", says: /续/, hint: "续传也要有个头：接连几次续上的流什么也没带来（参考答案 5 次），就不再续，说一声" },
  { server: "endless", what: "SSE 里一个接一个的通知、等不到回答", says: /MiB|上限|太大|太长/, hint: "整条 SSE 流也有上限（比如 64 MiB），到了就不再读，说出上限" },
  { server: "gone", what: "会话一直 404", says: /404/, hint: "404 就重新 initialize、再发一次，只重来一次；还是 404 就放弃，说出 404" },
  { server: "html", what: "Content-Type 是 text/html", says: /text\/html|Content-Type/i, hint: "只收 application/json 和 text/event-stream，别的说出收到的 Content-Type" },
  { server: "huge", what: "响应体大得没边", says: /MiB|上限|太大|太长/, hint: "响应体有上限（比如 64 MiB），先看 Content-Length，没写的边读边数，到了就断开，说出上限" },
  { server: "moved", what: "答 307 叫你换个地址", says: /30\d|跳转|重定向/, hint: "不跟着跳（headers 里的令牌会被带到新地址），说出状态码和它要你去的地址" },
  { server: "refill", what: "每条 SSE 流都只有 3 MiB 就断，续上的也一样", says: /MiB|上限|太大|太长/, hint: "整条流的字节上限要把续上的流也算进去（参考答案 4 MiB 就停），说出上限——每条都重新数的话，它给的 30 MiB 你全收下了" },
  { server: "wrongid", what: "回答里的 id 对不上", says: /跳过|失败/, hint: "回答里没有这个请求的 id 的响应，当场变成这个请求的一个错误响应（说一句“回答里没有这个请求的响应”），握手失败、跳过它——不然 McpClient 一直等这个 id，harness 卡在启动上" },
  { server: "slow", what: "5 秒里连响应头都不发", says: /超时/, hint: "每个请求都有时限，握手用 mcp.json 里它的 startupTimeout（1000 毫秒），连等响应头的时间一起算，到点就放弃，说“超时”——它 5 秒以后才回答，等到了它的客户端没守这个设置" },
];

export const requirements: Requirement[] = [
  {
    name: "接得上 type 为 http 的服务：时间服务器的工具照常调用，headers 里的 ${VAR} 从环境展开，没设置的变量警告一句、跳过",
    scenario: "remote-tools",
    check(run) {
      const [time, whoami] = toolResults(run, 2);
      const nokey = warningAbout(run, "nokey");
      return eachServer("三个 type 为 http 的服务各得其所", [
        ["time", time?.includes("2026-08-07 14:03:09") ? undefined : `期望 mcp.json 里 "type": "http" 的 time（timeserver --http）接得上，握手、列工具、POST tools/call，current_time 答 “2026-08-07 14:03:09 星期五”；实际：${describe(time)}`],
        ["forget", whoami?.includes("Authorization: Bearer t0ken-42") ? undefined : `期望 headers 里的 "Authorization": "Bearer \${FORGET_TOKEN}" 展开成环境里的值，每个请求都带上；它报出的是：${describe(whoami)}`],
        ["nokey", nokey?.includes("NOKEY_TOKEN") ? undefined : `期望 headers 用到没设置的 \${NOKEY_TOKEN}，一行警告说出这个变量名，跳过这个服务；实际：${describe(nokey ?? "没有提到 nokey 的警告")}`],
      ]);
    },
  },
  {
    name: "守 Streamable HTTP 的会话规矩：带上 Mcp-Session-Id 和 MCP-Protocol-Version，会话 404 就重新握手（带着 headers、补发 initialized，同时撞上的几个请求共用一次）、再发一次，退出时 DELETE（该带的头一样不少）",
    scenario: "remote-tools",
    check(run) {
      for (const whoami of toolResults(run, 2).slice(1, 3)) {
        if (!whoami?.startsWith("会话 ")) {
          return `期望：forget 的两个 whoami 调用（同一轮，一起发出）都成功。它们都撞上 404（会话没了）：重新 initialize（不带旧会话号，mcp.json 的 headers 照带——它要之后每个请求带的凭据和 initialize 时一样，不然答 401）、补发 notifications/initialized（没收到它，tools/call 答 400）、再发一次这个调用；每个请求带着 initialize 回答里的 Mcp-Session-Id 和谈好的 MCP-Protocol-Version 头（它缺了哪个都答 400）。实际：${describe(whoami)}`;
        }
        if (!whoami.includes("会话 s2") || !whoami.includes("第 2 次 initialize")) return `期望：两个调用同时撞上 404，只重新握手一次，拿到新会话 s2，正好 initialize 两次（几个请求等同一次重新握手）；它报出的是：${describe(whoami)}`;
        if (!whoami.includes("MCP-Protocol-Version: 2025-11-25")) return `期望：MCP-Protocol-Version 头是 initialize 谈好的版本 2025-11-25；它报出的是：${describe(whoami)}`;
      }
      if (!run.transcript.includes("会话 s2 收到 DELETE")) {
        const refused = serverSaid(run, "的 DELETE 没带上");
        return `期望：harness 退出前给有会话的服务器发 DELETE，带着 Mcp-Session-Id、MCP-Protocol-Version 和 mcp.json 的 headers（和别的请求一样），陪练服务器会在转录末尾记一行 “会话 s2 收到 DELETE”；实际：${refused ? `陪练服务器说 “${refused}”` : `转录里没有（末尾是 ${describe(run.transcript.slice(-200))}）`}`;
      }
    },
  },
  {
    name: "不守规矩的远程服务只换来一行警告或一个错误结果：SSE 等不到回答、断了续不上、Content-Type 不对、响应体太大、会话一直 404、叫你跳转、响应头不来、调用一去不回，harness 照常回答、自己退出",
    scenario: "hostile-http",
    check(run) {
      const stalled = toolResults(run, 2)[0];
      if (run.timedOut && serverSaid(run, "stall 收到 DELETE")) {
        return `期望：收尾的 DELETE 最多等一会儿（参考答案 1 秒），对方不理也照样退出；实际：stall 收下 DELETE 就不理，harness 一直等着它，没有自己结束（${serverSaid(run, "stall 收到 DELETE")}）`;
      }
      const verdicts = eachServer("每个不守规矩的服务器只换来一行提到它名字的警告，或者一个错误结果", [
        ...HOSTILE.map(({ server, what, says, hint }): [string, string | undefined] => {
          const lines = warningsAbout(run, server);
          const read = serverSaid(run, `${server} 的 80 MiB 全送出去了`);
          if (toolNames(run, 1).some((name) => name.startsWith(`mcp__${server}__`))) return [server, `${what}：期望握手失败、跳过它；实际：它的工具交给了模型${server === "slow" ? "——它 5 秒以后才回答，握手等到了它：mcp.json 里它的 startupTimeout（1000 毫秒）没管上握手" : ""}`];
          if (read) return [server, `${what}：期望边读边数字节，超过上限就断开；实际：陪练服务器把 80 MiB 全送出去了（“${read}”）——Content-Length 没写的响应体，要自己数`];
          return [server, lines.some((line) => says.test(line)) ? undefined : `${what}：期望一行 “警告…"${server}"…” 的警告，里面有 ${says}：${hint}；实际：${describe(lines[0] ?? "没有提到它的警告")}`];
        }),
        ["stall", stalled?.startsWith("错误") && stalled.includes("超时") ? undefined : `握手正常，可 tools/call 的回答 5 秒以后才来（响应头马上就到）：期望 mcp.json 里它的 timeout（1000 毫秒）到点，连读响应体的时间一起算，模型收到一个以“错误”开头、带“超时”的结果，harness 接着问下一轮；实际：${describe(stalled)}`],
      ]);
      if (verdicts) return verdicts;
      if (/\x1b/.test(run.transcript)) {
        const raw = run.transcript.split("\n").find((line) => line.includes("\x1b"))!;
        return `期望：服务器说的话（gone 的 404、endless 那个不是 JSON 的事件里都夹着 ESC 序列）显形以后才上屏，http.ts 自己印的警告也过一遍 safeLine()；实际：这一行里有原样的 ESC 字符：${describe(raw.replace(/\x1b/g, "ESC"))}`;
      }
      if (/^\s+at /m.test(run.transcript)) return `期望：失败都是一行话；实际：转录里有堆栈：${describe(run.transcript.split("\n").find((l) => /^\s+at /.test(l)))}`;
    },
  },
  {
    name: "一口气发两万个 ping 的服务器：回答它们的 POST 同时在途的有上限，警告有上限，规范的预备事件（data 为空）不算毛病，握手照样完成",
    scenario: "pings",
    check(run) {
      const warnings = run.transcript.split("\n").filter((line) => line.startsWith("警告") && line.includes('"pings"'));
      if (warnings.some((line) => line.includes("不是 JSON"))) return `期望：只有 id、data 为空的事件是规范里的预备事件（留着断线续传用），跳过它，不警告；实际：${describe(warnings.find((line) => line.includes("不是 JSON")))}`;
      if (warnings.length > 30) return `期望：一个服务器的警告有上限（参考答案 20 行，之后一句“不再显示”）；实际：pings 换来 ${warnings.length} 行警告`;
      const seen = toolResults(run, 2)[0];
      const peak = Number(seen?.match(/同时在途的请求最多 (\d+) 个/)?.[1] ?? NaN);
      if (!(peak <= 64)) return `期望：pings 握手照样完成，whoami 调得通；每个 ping 的回答是一次 POST，同时在途的要有上限（参考答案 16 个），不能两万个一起发出去；实际：模型收到 ${describe(seen)}`;
    },
  },
  {
    name: "断在回答之前的 SSE 流用 Last-Event-ID 续上：等够服务器的 retry，GET 同一个地址（该带的头一样不少，叫你跳转也不跟），回答在续上的流里来",
    scenario: "resume",
    check(run) {
      const [seen, hop] = toolResults(run, 2);
      const followed = serverSaid(run, "跟着跳转来了");
      return eachServer("两个断在回答之前的流各有各的结局", [
        [
          "cut",
          !seen?.includes("续传：GET 带着 Last-Event-ID: cut-2")
            ? `期望：cut 的 tools/call 只发了预备事件（id cut-1）和一个进度通知（id cut-2）就关上了流；客户端记下最后一个事件 id，GET 同一个地址、带上 Accept: text/event-stream、会话号、协议版本头、mcp.json 的 headers（X-Api-Key，和 initialize 时一样）和 “Last-Event-ID: cut-2”，回答在那条流里来，whoami 报出 “续传：GET 带着 Last-Event-ID: cut-2”；实际：模型收到 ${describe(seen)}`
            : !seen.includes("等够了")
              ? `期望：断开以后先等够流里 retry: 说的毫秒数再续（规范要求）；实际：${describe(seen)}`
              : undefined,
        ],
        [
          "hop",
          followed
            ? `期望：续传的 GET、收尾的 DELETE 得到 307 也不跟着跳（fetch 默认会跟，每个 fetch 都要写 redirect: "manual"）；实际：跟过去了，陪练服务器记下 “${followed}”`
            : !(hop?.startsWith("错误") && hop.includes("307"))
              ? `期望：hop 断在回答之前，来续的 GET 换来 307：不跟着跳，这个调用以一个说出 307 的错误结束；实际：模型收到 ${describe(hop)}`
              : undefined,
        ],
      ]);
    },
  },
];
