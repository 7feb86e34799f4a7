// 练习 23-1 的变异体：在参考答案上改一处，正是 HINTS.md 提醒过的错。检查器必须认出每一个，
// 而且是管这件事的那条要求不通过（做法和 test/mutants.test.ts 一样）。
// 没有“*.example.com 只比 example.com 结尾”的变异体：检查器只连回环，找不到一个能解析到本机、又只差一个点的名字
import { requirements } from "../exercises/23-1-network-allowlist/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

const MUTANTS: Mutant[] = [
  {
    name: "图省事打开网络（提示 1）",
    file: "sandbox.ts",
    from: "const args = bwrapArgs({ ...walls, binds: [proxy.dir] });",
    to: 'const args = bwrapArgs({ ...walls, binds: [proxy.dir] }).flatMap((a) => (a === "--unshare-all" ? [a, "--share-net"] : [a]));',
    fails: "绕开代理直连还是不通",
    because: /直连也连上了/,
  },
  {
    name: "转发者起命令时没带 HTTP_PROXY（提示 2）",
    file: "proxy.ts",
    from: "HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url",
    to: "",
    fails: "名单上的主机经代理连得上：明文 HTTP",
    because: /HTTP_PROXY/,
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
    name: "拒绝时不说是哪个主机（提示 4）",
    file: "proxy.ts",
    from: "log(`[沙箱] 拒绝连接 ${safeLine(target.host)}：",
    to: "log(`[沙箱] 拒绝了一个连接：",
    fails: "不在名单上的主机被拒绝",
    because: /点名被拒绝的主机 localhost/,
  },
];

mutantSuite("23-1-network-allowlist", requirements, MUTANTS, 2);
