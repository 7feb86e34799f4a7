// 练习 22-2 的变异体：在参考答案（trust.ts、main.ts）上改一处，正是 README 的任务或 HINTS.md 提醒过的错。
// 检查器必须认出每一个，而且是管这件事的那条要求不通过（做法和 test/mutants.test.ts 一样）。
// 最后两个改的是第 09 章的 permissions.ts：参考答案一个字没动它，可读者要是自己给 MCP 工具另写一道门，
// 最容易写错的就是这两处（deny 赢、* 通配）。
// 没有变异体的几条，检查器看不见或者不必看，原因写在这里：
// - 问题经 safeLine 显形、参数带空格引号的写成 JSON 字符串（任务“给人看的就是进程收到的字节”）：参考答案两道都做了，
//   去掉任何一道，另一道照样把 \r、ESC 显形（JSON.stringify 写成 \u001b，safeLine 写成 ␛），场景看不出差别；
//   服务名只能是字母、数字、_ 和 -（mcp-config.ts 先挡了），问题里别处没有别人的字。两道都去掉要改两处。
// - 记录里的 exact（展开后那些字节的指纹）：README 说它是参考答案多做的，任务只要求比原样的三项，不查。
// - 问题以 “[y/N] ” 结尾（提示 A3、5）：换了结尾，检查器等不到就不替你按键，harness 等到场景时限才算失败——
//   那是运行器的时限在起作用，不是哪条要求认出来的；检查器的说明里写着原因。
// - 按服务名顺序一个一个地问、在启动之前问：第 22 章的 connectMcpServers() 管，答案不碰 mcp*.ts。
// - (b) 的问题里写着工具名和参数、没有终端时的拒绝理由：第 09 章的 guard() 写的，答案原样用它。
//   答 y 或 yes 才算同意（两种问题都是）：repl.ts 的 confirm() 认的，答案原样用它。
//   规则从 ~/.harness/settings.json 和信任了的项目 .harness/settings.json 来：第 09 章的 loadPolicy() 读的，
//   答案把 bash 用的那一份 policy 交给 wrap——另起一份空规则的变异体在下面。
// - 包在登记之前（提示 5）：答案用的是 connectMcpServers() 的 wrap 选项，改一处挪不到快照之后；没有场景派子 agent。
// - 模型看到的工具清单不变：guard() 原样转交 definition()；time-no-rule 查着清单，可答案里没有一处能改了它。
import { requirements } from "../exercises/22-2-mcp-permissions/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

