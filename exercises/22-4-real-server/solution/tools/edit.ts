// tools/edit.ts：write_file（整个写）和 edit_file（改一处）。路径都必须在工作目录里。
// 第 20 章改动：同一个文件的写入排队进行——并发的两次 edit_file 不能都读到旧内容、再互相覆盖。
import fs from "node:fs/promises";
import path from "node:path";
import type { ToolSpec } from "../model.ts";
import type { Tool } from "../registry.ts";
import { resolveInside } from "../workspace.ts";

const writeSpec: ToolSpec = {
  name: "write_file",
  description: "把内容整个写进一个文件（不存在就创建，连同缺的父目录；存在就覆盖）。路径必须在工作目录里。",
  parameters: {
    type: "object",
    properties: {
      path: { type: "string", description: "文件路径" },
      content: { type: "string", description: "文件的全部内容" },
    },
    required: ["path", "content"],
  },
};

const editSpec: ToolSpec = {
  name: "edit_file",
  description: "把文件里的一段文字换成另一段。old_string 必须在文件里恰好出现一次：多带几行上下文让它唯一。",
  parameters: {
    type: "object",
    properties: {
      path: { type: "string", description: "文件路径" },
      old_string: { type: "string", description: "要被替换的原文，必须逐字一致、只出现一次" },
      new_string: { type: "string", description: "替换成的新文字" },
    },
    required: ["path", "old_string", "new_string"],
  },
};

// 每个文件一条队列。edit_file 是“读—改—写”，中间隔着 await：两个并发的编辑要是都先读到旧内容，
// 后写的那个就会把先写的改动整个盖掉。队列让同一个文件的写入一个接一个，不同的文件照样并行
const queues = new Map<string, Promise<unknown>>();

function exclusive<T>(file: string, work: () => Promise<T>): Promise<T> {
  const run = (queues.get(file) ?? Promise.resolve()).then(work);
  const tail = run.catch(() => {}); // 前一个失败了，后一个照样轮到
  queues.set(file, tail);
  tail.then(() => {
    if (queues.get(file) === tail) queues.delete(file); // 队列空了就清掉，表不会越长越大
  });
  return run;
}

async function writeFile(args: string): Promise<string> {
  const { path: p, content } = JSON.parse(args);
  if (typeof p !== "string" || p === "") return "错误: 缺少参数 path（字符串）";
  if (typeof content !== "string") return "错误: 缺少参数 content（字符串）";
  const target = inside(p);
  if (target.startsWith("错误:")) return target;
  await exclusive(target, async () => {
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, content);
  });
  return `已写入 ${p}（${Buffer.byteLength(content)} 字节）`;
}

async function editFile(args: string): Promise<string> {
  const { path: p, old_string: oldText, new_string: newText } = JSON.parse(args);
  if (typeof p !== "string" || p === "") return "错误: 缺少参数 path（字符串）";
  if (typeof oldText !== "string" || oldText === "") return "错误: 缺少参数 old_string（非空字符串）";
  if (typeof newText !== "string") return "错误: 缺少参数 new_string（字符串）";
  const target = inside(p);
  if (target.startsWith("错误:")) return target;
  return exclusive(target, () => replaceOnce(target, p, oldText, newText));
}

async function replaceOnce(target: string, p: string, oldText: string, newText: string): Promise<string> {
  let content: string;
  try {
    content = await fs.readFile(target, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return `错误: 文件不存在：${p}（新文件请用 write_file）`;
    throw e;
  }
  // 只改唯一的那一处：零处说明模型记错了原文，多处说明它没给够上下文——两种都不能猜
  const count = content.split(oldText).length - 1;
  if (count === 0) return `错误: ${p} 里找不到 old_string（0 处匹配），文件没有改动；先 read_file 看清原文再改`;
  if (count > 1) return `错误: old_string 在 ${p} 里出现了 ${count} 次，文件没有改动；多带几行上下文，让它只匹配一处`;
  // 用函数做替换值：否则 new_string 里的 "$&"、"$1" 会被 replace 当成特殊模式
  await fs.writeFile(target, content.replace(oldText, () => newText));
  return `已修改 ${p}：替换了 1 处`;
}

// 工作目录里的绝对路径；在外面就返回一句“错误:”（绝对路径不会以它开头）
function inside(p: string): string {
  try {
    return resolveInside(process.cwd(), p);
  } catch (e) {
    return `错误: ${(e as Error).message}`;
  }
}

export const writeFileTool: Tool = { definition: () => writeSpec, execute: writeFile };
export const editFileTool: Tool = { definition: () => editSpec, execute: editFile };
