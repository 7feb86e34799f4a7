// tools/edit.ts：write_file（整个写）和 edit_file（改一处）。路径都必须在工作目录里。
// 第 08 章新增：出错时一个字节都不写。不往有几个硬链接的文件里写；先写进同一目录的临时文件，再改名换上去。
// 练习 08-1：edit_file 多一个 replace_all；新工具 multi_edit 在一个文件上依次做几处编辑，全成或全不成。
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
  description: "把文件里的一段文字换成另一段。old_string 必须在文件里恰好出现一次：多带几行上下文让它唯一；要换掉每一处就给 replace_all: true。",
  parameters: {
    type: "object",
    properties: {
      path: { type: "string", description: "文件路径" },
      old_string: { type: "string", description: "要被替换的原文，必须逐字一致、只出现一次（replace_all 时可以多处）" },
      new_string: { type: "string", description: "替换成的新文字" },
      replace_all: { type: "boolean", description: "true：换掉每一处；不给或 false：只许恰好一处" },
    },
    required: ["path", "old_string", "new_string"],
  },
};

const multiSpec: ToolSpec = {
  name: "multi_edit",
  description: "在一个文件上依次做几处编辑，每一处作用在上一处改完的结果上；任何一处不成，整个文件不动。",
  parameters: {
    type: "object",
    properties: {
      path: { type: "string", description: "文件路径" },
      edits: {
        type: "array",
        description: "按顺序做的编辑，每个和 edit_file 的参数一样",
        items: {
          type: "object",
          properties: {
            old_string: { type: "string", description: "要被替换的原文" },
            new_string: { type: "string", description: "替换成的新文字" },
            replace_all: { type: "boolean", description: "true：换掉每一处" },
          },
          required: ["old_string", "new_string"],
        },
      },
    },
    required: ["path", "edits"],
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

interface Edit {
  old_string: string;
  new_string: string;
  replace_all: boolean;
}

// 一处编辑的参数：检查过的 Edit，或者一句说明哪里不对的话（不带“错误:”，调用方加上是第几处）
function checkEdit(e: any): Edit | string {
  if (e === null || typeof e !== "object" || Array.isArray(e)) return "要是一个对象 {old_string, new_string, replace_all?}";
  if (typeof e.old_string !== "string" || e.old_string === "") return "缺少参数 old_string（非空字符串）";
  if (typeof e.new_string !== "string") return "缺少参数 new_string（字符串）";
  // 只认布尔值：字符串 "false" 是真值，拿它当开关就会把每一处都换掉
  if (e.replace_all !== undefined && typeof e.replace_all !== "boolean") return "replace_all 要是 true 或 false";
  return { old_string: e.old_string, new_string: e.new_string, replace_all: e.replace_all === true };
}

// 在 content 上做一处编辑：改好的文字和换了几处，或者一句为什么不能改
function applyEdit(content: string, p: string, edit: Edit): { text: string; count: number } | string {
  // 零处说明模型记错了原文；多处而没说 replace_all，说明它没给够上下文——两种都不能猜
  const count = content.split(edit.old_string).length - 1;
  if (count === 0) return `${p} 里找不到 old_string（0 处匹配），文件没有改动；先 read_file 看清原文再改`;
  if (count > 1 && !edit.replace_all) return `old_string 在 ${p} 里出现了 ${count} 次，文件没有改动；多带几行上下文让它只匹配一处，要换掉每一处就给 replace_all: true`;
  // 用函数做替换值：否则 new_string 里的 "$&"、"$1" 会被 replace 当成特殊模式
  const text = edit.replace_all ? content.replaceAll(edit.old_string, () => edit.new_string) : content.replace(edit.old_string, () => edit.new_string);
  return { text, count };
}

// 两个编辑工具共用的开头：路径过 resolveInside()、不碰有几个硬链接的文件、只读普通文件
async function readForEdit(p: string): Promise<{ target: string; content: string } | string> {
  const target = inside(p);
  if (target.startsWith("错误:")) return target;
  const links = await hardLinked(target, p);
  if (links) return links;
  try {
    // 只改普通文件：工作目录里的 FIFO 会让 readFile 一直等下去（text-file.ts 先看清打开的是什么）
    return { target, content: readTextFile(target, { max: MAX_EDIT_BYTES }) };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return `错误: 文件不存在：${p}（新文件请用 write_file）`;
    if (code !== undefined) return `错误: 读不了 ${p}（${code}），文件没有改动`; // 只报错误码或 text-file.ts 自己的话
    throw e;
  }
}

async function editFile(args: string): Promise<string> {
  const { path: p, ...rest } = JSON.parse(args);
  if (typeof p !== "string" || p === "") return "错误: 缺少参数 path（字符串）";
  const edit = checkEdit(rest);
  if (typeof edit === "string") return `错误: ${edit}`;
  const file = await readForEdit(p);
  if (typeof file === "string") return file;
  const done = applyEdit(file.content, p, edit);
  if (typeof done === "string") return `错误: ${done}`;
  const refused = await replaceFile(file.target, p, done.text);
  if (refused) return refused;
  return `已修改 ${p}：替换了 ${done.count} 处`;
}

// 依次做每一处编辑，每一处作用在上一处的结果上；全都成了才写，而且只写一次。
// 哪一处不成，就说是第几处（从 1 数）、为什么，文件一个字节不动
async function multiEdit(args: string): Promise<string> {
  const { path: p, edits } = JSON.parse(args);
  if (typeof p !== "string" || p === "") return "错误: 缺少参数 path（字符串）";
  if (!Array.isArray(edits) || edits.length === 0) return "错误: 缺少参数 edits（非空数组）";
  const checked: Edit[] = [];
  for (const [i, e] of edits.entries()) {
    const edit = checkEdit(e);
    if (typeof edit === "string") return `错误: 第 ${i + 1} 处编辑：${edit}，文件没有改动`;
    checked.push(edit);
  }
  const file = await readForEdit(p);
  if (typeof file === "string") return file;
  let text = file.content;
  const counts: number[] = [];
  for (const [i, edit] of checked.entries()) {
    const done = applyEdit(text, p, edit);
    if (typeof done === "string") return `错误: 第 ${i + 1} 处编辑不成：${done}（${checked.length} 处编辑一处也没有做）`;
    text = done.text;
    counts.push(done.count);
  }
  const refused = await replaceFile(file.target, p, text);
  if (refused) return refused;
  return `已修改 ${p}：做了 ${checked.length} 处编辑（各替换了 ${counts.join("、")} 处）`;
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
export const multiEditTool: Tool = { definition: () => multiSpec, execute: multiEdit };
