// 练习 07-2 的检查器：不经过 shell 的 glob 和 grep。
// 两个场景：search（一棵带着陷阱的目录树，一轮里十五个调用）和 redos（HARNESS_GREP_TIMEOUT_MS=500 下的 (a+)+$）。
// 陷阱在 setup 里现做：.git、node_modules 里的 TODO，开头就是 NUL 的 blob.bin，叫 queue.ts 的 FIFO，
// 指向工作目录外面（$HOME/secret）的 outside、src/link.ts，指向自己的 loop，150 个 gen/*.txt。
// 措辞不逐字比对：只看 README 定下的格式——每行一个相对于工作目录的路径（content 模式“路径:行号:那一行”，count 模式“路径:数目”），
// 说明性的行以“...”“注意”开头；错误以“错误”开头。
import { describe, toolResults, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

// 十五个调用，按 scenario.json 的顺序
const CALL = {
  globTs: 1, globGen: 2, globBraces: 3, grepContent: 4, grepCount: 5, grepAll: 6, grepDefault: 7,
  grepGlob: 8, grepLong: 9, grepOutside: 10, globUp: 11, grepBad: 12, grepHead: 13, globTop: 14, grepSibling: 15,
} as const;

function result(run: RunResult, call: number): string | undefined {
  return toolResults(run, 2)[call - 1];
}

// 结果里的“条目”行：去掉说明（...、注意、没有找到）
function entries(text: string | undefined): string[] {
  return (text ?? "").split("\n").filter((l) => l.trim() !== "" && !/^(\.\.\.|…|注意|没有)/.test(l.trim()));
}

// 原样的第 07 章没有这两个工具：它的“错误: 没有这个工具”不算对路径、正则说了不
function missing(text: string | undefined): string | undefined {
  return text?.includes("没有这个工具") ? `期望：先有 glob、grep 这两个工具；实际：${quote(text)}` : undefined;
}

const quote = (value: string | undefined) => (value === undefined ? "（没有这个结果）" : `“${describe(value)}”`);
const list = (items: string[]) => (items.length === 0 ? "（空）" : items.join("、"));

function how(run: RunResult): string {
  if (run.timedOut) return `（harness 没能结束，被场景超时终止了：多半是打开了 queue.ts 这个 FIFO、顺着 loop 绕圈，或者正则冻住了它；模型收到 ${run.requests} 次请求）`;
  if (run.bodies.length < 2) return `（模型只收到 ${run.requests} 次请求，harness 退出码 ${run.exitCode}）`;
  return "";
}

function sameList(what: string, got: string | undefined, want: string[], why: string, run: RunResult): string | undefined {
  const have = entries(got);
  if (have.join("\n") === want.join("\n")) return undefined;
  return `期望：${what}，依次是 ${list(want)}（${why}）；实际：${got === undefined ? `没有这个结果${how(run)}` : list(have)}`;
}

const FORBIDDEN: [RegExp, string][] = [
  [/(^|\/)\.git\//m, ".git 里的文件"],
  [/(^|\/)node_modules\//m, "node_modules 里的文件"],
  [/blob\.bin/, "二进制文件 blob.bin（开头就有 NUL 字节）"],
  [/queue\.ts/, "FIFO queue.ts"],
  [/(^|\/)outside\//m, "符号链接 outside 指向的工作目录外面"],
  [/src\/link\.ts/, "符号链接 src/link.ts（指向工作目录外面的文件）"],
  [/(^|\/)loop\//m, "指向自己的符号链接 loop"],
  [/工作目录外面的秘密/, "工作目录外面那个文件的内容"],
  [/隔壁目录 workshop/, "隔壁目录 ../workshop 里的内容"],
];

export const requirements: Requirement[] = [
  {
    name: "glob：** 跨任意层、* 不跨目录、{a,b}，整条路径对上（*.ts 对不上 view.tsx），只列普通文件，新改的在前",
    scenario: "search",
    check(run) {
      return (
        sameList("glob **/*.ts 列出各层的 .ts 普通文件，新改的在前", result(run, CALL.globTs), ["src/app.ts", "main.ts", "src/util.ts", "src/old.ts"], "view.tsx 不是 .ts，queue.ts 是 FIFO，src/link.ts 是符号链接，node_modules 不进", run) ??
        sameList("glob *.ts 只看工作目录这一层", result(run, CALL.globTop), ["main.ts"], "* 不跨目录；queue.ts 是 FIFO", run) ??
        sameList("glob {src,docs}/*.{ts,md}，新改的在前", result(run, CALL.globBraces), ["src/app.ts", "src/util.ts", "docs/guide.md", "src/old.ts"], "花括号任选其一；修改时间依次是 2024、2022、2021、2020 年", run)
      );
    },
  },
  {
    name: "glob 最多交回 100 个，说还有多少没列",
    scenario: "search",
    check(run) {
      const got = result(run, CALL.globGen);
      const n = entries(got).length;
      if (n !== 100 || !/\b50\b/.test(got ?? "")) return `期望：gen/*.txt 有 150 个，只列 100 个，再说一句还有 50 个没列；实际：列了 ${n} 个，${quote(got?.split("\n").filter((l) => !l.startsWith("gen/")).join(" / "))}${how(run)}`;
      return undefined;
    },
  },
  {
    name: "grep 的三种输出：content（路径:行号:那一行）、count、默认 files_with_matches；ignore_case；glob 只看对得上的文件",
    scenario: "search",
    check(run) {
      return (
        sameList("grep TODO，path src，output_mode content：每行“路径:行号:那一行”", result(run, CALL.grepContent), ["src/app.ts:2:  // TODO: 修好登录", "src/old.ts:1:export const old = 1; // TODO 旧文件", "src/view.tsx:1:export const View = () => null; // TODO tsx 不是 ts"], "按路径排序；src/link.ts 是符号链接，不跟", run) ??
        sameList("grep todo，ignore_case，output_mode count：每行“路径:匹配的行数”", result(run, CALL.grepCount), ["src/app.ts:2", "src/old.ts:1", "src/view.tsx:1"], "不分大小写时 app.ts 的“TODO”和“todo”两行都算", run) ??
        (() => {
          const got = entries(result(run, CALL.grepDefault));
          if (got.length === 0 || got.some((l) => /:\d+/.test(l)) || got[0] !== "docs/guide.md") {
            return `期望：不写 output_mode 就是 files_with_matches，每行一个文件路径（和 Claude Code 的 Grep 一样），按路径排序，第一个是 docs/guide.md；实际：${list(got.slice(0, 5))}${how(run)}`;
          }
          return undefined;
        })() ??
        sameList("grep TODO，glob *.md（不带 / 只比文件名）", result(run, CALL.grepGlob), ["docs/guide.md"], "只有它是 .md", run)
      );
    },
  },
  {
    name: "grep 不进 .git、node_modules，不读二进制文件，不打开 FIFO",
    scenario: "search",
    check(run) {
      const got = result(run, CALL.grepAll);
      if (got === undefined) return `期望：grep TODO（head_limit 500）走完整棵树；实际：没有这个结果${how(run)}`;
      for (const [re, what] of FORBIDDEN.slice(0, 4)) if (re.test(got)) return `期望：grep 不碰${what}；实际：结果里有它：${quote(got.split("\n").filter((l) => re.test(l)).join(" / "))}`;
      const have = entries(got);
      if (have.length !== 154 || !have.includes("src/app.ts")) return `期望：有 TODO 的普通文件一共 154 个（docs/guide.md、src 下三个、gen 下 150 个），head_limit 500 全列出来；实际：列了 ${have.length} 个`;
      return undefined;
    },
  },
  {
    name: "只在工作目录里找：path 出了工作目录（符号链接、..）是错误；走目录树时不跟符号链接",
    scenario: "search",
    check(run) {
      const outside = result(run, CALL.grepOutside);
      const none = missing(outside);
      if (none) return none;
      if (!outside?.trimStart().startsWith("错误")) return `期望：path 是 outside（指向工作目录外面的符号链接），解开链接后不在工作目录里，结果以“错误”开头；实际：${quote(outside)}${how(run)}——先 realpath 再比前缀`;
      const up = result(run, CALL.globUp);
      if (!up?.trimStart().startsWith("错误")) return `期望：glob 的 path 是 ../，出了工作目录，结果以“错误”开头；实际：${quote(up)}`;
      const sibling = result(run, CALL.grepSibling);
      if (!sibling?.trimStart().startsWith("错误")) return `期望：path 是 ../workshop——工作目录隔壁、名字恰好以工作目录的名字开头的目录，不在工作目录里，结果以“错误”开头；实际：${quote(sibling)}——比前缀时要带上路径分隔符（root + "/"），不然 /x/work 也算 /x/workshop 的“上级”`;
      for (const [call, text] of toolResults(run, 2).entries()) {
        for (const [re, what] of FORBIDDEN.slice(4)) {
          if (re.test(text)) return `期望：走目录树时不跟符号链接，工作目录外面的东西一个字也不进结果；实际：第 ${call + 1} 个调用的结果里有${what}：${quote(text.split("\n").filter((l) => re.test(l)).join(" / "))}`;
        }
      }
      return undefined;
    },
  },
  {
    name: "有界：head_limit 说几行就几行，说一共多少；默认最多 100 行；长行截断、看得见匹配的地方",
    scenario: "search",
    check(run) {
      const head = result(run, CALL.grepHead);
      if (entries(head).length !== 5 || !/\b150\b/.test(head ?? "")) return `期望：grep TODO，path gen，head_limit 5：正好 5 行，再说一共 150 条；实际：${entries(head).length} 行，${quote(head)}${how(run)}`;
      const all = result(run, CALL.grepDefault);
      if (entries(all).length !== 100 || !/\b154\b/.test(all ?? "")) return `期望：不写 head_limit 最多交回 100 行，再说一共 154 条；实际：${entries(all).length} 行${how(run)}`;
      const long = result(run, CALL.grepLong);
      const line = entries(long).find((l) => l.startsWith("long.txt:1:"));
      if (!line || line.length > 500 || !line.includes("NEEDLE")) {
        return `期望：long.txt 那一行有 6008 个字符，content 模式只交回一段（几百字以内），而且截的这一段里看得见匹配的 NEEDLE（它在第 3001 个字符附近）；实际：${line ? `${line.length} 个字符${line.includes("NEEDLE") ? "" : "，里面没有 NEEDLE"}` : quote(long)}`;
      }
      return undefined;
    },
  },
  {
    name: "坏的正则：错误，不照抄 V8 的原话",
    scenario: "search",
    check(run) {
      const bad = result(run, CALL.grepBad);
      const none = missing(bad);
      if (none) return none;
      if (!bad?.trimStart().startsWith("错误")) return `期望：pattern 是“(没有配对”，不是合法的正则，结果以“错误”开头；实际：${quote(bad)}${how(run)}`;
      if (/Invalid regular expression|Unterminated|SyntaxError/.test(bad)) return `期望：错误用自己的话说（V8 的原话随 Node 版本而变）；实际：${quote(bad)}`;
      return undefined;
    },
  },
  {
    name: "灾难性的正则冻不住 harness：搜索在停得下来的地方跑，到点（HARNESS_GREP_TIMEOUT_MS）停下、交回错误，harness 接着干活、自己退出",
    scenario: "redos",
    check(run) {
      if (run.timedOut) return `期望：(a+)+$ 匹配 60 个 a 加一个 b 要回溯 2 的 60 次方步；HARNESS_GREP_TIMEOUT_MS=500，0.5 秒一到就停下；实际：harness 被冻住，直到场景时限才被结束——在主线程上跑的正则谁也停不下来，放进 worker（到点 terminate()）或子进程（到点 kill）`;
      const first = toolResults(run, 2)[0];
      const none = missing(first);
      if (none) return none;
      if (!first?.trimStart().startsWith("错误")) return `期望：grep (a+)+$ 到点停下，结果以“错误”开头、说它超时了；实际：${quote(first)}${how(run)}`;
      if (!/(?<![\d.])(0\.5\s*(秒|s\b)|500\s*(毫秒|ms))/.test(first)) return `期望：错误里说出时限（HARNESS_GREP_TIMEOUT_MS=500，也就是 0.5 秒）：这个设置得管用；实际：${quote(first)}`;
      const next = toolResults(run, 3)[0];
      if (!next?.includes("input.txt")) return `期望：停下以后 harness 照常干活，接着的 glob *.txt 列出 input.txt；实际：${quote(next)}${how(run)}`;
      return undefined;
    },
  },
];
