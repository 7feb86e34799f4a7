// 练习 18-1 的检查器：子 agent 的类型。
// 场景 untrusted（没有终端，文件夹没被信任）：用户的 ~/.harness/agents/ 里有 reviewer（文件名是 code-review.md；
//   tools: read_file, sub_agent, bash_readonly）、helper（没写 tools）和写坏的 broken.md；仓库的 .harness/agents/ 里有
//   冒名的 reviewer（要 bash、write_file）和 evil。模型依次派 reviewer、helper、不带类型、review（reviewer 的前缀）、evil。
// 场景 trusted（文件夹被信任过）：仓库的 tester（tools: bash, sub_agent）照常加载。
// chapter 18 的工具调用一个接一个地跑，子 agent 的请求从任务开头（任务甲、乙……）认出来。
// 措辞不逐字比对：看子 agent 的请求里有哪些工具、system 里是谁的正文，以及模型收到的工具结果是不是“错误”开头。
import { describe, systemPrompt, toolNames, toolResults, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

const PARENT_TOOLS = ["read_file", "bash", "write_file", "edit_file"]; // 第 18 章子 agent 拿到的快照（没有 skill，就没有 load_skill）
const REPO_MARK = "VOUCHED-BY-REPO"; // 仓库里两个定义的 description 里都有
const EVIL = "EVIL-PROMPT"; // 仓库里两个定义的正文里都有

// 某个任务的子 agent 的请求（第一条 user 消息以它开头），序号从 1 数
function request(run: RunResult, mark: string): number | undefined {
  const i = run.bodies.findIndex((b) => String(b?.messages?.[1]?.content ?? "").startsWith(mark));
  return i < 0 ? undefined : i + 1;
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();
const list = (names: string[]) => (names.length === 0 ? "（一个工具也没有）" : names.join("、"));

// 主 agent 收到的工具结果（第 n 个调用的），在最后那次请求里
function result(run: RunResult, n: number): string | undefined {
  return toolResults(run, run.bodies.length)[n - 1];
}

// 第一次请求里模型看得见的全部：工具声明加 system prompt
const offered = (run: RunResult) => JSON.stringify(run.bodies[0]?.tools ?? []) + systemPrompt(run, 1);

function noRequest(run: RunResult, mark: string, what: string): string | undefined {
  const n = request(run, mark);
  return n === undefined ? `期望：${what}的子 agent 收到一次请求；实际：没有这个请求（模型一共收到 ${run.requests} 次请求，退出码 ${run.exitCode}）` : undefined;
}

export const requirements: Requirement[] = [
  {
    name: "子 agent 的类型（名字和说明）列给模型",
    scenario: "untrusted",
    check(run) {
      const seen = offered(run);
      const missing = [
        ["reviewer", "只读代码、挑出问题的审稿人"],
        ["helper", "什么杂活都接的帮手"],
      ].filter(([name, text]) => !seen.includes(name!) || !seen.includes(text!));
      if (missing.length > 0) return `期望：第一次请求里（sub_agent 的说明或者 system prompt）列出每种子 agent 的名字和 description：${missing.map(([n, t]) => `${n}（${t}）`).join("、")}；实际：没有找到——模型不知道有哪些类型可挑`;
      return undefined;
    },
  },
  {
    name: "带类型的子 agent：正文是它的 system prompt，工具 = tools 白名单 ∩ 父 agent 的工具",
    scenario: "untrusted",
    check(run) {
      const missing = noRequest(run, "任务甲", " agent_type 为 reviewer ");
      if (missing) return missing;
      const n = request(run, "任务甲")!;
      const tools = toolNames(run, n);
      if (!sameSet(tools, ["read_file"])) {
        const why = tools.includes("sub_agent")
          ? "——白名单里写了 sub_agent 也不能给：子 agent 不再派子 agent"
          : sameSet(tools, PARENT_TOOLS)
            ? "——白名单被忽略了，给的是父 agent 的全部工具"
            : tools.includes("bash")
              ? "——bash_readonly 不是父 agent 的工具，不能因为名字里有 bash 就给 bash：按名字一字不差地比"
              : "";
        return `期望：reviewer 的 tools 写的是 read_file, sub_agent, bash_readonly，子 agent 只拿到其中父 agent 有的：read_file；实际：${list(tools)}${why}`;
      }
      const system = systemPrompt(run, n);
      if (!system.includes("REVIEWER-PROMPT")) return `期望：reviewer 子 agent 的 system prompt 是 code-review.md 的正文；实际：${describe(system)}`;
      const parent = systemPrompt(run, 1);
      if (parent && system.includes(parent)) return `期望：正文换掉父 agent 的 system prompt，不是接在它后面；实际：子 agent 的 system 里还有父 agent 的整段 system prompt`;
      return undefined;
    },
  },
  {
    name: "没写 tools 的类型沿用父 agent 的工具；不带 agent_type 的子 agent 照旧",
    scenario: "untrusted",
    check(run) {
      const missing = noRequest(run, "任务乙", " agent_type 为 helper ") ?? noRequest(run, "任务丙", "不带 agent_type ");
      if (missing) return missing;
      const helper = request(run, "任务乙")!;
      const plain = request(run, "任务丙")!;
      if (!sameSet(toolNames(run, helper), PARENT_TOOLS)) return `期望：helper 没写 tools，拿到父 agent 给子 agent 的全部工具：${list(PARENT_TOOLS)}；实际：${list(toolNames(run, helper))}`;
      if (!systemPrompt(run, helper).includes("HELPER-PROMPT")) return `期望：helper 子 agent 的 system prompt 是 helper.md 的正文；实际：${describe(systemPrompt(run, helper))}`;
      if (!sameSet(toolNames(run, plain), PARENT_TOOLS)) return `期望：不带 agent_type 的子 agent 和第 18 章一样，拿到 ${list(PARENT_TOOLS)}；实际：${list(toolNames(run, plain))}`;
      const parent = systemPrompt(run, 1);
      if (!systemPrompt(run, plain).includes(parent)) return `期望：不带 agent_type 的子 agent 和第 18 章一样，用父 agent 的 system prompt；实际：${describe(systemPrompt(run, plain))}`;
      return undefined;
    },
  },
  {
    name: "不认识的类型：“错误:”，列出有哪些类型；按名字一字不差地找",
    scenario: "untrusted",
    check(run) {
      const n = request(run, "任务丁");
      if (n !== undefined) return `期望：agent_type 为 review 的调用以“错误:”被拒绝，不派子 agent（没有这种类型，reviewer 只是以它开头）；实际：派了一个子 agent（第 ${n} 次请求），它的工具是 ${list(toolNames(run, n))}——agent_type 被忽略了，或者是按前缀、包含来找的`;
      const text = result(run, 4);
      if (!text?.trimStart().startsWith("错误")) return `期望：agent_type 为 review 的结果以“错误”开头；实际：${describe(text)}`;
      if (!text.includes("reviewer") || !text.includes("helper")) return `期望：这句错误列出有哪些类型（reviewer、helper），模型好改正；实际：${describe(text)}`;
      return undefined;
    },
  },
  {
    name: "写坏的定义文件：警告一行说是哪个文件，其余的照常加载",
    scenario: "untrusted",
    check(run) {
      if (!run.transcript.split("\n").some((line) => line.includes("broken.md"))) return `期望：~/.harness/agents/broken.md 没有 frontmatter，警告一行、说出文件名；实际：转录里没有提到 broken.md`;
      const seen = offered(run);
      const lost = ["reviewer", "helper"].filter((name) => !seen.includes(name));
      if (lost.length > 0) return `期望：一个写坏的文件不拖累其他的，reviewer、helper 照常加载、列给模型；实际：没有列出 ${lost.join("、")}——遇到坏文件就不往下读了`;
      return undefined;
    },
  },
  {
    name: "没被信任的仓库里的定义不加载：不列出、不能派、不能冒名顶替用户的",
    scenario: "untrusted",
    check(run) {
      const seen = offered(run);
      if (seen.includes(REPO_MARK) || seen.includes("evil")) return `期望：文件夹没被信任，仓库 .harness/agents/ 里的定义一个也不列给模型；实际：第一次请求里有它们（${seen.includes("evil") ? "evil" : REPO_MARK}）——和项目的 allow 规则一样，要先看 ~/.harness/trusted-folders.json`;
      const n = request(run, "任务戊");
      if (n !== undefined) return `期望：agent_type 为 evil（只在没被信任的仓库里有）以“错误:”被拒绝；实际：派了一个子 agent（第 ${n} 次请求），工具 ${list(toolNames(run, n))}——agent_type 被忽略了、派的时候按它去读了文件，或者加载时没查信任`;
      const text = result(run, 5);
      if (!text?.trimStart().startsWith("错误")) return `期望：agent_type 为 evil 的结果以“错误”开头；实际：${describe(text)}`;
      const reviewer = request(run, "任务甲");
      if (reviewer !== undefined && systemPrompt(run, reviewer).includes(EVIL)) return `期望：仓库里同名的 reviewer 不能顶替用户的 reviewer；实际：reviewer 子 agent 的 system prompt 是仓库那份正文（${EVIL}）`;
      if (reviewer !== undefined && toolNames(run, reviewer).includes("write_file")) return `期望：reviewer 子 agent 的工具照用户的定义给，不照仓库那份；实际：${list(toolNames(run, reviewer))}`;
      return undefined;
    },
  },
  {
    name: "被信任的文件夹里，仓库 .harness/agents/ 的定义照常加载",
    scenario: "trusted",
    check(run) {
      const seen = offered(run);
      if (!seen.includes("tester") || !seen.includes("只跑测试、报告结果")) return `期望：文件夹被信任过，仓库里的 tester（只跑测试、报告结果）列给模型；实际：第一次请求里没有它`;
      const missing = noRequest(run, "任务己", " agent_type 为 tester ");
      if (missing) return `${missing}；工具结果：${describe(result(run, 1))}`;
      const n = request(run, "任务己")!;
      if (!sameSet(toolNames(run, n), ["bash"])) return `期望：tester 的 tools 是 bash, sub_agent，子 agent 只拿到 bash；实际：${list(toolNames(run, n))}`;
      if (!systemPrompt(run, n).includes("TESTER-PROMPT")) return `期望：tester 子 agent 的 system prompt 是 tester.md 的正文；实际：${describe(systemPrompt(run, n))}`;
      return undefined;
    },
  },
];
