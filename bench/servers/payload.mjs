// payload.mjs：大结果测试用的文字。确定性（同样的字节数永远生成同样的文字），正好那么多 UTF-8 字节，
// 里面有 2、3、4 字节的字符，还有 JSON 必须转义的引号、反斜杠、制表符和换行——
// 管道每 64 KiB 切一块，多字节字符一定会被切开；换行要是没转义好，一行就断成了两帧。
const PIECE = '第 22 章：多字节文字 ñ é ü 😀 🚀 "引号" 反斜杠\\ 制表\t换行\n';
const cache = new Map();

export function makeText(bytes) {
  let text = cache.get(bytes);
  if (text !== undefined) return text;
  const pieceBytes = Buffer.byteLength(PIECE, "utf8");
  const parts = [];
  let size = 0;
  for (let i = 0; size + pieceBytes + 12 <= bytes; i++) {
    const piece = `${i}${PIECE}`;
    parts.push(piece);
    size += Buffer.byteLength(piece, "utf8");
  }
  parts.push("x".repeat(bytes - size)); // 补齐到正好 bytes 个字节
  text = parts.join("");
  cache.set(bytes, text);
  return text;
}
