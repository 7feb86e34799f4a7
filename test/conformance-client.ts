// 一致性套件的客户端场景（initialize、tools_call）用的命令：套件起一个 HTTP 的测试服务器，把它的地址接在命令行最后。
// 用法：conformance-client.ts <答案目录> <bridge|http> <url>
//   bridge：mcp.json 里写 stdio 服务器 shared/mcp-servers/http-bridge.ts，由它转成 HTTP（只会 stdio 的练习 22-4）
//   http：mcp.json 里直接写 {"type": "http", "url": …}（会 Streamable HTTP 的练习 22-5）
// harness 照场景那样跑一次（脚本模型、临时的工作目录和 HOME），转录写到 stdout，套件会收下它
import path from "node:path";
import { fullTree } from "../shared/overlay.ts";
import { ROOT, runScenario, type Scenario } from "../shared/scenario.ts";

const [impl, mode, url] = process.argv.slice(2);
if (!impl || (mode !== "bridge" && mode !== "http") || !url) {
  process.stderr.write("用法: conformance-client.ts <答案目录> <bridge|http> <url>\n");
  process.exit(2);
}
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const server = mode === "bridge" ? { command: "$NODE", args: ["--import", "$TSX", "$ROOT/shared/mcp-servers/http-bridge.ts", url] } : { type: "http", url };

// tools_call 的测试服务器只有一个 add_numbers：让模型调它；sse-retry 的只有 test_reconnection（它的流断在回答之前，要续上）；
// initialize 只看握手，一轮回答就够
const call = (name: string, args: string) => [{ tool_calls: [{ name: `mcp__conf__${name}`, arguments: args }] }, { content: "{{tool:1}}" }];
const turns =
  scenario === "tools_call" ? call("add_numbers", '{"a": 2, "b": 40}') : scenario === "sse-retry" ? call("test_reconnection", "{}") : [{ content: "连上了。" }];

const s: Scenario = {
  chapter: "22-mcp-client",
  name: `conformance-${scenario}`,
  dir: path.join(ROOT, "test", "conformance-client"), // 没有这个目录：没有要复制的 workspace、home
  spec: {
    args: ["用 conf 服务器算一下 2 加 40。"],
    timeoutMs: 30_000,
    mcp: { mcpServers: { conf: server } },
    // allow 规则是给同时做了练习 22-2 的副本准备的
    setup: `mkdir -p "$HOME/.harness" && printf '%s\\n' '{"permissions": {"allow": ["mcp__conf__*"]}}' > "$HOME/.harness/settings.json"`,
    turns,
    // 练习 22-6 探路的时限设得远超场景的时限：套件的测试服务器都答 server/discover，判它是哪个时代的只能靠认出回答，不看机器快慢
    env: { HARNESS_MCP_PROBE_MS: "3600000" },
  },
};
const result = await runScenario(s, fullTree(path.resolve(ROOT, impl))); // 答案只放改了的文件：叠在第 22 章上跑
process.stdout.write(result.transcript);
process.exit(result.exitCode === 0 && !result.timedOut ? 0 : 1);
