// 练习 22-3 的检查器：工具搜索。场景都用实验二的配置（time 2 个 + fs 14 个 = 16 个 MCP 工具），
// 门槛由 HARNESS_TOOL_SEARCH_AT 给：16 正好等于工具数，没“超过”，关着；15 就开了——fs 自己 14 个、time 2 个，
// 只有看总数才超过（一个个服务器看的实现在这里露馅）。查的是模型收到的请求——tools 数组里有什么、
// system prompt 里有什么、桥工具交回了什么——再加一笔账：首轮输入少了多少。
import { describe, promptTokens, systemPrompt, toolNames, toolResults, type Requirement } from "../checker.ts";
import { hasTerminalTool, type RunResult } from "../../shared/scenario.ts";
import { estimateTokens } from "../../shared/scripted-model.ts";

// 实验二的 16 个 MCP 工具（fs 服务器的版本在 package.json 里钉死了）
const MCP_TOOLS = [
  "mcp__fs__read_file",
  "mcp__fs__read_text_file",
  "mcp__fs__read_media_file",
  "mcp__fs__read_multiple_files",
  "mcp__fs__write_file",
  "mcp__fs__edit_file",
  "mcp__fs__create_directory",
  "mcp__fs__list_directory",
  "mcp__fs__list_directory_with_sizes",
  "mcp__fs__directory_tree",
  "mcp__fs__move_file",
  "mcp__fs__search_files",
  "mcp__fs__get_file_info",
  "mcp__fs__list_allowed_directories",
  "mcp__time__current_time",
  "mcp__time__days_between",
];
const BRIDGES = ["mcp_describe", "mcp_call"];
const UNKNOWN = "mcp__fs__no_such_tool";
// 差一点就对的名字：少了服务名前缀、只写了一截。按子串、按结尾找工具的实现会把它们认成真的工具
const NEAR_MISSES = ["current_time", "mcp__time__current"];
// unknown-name 只接时间服务器（门槛 0）
const TIME_TOOLS = ["mcp__time__current_time", "mcp__time__days_between"];
const DESCRIBED = "mcp__fs__read_text_file";

