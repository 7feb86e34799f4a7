// json.ts：一段 JSON 写坏了，自己说清楚坏在哪。JSON.parse 的报错是 V8 的原话，Node 20 和 22 的说法就不一样
// （22 起多了行号列号）：照抄进工具结果，模型读到的字、算出的 token 数就跟着运行时变。所以自己把语法走一遍。
// 第 06 章新增。

const STRING = /"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*/y; // 到右引号之前为止
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

// 第一个读不下去的字符的下标；读到结尾还没完是 text.length；整段都合法是 -1
export function jsonErrorAt(text: string): number {
  const open: string[] = []; // 还没合上的 { 和 [
  let i = 0;
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const match = (re: RegExp) => {
    re.lastIndex = i;
    const m = re.exec(text);
    if (m) i += m[0].length;
    return m !== null;
  };
  const eat = (ch: string) => {
    if (text[i] !== ch) return false;
    i++;
    return true;
  };
  const string = () => match(STRING) && eat('"');
  const key = () => {
    space();
    if (!string()) return false;
    space();
    return eat(":");
  };
  for (;;) {
    // 这里要一个值
    space();
    const c = text[i];
    if (c === "{" || c === "[") {
      open.push(c);
      i++;
      space();
      if (text[i] === (c === "{" ? "}" : "]")) {
        open.pop();
        i++;
      } else if (c === "{" && !key()) return i;
      else continue;
    } else if (c === '"') {
      if (!string()) return i;
    } else if (c === "t" || c === "f" || c === "n") {
      for (const ch of c === "t" ? "true" : c === "f" ? "false" : "null") {
        if (text[i] !== ch) return i;
        i++;
      }
    } else if (!match(NUMBER)) return i;
    // 一个值读完了：后面该是逗号、右括号，或者（最外层）结尾
    for (;;) {
      space();
      const top = open.at(-1);
      if (top === undefined) return i < text.length ? i : -1;
      if (text[i] === (top === "{" ? "}" : "]")) {
        open.pop();
        i++;
      } else if (text[i] === ",") {
        i++;
        if (top === "{" && !key()) return i;
        break;
      } else return i;
    }
  }
}

// 给人（和模型）看的位置：“写到结尾还没写完”“在第 9 个字符处读不下去”，多行的说第几行第几列
export function describeJsonError(text: string): string {
  const at = jsonErrorAt(text);
  if (at < 0) return "看不出坏在哪里";
  if (at >= text.length) return "写到结尾还没写完";
  const lines = text.slice(0, at).split("\n");
  const column = [...lines.at(-1)!].length + 1; // 按字符数，不按 UTF-16 码元：一个汉字算一个
  return lines.length === 1 ? `在第 ${column} 个字符处读不下去` : `在第 ${lines.length} 行第 ${column} 列读不下去`;
}
