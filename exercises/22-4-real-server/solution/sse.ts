// sse.ts：手写的 SSE（Server-Sent Events）读取器：把字节流切成事件，交出 data: 的内容，读到 [DONE] 为止。
// 第 03 章新增。

// 流在 [DONE] 之前就结束了。这句是我们自己的话，调用方可以照转；底层的流出了错（连接被掐断），那个错误原样抛出
export class StreamEndedError extends Error {}

export async function* readSSE(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  // 网络不管字符边界：一个汉字的三个字节可能分在两块里到达。
  // stream: true 让解码器把不完整的尾巴留到下一块再解，而不是当场解成乱码
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, end).replace(/\r$/, "");
      buffer = buffer.slice(end + 1);
      if (line === "") {
        // 空行：一个事件结束。一个事件可以有好几行 data:，按规矩用换行连起来
        if (data.length === 0) continue;
        const payload = data.join("\n");
        data = [];
        if (payload === "[DONE]") return;
        yield payload;
      } else if (line.startsWith("data:")) {
        data.push(line.slice(5).replace(/^ /, ""));
      }
      // 其余的行用不上：":" 开头的是注释（服务繁忙时 DeepSeek 会发 ": keep-alive"），还有 event:、id:
    }
  }
  throw new StreamEndedError("流在 [DONE] 之前就结束了");
}
