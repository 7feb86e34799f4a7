// 练习 23-1 的检查器：沙箱的网络名单。只用回环，不查 DNS：场景起一个 127.0.0.1 上的网站（web.ts），
// 用户的名单是 127.0.0.1、db.localhost、*.svc.localhost；仓库里的 .harness/settings.json 另列了 localhost 和 *（不算数）。
// 代理怎么判的，不用真连上谁也看得出来：拒绝 = 403，harness 在 stderr 上点名那个主机；放行了却连不上 = 502（或者连上了）。
// 被拒绝的名字代理根本不去解析，所以参考答案只解析一个名字（放行的 api.svc.localhost，解析不出来就是 502）。
// localhost 是同一台机器，但不在名单上——放不放行看的是名字，不是它解析成的地址。
// 命令用 curl：它认 http_proxy，--proxytunnel 让明文 HTTP 也走 CONNECT 隧道，-w 把代理回的状态码印出来。措辞不逐字比对
import fs from "node:fs";
import { describe, toolResults, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

const GREETING = "来自允许的主机"; // web.ts 对每个请求的回答
const BODY = "请求体"; // 第 7 轮 POST 的请求体，web.ts 原样附在回答后面

// 第 n 轮 bash 的结果（第 n+1 次请求带着它）
const result = (run: RunResult, round: number) => toolResults(run, round + 1)[0];
const quote = (value: string | undefined) => (value === undefined ? describe(value) : `“${describe(value)}”`);
const reached = (run: RunResult, round: number) => result(run, round)?.includes(GREETING) === true;

// harness 自己说的话：不算模型的调用行（[round n] bash(…) 里写着所有主机名）和模型的回答
const harnessLines = (run: RunResult) => run.transcript.split("\n").filter((line) => !line.startsWith("[round") && !line.startsWith("试完了"));
// 这一行点了这个主机的名：前后不能再连着名字里的字，evil-db.localhost 那一行不算点了 db.localhost 的名
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const names = (line: string, host: string) => new RegExp(`(?<![A-Za-z0-9.-])${escape(host)}(?![A-Za-z0-9-]|\\.[A-Za-z0-9])`).test(line);
const named = (run: RunResult, host: string) => harnessLines(run).some((line) => names(line, host));

// 第 6 轮每行“主机 状态码”：curl -w '%{http_connect}' 印的是代理对 CONNECT 回的状态码，000 是没拿到回答
function codes(run: RunResult, round: number): Map<string, string> {
  const table = new Map<string, string>();
  for (const m of (result(run, round) ?? "").matchAll(/^(\S+) (\d{3})$/gm)) table.set(m[1]!, m[2]!);
  return table;
}
function say(code: string | undefined): string {
  if (code === undefined) return "没试到（这一轮的结果里没有它）";
  if (code === "000") return "000：curl 没从代理那里拿到回答";
  if (code === "403") return "403：被拒绝";
  return `${code}：被放行了`;
}

type Case = { host: string; refuse: boolean; why: string };
// 每个主机一句结论；都对返回 undefined
function judge(run: RunResult, round: number, cases: Case[], expectation: string): string | undefined {
  const table = codes(run, round);
  const wrong = cases.flatMap(({ host, refuse, why }) => {
    const code = table.get(host);
    if (!refuse) return code === "403" ? [`  ✗ ${host}（${why}）：${say(code)}`] : [];
    if (code !== "403") return [`  ✗ ${host}（${why}）：期望 403，实际 ${say(code)}`];
    if (!named(run, host)) return [`  ✗ ${host}（${why}）：回了 403，但 harness 在 stderr 上没有点名 ${host}`];
    return [];
  });
  if (wrong.length === 0) return undefined;
  return [`期望：${expectation}。不对的：`, ...wrong].join("\n");
}

// 第 7 轮：GET 和 CONNECT 各一行“方法 状态码”，第三行是 POST 的回答
const line = (run: RunResult, round: number, prefix: string) => (result(run, round) ?? "").split("\n").find((l) => l.startsWith(prefix));

// 第 8 轮沙箱里 ls -d /tmp/harness-proxy-* 印出的目录（原样挂进沙箱，沙箱里外是同一个路径）
const socketDirs = (run: RunResult) => [...(result(run, 8) ?? "").matchAll(/^(\/\S*\/harness-proxy-[^\s*'/]+)$/gm)].map((m) => m[1]!);

export const requirements: Requirement[] = [
  {
    name: "名单上的主机经代理连得上：明文 HTTP（请求头后面的请求体一起转过去）",
    scenario: "allowlist",
    check(run) {
      if (!reached(run, 1)) {
        const got = result(run, 1);
        // curl 连不上（7）：多半是它根本没找到代理，直接去连网站了——沙箱里没有网络
        const direct = got !== undefined && /Failed to connect|Couldn't connect/.test(got)
          ? "。curl 连不上，像是没找到代理、直接去连了网站（沙箱里没有网络）：curl 对 http:// 地址只认小写的 http_proxy，大写的 HTTP_PROXY 它故意不认（防的是 CGI 程序里客户端用 Proxy: 请求头冒充它，httpoxy）；https:// 地址认 https_proxy 和 HTTPS_PROXY。不少程序却先看大写的，所以转发者两种大小写都设；也可能是转发者没在它写进变量的那个端口上听"
          : "";
        return `期望：~/.harness/settings.json 的 sandbox.network.allow 里有 127.0.0.1，沙箱里的 curl 照 http_proxy 找到转发者、经它到 harness 的代理，代理转给 127.0.0.1 上的网站，回答是“${GREETING} /plain”；实际：${quote(got)}${direct}`;
      }
      // web.ts 原样回出它收到的请求目标：代理没把 http://host:port/plain 换回 /plain，这里就是整个 URL
      if (!result(run, 1)!.includes(`${GREETING} /plain`)) {
        return `期望：明文请求转给网站之前，代理把请求行 GET http://127.0.0.1:端口/plain HTTP/1.1 换回 GET /plain HTTP/1.1（对网站来说它不是代理，请求行里只该有路径），回答是“${GREETING} /plain”；实际：${quote(result(run, 1))}`;
      }
      const post = line(run, 7, GREETING);
      if (post?.includes(BODY)) return undefined;
      return `期望：curl -d ${BODY} 的 POST 经代理到网站，网站原样附上请求体，回答是“${GREETING} /post ${BODY}”——请求头后面已经攒下的字节（请求体的开头，常常和请求头在同一块数据里）要接着写给对方，不能丢；实际：${quote(post ?? result(run, 7))}`;
    },
  },
  {
    name: "名单上的主机经代理连得上：CONNECT 隧道",
    scenario: "allowlist",
    check(run) {
      if (reached(run, 2)) return undefined;
      return `期望：curl --proxytunnel 先发 CONNECT 127.0.0.1:端口，代理回 200 以后两头原样转发，回答是“${GREETING} /tunnel”（HTTPS 就是这样走的）；实际：${quote(result(run, 2))}`;
    },
  },
  {
    name: "不在名单上的主机被拒绝（明文和 CONNECT 都是），harness 说出是哪个主机",
    scenario: "allowlist",
    check(run) {
      if (reached(run, 3) || reached(run, 4)) {
        return `期望：localhost 不在用户的名单上（名单是 127.0.0.1、db.localhost、*.svc.localhost；按名字比，不按解析出的地址；仓库里的 .harness/settings.json 列了 localhost 也不算——名单只听 ~/.harness/settings.json），明文请求和 CONNECT 都被拒绝；实际：${reached(run, 3) ? "明文请求" : "CONNECT 隧道"}连上了网站：${quote(result(run, reached(run, 3) ? 3 : 4))}`;
      }
      if (!named(run, "localhost")) {
        return `期望：拒绝时 harness 在 stderr 上说一行，点名被拒绝的主机 localhost（比如 [沙箱] 拒绝连接 localhost：它不在 sandbox.network.allow 里），用户才知道该往名单里加什么；实际：harness 没有点名 localhost，命令拿到的是 ${quote(result(run, 3))}`;
      }
      // 明文请求的 403 正文 curl 照印出来：命令（和读结果的模型）也知道是哪个主机不行
      if (!names(result(run, 3) ?? "", "localhost")) {
        return `期望：代理回的 403 正文写明被拒绝的主机 localhost（比如 沙箱不许连接 localhost：…），模型读到结果就能转告用户；实际：明文请求拿到 ${quote(result(run, 3))}`;
      }
      return undefined;
    },
  },
  {
    name: "绕开代理直连还是不通：网络照样关着",
    scenario: "allowlist",
    check(run) {
      if (!reached(run, 5)) return undefined;
      return `期望：沙箱仍然没有自己的网络（--unshare-net），curl --noproxy '*' 直连 127.0.0.1 连不上——名单只对经过代理的连接算数；实际：直连也连上了：${quote(result(run, 5))}`;
    },
  },
  {
    name: "命令的退出码原样交回：转发者带着它退出",
    scenario: "allowlist",
    check(run) {
      const got = result(run, 5);
      if (got === undefined || /退出码: 7\b/.test(got)) return undefined; // 没走到第 5 轮的，别的要求会说
      return `期望：直连失败的 curl 以退出码 7 结束，沙箱里的转发者等命令退出、带着同一个退出码退出（process.exit(code)），bash 工具交回“退出码: 7”；实际：${quote(got)}`;
    },
  },
  {
    name: "精确的规则只认这个名字本身：多一截、少一截、多一层子域名的都拒绝",
    scenario: "allowlist",
    check(run) {
      return judge(run, 6, [
        { host: "127.0.0.10", refuse: true, why: "只是以 127.0.0.1 开头" },
        { host: "db.localhost.evil", refuse: true, why: "只是以 db.localhost 开头" },
        { host: "evil-db.localhost", refuse: true, why: "只是以 db.localhost 结尾" },
        { host: "api.db.localhost", refuse: true, why: "db.localhost 的子域名，名单里没有 *.db.localhost" },
      ], "名单里的 127.0.0.1、db.localhost 是精确的规则，只放行和它一字不差的主机（不分大小写）；别用包含、开头、结尾来比。拒绝 = 代理回 403，harness 在 stderr 上点名那个主机");
    },
  },
  {
    name: "*. 开头的规则放行子域名，不放行它自己，也不放行只是结尾相同的名字",
    scenario: "allowlist",
    check(run) {
      return judge(run, 6, [
        { host: "api.svc.localhost", refuse: false, why: "*.svc.localhost 的子域名，该放行：连不上是 502，连上了是 200，不能是 403" },
        { host: "svc.localhost", refuse: true, why: "*.svc.localhost 不含 svc.localhost 本身" },
        { host: "evilsvc.localhost", refuse: true, why: "以 svc.localhost 结尾，但不是以 .svc.localhost 结尾" },
      ], "*.svc.localhost 放行以 .svc.localhost 结尾的名字（后缀带着那个点），不放行 svc.localhost 本身");
    },
  },
  {
    name: "名单上的主机连不上时，代理回 502",
    scenario: "allowlist",
    check(run) {
      const code = codes(run, 6).get("127.0.0.1");
      if (code === "502") return undefined;
      return `期望：CONNECT 127.0.0.1:1（在名单上，可那个端口没人听）连不上，代理回 502 并说清连不上谁；upstream 的 error 事件没人接，harness 会整个倒下；实际：${say(code)}`;
    },
  },
  {
    name: "比名单用的是真要去连的主机，不是 Host 请求头",
    scenario: "allowlist",
    check(run) {
      const verdicts = [
        ["GET", "明文请求 GET http://localhost:端口/ 配 Host: 127.0.0.1:端口"],
        ["CONNECT", "CONNECT localhost:端口 配 Host: 127.0.0.1:端口"],
      ].flatMap(([method, what]) => {
        const code = line(run, 7, `${method} `)?.slice(method!.length + 1);
        return code === "403" ? [] : [`  ✗ ${what}：期望 403，实际 ${say(code)}`];
      });
      if (verdicts.length === 0) return undefined;
      return [`期望：Host 头是客户端随便写的；代理比名单、去连的，都是请求行里的主机（CONNECT 的 host、URL 里的主机名），localhost 不在名单上就拒绝。不对的：`, ...verdicts].join("\n");
    },
  },
  {
    name: "命令发来的怪请求：主机名里的控制字符显形再打印，没完没了的请求头被回绝",
    scenario: "allowlist",
    check(run) {
      const raw = harnessLines(run).filter((l) => l.includes("[2J.evil"));
      if (raw.some((l) => l.includes("\x1b"))) {
        return `期望：CONNECT 的主机名是命令随便写的，夹着 ESC（\\e[2J 在终端上是清屏）；harness 在 stderr 上点名它之前经过 safeLine()，ESC 显形成 ␛；实际：harness 原样打印了 ESC：${quote(raw.find((l) => l.includes("\x1b")))}`;
      }
      if (raw.length === 0) return `期望：CONNECT ␛[2J.evil:80 不在名单上，harness 在 stderr 上点名它（控制字符显形，比如 ␛[2J.evil）；实际：harness 没有提到它，命令拿到 ${quote(result(run, 8))}`;
      const long = (result(run, 8) ?? "").match(/头太长：(\d+)/)?.[1];
      if (long !== undefined && Number(long) <= 128) return undefined; // 0：读到了回答；1：连接关了。大于 128 是 read -t 5 等到了时限
      return `期望：一个连接送来 70000 个字节还没有请求头的结尾（\\r\\n\\r\\n），代理攒过几十 KB 就回一个错误（比如 431）、断开，不替它一直攒下去；实际：${long === undefined ? `没走到这一步：${quote(result(run, 8))}` : "5 秒里代理既没有回答，也没有断开"}`;
    },
  },
  {
    name: "harness 答完自己退出，代理的套接字目录跟着删掉",
    scenario: "allowlist",
    check(run) {
      const dirs = socketDirs(run);
      const left = dirs.filter((dir) => fs.existsSync(dir));
      for (const dir of left) fs.rmSync(dir, { recursive: true, force: true }); // 替它收拾掉，别在临时目录里越攒越多
      if (run.timedOut) {
        return `期望：模型答完，harness 自己退出——代理是 harness 里的一个 server，要 unref()，没有连接时它不拖住事件循环（整个 harness 就这么一直挂着，直到场景的时限）；实际：harness 没有自己结束，被场景的时限终止了`;
      }
      if (dirs.length === 0) {
        return `期望：代理的 Unix 套接字在 os.tmpdir() 下一个 harness-proxy- 开头的新目录里（mkdtemp），这个目录按原路径挂进沙箱，沙箱里 ls -d /tmp/harness-proxy-* 看得见它；实际：${quote(result(run, 8))}`;
      }
      if (left.length === 0) return undefined;
      return `期望：harness 退出时删掉套接字所在的目录（process.on("exit") 里 rmSync），每跑一次不在临时目录里留下一个；实际：harness 结束以后 ${left.join("、")} 还在（检查器已经替你删了）`;
    },
  },
];
