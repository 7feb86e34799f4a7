// json.ts：一段 JSON 写坏了，用我们自己的话说坏在哪，不照抄 JSON.parse 的报错（为什么，见 walk-json.ts）。
// 第 06 章新增。
import { jsonErrorAt } from "./walk-json.ts";

// 给人（和模型）看的位置：“写到结尾还没写完”“在第 9 个字符处读不下去”，多行的说第几行第几列
export function describeJsonError(text: string): string {
  const at = jsonErrorAt(text);
  if (at < 0) return "看不出坏在哪里";
  if (at >= text.length) return "写到结尾还没写完";
  const lines = text.slice(0, at).split("\n");
  const column = [...lines.at(-1)!].length + 1; // 按字符数，不按 UTF-16 码元：一个汉字算一个
  return lines.length === 1 ? `在第 ${column} 个字符处读不下去` : `在第 ${lines.length} 行第 ${column} 列读不下去`;
}
