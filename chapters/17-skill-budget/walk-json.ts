// walk-json.ts：找出一段坏 JSON 第一个读不下去的字符。它不是这一章的课（课是 registry.ts），是为了转录稳定：
// JSON.parse 的报错是 V8 的原话，Node 20 和 22 的说法不一样（22 起多了行号列号），照抄进工具结果，模型读到的字、
// 算出的 token 数就跟着运行时变。所以自己把 JSON 的语法走一遍。第 06 章新增。

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
  // 字符串一个字符一个字符地走，不用正则：几千万字的字符串会撑爆正则引擎的回溯栈（RangeError）
  const string = () => {
    if (!eat('"')) return false;
    while (i < text.length && text[i] !== '"') {
      if (text[i] < " ") return false; // 控制字符要转义
      if (text[i] !== "\\") i++;
      else if ('"\\/bfnrt'.includes(text[i + 1] ?? "x")) i += 2;
      else if (text[i + 1] === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
      else return false; // 坏的转义：停在反斜杠上
    }
    return eat('"');
  };
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