const MUTANTS: Mutant[] = [
  // ---- (a) 先批准，再启动 ----
  {
    name: "没有终端时照样启动（任务：没批准过的服务器不启动）",
    file: "trust.ts",
    from: "if (!ask) {",
    to: "if (!ask) {\n      return true;",
    fails: "(a) 没批准过的服务器、没有终端",
    because: /命令根本不该执行/,
  },
  {
    name: "没有终端时只说跳过，不说怎样批准（任务、提示 A3）",
    file: "trust.ts",
    from: "要启动它，在终端里、在这个目录运行一次 harness，看过命令后答 y（批准记在 ${trustFile()}）",
    to: "",
    fails: "(a) 没批准过的服务器、没有终端",
    because: /怎样批准/,
  },
  {
    name: "批准只按服务名找，不管是哪个目录批准的（任务：按工作目录分开）",
    file: "trust.ts",
    from: "const before = approvals?.[cwd]?.[name];",
    to: "const before = Object.values(approvals ?? {}).find((dir) => dir[name])?.[name];",
    fails: "(a) 批准绑在这个目录",
    because: /elsewhere/,
  },
  {
    name: "上级目录的批准也算给子目录（按路径前缀找）",
    file: "trust.ts",
    from: "const before = approvals?.[cwd]?.[name];",
    to: "const before = Object.entries(approvals ?? {}).find(([dir, servers]) => cwd.startsWith(dir) && servers[name])?.[1][name];",
    fails: "(a) 批准绑在这个目录",
    because: /上级目录/,
  },
  {
    name: "比命令时不比 env（提示 A2：NODE_OPTIONS 能让同一条命令干别的事）",
    file: "trust.ts",
    from: "&& env(a.env) === env(b.env)",
    to: "",
    fails: "(a) 批准绑在这个目录",
    because: /NODE_OPTIONS/,
  },
  {
    name: "比命令时不比 command",
    file: "trust.ts",
    from: "a.command === b.command && ",
    to: "",
    fails: "(a) 批准绑在这个目录",
    because: /command 变了/,
  },
  {
    name: "比命令时不比 args（任务：命令变了要重新问）",
    file: "trust.ts",
    from: "JSON.stringify(a.args ?? []) === JSON.stringify(b.args) && ",
    to: "",
    fails: "(a) 命令变了要重新问",
    because: /late/,
  },
  {
    name: "批准记录读的是工作目录里的 .harness/trusted-mcp.json（任务：仓库不能批准自己）",
    file: "trust.ts",
    from: 'return path.join(os.homedir(), ".harness", "trusted-mcp.json");',
    to: 'return path.join(process.cwd(), ".harness", "trusted-mcp.json");',
    fails: "(a) 仓库不能批准自己",
    because: /kit 启动了/,
  },
  {
    name: "用字面的 \"~\" 拼路径（提示 A2：用 os.homedir()）：读的是工作目录里叫 ~ 的那个目录",
    file: "trust.ts",
    from: 'return path.join(os.homedir(), ".harness", "trusted-mcp.json");',
    to: 'return path.join("~", ".harness", "trusted-mcp.json");',
    fails: "(a) 仓库不能批准自己",
    because: /os\.homedir\(\)/,
  },
  {
    name: "记下、比较的都是展开后的值（README：照抄 mcp.json 的原样，${VAR} 不展开）",
    file: "trust.ts",
    from: "{ ...(config.written ?? { command: config.command, args: config.args, env: config.env }), exact }",
    to: "{ command: config.command, args: config.args, env: config.env, exact }",
    fails: "(a) ~/.harness/trusted-mcp.json 里批准过",
    because: /不展开/,
  },
  {
    name: "env 的键按写的顺序比（提示 A2：顺序别算进去）",
    file: "trust.ts",
    from: "JSON.stringify(Object.entries(e ?? {}).sort())",
    to: "JSON.stringify(Object.entries(e ?? {}))",
    fails: "(a) ~/.harness/trusted-mcp.json 里批准过",
    because: /顺序不算/,
  },
  {
    name: "没有 exact 的记录一概不认（README：没有 exact 的只比原样）",
    file: "trust.ts",
    from: "(before.exact === undefined || before.exact === exact)",
    to: "before.exact === exact",
    fails: "(a) ~/.harness/trusted-mcp.json 里批准过",
    because: /exact/,
  },
  {
    name: "问题里给人看 mcp.json 的原样，${VAR} 没展开（任务：给人看真正要执行的那一行）",
    file: "trust.ts",
    from: "[config.command, ...config.args].map(shellWord)",
    to: "[config.command, ...(config.written?.args ?? config.args)].map(shellWord)",
    fails: "(a) 有终端时先问 y/N",
    because: /展开成 chatty/,
  },
  {
    name: "问题里不列 env（任务：argv 和 env 都照展开后的样子列出）",
    file: "trust.ts",
    from: "for (const [key, value] of Object.entries(config.env)) {",
    to: "for (const [key, value] of Object.entries({} as Record<string, string>)) {",
    fails: "(a) 问题里的命令和环境变量显形",
    because: /显形/,
  },
  {
    name: "问了不看回答（任务：答 y 或 yes 才启动）",
    file: "trust.ts",
    from: 'if (!(await ask(lines.map(safeLine).join("\\n")))) return false;',
    to: 'await ask(lines.map(safeLine).join("\\n"));',
    fails: "(a) 问题里的命令和环境变量显形",
    because: /答了 n，kit 不启动/,
  },
  {
    name: "答了 y 不记下来（任务：批准记下来，下次不再问）",
    file: "trust.ts",
    from: "if (approvals) save(",
    to: "if (false) save(",
    fails: "(a) 批准记下来了",
    because: /问了 4 次/,
  },
  {
    name: "记第二个批准时冲掉了同一个目录下的第一个（记录的键太粗：整个目录换成只有这一个服务）",
    file: "trust.ts",
    from: "[cwd]: { ...approvals[cwd], [name]: written }",
    to: "[cwd]: { [name]: written }",
    fails: "(a) 批准记下来了",
    because: /冲掉了/,
  },
  {
    name: "记新的批准时把别的目录的都冲掉了（记录的键太粗：整份文件换成只有这个目录）",
    file: "trust.ts",
    from: "save({ ...approvals, [cwd]:",
    to: "save({ [cwd]:",
    fails: "(a) 记新的批准只改这个目录的这一项",
    because: /另一个项目/,
  },
  {
    name: "读不懂的批准文件当成空的（提示 A2：写坏了的别覆盖）：答 y 以后整份换成了这一条",
    file: "trust.ts",
    from: "  return undefined;\n}",
    to: "  return {};\n}",
    fails: "(a) 写坏了的 ~/.harness/trusted-mcp.json",
    because: /原样留着/,
  },
  {
    name: "写之前不建 ~/.harness（提示 A2：mkdir -p）：新机器上批准永远记不下来",
    file: "trust.ts",
    from: "fs.mkdirSync(path.dirname(trustFile()), { recursive: true });",
    to: "",
    fails: "(a) 用户目录里还没有 ~/.harness",
    because: /mkdir -p/,
  },
  {
    name: "批准文件用默认权限写（提示 A2：0o600）",
    file: "trust.ts",
    from: ", { mode: 0o600 }",
    to: "",
    fails: "(a) 用户目录里还没有 ~/.harness",
    because: /0o600/,
  },
  // ---- (b) MCP 工具也过第 09 章的门 ----
  {
    name: "不传 wrap：MCP 工具照旧一声不问（任务：每个 mcp__ 工具都走 allow/ask/deny）",
    file: "main.ts",
    from: ", wrap: (tool) => guard(tool, policy, ask)",
    to: "",
    fails: "(b) 没有规则的 mcp__fs__write_file 默认 ask",
    because: /没问就执行了/,
  },
  {
    name: "只在写了规则时才包（“没有规则就和第 22 章一样”）：没有规则的 MCP 工具照旧放行（任务：没有规则时是 ask）",
    file: "main.ts",
    from: "wrap: (tool) => guard(tool, policy, ask)",
    to: "wrap: (tool) => (Object.values(policy).some((rules) => rules.length > 0) ? guard(tool, policy, ask) : tool)",
    fails: "(b) 时间服务器的工具没有规则",
    because: /没问就执行了/,
  },
  {
    name: "包的时候不给 confirm（提示 4）：有终端也不问，一律拒绝",
    file: "main.ts",
    from: "wrap: (tool) => guard(tool, policy, ask)",
    to: "wrap: (tool) => guard(tool, policy, undefined)",
    fails: "(b) 有终端时默认 ask",
    because: /问了 0 次/,
  },
  {
    name: "包的时候直接给 confirm、不看有没有终端（提示 4：用 bash 那行的 ask）：没有终端也去读标准输入问人",
    file: "main.ts",
    from: "wrap: (tool) => guard(tool, policy, ask)",
    to: "wrap: (tool) => guard(tool, policy, confirm)",
    fails: "(b) 没有规则的 mcp__fs__write_file 默认 ask",
    because: /isTTY/,
  },
  {
    name: "MCP 工具另用一份空规则（提示 1：和 bash 用同一份 policy）：settings.json 的 allow 不算数",
    file: "main.ts",
    from: "wrap: (tool) => guard(tool, policy, ask)",
    to: "wrap: (tool) => guard(tool, { allow: [], ask: [], deny: [] }, ask)",
    fails: "(b) allow 规则放行的 MCP 工具照常执行",
    because: /不问就执行/,
  },
  {
    name: "自己写的门先看 allow：allow 了就放行，deny 不再算（任务：deny 赢）",
    file: "permissions.ts",
    from: 'const deny = find("deny");',
    to: 'const deny = subjects.every(allowed) ? undefined : find("deny");',
    fails: "(b) deny 赢",
    because: /deny 赢/,
  },
  {
    name: "自己写的门只认整个工具名，不认 *（任务：* 匹配任意一串字符）",
    file: "permissions.ts",
    from: 'const parts = pattern.split("*");',
    to: "const parts = [pattern];",
    fails: "(b) allow 规则放行的 MCP 工具照常执行",
    because: /mcp__fs__list_\*/,
  },
];

mutantSuite("22-2-mcp-permissions", requirements, MUTANTS, 3);
