// tools/edit.ts：write_file（整个写）和 edit_file（改一处）。路径都必须在工作目录里。
// 第 08 章新增：出错时一个字节都不写。不往有几个硬链接的文件里写；先写进同一目录的临时文件，再改名换上去。
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { ToolSpec } from "../model.ts";
import type { Tool } from "../registry.ts";
import { readTextFile } from "../text-file.ts";
import { resolveInside } from "../workspace.ts";

// 16 MiB：再大的文件，不该靠“找到唯一的一段、换掉它”来改
const MAX_EDIT_BYTES = 16 * 1024 * 1024;

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

async function writeFile(args: string): Promise<string> {
  const { path: p, content } = JSON.parse(args);
  if (typeof p !== "string" || p === "") return "错误: 缺少参数 path（字符串）";
  if (typeof content !== "string") return "错误: 缺少参数 content（字符串）";
  const target = inside(p);
  if (target.startsWith("错误:")) return target;
  await fs.mkdir(path.dirname(target), { recursive: true });
  const refused = await replaceFile(target, p, content);
  if (refused) return refused;
  return `已写入 ${p}（${Buffer.byteLength(content)} 字节）`;
}

async function editFile(args: string): Promise<string> {
  const { path: p, old_string: oldText, new_string: newText } = JSON.parse(args);
  if (typeof p !== "string" || p === "") return "错误: 缺少参数 path（字符串）";
  if (typeof oldText !== "string" || oldText === "") return "错误: 缺少参数 old_string（非空字符串）";
  if (typeof newText !== "string") return "错误: 缺少参数 new_string（字符串）";
  const target = inside(p);
  if (target.startsWith("错误:")) return target;
  const links = await hardLinked(target, p);
  if (links) return links;
  let content: string;
  try {
    // 只改普通文件：工作目录里的 FIFO 会让 readFile 一直等下去（text-file.ts 先看清打开的是什么）
    content = readTextFile(target, { max: MAX_EDIT_BYTES });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return `错误: 文件不存在：${p}（新文件请用 write_file）`;
    if (code !== undefined) return `错误: 读不了 ${p}（${code}），文件没有改动`; // 只报错误码或 text-file.ts 自己的话
    throw e;
  }
  // 只改唯一的那一处：零处说明模型记错了原文，多处说明它没给够上下文——两种都不能猜
  const count = content.split(oldText).length - 1;
  if (count === 0) return `错误: ${p} 里找不到 old_string（0 处匹配），文件没有改动；先 read_file 看清原文再改`;
  if (count > 1) return `错误: old_string 在 ${p} 里出现了 ${count} 次，文件没有改动；多带几行上下文，让它只匹配一处`;
  // 用函数做替换值：否则 new_string 里的 "$&"、"$1" 会被 replace 当成特殊模式
  const refused = await replaceFile(target, p, content.replace(oldText, () => newText));
  if (refused) return refused;
  return `已修改 ${p}：替换了 1 处`;
}

// 硬链接和符号链接不一样：它就是同一个文件的另一个名字，realpath 解不开。工作目录里的 notes.txt
// 要是 ~/.bashrc 的硬链接，往 notes.txt 里写就是改 ~/.bashrc。有不止一个名字的文件，一律不碰
async function hardLinked(target: string, p: string): Promise<string | undefined> {
  const stat = await fs.lstat(target).catch(() => undefined);
  if (stat && stat.isFile() && stat.nlink > 1) return `错误: ${p} 有 ${stat.nlink} 个硬链接（别处还有名字指着同一个文件，可能在工作目录外），不改它`;
  return undefined;
}

// 先写进同一目录里的临时文件（wx：已存在就失败，不会顺着别人放的链接写），再 rename 换上去：
// rename 换的是目录项，不往原来那个文件里写；写到一半出错，原文件也完好。返回一句“错误:”表示没有写
async function replaceFile(target: string, p: string, content: string): Promise<string | undefined> {
  const links = await hardLinked(target, p);
  if (links) return links;
  const old = await fs.stat(target).catch(() => undefined);
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${crypto.randomBytes(4).toString("hex")}.tmp`);
  try {
    await fs.writeFile(temp, content, { flag: "wx" });
    if (old) await fs.chmod(temp, old.mode & 0o7777); // 换上去的新文件保留原来的模式位（可执行的脚本还可执行）
    await fs.rename(temp, target);
  } catch (e) {
    await fs.rm(temp, { force: true });
    throw e;
  }
  return undefined;
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
