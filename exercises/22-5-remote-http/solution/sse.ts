// sse.ts：手写的 SSE（Server-Sent Events）读取器：把字节流切成事件，交出 data: 的内容，读到 [DONE] 为止。
// 第 03 章新增。一行、一个事件都有上限：服务器不发换行、一直发下去，内存不会被它吃光。
// 练习 22-5：给了 seen 的话，顺手记下流里最后一个事件 id（id:）和服务器要的重连间隔（retry:），断掉的流靠它们续上。

// 流在 [DONE] 之前就结束了。这句是我们自己的话，调用方可以照转；底层的流出了错（连接被掐断），那个错误原样抛出
export class StreamEndedError extends Error {}
// 一行或一个事件超过了上限：不是网络断了，是对方不按规矩说话
export class LineTooLongError extends StreamEndedError {}

// 正常的流一行不过几 KB（一小段文字、一截工具参数）；1 MiB 足够宽，又远小于能撑爆内存的量
export const MAX_LINE = 1024 * 1024;

// 续传要的两样（练习 22-5）：最后一个事件 id，和服务器说的重连前要等多少毫秒
export interface Resumable {
  lastEventId?: string;
  retry?: number;
}

export async function* readSSE(body: ReadableStream<Uint8Array>, max = MAX_LINE, seen?: Resumable): AsyncGenerator<string> {
  // 网络不管字符边界：一个汉字的三个字节可能分在两块里到达。
  // stream: true 让解码器把不完整的尾巴留到下一块再解，而不是当场解成乱码
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  let size = 0; // data 里已经攒了多少字符
  const tooLong = () => new LineTooLongError(`服务器发来的一行或一个事件超过了 ${max} 个字符，不像正常的流，不再读下去`);
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n")) >= 0) {
      if (end > max) throw tooLong();
      const line = buffer.slice(0, end).replace(/\r$/, "");
      buffer = buffer.slice(end + 1);
      if (line === "") {
        // 空行：一个事件结束。一个事件可以有好几行 data:，按规矩用换行连起来
        if (data.length === 0) continue;
        const payload = data.join("\n");
        data = [];
        size = 0;
        if (payload === "[DONE]") return;
        yield payload;
      } else if (line.startsWith("data:")) {
        data.push(line.slice(5).replace(/^ /, ""));
        size += line.length;
        if (size > max) throw tooLong(); // 很多行 data: 却一直不发空行，也是一样
      } else if (seen && line.startsWith("id:")) {
        const id = line.slice(3).replace(/^ /, "");
        if (!id.includes("\0")) seen.lastEventId = id; // 规范：带 NUL 的 id 不算
      } else if (seen && /^retry: ?\d+$/.test(line)) {
        seen.retry = Number(line.slice(6).trim());
      }
      // 其余的行用不上：":" 开头的是注释（服务繁忙时 DeepSeek 会发 ": keep-alive"），还有 event:（没给 seen 时还有 id:、retry:）
    }
    // 还没等到换行就已经超长：不必等它说完（也许永远说不完），抛出时 for await 会取消这个流、断开连接
    if (buffer.length > max) throw tooLong();
  }
  throw new StreamEndedError("流在 [DONE] 之前就结束了");
}
