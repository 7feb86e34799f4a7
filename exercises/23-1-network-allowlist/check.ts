// 练习 23-1 的检查器：沙箱的网络名单。只用回环：场景起一个 127.0.0.1 上的网站（web.ts），名单里只有 127.0.0.1；
// localhost 是同一台机器，但不在名单上——放不放行看的是名字，不是它解析成的地址。
// 命令用 curl：它认 HTTP_PROXY/HTTPS_PROXY，--proxytunnel 让明文 HTTP 也走 CONNECT 隧道。措辞不逐字比对
import { describe, toolResults, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

const GREETING = "来自允许的主机"; // web.ts 对每个请求的回答

// 第 n 轮 bash 的结果（第 n+1 次请求带着它）
const result = (run: RunResult, round: number) => toolResults(run, round + 1)[0];
const quote = (value: string | undefined) => (value === undefined ? describe(value) : `“${describe(value)}”`);
const reached = (run: RunResult, round: number) => result(run, round)?.includes(GREETING) === true;
// harness 自己说的话（不算模型的调用行和回答）里提到 localhost 的
const harnessSays = (run: RunResult, word: string) => run.transcript.split("\n").filter((line) => !line.startsWith("[round") && !line.startsWith("试完了") && line.includes(word));

export const requirements: Requirement[] = [
  {
    name: "名单上的主机经代理连得上：明文 HTTP",
    scenario: "allowlist",
    check(run) {
      if (reached(run, 1)) return undefined;
      return `期望：~/.harness/settings.json 的 sandbox.network.allow 里有 127.0.0.1，沙箱里的 curl 照 HTTP_PROXY 找到 harness 的代理，代理转给 127.0.0.1 上的网站，回答是“${GREETING} /plain”；实际：${quote(result(run, 1))}`;
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
        return `期望：localhost 不在名单上（名单只有 127.0.0.1；按名字比，不按解析出的地址），明文请求和 CONNECT 都被拒绝；实际：${reached(run, 3) ? "明文请求" : "CONNECT 隧道"}连上了网站：${quote(result(run, reached(run, 3) ? 3 : 4))}`;
      }
      if (harnessSays(run, "localhost").length === 0) {
        return `期望：拒绝时 harness 在 stderr 上说一行，点名被拒绝的主机 localhost（比如 [沙箱] 拒绝连接 localhost：它不在 sandbox.network.allow 里），用户才知道该往名单里加什么；实际：harness 没有提到 localhost，命令拿到的是 ${quote(result(run, 3))}`;
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
];
