// tools/read-file.ts：read_file 工具——读一个文本文件。相对路径相对于工作目录。
// 第 06 章改动：包成 Tool 接口（definition + execute），登记进注册表。
import { constants } from "node:fs";
import fs from "node:fs/promises";
import type { ToolSpec } from "../model.ts";
import type { Tool } from "../registry.ts";

const spec: ToolSpec = {
  name: "read_file",
  description: "读取一个文本文件的全部内容。相对路径相对于工作目录。",
  parameters: {
    type: "object",
    properties: { path: { type: "string", description: "文件路径" } },
    required: ["path"],
  },
};

const MAX_BYTES = 256 * 1024; // 一次最多读这么多字节

// 工具从不抛异常：出了错就把错误写成文字交还模型，让它自己换个路子
async function readFile(args: string): Promise<string> {
  let path: unknown;
  try {
    path = JSON.parse(args)?.path;
  } catch {
    return `错误: 参数不是合法 JSON: ${args}`;
  }
  if (typeof path !== "string" || path === "") return "错误: 缺少参数 path（字符串）";
  let file: fs.FileHandle | undefined;
  try {
    // O_NONBLOCK：path 要是一个 FIFO，普通的 open 会一直等到有人往里写，这次调用就永远回不来。
    // 先打开、再看打开的到底是什么：先 stat 再 open 的话，中间那一刻文件可能被换掉
    file = await fs.open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const stat = await file.stat();
    if (stat.isDirectory()) return `错误: ${path} 是目录，不是文件`;
    if (!stat.isFile()) return `错误: ${path} 不是普通文件（设备、FIFO 或套接字），不读`; // /dev/zero 读不到头
    // 只读交得出去的那么多：再多也塞不进模型的上下文
    if (stat.size <= MAX_BYTES) {
      const bytes = Buffer.alloc(stat.size);
      const { bytesRead } = await file.read(bytes, 0, bytes.length, 0);
      return bytes.subarray(0, bytesRead).toString("utf8");
    }
    // 太长：开头和结尾各读一半。只给开头的话，日志末尾的报错、文件最后那个函数模型永远看不到
    const half = MAX_BYTES / 2;
    const head = Buffer.alloc(half);
    const tail = Buffer.alloc(half);
    const { bytesRead: headRead } = await file.read(head, 0, half, 0);
    const { bytesRead: tailRead } = await file.read(tail, 0, half, stat.size - half);
    // 切在半个汉字上：开头的尾巴 stream: true 留着不解码；结尾的前面跳过 UTF-8 的续字节（10xxxxxx），都不会多出乱码
    let skip = 0;
    while (skip < tailRead && (tail[skip] & 0xc0) === 0x80) skip++;
    const headText = new TextDecoder().decode(head.subarray(0, headRead), { stream: true });
    const tailText = tail.subarray(skip, tailRead).toString("utf8");
    const omitted = stat.size - headRead - (tailRead - skip);
    return `${headText}\n...（文件有 ${stat.size} 字节，太长：下面是开头和结尾，中间省略了 ${omitted} 字节）...\n${tailText}`;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return `错误: 文件不存在：${path}`;
    if (code === "EISDIR") return `错误: ${path} 是目录，不是文件`;
    // 别的错只说错误码（EACCES、ELOOP……）：异常的原话出自 Node，路径里有空字符时还带着它用 util.inspect 打出来的参数
    return `错误: 读取 ${path} 失败：${code ?? (e as Error).name}`;
  } finally {
    await file?.close();
  }
}

export const readFileTool: Tool = {
  definition: () => spec,
  execute: readFile,
};
