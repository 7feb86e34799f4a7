// jsonrpc.ts：MCP 在 stdio 上的帧——一行一个 JSON-RPC 消息，以换行结尾。
// 第 22 章新增：手写的分行器。字节先攒着，等到换行符才把这一整行解码成文字：
// 一个汉字的三个字节可能分在两块里到达，按块解码就会出乱码（第 03 章的 SSE 是同一个道理）。
// 一行有上限：对面是别人的进程，它写多长不由我们说了算。

export type Id = number | string;

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

// 三种形状共用一个类型：有 method 有 id 是请求，有 method 没 id 是通知，没有 method 是响应
export interface RpcMessage {
  jsonrpc: "2.0";
  id?: Id | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: RpcError;
}

// 一条消息占一行：JSON.stringify 不会输出换行符（字符串里的换行会被转义成 \n），所以一行就是一帧
export function encode(message: RpcMessage): string {
  return JSON.stringify(message) + "\n";
}

// 一条消息最长 64 MiB。没有上限的话，一个只写不换行的服务器能让我们一直长内存，直到整个 harness 被杀掉；
// 官方 SDK 的上限是 10 MiB，我们放宽到 64 MiB，好让 32 MiB 的结果也能完整收下。
// 这是默认值：main.ts 从 HARNESS_MCP_MAX_LINE（字节）读，测试调成 1 MiB，一行超长的场景几毫秒就跑完
export const MAX_LINE = 64 * 1024 * 1024;

export class LineSplitter {
  // 还没等到换行的那些块。只在换行到来时拼一次，5 MB 的一行也只拼一次，不会越拼越慢
  private pending: Buffer[] = [];
  private size = 0; // pending 里一共多少字节
  private readonly max: number;

  constructor(max = MAX_LINE) {
    this.max = max;
  }

  // 返回 false：这一行超过了上限。攒下的已经扔掉，这条连接说的话也不能再信了，调用方该断开它
  push(chunk: Buffer, onLine: (line: string) => void): boolean {
    let start = 0;
    let end: number;
    while ((end = chunk.indexOf(0x0a, start)) >= 0) {
      const size = this.size + end - start;
      if (size > this.max) return this.overflow();
      let line: string;
      if (this.size === 0) {
        line = chunk.toString("utf8", start, end); // 最常见的情形：整行都在这一块里，直接解码，不用拼
      } else {
        this.pending.push(chunk.subarray(start, end));
        line = Buffer.concat(this.pending, size).toString("utf8");
        this.pending = [];
        this.size = 0;
      }
      start = end + 1;
      onLine(line.endsWith("\r") ? line.slice(0, -1) : line); // 有的服务器在 Windows 上写 \r\n
    }
    if (start < chunk.length) {
      this.size += chunk.length - start;
      if (this.size > this.max) return this.overflow();
      this.pending.push(chunk.subarray(start));
    }
    return true;
  }

  private overflow(): false {
    this.pending = [];
    this.size = 0;
    return false;
  }
}
