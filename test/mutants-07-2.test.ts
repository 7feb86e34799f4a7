// 练习 07-2 的变异体：在参考答案上改一处，正是 HINTS.md 提醒过的错（或者任务明说不许的事）。
// 检查器必须认出每一个，而且是管这件事的那条要求不通过。
import { requirements } from "../exercises/07-2-search-tools/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

// 不能由哪个场景看出来的几处，为什么：
// - 目录项上限 MAX_ENTRIES（五万）：检查器要造五万个文件才碰得到，太贵；它只是防一次调用走上几分钟的闸，不拿它当变异体。
// - 超过 8 MB 的文件不读：同理，造一个 8 MB 的文件不值当；grep 交回的内容本来就按行截断、按 head_limit 限行。
// - 走目录和打开之间文件被换成 FIFO（worker 里 O_NONBLOCK + fstat 再看一眼）：要两个进程赛跑才碰得到，检查器不比快慢。
const MUTANTS: Mutant[] = [
  {
    name: "正则在主线程上跑（提示 4）：灾难性的正则冻住整个 harness",
    file: "tools/grep.ts",
    from: "const found = await inWorker(job);",
    to: "const found = await new Promise<Found | undefined>((resolve) => searchFiles((process as any).getBuiltinModule(\"node:fs\"), job, resolve));",
    fails: "灾难性的正则冻不住 harness",
    because: /主线程|撞上了场景的时限/,
  },
  {
    name: "到点只交回错误、不 terminate()（提示 4）：worker 还在转，harness 退不出去",
    file: "tools/grep.ts",
    from: "      void worker.terminate();\n      resolve(undefined);",
    to: "      resolve(undefined);",
    fails: "灾难性的正则冻不住 harness",
    because: /撞上了场景的时限|冻住/,
  },
  {
    name: "不读 HARNESS_GREP_TIMEOUT_MS（提示 4）：时限写死成默认的 10 秒",
    file: "tools/grep.ts",
    from: 'setting("HARNESS_GREP_TIMEOUT_MS", 10_000)',
    to: "10_000",
    fails: "灾难性的正则冻不住 harness",
    because: /说出时限/,
  },
  {
    name: "走目录树时跟着指向目录的符号链接（提示 2）：outside 把工作目录外面的文件带进来，loop 绕圈",
    file: "tools/walk.ts",
    from: "if (e.isDirectory() && !SKIP_DIRS.has(e.name)) dirs.push(full);",
    to: "if ((e.isDirectory() || e.isSymbolicLink()) && !SKIP_DIRS.has(e.name)) dirs.push(full);",
    fails: "只在工作目录里找",
    because: /不跟符号链接|撞上了场景的时限/, // loop/loop/… 一层层走到 ELOOP、每层 150 个 gen 文件再被九次 grep 读一遍：多半拖到场景的时限，由那道闸判出来
  },
  {
    name: "path 参数不比真实路径（提示 2）：指向外面的符号链接当成工作目录里的目录",
    file: "tools/walk.ts",
    from: "if (base !== root && !base.startsWith(root + path.sep)) return",
    to: "if (false) return",
    fails: "只在工作目录里找",
    because: /realpath/,
  },
  {
    name: "比前缀不带分隔符（提示 2 的边界）：隔壁的 ../workshop 也算在工作目录“里面”",
    file: "tools/walk.ts",
    from: "!base.startsWith(root + path.sep)",
    to: "!base.startsWith(root)",
    fails: "只在工作目录里找",
    because: /分隔符/,
  },
  {
    name: "不跳过 .git（任务）",
    file: "tools/walk.ts",
    from: 'new Set([".git", "node_modules"])',
    to: 'new Set(["node_modules"])',
    fails: "grep 不进 .git、node_modules",
    because: /\.git/,
  },
  {
    name: "不认二进制文件（任务）",
    file: "tools/grep.ts",
    from: "if (bytes.subarray(0, Math.min(n, 8000)).includes(0)) return undefined;",
    to: "",
    fails: "grep 不进 .git、node_modules",
    because: /二进制/,
  },
  {
    name: "glob 的正则不锚定两头（提示 1：整条路径对上）：*.ts 对上了 view.tsx",
    file: "tools/walk.ts",
    from: "new RegExp(`^${re}$`)",
    to: "new RegExp(re)",
    fails: "glob：** 跨任意层",
    because: /view\.tsx/,
  },
  {
    name: "* 跨目录（提示 1）：*.ts 列出了 src 下的文件",
    file: "tools/walk.ts",
    from: 'else if (c === "*") re += "[^/]*";',
    to: 'else if (c === "*") re += ".*";',
    fails: "glob：** 跨任意层",
    because: /只看工作目录这一层/,
  },
  {
    name: "glob 按名字排、不按修改时间（任务：新改的在前）",
    file: "tools/glob.ts",
    from: "times.get(b)! - times.get(a)! || ",
    to: "",
    fails: "glob：** 跨任意层",
    because: /新改的在前/,
  },
  {
    name: "glob 不设上限（任务：最多 100 个）",
    file: "tools/glob.ts",
    from: "const lines = matched.slice(0, MAX_RESULTS);",
    to: "const lines = matched.slice();",
    fails: "glob 最多交回 100 个",
    because: /只列 100 个/,
  },
  {
    name: "ignore_case 被忽略",
    file: "tools/grep.ts",
    from: 'const flags = ignore_case === true ? "i" : "";',
    to: 'const flags = "";',
    fails: "grep 的三种输出",
    because: /不分大小写/,
  },
  {
    name: "grep 的 glob 参数被忽略",
    file: "tools/grep.ts",
    from: "const files = listed.files.filter((f) => !only || ",
    to: "const files = listed.files.filter((f) => true || ",
    fails: "grep 的三种输出",
    because: /只有它是 \.md/,
  },
  {
    name: "默认 content 模式（任务：默认 files_with_matches，和 Claude Code 一样）",
    file: "tools/grep.ts",
    from: 'const mode = output_mode ?? "files_with_matches";',
    to: 'const mode = output_mode ?? "content";',
    fails: "grep 的三种输出",
    because: /files_with_matches/,
  },
  {
    name: "head_limit 差一（<= 而不是 <）",
    file: "tools/grep.ts",
    from: "if (lines.length < limit) lines.push(mode === \"count\"",
    to: "if (lines.length <= limit) lines.push(mode === \"count\"",
    fails: "有界",
    because: /正好 5 行/,
  },
  {
    name: "长行不截断（任务：text 截断）",
    file: "tools/grep.ts",
    from: "if (line.length <= maxLine) return line;",
    to: "return line;",
    fails: "有界",
    because: /几百字以内/,
  },
  {
    name: "长行从头截（提示 3）：匹配的 NEEDLE 被截掉了",
    file: "tools/grep.ts",
    from: "let start = Math.max(0, line.search(re) - 40);",
    to: "let start = 0;",
    fails: "有界",
    because: /看得见匹配/,
  },
  {
    name: "照抄 V8 的报错（任务：自己的话）",
    file: "tools/grep.ts",
    from: "  } catch {\n    return `错误: pattern 不是合法的 JavaScript 正则表达式：${pattern}`;",
    to: "  } catch (e) {\n    return `错误: ${(e as Error).message}`;",
    fails: "坏的正则",
    because: /V8/,
  },
];

mutantSuite("07-2-search-tools", requirements, MUTANTS, 3);
