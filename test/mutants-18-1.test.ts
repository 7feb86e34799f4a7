// 练习 18-1 的变异体：在参考答案上改一处，正是 HINTS.md 提醒过的错（或者任务明说不许的事）。
// 每一个都要被管这件事的那条要求认出来。两个场景（untrusted、trusted），一个变异体约 1 秒。
// 看不见的：
// - 项目的定义覆盖用户的同名定义（被信任的文件夹里）：trusted 场景没有同名的，这条只在 README 里说，不检查。
// - 在 loadPolicy() 之前发现类型（刚在终端上答应信任的文件夹，这次就该算数）：要有终端，场景里没有。
// - 按文件名而不是 frontmatter 的 name 找类型：reviewer 的文件叫 code-review.md，这样写的答案派不出 reviewer，
//   “带类型的子 agent”那一条不通过；参考答案里没有一处改动能改出它，所以没有对应的变异体。
import { requirements } from "../exercises/18-1-sub-agent-types/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

const MUTANTS: Mutant[] = [
  {
    name: "白名单被忽略：带类型的子 agent 拿到父 agent 的全部工具（issue）",
    file: "tools/sub-agent.ts",
    from: "if (type.tools) registry = options.registry.snapshot(type.tools);",
    to: "",
    fails: "带类型的子 agent",
    because: /白名单被忽略/,
  },
  {
    name: "白名单从活的注册表里挑：父 agent 的 sub_agent 也给了出去（issue：父 agent 给不了的工具）",
    file: "main.ts",
    from: "{ config, registry: registry.snapshot(), maxRounds, budget, compactAt, ledger }, agentTypes)",
    to: "{ config, registry, maxRounds, budget, compactAt, ledger }, agentTypes)",
    fails: "带类型的子 agent",
    because: /sub_agent 也不能给/,
  },
  {
    name: "白名单按前缀比：bash_readonly 给出了 bash（提示 2）",
    file: "registry.ts",
    from: "!only || only.includes(name)",
    to: "!only || only.some((t) => t.startsWith(name))",
    fails: "带类型的子 agent",
    because: /一字不差/,
  },
  {
    name: "正文没用上：还是父 agent 的 system prompt（任务）",
    file: "tools/sub-agent.ts",
    from: "prompt = type.prompt;",
    to: "prompt = system;",
    fails: "带类型的子 agent",
    because: /正文/,
  },
  {
    name: "正文接在父 agent 的 system prompt 后面，没有换掉它（提示 3）",
    file: "tools/sub-agent.ts",
    from: "prompt = type.prompt;",
    to: "prompt = `${system}\\n\\n${type.prompt}`;",
    fails: "带类型的子 agent",
    because: /换掉父 agent/,
  },
  {
    name: "没写 tools 当成一个工具也不给（提示 2）",
    file: "agents.ts",
    from: "tools: tools.length > 0 ? tools : undefined",
    to: "tools",
    fails: "没写 tools 的类型沿用父 agent 的工具",
    because: /沿用|全部工具/,
  },
  {
    name: "类型没有列给模型（任务）",
    file: "tools/sub-agent.ts",
    from: "description: types.length > 0 ?",
    to: "description: types.length < 0 ?",
    fails: "子 agent 的类型（名字和说明）列给模型",
    because: /不知道有哪些类型/,
  },
  {
    name: "只列名字，不列说明（任务）",
    file: "tools/sub-agent.ts",
    from: "`\\n- ${t.name}：${t.description}`",
    to: "`\\n- ${t.name}`",
    fails: "子 agent 的类型（名字和说明）列给模型",
    because: /description/,
  },
  {
    name: "按前缀找类型：review 派成了 reviewer（提示 3）",
    file: "tools/sub-agent.ts",
    from: "types.find((t) => t.name === agent_type)",
    to: "types.find((t) => t.name.startsWith(agent_type))",
    fails: "不认识的类型",
    because: /前缀/,
  },
  {
    name: "不认识的类型，错误里不说有哪些（任务）",
    file: "tools/sub-agent.ts",
    from: "（可用的有：${known}）",
    to: "",
    fails: "不认识的类型",
    because: /列出有哪些类型/,
  },
  {
    name: "遇到写坏的文件就不往下读了（提示 1）",
    file: "agents.ts",
    from: "(e as Error).message}`));",
    to: "(e as Error).message}`)); return types;",
    fails: "写坏的定义文件",
    because: /不往下读/,
  },
  {
    name: "不查信任：仓库里的定义照样加载（issue）",
    file: "agents.ts",
    from: "!folderTrusted(cwd, home)",
    to: "false",
    fails: "没被信任的仓库里的定义不加载",
    because: /trusted-folders/,
  },
  {
    name: "被信任了也不读仓库的定义（任务）",
    file: "agents.ts",
    from: "for (const type of readAgentDir(project, \".harness/agents\", cwd)) found.set(type.name, type);",
    to: "",
    fails: "被信任的文件夹里",
    because: /列给模型/,
  },
];

mutantSuite("18-1-sub-agent-types", requirements, MUTANTS, 4);
