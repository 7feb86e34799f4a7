// 练习 23-1 的变异体：在参考答案上改一处，正是 HINTS.md 提醒过的错（或者 README 明说不许的事）。检查器必须认出每一个，
// 而且是管这件事的那条要求不通过（做法和 test/mutants.test.ts 一样）。只有一个场景（allowlist），每个变异体跑它一遍。
//
// 没有变异体的几句，和为什么：
// - “别先解析成地址再比”（提示 3）：解析再比要把 allowedHost() 改成异步，不是一处的改动；要是真这么写，localhost 解析成 127.0.0.1
//   被放行，“不在名单上的主机被拒绝”那条照样不通过（它就是为这个设的：名单只有 127.0.0.1，localhost 是同一台机器）。
// - 精确规则用 startsWith：和 includes 栽在同一组主机上（127.0.0.10、db.localhost.evil），不另设。
// - 不分大小写、去掉结尾的点：漏了只会多拒绝（DB.LOCALHOST 被挡在外面），不会多放行；要看得出来得放行一个名字、多做一次 DNS 查询，不值。
// - “两头任何一边出错都要把另一边也关掉”（提示 4）：漏了只是半开的连接多活一会儿（网站的 keep-alive 到点就关），场景看不出来。
// - 名单为空时不起代理：没有名单时没人连得出去，多起一个闲着的代理，命令和转录都看不出差别。
// - 套接字目录挂成可写（--bind 而不是 --ro-bind）：沙箱里的命令能删掉套接字，只坑它自己，检查器不设。
// - MCP 服务器也经过代理：和 bash 走的是同一个 confine()，名单对它们一样，场景不另起 MCP 服务器。
import { requirements } from "../exercises/23-1-network-allowlist/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

// 从 Host 请求头里取主机名（去掉端口）：匆忙的读者“看 Host 头判断”就是这么写的
const HOST_HEADER = '(headers.find((h) => /^host:/i.test(h)) ?? "").replace(/^host:\\s*/i, "").replace(/:\\d+$/, "")';

