// 练习 23-2 的变异体：在参考答案上改一处，正是 HINTS.md 提醒过的错（或者 README 明说不许的事）。检查器必须认出每一个，
// 而且是管这件事的那条要求不通过（做法和 test/mutants.test.ts 一样）。三个场景都很短（真的 bwrap，一次运行一两秒）。
// 多问一句的变异体不会卡住：outside-asks 的 interact 多备了一个 n，refused-outright 问了就答 y。
//
// 没有变异体的几句，和为什么：
// - 沙箱没开时 outside_sandbox 不起作用（decide() 里的 sandboxed &&）：三个场景都开着真的 bwrap；沙箱关着时每条 bash 本来就在沙箱外，
//   照第 09 章问不问都说得过去，检查器不设。
// - "allowUnsandboxedCommands" 写成字符串 "false" 往严的一边算：用户写错自己的设置，不是敌意的输入；多一个场景不值，README 只说一句。
// - 批准一次以后不能从此关掉沙箱：答案里没有能一处改出这个错的地方；真这么写了，“答 y”那条要求看后面那条 mkdir ~/inside，照样认得出。
// - 答 n 不执行：guard() 里 confirm 交回 false 就返回错误，是第 09 章现成的路，答案只改了问题的文字；“答 n”那条要求看着它（家目录里没有 outside-no）。
// - 没有终端时拒绝（guard 的 !confirm 分支）是第 09 章现成的路，不改它就不会错；“allow 规则跳过这一问”的变异体在那里也会放行，
//   “没有终端”那条要求同样不通过（见下面第一个变异体的注释），不另设一个一样的变异体。
import { requirements } from "../exercises/23-2-outside-sandbox/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

const ASK = 'return { decision: policy.allowUnsandboxed === false ? "deny" : "ask", why: "unsandboxed" };';

const MUTANTS: Mutant[] = [
  {
    // issue 点名的：allow 规则照旧放行。没有终端时它同样不问就跑，“没有终端”那条要求也不通过（escaped-noterm 写成了）
    name: "allow 规则跳过这一问（提示 2）：只写了工具名的 allow bash 放行了在沙箱外的命令",
    file: "permissions.ts",
    from: ASK,
    to: 'if (policy.allow.some((rule) => rule.tool === "bash" && rule.pattern === undefined)) return { decision: "allow" };\n    ' + ASK,
    fails: "allow bash 也挡不住这一问",
    because: /一句也没问/,
  },
  {
    // 匆忙的读者只改了 bash 工具：权限那边认不出它，沙箱里的 bash 放行的那一行替它放了行（提示 2：排在那一行后面也是这样）
    name: "permissions.ts 没认出 outside_sandbox（提示 2）：没有终端、没人批准，命令出了沙箱",
    file: "permissions.ts",
    from: 'if (sandboxed && tool === "bash" && args.outside_sandbox === true) {',
    to: "if (false) {",
    fails: "没有终端",
    because: /在沙箱外跑了/,
  },
  {
    name: "问题和平常一模一样，没说它在沙箱外（README：问题说出它不在沙箱里）",
    file: "permissions.ts",
    from: 'const outside = why === "unsandboxed" ? "在沙箱外" : "";',
    to: 'const outside = "";',
    fails: "allow bash 也挡不住这一问",
    because: /管不着它/,
  },
  {
    name: "bash 工具没照 outside_sandbox 绕开 confine()（提示 3）：问过了，命令还是在沙箱里",
    file: "tools/bash.ts",
    from: "run(command, seconds, signal, outside_sandbox === true)",
    to: "run(command, seconds, signal, false)",
    fails: "答 y",
    because: /还在沙箱里跑/,
  },
  {
    name: "bash 工具按真假值判断 outside_sandbox（提示 4）：字符串 \"true\" 在权限那边是普通命令、不问，在这边出了沙箱",
    file: "tools/bash.ts",
    from: "run(command, seconds, signal, outside_sandbox === true)",
    to: "run(command, seconds, signal, Boolean(outside_sandbox))",
    fails: "敌意的模型",
    because: /escaped-string/,
  },
  {
    name: "沙箱外的命令拿 process.env 起进程（提示 3）：API 密钥跟着出去了",
    file: "tools/bash.ts",
    from: "env: childEnv()",
    to: "env: outside ? process.env : childEnv()",
    fails: "在沙箱外也不带 API 密钥",
    because: /childEnv\(\)/,
  },
  {
    name: "在沙箱外的判断排在 deny 前面（提示 2）：deny 规则管着的命令也来问",
    file: "permissions.ts",
    from: "if (deny) return { decision: \"deny\", rule: deny.text };",
    to: "if (deny && args.outside_sandbox !== true) return { decision: \"deny\", rule: deny.text };",
    fails: "deny 规则照样先说话",
    because: /问了/,
  },
  {
    name: "不读 allowUnsandboxedCommands（提示 5）：用户写了 false 还是问",
    file: "permissions.ts",
    from: ASK,
    to: 'return { decision: "ask", why: "unsandboxed" };',
    fails: "用户的设置写了",
    because: /在终端上问了/,
  },
  {
    // issue 点名的：仓库写 true、用户写 false，照仓库的来
    name: "读的是仓库的 .harness/settings.json（提示 5）：仓库替用户打开了这扇门",
    file: "permissions.ts",
    from: "allowUnsandboxed: unsandboxedAllowed(home)",
    to: "allowUnsandboxed: unsandboxedAllowed(cwd)",
    fails: "用户的设置写了",
    because: /仓库那一份/,
  },
  {
    name: "allowUnsandboxedCommands 为 false 时所有 bash 一律拒绝（README：它只管在沙箱外的命令）",
    file: "permissions.ts",
    from: 'if (sandboxed && tool === "bash" && args.outside_sandbox === true) {',
    to: 'if (sandboxed && tool === "bash" && (args.outside_sandbox === true || policy.allowUnsandboxed === false)) {',
    fails: "用户的设置写了",
    because: /只管要在沙箱外跑的命令/,
  },
];

mutantSuite("23-2-outside-sandbox", requirements, MUTANTS, 3);
