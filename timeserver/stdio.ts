// stdio 传输：一行一个 JSON-RPC 消息。stdout 只许出现协议消息，日志一律走 stderr。
import { answerText, errorReply, type Message } from "./protocol.ts";

// 一行最长 64 MiB（和第 22 章的客户端一样）。超过了就不再攒：答一个 -32600，丢掉这一行剩下的字节，
// 从下一个换行接着服务——没有上限的话，一个不换行的客户端能让我们一直长内存，直到进程被杀。
// 这时还没解析，不知道 id，所以 id 是 null；选 -32600（不是合法的请求）而不是 -32700：不是 JSON 写错了，是太长了
// 测试用 TIMESERVER_MAX_LINE（字节）把它调小，验证这条规矩只花几毫秒，不必真的灌 64 MiB
export const MAX_LINE = 64 * 1024 * 1024;

function size2text(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : `${Math.round(bytes / 1024)} KiB`;
}

function send(msg: Message | undefined): void {
  if (msg) process.stdout.write(JSON.stringify(msg) + "\n");
}

export function serveStdio(maxLine = MAX_LINE): void {
  // 第 22 章 LineSplitter 的做法：还没等到换行的块放在数组里，换行到了才拼一次、解码一次。
  // 每来一块就把整个缓冲区重拼一遍的话，一行 20 MB 要拼几百次，时间随长度平方增长，其间别的请求全被堵着。
  // 按字节攒到换行再解码：一个汉字的三个字节可能分在两次 data 事件里，半个字先解码就成了乱码。
  let parts: Buffer[] = [];
  let size = 0;
  let dropping = false; // 这一行已经超长，丢弃直到换行

  function collect(piece: Buffer): void {
    if (dropping || piece.length === 0) return;
    size += piece.length;
    if (size <= maxLine) return void parts.push(piece);
    dropping = true;
    parts = [];
    send(errorReply(null, -32600, `无效请求：一行超过了 ${size2text(maxLine)}，整行丢弃`));
  }

  function endLine(): void {
    const line = dropping ? "" : Buffer.concat(parts).toString("utf8").replace(/\r$/, "");
    parts = [];
    size = 0;
    dropping = false;
    if (line.trim() !== "") send(answerText(line));
  }

  process.stdin.on("data", (chunk: Buffer) => {
    let start = 0;
    let nl: number;
    while ((nl = chunk.indexOf(0x0a, start)) !== -1) {
      collect(chunk.subarray(start, nl));
      endLine();
      start = nl + 1;
    }
    collect(chunk.subarray(start));
  });
  // 客户端关掉我们的 stdin 就是"结束会话"：最后一行没带换行也照样处理；
  // 之后事件循环里没有别的事了，进程等 stdout 写完自己以 0 退出
  process.stdin.on("end", endLine);
  // 客户端先走了，stdout 写不出去（EPIPE）：没人听了，安静退出
  process.stdout.on("error", () => process.exit(0));
}
