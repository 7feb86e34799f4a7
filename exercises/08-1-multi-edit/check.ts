// 练习 08-1 的检查器：edit_file 的 replace_all，新工具 multi_edit（依次应用、全有或全无、只写一次）。
// 一个场景、一轮二十个调用，按顺序执行（第 08 章一个一个地跑工具）；最后 read_file 把五个文件读回来，
// bash 的 stat 记下 c.txt 前后的 inode、大小和 mtime（先写临时文件再改名，写过一次 inode 就变了）。
// 措辞不逐字比对：成功的不以“错误”开头，失败的以“错误”开头；说第几处编辑，认“第 3 处/个/条”“edits[2]”“#3”这几种。
import { describe, toolResults, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

const ORIGINAL = {
  "a.txt": "alpha beta alpha gamma alpha\n",
  "b.txt": "one two three\nfour five six\nfive\n",
  "c.txt": "x = 1\r\ny = 2\r\nz = 3",
  "d.txt": "cat house\n",
  "e.txt": "x x\n",
};
type File = keyof typeof ORIGINAL;
const FILES = Object.keys(ORIGINAL) as File[];

// 调用的顺序，和 scenario.json 一致
const CALLS = [
  "statBefore",
  "aNoAll", // edit_file a.txt alpha→ALPHA，没给 replace_all
  "aAll", // edit_file a.txt alpha→<$&>，replace_all: true
  "aAllNone", // edit_file a.txt zzz，replace_all: true
  "eString", // edit_file e.txt x→y，replace_all: "false"
  "eFalse", // edit_file e.txt x→y，replace_all: false
  "bMulti", // multi_edit b.txt：one→1、1 two→1 2、five→5（replace_all）
  "dChain", // multi_edit d.txt：cat→dog、dog house→kennel
  "cThird", // multi_edit c.txt：第 3 处找不到
  "cEmpty", // multi_edit c.txt：第 2 处 old_string 为空（replace_all: true）
  "cMany", // multi_edit c.txt：第 2 处多处匹配
  "cNone", // multi_edit c.txt：edits 为空
  "link", // multi_edit link.txt（指向工作目录外面）
  "parent", // multi_edit ../outside.txt
  "statAfter",
  ...FILES.map((f) => `read ${f}`),
] as const;
type Call = (typeof CALLS)[number];

function results(run: RunResult): Record<Call, string | undefined> {
  const got = toolResults(run, 2);
  return Object.fromEntries(CALLS.map((c, i) => [c, got[i]])) as Record<Call, string | undefined>;
}

const quote = (value: string | undefined) => (value === undefined ? describe(value) : `“${describe(value)}”`);
const isError = (r: string | undefined) => r !== undefined && r.trimStart().startsWith("错误");
const ok = (r: string | undefined) => r !== undefined && !isError(r);
const notReached = (run: RunResult) => (run.bodies.length < 2 ? `（模型只收到 ${run.requests} 次请求，harness 退出码 ${run.exitCode}）` : "");
// 说出了第 n 处编辑
const namesEdit = (r: string, n: number) => new RegExp(`第\\s*${n}\\s*(处|个|条|项)|edits\\[${n - 1}\\]|#${n}(?!\\d)|(编辑|edit)\\s*${n}(?!\\d)`, "i").test(r);
// 读回来的文件和期望的一字不差；不对就说差在哪
function content(run: RunResult, file: File, want: string, why: string): string | undefined {
  const got = results(run)[`read ${file}`];
  if (got === want) return undefined;
  return `期望：${file} 现在是 ${describe(JSON.stringify(want))}（${why}）；实际：读回来是 ${describe(got === undefined ? undefined : JSON.stringify(got))}${notReached(run)}`;
}
// bash 结果里 [stdout] 之后的几行
const stdoutLines = (r: string | undefined) => (r?.split("[stdout]\n")[1] ?? "").split("\n").filter(Boolean);

export const requirements: Requirement[] = [
  {
    name: "edit_file 的 replace_all: true 换掉每一处，结果说出几处，$& 原样写进去",
    scenario: "edits",
    check(run) {
      const r = results(run);
      if (!ok(r.aAll)) return `期望：a.txt 里 alpha 出现 3 次，给了 replace_all: true 就全换掉；实际：模型收到 ${quote(r.aAll)}${notReached(run)}`;
      if (!/(?<!\d)3(?!\d)/.test(r.aAll!)) return `期望：结果说出换了几处（3 处），模型才知道改动的范围；实际：${quote(r.aAll)}`;
      const wrong = content(run, "a.txt", "<$&> beta <$&> gamma <$&>\n", "new_string 是 <$&>，每一处原样换成它——给 replaceAll 传字符串的话，$& 会被当成“匹配到的那段”，得用函数传替换值");
      if (wrong) return wrong;
      if (!isError(r.aAllNone)) return `期望：replace_all: true 也要至少匹配一处，zzz 一处都没有是错误（模型记错了原文）；实际：${quote(r.aAllNone)}`;
      return undefined;
    },
  },
  {
    name: "没给 replace_all 或给 false 时，多处匹配照旧是错误，文件不动",
    scenario: "edits",
    check(run) {
      const r = results(run);
      if (!isError(r.aNoAll)) return `期望：没给 replace_all，a.txt 里 alpha 有 3 处，照第 08 章的规矩报错、不动文件；实际：${quote(r.aNoAll)}`;
      if (!isError(r.eFalse)) return `期望：replace_all: false 和没给一样，e.txt 里 x 有 2 处就是错误；实际：${quote(r.eFalse)}`;
      return content(run, "e.txt", ORIGINAL["e.txt"], "两次编辑都该被拒绝");
    },
  },
  {
    name: "replace_all 只认布尔值：字符串 \"false\" 是错误，不当成 true",
    scenario: "edits",
    check(run) {
      const r = results(run);
      if (!isError(r.eString)) return `期望：replace_all 给的是字符串 "false"，不是 true 也不是 false，报错、不动文件（拿 if (args.replace_all) 当开关，"false" 是真值，就会把每一处都换掉）；实际：${quote(r.eString)}`;
      return content(run, "e.txt", ORIGINAL["e.txt"], "replace_all: \"false\" 该被拒绝");
    },
  },
  {
    name: "multi_edit 依次应用：每一处作用在上一处改完的结果上，replace_all 照样管用",
    scenario: "edits",
    check(run) {
      const r = results(run);
      if (!ok(r.bMulti)) return `期望：b.txt 的三处编辑（one→1、1 two→1 2、five→5 且 replace_all）都成，模型收到成功的结果——第 2 处的 old_string “1 two” 只在第 1 处改完的结果里有，原文里没有；实际：${quote(r.bMulti)}${notReached(run)}`;
      const b = content(run, "b.txt", "1 2 three\nfour 5 six\n5\n", "第 2 处的 old_string “1 two” 只在第 1 处改完以后才有；第 3 处 replace_all 换掉两个 five");
      if (b) return b;
      if (!ok(r.dChain)) return `期望：d.txt 先 cat→dog，再 dog house→kennel——第 2 处要在第 1 处的结果上找，原文里没有 dog house；实际：${quote(r.dChain)}`;
      return content(run, "d.txt", "kennel\n", "两处编辑接连应用");
    },
  },
  {
    name: "multi_edit 全有或全无：哪一处不成，文件的字节、inode、mtime 都不变，错误说出是第几处",
    scenario: "edits",
    check(run) {
      const r = results(run);
      const cases: [Call, number | undefined, string][] = [
        ["cThird", 3, "第 3 处的 w = 9 找不到"],
        ["cMany", 2, "第 2 处的 “ = ” 在第 1 处改完以后出现 3 次，又没给 replace_all"],
        ["cNone", undefined, "edits 是空数组，什么也不做也要说一声"],
      ];
      for (const [call, n, why] of cases) {
        const got = r[call];
        if (!isError(got)) return `期望：c.txt 的这次 multi_edit 整个失败（${why}），模型收到以“错误”开头的结果；实际：${quote(got)}${notReached(run)}`;
        if (n !== undefined && !namesEdit(got!, n)) return `期望：错误说出是第几处编辑不成（从 1 数：第 ${n} 处）——模型才知道改哪一处；实际：${quote(got)}`;
      }
      const before = stdoutLines(r.statBefore)[0];
      const after = stdoutLines(r.statAfter)[0];
      const bytes = content(run, "c.txt", ORIGINAL["c.txt"], "四次 multi_edit 都失败，CRLF 和末尾没有换行也原样");
      if (bytes) return `${bytes}——前几处改好的结果不能先写进去：全都成了才写，只写一次`;
      if (!before || before !== after) return `期望：c.txt 一次也没被写过，inode、大小、mtime 和开始时一样（${describe(before)}）；实际：${describe(after)}——内容一样却换了 inode 或 mtime，说明失败的 multi_edit 还是写了文件`;
      const left = stdoutLines(r.statAfter).slice(2).filter((name) => !["a.txt", "b.txt", "c.txt", "d.txt", "e.txt", "link.txt"].includes(name));
      if (left.length > 0) return `期望：工作目录里不留下临时文件；实际：多出 ${describe(left.join("、"))}`;
      return undefined;
    },
  },
  {
    name: "空的 old_string 被拒绝（即使 replace_all: true）",
    scenario: "edits",
    check(run) {
      const got = results(run).cEmpty;
      if (!isError(got)) return `期望：第 2 处编辑的 old_string 是空字符串——空串在每两个字符之间都“匹配”，replace_all 会把 z 塞满整个文件——整个 multi_edit 被拒绝；实际：${quote(got)}${notReached(run)}`;
      if (!namesEdit(got!, 2)) return `期望：错误说出是第 2 处编辑；实际：${quote(got)}`;
      return content(run, "c.txt", ORIGINAL["c.txt"], "空 old_string 的 multi_edit 不该写任何东西");
    },
  },
  {
    name: "multi_edit 也守第 08 章的路径规则：工作目录外面的、链接指向外面的都不写",
    scenario: "edits",
    check(run) {
      const r = results(run);
      for (const [call, what] of [["link", "link.txt（符号链接，指向工作目录外的 ../outside.txt）"], ["parent", "../outside.txt"]] as const) {
        if (!isError(r[call])) return `期望：multi_edit ${what} 被拒绝——路径先过 resolveInside()，和 edit_file 一样；实际：${quote(r[call])}${notReached(run)}`;
      }
      const outside = stdoutLines(r.statAfter)[1];
      if (outside !== "keep") return `期望：工作目录外的 outside.txt 还是 keep；实际：${describe(outside)}`;
      return undefined;
    },
  },
];
