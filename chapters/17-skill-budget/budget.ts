// budget.ts：工具结果的预算。太长的结果只留开头和结尾，中间换成一行“...省略 N 字符...”。
// 第 14 章新增：每个工具结果都会跟着历史在之后的每一轮重发一遍，一次 200 KB 的输出就能撑爆上下文。

// 留头也留尾：编译器和测试框架的报错、命令的总结，往往在输出的最后几行。
// 按字符（码点）数、按码点切，不会把一个 emoji 切成两半；只在原文上数和找位置，不把整段拆成数组——
// 40 MiB 的结果拆成一个个字符，光那个数组就要好几百 MB，留下的却只有两万个字符
export function fitBudget(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = codePoints(text);
  if (chars <= max) return text;
  const head = Math.ceil(max / 2);
  const tail = max - head;
  const headEnd = step(text, 0, head, 1);
  const tailStart = step(text, text.length, tail, -1);
  return `${text.slice(0, headEnd)}\n...省略 ${chars - head - tail} 字符...\n${text.slice(tailStart)}`;
}

// 位置 i 上是不是一对代理项（emoji 之类，两个 UTF-16 单元是一个字符）：高位 D800–DBFF 后面跟着低位 DC00–DFFF
function pairAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
}

function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i += pairAt(text, i) ? 2 : 1) n++;
  return n;
}

// 从 from 起往前（dir = 1）或往回（dir = -1）走 count 个字符，返回走到的位置
function step(text: string, from: number, count: number, dir: 1 | -1): number {
  let i = from;
  for (let n = 0; n < count; n++) i += dir * (pairAt(text, dir === 1 ? i : i - 2) ? 2 : 1);
  return i;
}
