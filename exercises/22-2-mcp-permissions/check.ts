// 练习 22-2 的检查器：(a) mcp.json 里的服务器先批准、再启动；(b) MCP 工具过第 09 章的三档权限。
// 查的是模型收到了什么（工具结果）和文件到底写没写，不逐字比对措辞：你的拒绝理由可以换个说法，
// 但得以“错误:”开头、说清为什么没执行。
// (a) 的场景里，每个服务器的命令一启动就往 started.txt 里写一行“启动了 <服务名>”，最后一步用内置的 read_file 读它：
// 读得到那一行，就是那条命令跑过了（它后面的 MCP 服务器起没起来都一样）。批准记录的格式见 README（~/.harness/trusted-mcp.json），
// 别的场景都在 setup 里预先批准了自己的服务器——三个练习做在同一份副本里也互不妨碍。
import { describe, toolNames, toolResults, type Requirement } from "../checker.ts";
import { hasTerminalTool, type RunResult } from "../../shared/scenario.ts";

const HANDBOOK = "发布窗口每周四"; // docs/handbook.md 里的一句
const NOTE = "发布窗口改到周五"; // 场景让 mcp__fs__write_file 写进 docs/notes.md 的内容

const refused = (result: string | undefined) => result !== undefined && result.trimStart().startsWith("错误");
// 第 09 章的说法是“需要用户确认，但现在没有终端可以问”；换了措辞也该提到其中之一
const explainsNoTerminal = (result: string | undefined) => refused(result) && /终端|确认/.test(result!);

// 场景最后一步用内置的 read_file（没有规则时它不问就执行）读 docs/notes.md：读得到，就是写进去了
function noteWritten(run: RunResult, request: number): string | undefined {
  const check = toolResults(run, request)[0];
  return check !== undefined && check.includes(NOTE) ? check : undefined;
}

// 服务器的命令写进 started.txt 的那一行
const started = (run: RunResult, request: number, name: string) => {
  const result = toolResults(run, request)[0];
  return result !== undefined && result.includes(`启动了 ${name}`) ? result : undefined;
};
const kitStarted = (run: RunResult, request: number) => started(run, request, "kit");
const toolsOf = (run: RunResult, request: number, server: string) => toolNames(run, request).filter((name) => name?.startsWith(`mcp__${server}__`));
const kitTools = (run: RunResult, request: number) => toolsOf(run, request, "kit");
// trust-no-terminal 里另外三个服务器：~/.harness/trusted-mcp.json 里有它们的记录，可都不是这个目录、这条命令的批准
const LOOSE: [name: string, why: string][] = [
  ["elsewhere", "批准记在上一级目录名下（批准按工作目录分开，别的目录的不算，上级目录的也不算）"],
  ["envy", "批准时 env 是空的，如今 mcp.json 给它加了 NODE_OPTIONS（env 也是命令的一部分）"],
  ["swapped", "批准的 command 是 bash，如今是 sh（command 变了就是另一条命令）"],
];
// 问题停在 “[y/N] ” 上：检查器看到它才替你按键。第 n 个问题之前（从上一个问题之后算起）的那段输出
function question(run: RunResult, n: number): string | undefined {
  const parts = run.transcript.split("[y/N]");
  return parts.length > n ? parts[n - 1] : undefined;
}
const asked = (run: RunResult) => run.transcript.split("[y/N]").length - 1;
const failedRun = (run: RunResult) => (run.exitCode !== 0 ? `（harness 以退出码 ${run.exitCode} 结束；VERBOSE=1 看完整输出）` : "");
const noTerminal = "期望：这个场景在伪终端里跑，要用 util-linux 的 script 命令；实际：这台机器上没有（macOS 自带的 script 参数不同）。这一条请在 Linux 上检查，或者照 README 在自己的终端里试";

