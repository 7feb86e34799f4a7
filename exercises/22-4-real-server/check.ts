// 练习 22-4 的检查器：接几个真正会用的服务器。everything、memory、filesystem 都是官方发布的包，
// 版本钉在 devDependencies 里，从 node_modules 启动，不联网；工具会变的那一条用仓库里的 fault.ts（shifty 模式），
// 因为发布的服务器里没有哪个会在一次任务中途稳定地换工具。查的是模型收到的请求：工具结果、tools 数组、system prompt。
import { describe, systemPrompt, toolNames, toolResults, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

const failedRun = (run: RunResult) => (run.requests === 0 || run.exitCode !== 0 ? `（这次运行没有正常结束，退出码 ${run.exitCode}；VERBOSE=1 看完整输出）` : "");

// everything 服务器的 instructions 里有这样一句彩蛋：客户端真把说明交给了模型，模型才读得到它
const EASTER_EGG = "Server instructions are working";
// everything-roots 在这个子目录里跑（scenario.json 的 runs），和它在 file:// URI 里该有的样子
const SUBDIR = "q1 notes#draft?";
const ESCAPED = "q1%20notes%23draft%3F";
// shifty 的 instructions 有 10 万字，开头是这一句
const SHIFTY_NOTES = "保险箱的使用说明";

export const requirements: Requirement[] = [
  {
    name: "声明 roots 能力、答 roots/list：everything 的 get-roots-list 报出的根是工作目录（file:// URI，转义正确）",
    scenario: "everything-roots",
    check(run) {
      const [roots, sum] = toolResults(run, 2);
      if (!roots?.includes("file://") || !/\/work\b/.test(roots)) {
        return `期望：initialize 的 capabilities 里有 roots，服务器问 roots/list 时答 {"roots": [{"uri": "file://<工作目录>", "name": …}]}，于是 get-roots-list 的结果里有工作目录的 file:// URI；实际：${describe(roots)}${failedRun(run)}`;
      }
      // 这个场景在名字里有空格、# 和 ? 的子目录里跑：URI 里它们要写成 %20、%23、%3F，不然 # 之后成了片段、? 之后成了查询
      if (!roots.includes(`/${ESCAPED}`)) {
        return `期望：工作目录是 “…/${SUBDIR}”，它的 file:// URI 要转义成 “…/${ESCAPED}”（url.pathToFileURL() 或者 new URL("file://") 再设 pathname；"file://" + cwd 拼出来的，# 以后成了片段、? 以后成了查询）；实际：${describe(roots)}`;
      }
      if (!sum?.includes("42")) return `期望：同一个服务器上别的工具照常工作，get-sum(2, 40) 答 42；实际：${describe(sum)}${failedRun(run)}`;
    },
  },
  {
    name: "服务器的 instructions 写进 system prompt（有上限）：everything 的使用说明从首轮就在",
    scenario: "everything-roots",
    check(run) {
      const prompt = systemPrompt(run, 1);
      if (!prompt.includes(EASTER_EGG)) {
        return `期望：initialize 结果里的 instructions（everything 的说明里有一句 “${EASTER_EGG}”）放进首轮请求的 system prompt，标明出自哪个服务器；实际：system prompt 里没有它（末尾是 ${describe(prompt.slice(-200))}）${failedRun(run)}`;
      }
      if (prompt.length > 40_000) return `期望：说明有上限（每个服务器几千字以内），别让一个服务器的长篇大论撑满每一轮；实际：system prompt 有 ${prompt.length} 个字${failedRun(run)}`;
    },
  },
  {
    name: "不给目录的 filesystem 服务器向客户端要 roots：允许的目录是工作目录，读得到里面的文件",
    scenario: "filesystem-roots",
    check(run) {
      const dirs = toolResults(run, 2)[0] ?? "";
      if (!/\/work\b/.test(dirs)) {
        return `期望：filesystem 服务器不带目录参数启动，握手后发 roots/list，客户端答工作目录，list_allowed_directories 里就是它；实际：${describe(dirs)}${failedRun(run)}`;
      }
      const text = toolResults(run, 3).join("\n");
      if (!text.includes("每周四 20:00")) return `期望：read_text_file 读出工作目录里 handbook.md 的内容（“每周四 20:00”）；实际：${describe(text)}${failedRun(run)}`;
    },
  },
  {
    name: "roots 是授权：命令行上已经给了目录（docs）的 filesystem 服务器，不拿工作目录去放宽它",
    scenario: "filesystem-roots",
    check(run) {
      const docs = toolResults(run, 2)[1] ?? "";
      const paths = docs.split("\n").filter((line) => line.startsWith("/"));
      if (paths.length === 0 || !paths.every((p) => /\/work\/docs\/?$/.test(p))) {
        return `期望：docs 服务器的命令行只给了 docs 目录；filesystem 服务器拿到 roots 就丢掉命令行给的目录、改管 roots 里的那些，所以不能不分青红皂白地把工作目录交给它（参考答案：命令行参数里已经有目录的服务器，不声明 roots）；它的 list_allowed_directories 该只有 …/work/docs；实际：${describe(docs)}${failedRun(run)}`;
      }
    },
  },
  {
    name: "memory 服务器跑一个真实任务：记下一个实体，再搜出来",
    scenario: "memory-task",
    check(run) {
      const found = toolResults(run, 3).join("\n");
      if (!found.includes("每周四 20:00")) return `期望：create_entities 记下“发布窗口”，search_nodes("发布") 找回它，结果里有“每周四 20:00”；实际：${describe(found)}${failedRun(run)}`;
    },
  },
  {
    name: "跟着 notifications/tools/list_changed：下一轮的 tools 数组正好是服务器此刻的工具",
    scenario: "list-changed",
    check(run) {
      const before = toolNames(run, 1);
      const after = toolNames(run, 2);
      if (!before.includes("mcp__shifty__unlock")) return `期望：首轮 tools 数组里有 mcp__shifty__unlock；实际：${describe(before.filter((n) => n?.startsWith("mcp__")).join("、"))}${failedRun(run)}`;
      if (!after.includes("mcp__shifty__vault") || after.includes("mcp__shifty__unlock")) {
        return `期望：unlock 答复之前服务器发了 notifications/tools/list_changed，客户端重新 tools/list，第二轮 tools 数组里有 mcp__shifty__vault、没有 mcp__shifty__unlock（别的工具不动）；实际：${describe(after.filter((n) => n?.startsWith("mcp__")).join("、"))}${failedRun(run)}`;
      }
      if (!after.includes("read_file") || !after.includes("mcp__shifty__echo")) return `期望：只换掉变了的那些，内置工具和 echo 还在；实际：${describe(after.join("、"))}`;
      const note = toolResults(run, 3).join("\n");
      if (!note.includes("纸条")) return `期望：新出现的 mcp__shifty__vault 能调用，结果里有“纸条”；实际：${describe(note)}${failedRun(run)}`;
    },
  },
  {
    name: "说明有上限：shifty 给了 10 万字的 instructions，system prompt 里它只占几千字",
    scenario: "list-changed",
    check(run) {
      const prompt = systemPrompt(run, 1);
      const at = prompt.indexOf(SHIFTY_NOTES);
      if (at < 0) return `期望：shifty 的 instructions（开头是“${SHIFTY_NOTES}”）进了首轮的 system prompt；实际：system prompt 里没有它（末尾是 ${describe(prompt.slice(-200))}）${failedRun(run)}`;
      const kept = prompt.length - at;
      if (kept > 10_000) return `期望：每个服务器的说明有上限（参考答案 2000 字，超出的截掉并说一句），一个服务器的长篇大论不能撑满每一轮；实际：system prompt 从 shifty 的说明起还有 ${kept} 个字（它给了 10 万字）${failedRun(run)}`;
    },
  },
];
