// 练习 04-1 的变异体：在参考答案上改一处，正是 README 的任务或 HINTS.md 提醒过的错。
// 检查器必须认出每一个，而且是管这件事的那条要求不通过（做法和 test/mutants.test.ts 一样）。
// 没有变异体的几条，为什么：
// - GIT_OPTIONAL_LOCKS=0（git status 不顺手改写索引）：改写了的索引和原来的在 system prompt 里看不出差别，检查器看不见。
// - core.hooksPath=/dev/null：git status、log、rev-parse 都不运行钩子，盖不盖它，这几条命令的行为都一样。
// - 5 秒的时限：要一个慢到 5 秒的仓库才看得出来，那就是拿机器快慢判对错；答案里它只防卡死。
// - 分离的 HEAD（写出所在的提交）：检查器的仓库停在分支上，没有场景走这条路；它只改快照里的一行字，不涉及安全和上限。
import { requirements } from "../exercises/04-1-git-context/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

const MUTANTS: Mutant[] = [
  {
    name: "每一轮都重拍快照（任务：启动时拍一次）：仓库变了，第二轮的前缀就变了",
    file: "main.ts",
    from: 'history.push({ role: "user", content: prompt });',
    to: 'history[0] = { role: "system", content: buildSystemPrompt(process.cwd(), new Date()) };\n    history.push({ role: "user", content: prompt });',
    fails: "快照只在启动时拍一次",
    because: /第二次请求的 system prompt 从第 \d+ 行起不同/,
  },
  {
    name: "没盖掉 core.fsmonitor（提示 3）：git status 替仓库运行了它",
    file: "git-context.ts",
    from: '["core.fsmonitor", "false"],',
    to: "",
    fails: "仓库自己的 core.fsmonitor 不能运行",
    because: /0-fsmonitor-ran/,
  },
  {
    name: "没盖掉仓库的 clean 过滤器（提示 3）",
    file: "git-context.ts",
    from: /\s*\.\.\.\[\.\.\.filters\]\.flatMap\([^\n]*\n/,
    to: "\n",
    fails: "仓库自己的 clean 过滤器也不能运行",
    because: /0-filter-ran/,
  },
  {
    name: "用 -c 名字=值 的写法盖设置（GIT_CONFIG_PARAMETERS 就是 -c）：名字里带“=”的过滤器盖不住",
    file: "git-context.ts",
    from: /settings\.forEach\(\(\[key, value\], i\) => \{[\s\S]*?env\.GIT_CONFIG_COUNT = String\(settings\.length\);/,
    to: "env.GIT_CONFIG_PARAMETERS = settings.map(([key, value]) => `'${key}=${value}'`).join(\" \");",
    fails: "仓库自己的 clean 过滤器也不能运行",
    because: /从第一个 = 切开/,
  },
  {
    name: "git status 不设上限（任务：有上限，再说还有几行）",
    file: "git-context.ts",
    from: "const shown = status.slice(0, MAX_STATUS_LINES);",
    to: "const shown = status;",
    fails: "git status 有上限",
    because: /列了 \d+ 行/,
  },
  {
    name: "提交不设上限：12 次全列",
    file: "git-context.ts",
    from: "`-${MAX_COMMITS}`, ",
    to: "",
    fails: "在 git 仓库里，system prompt 带上",
    because: /第 1、2 次提交/,
  },
  {
    name: "快照的行不过 safeLine（任务：过第 03 章的显形规则）：提交说明里的 ESC 原样进了 system prompt",
    file: "git-context.ts",
    from: "block.map((line) => safeLine(clip(line)))",
    to: "block.map((line) => clip(line))",
    fails: "快照里每一行都显形、截短",
    because: /原样的控制字符/,
  },
  {
    name: "快照的行不截短（任务：每一行截短）",
    file: "git-context.ts",
    from: "block.map((line) => safeLine(clip(line)))",
    to: "block.map((line) => safeLine(line))",
    fails: "快照里每一行都显形、截短",
    because: /那一行有 \d+ 个字/,
  },
  {
    name: "不是仓库也照样拼一段（少了 rev-parse 那一步）",
    file: "git-context.ts",
    from: 'if (git(["rev-parse", "--is-inside-work-tree"])?.trim() !== "true") return undefined;',
    to: "",
    fails: "不是 git 仓库",
    because: /plain\/ 不是仓库/,
  },
  {
    name: "只认仓库的根目录（像只看 .git 在不在）：在子目录里启动就没有快照",
    file: "git-context.ts",
    from: 'if (git(["rev-parse", "--is-inside-work-tree"])?.trim() !== "true") return undefined;',
    to: 'if (git(["rev-parse", "--is-inside-work-tree"])?.trim() !== "true" || git(["rev-parse", "--show-prefix"])?.trim()) return undefined;',
    fails: "在 git 仓库里，system prompt 带上",
    because: /缺少分支名 feature\/snapshot/,
  },
  {
    name: "git 的 stderr 没接住（提示 2）：不是仓库时 git 的 fatal 漏到屏幕上",
    file: "git-context.ts",
    from: 'stdio: ["ignore", "pipe", "ignore"]',
    to: 'stdio: ["ignore", "pipe", "inherit"]',
    fails: "不是 git 仓库",
    because: /git 自己的报错/,
  },
  {
    name: "环境里的 GIT_* 照单全收（提示 3）：GIT_DIR 把 git 指到了别处",
    file: "git-context.ts",
    from: 'if (!key.startsWith("GIT_")) env[key] = value;',
    to: "env[key] = value;",
    fails: "在 git 仓库里，system prompt 带上",
    because: /GIT_DIR/,
  },
];

mutantSuite("04-1-git-context", requirements, MUTANTS, 4);