// 首轮输入：模型第一次就直接作答时没有 [round 1 输入 …] 那一行，数字在总结行 [共 1 轮 · 最后一轮输入 X tokens…] 里
function firstRoundTokens(run: RunResult): number | undefined {
  const summary = run.transcript.match(/\[共 1 轮 · 最后一轮输入 (\d+) tokens/);
  return promptTokens(run, 1) ?? (summary ? Number(summary[1]) : undefined);
}

// 首轮请求的两大块各占多少：没达标时，读者知道该往哪儿省
function bill(run: RunResult): string {
  const tools = run.bodies[0]?.tools ?? [];
  return `tools 数组 ${tools.length} 个工具约 ${estimateTokens(JSON.stringify(tools))} tokens，system prompt 约 ${estimateTokens(systemPrompt(run, 1))} tokens`;
}

// 关着时量到的首轮输入，留给后面那条“省下一半”用（要求按顺序一条条跑，它一定先跑）
let withoutSearch: number | undefined;
let withoutBill = "";
let measured = "";

const failedRun = (run: RunResult) => (run.requests === 0 || run.exitCode !== 0 ? `（这次运行没有正常结束，退出码 ${run.exitCode}；VERBOSE=1 看完整输出）` : "");

export const requirements: Requirement[] = [
  {
    name: "工具数没超过门槛（HARNESS_TOOL_SEARCH_AT=16，正好等于工具数）时和第 22 章一样：16 个 MCP 工具的声明都在 tools 数组里，没有桥工具，system prompt 里没有清单",
    scenario: "search-off",
    check(run) {
      withoutSearch = firstRoundTokens(run);
      withoutBill = bill(run);
      const tools = toolNames(run, 1);
      const missing = MCP_TOOLS.filter((n) => !tools.includes(n));
      const bridges = BRIDGES.filter((n) => tools.includes(n));
      if (missing.length > 0 || bridges.length > 0) {
        const got = [missing.length > 0 ? `缺 ${missing.length} 个 mcp__ 工具（${describe(missing.join("、"))}）` : "", bridges.length > 0 ? `有 ${bridges.join("、")}` : ""];
        return `期望：门槛 16、工具正好 16 个——“超过”门槛才开工具搜索（是 >，不是 >=），照第 22 章的样子，16 个 mcp__ 工具都在首轮请求的 tools 数组里，也没有 ${BRIDGES.join("、")}；实际：tools 数组里${got.filter(Boolean).join("，")}${failedRun(run)}`;
      }
      const listed = MCP_TOOLS.filter((n) => systemPrompt(run, 1).includes(n));
      if (listed.length > 0) {
        return `期望：工具搜索关着时 system prompt 和第 22 章一样，不接 MCP 工具清单（声明都在 tools 数组里，清单只是白花钱）；实际：system prompt 里写着 ${listed.length} 个 MCP 工具名（${describe(listed.join("、"))}）`;
      }
      if (withoutSearch === undefined) return `期望：转录里有首轮的用量行（[共 1 轮 · 最后一轮输入 X tokens…]）；实际：没找到${failedRun(run)}`;
    },
  },
  {
    name: "工具多了（HARNESS_TOOL_SEARCH_AT=15 < 16，按所有服务器的总数算）：MCP 工具撤出 tools 数组，换成 mcp_describe 和 mcp_call",
    scenario: "search-on",
    check(run) {
      const tools = toolNames(run, 1);
      const left = tools.filter((n) => n?.startsWith("mcp__"));
      const bridges = BRIDGES.filter((n) => !tools.includes(n));
      if (left.length > 0 || bridges.length > 0) {
        const got = [left.length > 0 ? `还有 ${left.length} 个 mcp__ 工具（${describe(left.join("、"))}）` : "", bridges.length > 0 ? `没有 ${bridges.join("、")}` : ""];
        return `期望：门槛 15，fs 的 14 个加 time 的 2 个一共 16 个，超过了（门槛看所有服务器的总数，不是一个个看），首轮请求的 tools 数组里一个 mcp__ 工具都没有，但有 ${BRIDGES.join(" 和 ")}；实际：tools 数组里${got.filter(Boolean).join("，")}${failedRun(run)}`;
      }
    },
  },
  {
    name: "名字一个都不藏：每个 MCP 工具的名字（加一句话描述）都写在 system prompt 里",
    scenario: "search-on",
    check(run) {
      const prompt = systemPrompt(run, 1);
      const missing = MCP_TOOLS.filter((n) => !prompt.includes(n));
      if (missing.length > 0) {
        return `期望：工具搜索开着时，首轮请求的 system prompt 里写着全部 16 个 MCP 工具的名字——模型看不见名字的工具，在它眼里就不存在；实际：缺 ${missing.length} 个（${describe(missing.join("、"))}）${failedRun(run)}`;
      }
    },
  },
  {
    // 名字在检查跑完之后带上实测的数：npm run check 通过时也看得见这笔账
    get name() {
      return `首轮输入至少省下一半${measured ? `（实测：${measured}）` : ""}`;
    },
    scenario: "search-on",
    check(run) {
      const withSearch = firstRoundTokens(run);
      if (withoutSearch === undefined || withSearch === undefined) {
        return `期望：两次运行（门槛 1000 和门槛 10）的转录里都有首轮用量行；实际：关着 ${withoutSearch ?? "没量到"}，开着 ${withSearch ?? "没量到"}${failedRun(run)}`;
      }
      const ratio = withSearch / withoutSearch;
      measured = `关着 ${withoutSearch} tokens → 开着 ${withSearch} tokens，是原来的 ${Math.round(ratio * 100)}%，省下 ${Math.round((1 - ratio) * 100)}%`;
      if (ratio > 0.5) {
        return `期望：开了工具搜索，实验二的首轮输入至少比关着时少一半（清单只放名字和一句话，声明留给 mcp_describe）；实际：${measured}\n关着：${withoutBill}\n开着：${bill(run)}`;
      }
    },
  },
  {
    name: "mcp_describe 按名字交回完整声明，mcp_call 按名字转发调用，任务照样做完",
    scenario: "describe-and-call",
    check(run) {
      const schema = toolResults(run, 2).join("\n");
      if (!schema.includes("properties") || !schema.includes('"path"') || !schema.includes(DESCRIBED)) {
        return `期望：mcp_describe({"name": "${DESCRIBED}"}) 交回这个工具的完整声明（JSON，有名字，参数 schema 的 properties 里有 "path"）；实际：${describe(schema)}${failedRun(run)}`;
      }
      // 只交回点名的那一份：把 16 份都交回来，这一轮又把省下的两千多 tokens 发了回去，之后每轮还随历史重发
      const others = MCP_TOOLS.filter((n) => n !== DESCRIBED && schema.includes(`"${n}"`));
      if (others.length > 0) {
        return `期望：mcp_describe 只交回点名的那一个工具（${DESCRIBED}）的声明；实际：结果里还有 ${others.length} 个别的工具的声明（${describe(others.join("、"))}），共约 ${estimateTokens(schema)} tokens——全交回来，省下的钱又花回去了`;
      }
      const dirs = toolResults(run, 3).join("\n");
      if (!dirs.includes("/work/docs")) {
        return `期望：mcp_call({"name": "mcp__fs__list_allowed_directories", "arguments": {}}) 交回 fs 服务器允许的目录（$WORK/docs）；实际：${describe(dirs)}${failedRun(run)}`;
      }
      const text = toolResults(run, 4).join("\n");
      if (!text.includes("每周四 20:00")) {
        return `期望：mcp_call 调 mcp__fs__read_text_file 读 docs/handbook.md，结果里有手册的内容“每周四 20:00”；实际：${describe(text)}${failedRun(run)}`;
      }
    },
  },
  {
    name: "名字写错时两个桥都回“错误:”，点出那个名字，并告诉模型去哪找对的名字",
    scenario: "unknown-name",
    check(run) {
      const results = toolResults(run, 2);
      for (const [i, bridge] of BRIDGES.entries()) {
        const result = results[i];
        const points = /system prompt|系统提示|清单/.test(result ?? "") || TIME_TOOLS.some((n) => result?.includes(n));
        if (!result?.startsWith("错误") || !result.includes(UNKNOWN) || !points) {
          return `期望：${bridge} 收到不存在的名字 ${UNKNOWN} 时交回一条“错误: …”，里面点出这个名字，并告诉模型对的名字在哪（system prompt 里的清单，或者直接列出来）；实际：${describe(result)}${failedRun(run)}`;
        }
      }
    },
  },
  {
    name: "名字要一字不差：少了服务名前缀的 current_time、只写了一截的 mcp__time__current 也是错的名字",
    scenario: "unknown-name",
    check(run) {
      const results = toolResults(run, 2).slice(2);
      for (const [i, [bridge, name]] of [["mcp_describe", NEAR_MISSES[0]], ["mcp_call", NEAR_MISSES[1]]].entries()) {
        if (!toolNames(run, 1).includes(bridge)) return `期望：工具搜索开着（门槛 0 < 2），tools 数组里有 ${bridge}；实际：没有${failedRun(run)}`;
        const result = results[i];
        if (!result?.startsWith("错误") || !result.includes(name)) {
          return `期望：${bridge}({"name": "${name}"}) 交回“错误: …”并点出 ${name}——名字按全名一字不差地比（===），不按子串、不按结尾；模型写歪的名字被悄悄认成别的工具，它就不知道自己写错了；实际：${describe(result)}${failedRun(run)}`;
        }
      }
    },
  },
  {
    name: "接着的会话（--resume）沿用存下的 system prompt：清单不再接一遍",
    scenario: "unknown-name",
    check(run) {
      const first = systemPrompt(run, 1);
      const resumed = systemPrompt(run, 3);
      if (run.requests < 3) return `期望：--resume 接着问的那一句也发出请求；实际：一共只有 ${run.requests} 个请求${failedRun(run)}`;
      if (resumed !== first) {
        const times = resumed.split(TIME_TOOLS[0]).length - 1;
        return `期望：恢复的会话原样沿用存下的 system prompt（第 13 章的规矩：前缀一个字不变，缓存才接得上），清单只在新会话里接一次；实际：--resume 后的 system prompt 和第一次的不一样${times > 1 ? `，清单接了 ${times} 遍` : ""}（${first.length} → ${resumed.length} 个字符）`;
      }
    },
  },
  {
    name: "不是非负整数的 HARNESS_TOOL_SEARCH_AT：一行配置错误，退出码 2，一个请求都不发",
    scenario: "bad-threshold",
    check(run) {
      if (run.exitCode !== 2 || run.requests > 0) {
        return `期望：HARNESS_TOOL_SEARCH_AT=十个 不是非负整数，像 HARNESS_MAX_ROUNDS 写错时那样报一行配置错误、以退出码 2 结束，不带着猜出来的门槛往下跑；实际：退出码 ${run.exitCode}，发了 ${run.requests} 个请求`;
      }
    },
  },
  {
    name: "经 mcp_call 的调用也能被 Ctrl-C 打断：这一问马上停下，不等服务器的回答",
    scenario: "call-ctrl-c",
    check(run) {
      if (!hasTerminalTool()) return "期望：这个场景在伪终端里跑，要用 util-linux 的 script 命令；实际：这台机器上没有（macOS 自带的 script 参数不同）。这一条请在 Linux 上检查";
      if (!toolNames(run, 1).includes("mcp_call")) return `期望：工具搜索开着（门槛 0 < 7），tools 数组里有 mcp_call；实际：没有${failedRun(run)}`;
      const result = toolResults(run, 2)[0];
      if (result === undefined || result.includes("终于算完了") || !result.startsWith("错误")) {
        return `期望：mcp_call 转调 mcp__fault__slow（3 秒后才回答）时按了 Ctrl-C，这次调用马上以“错误: …”结束（mcp_call 把 execute 收到的 signal 原样交给那个工具的 execute）；实际：下一问里这次调用的结果是 ${describe(result)}${result?.includes("终于算完了") ? "——harness 等服务器慢慢算完才停下，Ctrl-C 没有传到 MCP 调用上" : ""}${failedRun(run)}`;
      }
    },
  },
];
