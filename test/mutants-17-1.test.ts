// 练习 17-1 的变异体：在参考答案上改一处，正是 HINTS.md 提醒过的错（或者任务明说不许的事）。
// 检查器必须认出每一个，而且是管这件事的那条要求不通过。参考答案通过、原样的第 17 章不通过，由 test/exercises.test.ts 检查。
// 没有变异体的几句话：
// - “deny 规则照样赢”：答案只往 policy.allow 里加，decide() 先查 deny 的顺序没动，一处改动改不出“skill 放行越过 deny”；
//   检查器仍然查它（git log -p），绕过 decide() 自己放行的实现会在那一条栽倒。
// - “一个 skill 只放行一次、只警告一次”（loaded 集合）：场景里每个 skill 只读一次，多放行一次同样的规则也看不出差别。
import { requirements } from "../exercises/17-1-skill-allowed-tools/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

const MUTANTS: Mutant[] = [
  {
    name: "启动时发现了 skill 就放行，不等 load_skill（issue 点名；提示 1）",
    file: "tools/load-skill.ts",
    from: "const loaded = new Set<string>();",
    to: "const loaded = new Set<string>();\n  for (const skill of skills) allowFromSkill(policy, skill);",
    fails: "读出 skill 之前什么也不放行",
    because: /启动时发现了 skill 就放行/,
  },
  {
    name: "bash(git log *) 放行了整个 bash：只取了工具名（issue 点名；提示 2）",
    file: "permissions.ts",
    from: "if (rule) rules.push(rule);",
    to: "if (rule) rules.push({ ...rule, pattern: undefined });",
    fails: "只放行写了的那些",
    because: /不是整个 bash/,
  },
  {
    name: "没被信任的仓库里的 skill 也放行（issue 点名；提示 3）",
    file: "permissions.ts",
    from: "if (skill.project && !trustedFolders(",
    to: "if (false && !trustedFolders(",
    fails: "没被信任的仓库",
    because: /文件夹被信任之前不算数/,
  },
  {
    name: "项目里的 skill 一律不放行，信任过也不行（任务：信任以后生效）",
    file: "permissions.ts",
    from: "if (skill.project && !trustedFolders(path.join(home, \".harness\", \"trusted-folders.json\")).includes(fs.realpathSync(process.cwd()))) {",
    to: "if (skill.project) {",
    fails: "信任过的文件夹里",
    because: /trusted-folders\.json/,
  },
  {
    name: "看不懂的一条猜成它开头的工具名（提示 2：写坏的不放行）",
    file: "permissions.ts",
    from: "else console.error(`警告: skill \"${name}\" 的 allowed-tools 里",
    to: "else rules.push({ text: entry, tool: entry.split(\"(\")[0] });\n    if (!rule) console.error(`警告: skill \"${name}\" 的 allowed-tools 里",
    fails: "写坏的一条",
    because: /被猜成了别的规则/,
  },
  {
    name: "括号里的空格也当分隔（提示 2）：bash(git log *) 被切成三段，一条也认不出",
    file: "permissions.ts",
    from: "if (depth === 0 && (c === \",\" || /\\s/.test(c))) {",
    to: "if (c === \",\" || /\\s/.test(c)) {",
    fails: "load_skill 之后",
    because: /括号里的空格不算分隔/,
  },
  {
    name: "没读 frontmatter 的 allowed-tools（提示 1）",
    file: "skills.ts",
    from: 'allowedTools: fields["allowed-tools"] ?? ""',
    to: 'allowedTools: ""',
    fails: "load_skill 之后",
    because: /加进放行规则/,
  },
];

mutantSuite("17-1-skill-allowed-tools", requirements, MUTANTS, 4);
