// tools/read-file.ts：read_file 工具——读一个文本文件。相对路径相对于工作目录。
// 第 05 章新增：第一个工具，只有声明和执行两部分；只读普通文件，最多读 256 KiB——太长就给开头和结尾，说清中间省略了多少。
// 练习 05-1：给了 offset 或 limit 就按行读——每行带行号（像 cat -n），挑一段；没读完的，最后一行说怎么接着读。
import { constants } from "node:fs";
import fs from "node:fs/promises";
import { clip, type ToolSpec } from "../model.ts";

export const readFileSpec: ToolSpec = {
  name: "read_file",
  description: "读取一个文本文件。只给 path 时返回全部内容；给了 offset 或 limit 就按行读，每行前面带行号（像 cat -n），没读完的会说怎么接着读。相对路径相对于工作目录。",
  parameters: {
    type: "object",
    properties: {
      path: { type: "string", description: "文件路径" },
      offset: { type: "integer", description: "从第几行读起，第一行是 1" },
      limit: { type: "integer", description: "最多读几行，默认 2000" },
    },
    required: ["path"],
  },
};

const MAX_BYTES = 256 * 1024; // 一次最多读这么多字节
export const DEFAULT_LIMIT = 2000; // 按行读、没给 limit 时，一次最多几行
export const MAX_LINE_CHARS = 2000; // 一行最多交回这么多个字符：压缩过的 JS、一行一条的 JSON 日志，一行就能有几兆
const MAX_FILE = 16 * 1024 * 1024; // 按行读最多打开这么大的文件：要数行，得整个读进来

// 工具从不抛异常：出了错就把错误写成文字交还模型，让它自己换个路子
export async function readFile(args: string): Promise<string> {
  let parsed: { path?: unknown; offset?: unknown; limit?: unknown };
  try {
    parsed = JSON.parse(args) ?? {};
  } catch {
    return `错误: 参数不是合法 JSON: ${args}`;
  }
  const { path } = parsed;
  const offset = parsed.offset ?? undefined; // 有的模型给没用上的可选参数填 null：当作没给
  const limit = parsed.limit ?? undefined;
  if (typeof path !== "string" || path === "") return "错误: 缺少参数 path（字符串）";
  const byLine = offset !== undefined || limit !== undefined; // 只给 path：和原来一样读全文
  for (const [name, value] of [["offset", offset], ["limit", limit]] as const) {
    // 1.5、"10"、0、-3 都不猜：说清收到了什么，让模型自己改
    if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= 1)) return `错误: ${name} 要是正整数（行号从 1 数起），收到的是 ${clip(String(JSON.stringify(value)))}`;
  }
  let file: fs.FileHandle | undefined;
  try {
    // O_NONBLOCK：path 要是一个 FIFO，普通的 open 会一直等到有人往里写，这次调用就永远回不来。
    // 先打开、再看打开的到底是什么：先 stat 再 open 的话，中间那一刻文件可能被换掉
    file = await fs.open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const stat = await file.stat();
    if (stat.isDirectory()) return `错误: ${path} 是目录，不是文件`;
    if (!stat.isFile()) return `错误: ${path} 不是普通文件（设备、FIFO 或套接字），不读`; // /dev/zero 读不到头
    if (byLine) {
      if (stat.size > MAX_FILE) return `错误: ${path} 有 ${stat.size} 字节，超过 ${MAX_FILE / 1024 / 1024} MiB，不按行读`;
      const bytes = Buffer.alloc(stat.size);
      const { bytesRead } = await file.read(bytes, 0, bytes.length, 0);
      return numbered(path, splitLines(bytes.subarray(0, bytesRead).toString("utf8")), (offset as number | undefined) ?? 1, (limit as number | undefined) ?? DEFAULT_LIMIT);
    }
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

// 按行切开：\r\n 和 \n 都算行尾，行尾不留 \r；最后一个换行后面没有字，就不算多出一行（和 cat -n、wc -l 一样）
function splitLines(text: string): string[] {
  if (text === "") return [];
  return text.replace(/\r?\n$/, "").split(/\r?\n/);
}

// 第 offset 行起，最多 limit 行，每行“行号<Tab>内容”；还有没读的行，最后一行说下一次从哪儿读
function numbered(path: string, lines: string[], offset: number, limit: number): string {
  if (lines.length === 0 && offset === 1) return `（${path} 是空文件）`;
  if (offset > lines.length) return `错误: offset ${offset} 超出了文件的行数：${path} 一共 ${lines.length} 行`;
  const rows: string[] = [];
  let bytes = 0;
  const last = Math.min(lines.length, offset + limit - 1);
  for (let n = offset; n <= last; n++) {
    const row = `${String(n).padStart(6)}\t${cut(lines[n - 1]!)}`;
    bytes += Buffer.byteLength(row) + 1;
    if (bytes > MAX_BYTES && rows.length > 0) break; // 行再多也不超过 256 KiB：剩下的交给“接着读”
    rows.push(row);
  }
  const next = offset + rows.length;
  if (next <= lines.length) rows.push(`（还有 ${lines.length - next + 1} 行没读，一共 ${lines.length} 行；接着读用 offset=${next}）`);
  return rows.join("\n");
}

// 超长的行只留前 MAX_LINE_CHARS 个字符。JavaScript 的字符串按 UTF-16 数：emoji 这样的字占两个位置（代理对），
// 切在两半中间就留下半个字，交出去成了乱码，所以往前让一个
function cut(line: string): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  let end = MAX_LINE_CHARS;
  const code = line.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${line.slice(0, end)}…（这一行有 ${line.length} 个字符，只给了前 ${end} 个）`;
}
