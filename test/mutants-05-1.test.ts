// 练习 05-1 的变异体：在参考答案的 tools/read-file.ts 上改一处，正是 README 的任务或 HINTS.md 提醒过的错。
// 检查器必须认出每一个，而且是管这件事的那条要求不通过（做法和 test/mutants.test.ts 一样）。一个场景、一次运行，每个都只要几秒。
// 没有变异体的几条，为什么：
// - 16 MiB 的文件上限：要造一个 16 MiB 的文件才看得见，检查器不为它花这个时间和磁盘；它只防“把整个大文件读进内存”。
// - 工具声明里 offset、limit 的描述：模型读的是措辞，检查器不比对措辞（脚本模型也不看）。
import { requirements } from "../exercises/05-1-read-range/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

const FILE = "tools/read-file.ts";

const MUTANTS: Mutant[] = [
  {
    name: "offset 当成从 0 数（提示 2）：offset=2001 读出来的是第 2002 行",
    file: FILE,
    from: "cut(lines[n - 1]!)",
    to: "cut(lines[n]!)",
    fails: "按行读",
    because: /从 0 数/,
  },
  {
    name: "读不完也不说怎么接着读（任务：最后一行说下一个 offset）",
    file: FILE,
    from: /\s*if \(next <= lines\.length\) rows\.push\([^\n]*\n/,
    to: "\n",
    fails: "还有没读的行",
    because: /下一次的起点 2001/,
  },
  {
    name: "只剩一行时不说接着读（< 和 <= 只差一个字符）",
    file: FILE,
    from: "if (next <= lines.length) rows.push(",
    to: "if (next < lines.length) rows.push(",
    fails: "还有没读的行",
    because: /下一次的起点 5000/,
  },
  {
    name: "最后一行也算超出（> 写成 >=）：offset=5000 报错",
    file: FILE,
    from: "if (offset > lines.length) return",
    to: "if (offset >= lines.length) return",
    fails: "按行读",
    because: /第 5000–5000 行/,
  },
  {
    name: "截断时不管代理对（提示 3）：slice(0, 2000) 留下半个 emoji",
    file: FILE,
    from: "if (code >= 0xd800 && code <= 0xdbff) end--;",
    to: "",
    fails: "超过 2000 个字符的行截断",
    because: /半个字/,
  },
  {
    name: "超长的行不截断",
    file: FILE,
    from: "if (line.length <= MAX_LINE_CHARS) return line;",
    to: "return line;",
    fails: "超过 2000 个字符的行截断",
    because: /交回了 \d+ 个字符/,
  },
  {
    name: "没给 limit 就读到文件末尾（任务：默认 2000 行）",
    file: FILE,
    from: "(limit as number | undefined) ?? DEFAULT_LIMIT",
    to: "(limit as number | undefined) ?? Infinity",
    fails: "按行读",
    because: /给出 2000 行/,
  },
  {
    name: "只要是数就收下（提示 2）：offset=1.5 也去读",
    file: FILE,
    from: "Number.isSafeInteger(value)",
    to: 'typeof value === "number"',
    fails: "offset 超出行数、不是正整数",
    because: /1\.5/,
  },
  {
    name: "超出行数的错误不说文件有几行",
    file: FILE,
    from: "：${path} 一共 ${lines.length} 行",
    to: "",
    fails: "offset 超出行数、不是正整数",
    because: /5000 行/,
  },
  {
    name: "只按 \\n 切行（提示 1）：CRLF 的行尾留着 \\r",
    file: FILE,
    from: ".split(/\\r?\\n/)",
    to: '.split("\\n")',
    fails: "CRLF 的行尾不带回车",
    because: /行尾的 \\r/,
  },
  {
    name: "空文件从第 1 行读也报“超出”（提示 1）",
    file: FILE,
    from: /\s*if \(lines\.length === 0 && offset === 1\) return [^\n]*\n/,
    to: "\n",
    fails: "CRLF 的行尾不带回车；空文件不是错误",
    because: /空文件|empty\.txt/,
  },
  {
    name: "把 null 当成给了值（提示 2）：模型给可选参数填 null，就成了错误",
    file: FILE,
    from: "const limit = parsed.limit ?? undefined;",
    to: "const limit = parsed.limit;",
    fails: "按行读",
    because: /第 5000–5000 行/,
  },
  {
    name: "不管一次交回多少字节（任务：256 KiB 为限）",
    file: FILE,
    from: "if (bytes > MAX_BYTES && rows.length > 0) break;",
    to: "",
    fails: "一次交回的总量有上限",
    because: /交回了 \d+ 行、\d+ 字节/,
  },
  {
    name: "只给 path 也带行号、按行读（任务：只给 path 时和第 05 章一样）",
    file: FILE,
    from: "const byLine = offset !== undefined || limit !== undefined;",
    to: "const byLine = true;",
    fails: "只给 path 时和第 05 章一样",
    because: /照第 05 章原样返回全文/,
  },
];

mutantSuite("05-1-read-range", requirements, MUTANTS, 4);
