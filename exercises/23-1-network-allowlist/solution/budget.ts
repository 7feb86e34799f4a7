// budget.ts：工具结果的预算。太长的结果只留开头和结尾，中间换成一行“...省略 N 字符...”。
// 第 14 章新增：每个工具结果都会跟着历史在之后的每一轮重发一遍，一次 200 KB 的输出就能撑爆上下文。

// 留头也留尾：编译器和测试框架的报错、命令的总结，往往在输出的最后几行
export function fitBudget(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = Array.from(text); // 按字符（码点）切，不会把一个 emoji 切成两半
  if (chars.length <= max) return text;
  const head = Math.ceil(max / 2);
  const tail = max - head;
  const omitted = chars.length - head - tail;
  return `${chars.slice(0, head).join("")}\n...省略 ${omitted} 字符...\n${chars.slice(chars.length - tail).join("")}`;
}
