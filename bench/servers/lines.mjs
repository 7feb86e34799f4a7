// lines.mjs：两个陪测子进程共用的分行器和“大结果”缓存。和第 22 章 jsonrpc.ts 的 LineSplitter 同一个做法：
// 字节先攒着，等到换行才把整行拼起来解码一次（多字节字符被管道切开也不会坏）。
import { makeText } from "./payload.mjs";

export function onLines(stream, onLine) {
  let pending = [];
  stream.on("data", (chunk) => {
    let start = 0;
    let end;
    while ((end = chunk.indexOf(10, start)) >= 0) {
      pending.push(chunk.subarray(start, end));
      const line = (pending.length === 1 ? pending[0] : Buffer.concat(pending)).toString("utf8");
      pending = [];
      start = end + 1;
      if (line.trim() !== "") onLine(line);
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  });
}

// 大结果的 result 部分只序列化一次：要测的是管道和客户端，不是服务器每次重新 JSON.stringify 32 MiB
const blobs = new Map();
export function blobResult(bytes) {
  let json = blobs.get(bytes);
  if (json === undefined) {
    json = JSON.stringify({ content: [{ type: "text", text: makeText(bytes) }] });
    blobs.set(bytes, json);
  }
  return json;
}

// 一条响应：小的照常 JSON.stringify；大的把缓存好的 result 拼进去
export function respond(id, args) {
  if (typeof args?.bytes === "number") {
    return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${blobResult(args.bytes)}}\n`;
  }
  return JSON.stringify({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: String(args?.text ?? "") }] } }) + "\n";
}

// 模拟“启动要等 I/O”（连数据库、等网络）：进程起来以后再过这么久才开始读 stdin
export function whenReady(start) {
  const delay = Number(process.env.BENCH_READY_DELAY_MS ?? 0);
  if (delay > 0) setTimeout(start, delay);
  else start();
}