// 第一个让 harness 退不出去，要等满场景的时限（60 秒）才判得出来，排在最前面先起跑（卡住以后只是干等，不占 CPU）
const MUTANTS: Mutant[] = [
  {
    name: "代理的 server 不 unref()（提示 5、README 的“答完就退出”）：harness 答完了还挂着",
    file: "proxy.ts",
    from: "server.unref();",
    to: "",
    fails: "harness 答完自己退出",
    because: /unref\(\)/,
  },
  {
    name: "图省事打开网络（提示 1）",
    file: "sandbox.ts",
    from: /bwrapArgs\(\{ \.\.\.walls, binds: \[proxy\.dir\] \}\)/,
    to: 'bwrapArgs({ ...walls, binds: [proxy.dir] }).flatMap((a) => (a === "--unshare-all" ? [a, "--share-net"] : [a]))',
    fails: "绕开代理直连还是不通",
    because: /直连也连上了/,
  },
  {
    name: "转发者起命令时没带代理的变量（提示 2）",
    file: "proxy.ts",
    from: "HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url",
    to: "",
    fails: "名单上的主机经代理连得上：明文 HTTP",
    because: /只认小写的 http_proxy/,
  },
  {
    name: "只设大写的 HTTP_PROXY/HTTPS_PROXY（README：大小写两种都设）：curl 对 http:// 不认大写的",
    file: "proxy.ts",
    from: "HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url",
    to: "HTTP_PROXY: url, HTTPS_PROXY: url",
    fails: "名单上的主机经代理连得上：明文 HTTP",
    because: /只认小写的 http_proxy/,
  },
  {
    name: "转发者起命令不接 stdio（提示 2）：命令的输出丢了",
    file: "proxy.ts",
    from: '{ stdio: "inherit", env }',
    to: "{ env }",
    fails: "名单上的主机经代理连得上：明文 HTTP",
    because: /实际：“退出码: 0/,
  },
  {
    name: "转发者不带着命令的退出码退出（提示 2）",
    file: "proxy.ts",
    from: "process.exit(code ?? 128)",
    to: "process.exit(0)",
    fails: "命令的退出码原样交回",
    because: /退出码 7/,
  },
  {
    name: "CONNECT 不查名单（提示 3）",
    file: "proxy.ts",
    from: "if (!allowedHost(target.host, allow)) {",
    to: "if (!target.tunnel && !allowedHost(target.host, allow)) {",
    fails: "不在名单上的主机被拒绝",
    because: /CONNECT 隧道连上了/,
  },
  {
    name: "名单也读仓库里的 .harness/settings.json（README：仓库说了不算）",
    file: "sandbox.ts",
    from: "const allow = sandbox.network?.allow ?? [];",
    to: 'const allow = [...(sandbox.network?.allow ?? []), ...(readJson(path.join(cwd, ".harness", "settings.json"))?.sandbox?.network?.allow ?? [])];',
    fails: "不在名单上的主机被拒绝",
    because: /明文请求连上了网站/,
  },
  {
    name: "拒绝时不说是哪个主机（提示 4）",
    file: "proxy.ts",
    from: "log(`[沙箱] 拒绝连接 ${safeLine(target.host)}：",
    to: "log(`[沙箱] 拒绝了一个连接：",
    fails: "不在名单上的主机被拒绝",
    because: /点名被拒绝的主机 localhost/,
  },
  {
    name: "403 的正文不写主机名（README：正文写明主机名）",
    file: "proxy.ts",
    from: "reply(403, `沙箱不许连接 ${target.host}：",
    to: "reply(403, `沙箱不许连接：",
    fails: "不在名单上的主机被拒绝",
    because: /403 正文写明/,
  },
  {
    name: "精确规则按包含比（h.includes(rule)，issue 40 点名的）：127.0.0.10、evil-db.localhost 都进来了",
    file: "proxy.ts",
    from: ": h === r;",
    to: ": h.includes(r);",
    fails: "精确的规则只认这个名字本身",
    because: /127\.0\.0\.10（只是以 127\.0\.0\.1 开头）：期望 403/,
  },
  {
    name: "精确规则按结尾比：evil-db.localhost 进来了",
    file: "proxy.ts",
    from: ": h === r;",
    to: ": h.endsWith(r);",
    fails: "精确的规则只认这个名字本身",
    because: /evil-db\.localhost（只是以 db\.localhost 结尾）：期望 403/,
  },
  {
    name: "精确规则也放行子域名（把 db.localhost 当成 *.db.localhost 加上它自己）",
    file: "proxy.ts",
    from: ": h === r;",
    to: ': h === r || h.endsWith("." + r);',
    fails: "精确的规则只认这个名字本身",
    because: /api\.db\.localhost（db\.localhost 的子域名/,
  },
  {
    name: "*. 规则只比 example.com 结尾、不带点（提示 3）：evilsvc.localhost 进来了",
    file: "proxy.ts",
    from: "h.endsWith(r.slice(1))",
    to: "h.endsWith(r.slice(2))",
    fails: "*. 开头的规则放行子域名",
    because: /evilsvc\.localhost（以 svc\.localhost 结尾/,
  },
  {
    name: "*. 规则连它自己也放行（README：只放行子域名）",
    file: "proxy.ts",
    from: "h.endsWith(r.slice(1)) && h.length > r.length - 1",
    to: "(h.endsWith(r.slice(1)) || h === r.slice(2))",
    fails: "*. 开头的规则放行子域名",
    because: /✗ svc\.localhost（\*\.svc\.localhost 不含/,
  },
  {
    name: "不认 *. 规则（名字一律精确比）：子域名被挡在外面",
    file: "proxy.ts",
    from: 'r.startsWith("*.") ?',
    to: "false ?",
    fails: "*. 开头的规则放行子域名",
    because: /api\.svc\.localhost（\*\.svc\.localhost 的子域名，该放行/,
  },
  {
    name: "明文请求按 Host 请求头判（提示 3）",
    file: "proxy.ts",
    from: 'return { host: url.hostname.replace(/^\\[|\\]$/g, ""),',
    to: `return { host: ${HOST_HEADER},`,
    fails: "比名单用的是真要去连的主机",
    because: /明文请求 GET .*期望 403，实际 200/,
  },
  {
    name: "CONNECT 按 Host 请求头判（提示 3）",
    file: "proxy.ts",
    from: "return hp ? { host: hp[1],",
    to: `return hp ? { host: ${HOST_HEADER} || hp[1],`,
    fails: "比名单用的是真要去连的主机",
    because: /CONNECT localhost:端口 .*期望 403，实际 200/,
  },
  {
    name: "连不上时不回 502、直接断开（提示 4）",
    file: "proxy.ts",
    from: "upstream.on(\"error\", (e: NodeJS.ErrnoException) => client.end(reply(502, `连不上 ${target.host}:${target.port}（${e.code ?? \"出错\"}）`)));",
    to: 'upstream.on("error", () => client.destroy());',
    fails: "名单上的主机连不上时，代理回 502",
    because: /实际：000/,
  },
  {
    name: "明文请求原样转给网站，请求行没换回 /path（README：代理把请求行换回 /path 的写法）",
    file: "proxy.ts",
    from: "else upstream.write(target.rewritten);",
    to: "else upstream.write(head.subarray(0, end + 4));",
    fails: "名单上的主机经代理连得上：明文 HTTP",
    because: /换回 GET \/plain/,
  },
  {
    name: "请求头后面已经攒下的字节丢了（提示 4）：POST 的请求体没到网站",
    file: "proxy.ts",
    from: "if (rest.length > 0) upstream.write(rest);",
    to: "",
    fails: "名单上的主机经代理连得上：明文 HTTP",
    because: /请求体/,
  },
  {
    name: "点名主机时不经过 safeLine()（提示 4）：命令写的 ESC 原样上了终端",
    file: "proxy.ts",
    from: "拒绝连接 ${safeLine(target.host)}",
    to: "拒绝连接 ${target.host}",
    fails: "命令发来的怪请求",
    because: /原样打印了 ESC/,
  },
  {
    name: "请求头不设上限（提示 3）：一个不换行的连接让代理一直攒下去",
    file: "proxy.ts",
    from: "if (head.length > MAX_HEAD)",
    to: "if (false)",
    fails: "命令发来的怪请求",
    because: /既没有回答，也没有断开/,
  },
  {
    name: "退出时不删套接字目录（提示 5）：每跑一次在临时目录里留下一个 harness-proxy-*",
    file: "proxy.ts",
    from: 'process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));',
    to: "",
    fails: "harness 答完自己退出",
    because: /harness-proxy-\S+ 还在/,
  },
];

mutantSuite("23-1-network-allowlist", requirements, MUTANTS, 3);