export const requirements: Requirement[] = [
  {
    name: "(a) 没批准过的服务器、没有终端：不启动它的命令，警告里说怎样批准",
    scenario: "trust-no-terminal",
    check(run) {
      const ran = kitStarted(run, 2);
      if (ran) return `期望：kit 没有批准过，输入又不是终端、没法问，它的命令根本不该执行；实际：命令跑过了（内置 read_file 读到 started.txt：${describe(ran)}）`;
      const tools = kitTools(run, 1);
      if (tools.length > 0) return `期望：没启动的服务器没有工具，tools 里没有 mcp__kit__ 开头的；实际：${describe(tools)}`;
      const warning = run.transcript.split("\n").find((line) => line.includes("kit") && line.includes("警告"));
      // 光说“没有终端、跳过”不够，得说怎样批准：提到批准记在哪（trusted-mcp.json），或者在终端里答 y
      if (!warning || !/trusted-mcp\.json|(?<![A-Za-z])y(es)?(?![A-Za-z])/.test(warning)) {
        return `期望：一行“警告: …”点名 kit，说它没批准过所以跳过，并说怎样批准（比如在终端里运行一次、答 y；批准记在 ~/.harness/trusted-mcp.json）；实际：${warning ? describe(warning) : "没有这一行警告"}`;
      }
      return undefined;
    },
  },
  {
    name: "(a) 批准绑在这个目录、这个服务、这一条命令上：别的目录的、env 或 command 不一样的记录都不算",
    scenario: "trust-no-terminal",
    check(run) {
      for (const [name, why] of LOOSE) {
        const ran = started(run, 2, name);
        const tools = toolsOf(run, 1, name);
        if (ran || tools.length > 0) {
          return `期望：${name} ${why}，当作没批准过；没有终端，不启动；实际：它的命令跑了（${ran ? `started.txt：${describe(ran)}` : `tools 里有 ${describe(tools)}`}）——批准记录找得太宽了：要同一个工作目录（process.cwd()，一字不差）下、同一个服务名的、command/args/env 三项都一样的那一条`;
        }
      }
      return undefined;
    },
  },
  {
    name: "(a) 仓库不能批准自己：工作目录里的 .harness/trusted-mcp.json 一概不认",
    scenario: "trust-repo-self-approval",
    check(run) {
      const ran = kitStarted(run, 2);
      const tools = kitTools(run, 1);
      if (ran || tools.length > 0) {
        return `期望：批准只认用户目录里的 ~/.harness/trusted-mcp.json（用 os.homedir() 拼路径；字面的 "~" 是工作目录里一个叫 ~ 的目录）；工作目录是别人的仓库，它自带的 .harness/trusted-mcp.json、~/.harness/trusted-mcp.json 批准了自己，也不能算数，kit 不启动；实际：kit 启动了（${ran ? `started.txt：${describe(ran)}` : `tools 里有 ${describe(tools)}`}）`;
      }
      return undefined;
    },
  },
  {
    name: "(a) ~/.harness/trusted-mcp.json 里批准过这个目录的这条命令：不问，没有终端也照常启动",
    scenario: "trust-approved",
    check(run) {
      const echo = toolResults(run, 2)[0];
      if (!toolNames(run, 1).includes("mcp__kit__echo") || echo !== "批准过的服务照常工作") {
        return `期望：setup 按 README 的格式在 ~/.harness/trusted-mcp.json 里批准了这个目录的 kit（命令、参数、环境变量都照抄 mcp.json 的原样：\${LH_TRUST_MODE:-chatty} 不展开，比的也是原样；env 的键顺序和 mcp.json 相反，顺序不算；记录里没有 exact 就只比原样），它直接启动，mcp__kit__echo 能用；实际：tools 里的 kit 工具 ${describe(kitTools(run, 1))}，echo 的结果 ${describe(echo)}`;
      }
      return undefined;
    },
  },
  {
    name: "(a) 有终端时先问 y/N，问题里是展开了 ${VAR} 的命令；答 y 才启动",
    scenario: "trust-ask-remembered",
    check(run) {
      if (!hasTerminalTool()) return noTerminal;
      const text = question(run, 1);
      if (text === undefined) return `期望：kit 没批准过，启动之前在终端上问一句，以“[y/N] ”结尾；实际：没有问，${kitStarted(run, 2) ?? "kit 直接启动了"}`;
      // 服务器的文件：读者在 Node 20 上是 fault.ts，测试里可能是编译好的 fault.mjs
      const missing = ["kit", "fault.", "chatty"].filter((word) => !text.includes(word));
      if (missing.length > 0 || text.includes("${LH_TRUST_MODE")) {
        return `期望：问题里写出服务名和真正要执行的命令——mcp.json 里的 \${LH_TRUST_MODE:-chatty} 展开成 chatty；实际：问题前的输出是 ${describe(text.slice(-300))}`;
      }
      const tools = toolNames(run, 1).filter((n) => n === "mcp__kit__echo" || n === "mcp__pal__echo");
      if (tools.length !== 2) return `期望：kit、pal 都答了 y，两个都启动，tools 里有 mcp__kit__echo 和 mcp__pal__echo；实际：${describe(tools)}`;
      return undefined;
    },
  },
  {
    name: "(a) 问题里的命令和环境变量显形：值里的 \\r、ESC 序列擦不掉、改不了问题里的那一行；答 n 就不启动",
    scenario: "trust-shows-exact",
    check(run) {
      if (!hasTerminalTool()) return noTerminal;
      const text = question(run, 1);
      if (text === undefined) return `期望：kit 没批准过，启动之前在终端上问一句，以“[y/N] ”结尾；实际：没有问`;
      // 伪终端的转录里，真的 ESC[2K、ESC[1A 会被当成终端控制删掉；显形了的（␛[2K、\\u001b[2K……）留下 [2K、[1A
      if (!text.includes("[2K") || !text.includes("[1A")) {
        return `期望：NOTE 的值里的 \\r、ESC[2K、ESC[1A 在问题里显形（怎么写都行，比如 ␛[2K 或 \\u001b[2K），不被终端执行；实际：问题前的输出是 ${describe(text.slice(-300))}`;
      }
      const tools = kitTools(run, 1);
      if (tools.length > 0) return `期望：答了 n，kit 不启动，tools 里没有 mcp__kit__ 开头的；实际：${describe(tools)}`;
      return undefined;
    },
  },
  {
    name: "(a) 批准记下来了：同一个目录、同样的命令，第二次运行一个都不再问；后批准的不挤掉先批准的",
    scenario: "trust-ask-remembered",
    check(run) {
      if (!hasTerminalTool()) return noTerminal;
      if (asked(run) !== 2) {
        return `期望：第一次运行 kit、pal 各问一次、都答 y；两个批准都记在 ~/.harness/trusted-mcp.json 这个目录名下，第二次运行一个都不再问；实际：一共问了 ${asked(run)} 次${asked(run) === 3 ? "——多问的多半是 kit：记 pal 的批准时把这个目录下先记的 kit 冲掉了（{ [cwd]: { [name]: … } } 少了 ...approvals[cwd]）" : ""}${run.timedOut ? "（还在问，没人回答，一直等到场景超时）" : ""}`;
      }
      const tools = toolNames(run, 2).filter((n) => n === "mcp__kit__echo" || n === "mcp__pal__echo");
      if (tools.length !== 2) return `期望：第二次运行不问也启动 kit 和 pal，tools 里有 mcp__kit__echo 和 mcp__pal__echo；实际：${describe(tools)}`;
      return undefined;
    },
  },
  {
    name: "(a) 用户目录里还没有 ~/.harness 也记得下来；批准文件只有你能读写",
    scenario: "trust-ask-remembered",
    check(run) {
      if (!hasTerminalTool()) return noTerminal;
      // kit 的命令启动时把 ls -l ~/.harness/trusted-mcp.json 写进 started.txt；第二次运行的 read_file 读回来
      const listing = toolResults(run, 3)[0] ?? "";
      const line = listing.split("\n").find((l) => l.includes("trusted-mcp.json"));
      if (!line || !line.startsWith("-")) {
        return `期望：答了 y 就把批准写进 ~/.harness/trusted-mcp.json——用户目录里还没有 .harness 时先建出来（mkdir -p）；实际：kit 启动时 ls -l 看到的是 ${describe(line ?? listing)}`;
      }
      if (!line.startsWith("-rw-------")) {
        return `期望：批准文件只有你自己能读写（写的时候给 mode: 0o600），别的用户改不了你的批准；实际：${describe(line.split(" ")[0])}`;
      }
      return undefined;
    },
  },
  {
    name: "(a) 命令变了要重新问；答 y 才启动",
    scenario: "trust-changed-command",
    check(run) {
      if (!hasTerminalTool()) return noTerminal;
      const text = question(run, 1);
      if (text === undefined || !text.includes("late")) {
        return `期望：批准过的是 fault.ts chatty，mcp.json 改成了 fault.ts late，命令变了，启动之前要重新问，问题里是新的命令（late）；实际：${text === undefined ? "没有问" : `问题前的输出是 ${describe(text.slice(-300))}`}`;
      }
      if (kitTools(run, 1).length === 0) return `期望：答了 y，kit 启动，tools 里有 mcp__kit__ 开头的工具；实际：${describe(toolNames(run, 1))}`;
      return undefined;
    },
  },
  {
    name: "(a) 记新的批准只改这个目录的这一项：别的目录的批准原样留着",
    scenario: "trust-changed-command",
    check(run) {
      if (!hasTerminalTool()) return noTerminal;
      // kit 的命令启动时（批准已经记下了）把 ~/.harness/trusted-mcp.json 抄进 started.txt
      const copy = kitStarted(run, 2) ?? "";
      const record = copy.slice(0, copy.lastIndexOf("启动了 kit"));
      if (!record.includes("late")) {
        return `期望：答了 y，这个目录的 kit 在 ~/.harness/trusted-mcp.json 里记成新的命令（late）；实际：kit 启动时文件里是 ${describe(record || copy)}`;
      }
      if (!record.includes("/srv/另一个项目")) {
        return `期望：另一个目录（/srv/另一个项目）批准过的 kit 原样留着——记新的批准时先读出整份记录，只改 process.cwd() 下这个服务名的那一项；实际：它不见了，文件里只剩 ${describe(record)}`;
      }
      return undefined;
    },
  },
  {
    name: "(a) 写坏了的 ~/.harness/trusted-mcp.json 不算批准，也不被覆盖",
    scenario: "trust-bad-record",
    check(run) {
      if (!hasTerminalTool()) return noTerminal;
      if (question(run, 1) === undefined) {
        return `期望：批准文件读不懂，当作什么都没批准过，启动 kit 之前照样问；实际：没有问，${kitStarted(run, 2) ? "kit 没问就启动了" : "kit 也没有启动"}`;
      }
      // kit 的命令启动时（答了 y、批准记没记都已经过去了）把 ~/.harness/trusted-mcp.json 抄进 started.txt
      const copy = kitStarted(run, 2);
      if (!copy) return `期望：答了 y，kit 启动；实际：started.txt 里没有“启动了 kit”：${describe(toolResults(run, 2)[0])}`;
      if (!copy.includes("写坏了")) {
        return `期望：读不懂的批准文件原样留着，这次的批准不记（写进去就把用户原来的记录整个冲掉了，他连坏在哪都看不到）；实际：kit 启动时文件已经换成了 ${describe(copy.slice(0, copy.lastIndexOf("启动了 kit")))}`;
      }
      return undefined;
    },
  },
  {
    name: "(b) allow 规则放行的 MCP 工具照常执行（mcp__fs__list_*、mcp__fs__read_*）",
    scenario: "allow-reads",
    check(run) {
      const [list, read] = toolResults(run, 2);
      if (refused(list) || !list?.includes("handbook.md")) {
        return `期望：settings.json 的 allow 里有 "mcp__fs__list_*"，mcp__fs__list_directory 不问就执行，列出 handbook.md；实际：模型收到 ${describe(list)}`;
      }
      if (refused(read) || !read?.includes(HANDBOOK)) {
        return `期望：allow 里有 "mcp__fs__read_*"，mcp__fs__read_text_file 不问就执行，读到手册（“${HANDBOOK} 20:00”）；实际：模型收到 ${describe(read)}`;
      }
      return undefined;
    },
  },
  {
    name: "(b) 没有规则的 mcp__fs__write_file 默认 ask；没有终端就拒绝，说明原因，文件没有写出来",
    scenario: "allow-reads",
    check(run) {
      const write = toolResults(run, 2)[2];
      if (write === undefined) {
        return `期望：mcp__fs__write_file 落在 ask 档，输入不是终端，当场拒绝，结果交回模型；实际：这一轮的工具结果根本没有交回模型（harness 在问人的地方结束或者停住了）——没有终端时传给 guard() 的要是 undefined（bash 那行的 process.stdin.isTTY ? confirm : undefined），拿 confirm 去读已经读完的标准输入，永远等不到回答${failedRun(run)}`;
      }
      if (!refused(write)) {
        return `期望：mcp__fs__write_file 不匹配任何规则，落在 ask 档；输入不是终端，没法问，按拒绝处理，结果以“错误:”开头；实际：它没问就执行了，模型收到 ${describe(write)}`;
      }
      if (!explainsNoTerminal(write)) {
        return `期望：拒绝的结果说明原因——这次调用需要确认，可是没有终端可以问——模型才能转告用户怎样放行；实际：模型收到 ${describe(write)}`;
      }
      const written = noteWritten(run, 3);
      if (written) return `期望：被拒绝的写入不发生，docs/notes.md 不存在；实际：内置 read_file 读到了 ${describe(written)}`;
      return undefined;
    },
  },
  {
    name: "(b) deny 赢：allow 了 mcp__fs__*、deny 了 mcp__fs__write_*，写被拒绝，读照常",
    scenario: "deny-wins",
    check(run) {
      const [read, write] = toolResults(run, 2);
      if (refused(read) || !read?.includes(HANDBOOK)) {
        return `期望："mcp__fs__*" 放行 fs 服务的全部工具，mcp__fs__read_text_file 直接执行、读到手册（* 匹配任意一串字符）；实际：模型收到 ${describe(read)}`;
      }
      if (!refused(write)) {
        return `期望：mcp__fs__write_file 同时匹配 allow 的 "mcp__fs__*" 和 deny 的 "mcp__fs__write_*"，deny 赢，结果以“错误:”开头；实际：它执行了，模型收到 ${describe(write)}`;
      }
      const written = noteWritten(run, 3);
      if (written) return `期望：被 deny 的写入不发生，docs/notes.md 不存在；实际：内置 read_file 读到了 ${describe(written)}`;
      return undefined;
    },
  },
  {
    name: "(b) 有终端时默认 ask：每个 MCP 调用先问 y/N，答 y 执行，答 n 不执行",
    scenario: "ask-on-terminal",
    check(run) {
      if (!hasTerminalTool()) {
        return "期望：这个场景在伪终端里跑，要用 util-linux 的 script 命令；实际：这台机器上没有（macOS 自带的 script 参数不同）。这一条请在 Linux 上检查，或者照 README 在自己的终端里试";
      }
      const asked = run.transcript.split("\n").filter((line) => line.includes("[y/N]"));
      const write = toolResults(run, 3)[0];
      if (asked.length < 2) {
        const what = write === undefined ? "" : `，mcp__fs__write_file 的结果是 ${describe(write)}`;
        // 问题的措辞不对，检查器等不到 “[y/N] ” 就不会替你回答，harness 会一直等到场景超时
        const hung = run.transcript.includes("[场景超时") ? "；harness 一直在等回答直到超时——检查器看到 “[y/N] ” 才会替你按键" : "";
        return `期望：没有规则时每个 MCP 工具调用前都在终端上问一句“…[y/N] ”，这里该问两次（read_text_file、write_file）；实际：问了 ${asked.length} 次${what}${hung}`;
      }
      const names = ["mcp__fs__read_text_file", "mcp__fs__write_file"];
      if (!names.every((n, i) => asked[i].includes(n))) {
        return `期望：问题里写出要执行的工具名，用户才知道自己批的是什么（先 ${names[0]}，再 ${names[1]}）；实际：${describe(asked.slice(0, 2).join(" / "))}`;
      }
      const read = toolResults(run, 2)[0];
      if (refused(read) || !read?.includes(HANDBOOK)) {
        return `期望：第一问答了 y，mcp__fs__read_text_file 执行，读到手册；实际：模型收到 ${describe(read)}`;
      }
      if (!refused(write)) {
        return `期望：第二问答了 n，mcp__fs__write_file 不执行，结果以“错误:”开头（比如“错误: 用户拒绝了这次调用，没有执行。”）；实际：模型收到 ${describe(write)}`;
      }
      const written = noteWritten(run, 4);
      if (written) return `期望：答了 n 的写入不发生，docs/notes.md 不存在；实际：内置 read_file 读到了 ${describe(written)}`;
      return undefined;
    },
  },
  {
    name: "(b) 时间服务器的工具没有规则、没有终端：不再悄悄放行，拒绝并说明原因；工具清单不变",
    scenario: "time-no-rule",
    check(run) {
      const tools = toolNames(run, 1);
      const missing = ["mcp__time__current_time", "mcp__time__days_between"].filter((n) => !tools.includes(n));
      if (missing.length > 0) {
        return `期望：套上权限只改变调用时的行为，模型看到的工具清单不变，仍有 ${missing.join("、")}；实际：tools 里是 ${describe(tools)}`;
      }
      const results = toolResults(run, 2);
      const calls = ["mcp__time__current_time", "mcp__time__days_between"];
      for (const [i, name] of calls.entries()) {
        if (!refused(results[i])) {
          return `期望：${name} 没有匹配的规则，默认 ask；输入不是终端，按拒绝处理，结果以“错误:”开头；实际：它没问就执行了，模型收到 ${describe(results[i])}`;
        }
        if (!explainsNoTerminal(results[i])) {
          return `期望：${name} 被拒绝时说明原因（需要确认、但没有终端可以问）；实际：模型收到 ${describe(results[i])}`;
        }
      }
      return undefined;
    },
  },
];
