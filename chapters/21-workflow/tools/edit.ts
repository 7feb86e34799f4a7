// tools/edit.ts：write_file（整个写）和 edit_file（改一处）。路径都必须在工作目录里。
// 第 20 章改动：同一个文件的写入排队进行——并发的两次 edit_file 不能都读到旧内容、再互相覆盖；
// 路径检查和写放在同一个排队的任务里，排在前面的写做完了才检查。
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
  // 检查放进队列里：排在前面的写（也许正在把一个目录换成链接）做完了，才轮到这次检查，检查完紧接着写
  return exclusive(`名字 ${path.resolve(p)}`, () =>
    checked(p, async (target) => {
      await fs.mkdir(path.dirname(target), { recursive: true });
      const refused = await replaceFile(target, p, content);
      return refused ?? `已写入 ${p}（${Buffer.byteLength(content)} 字节）`;
    }),
  );
}

async function editFile(args: string): Promise<string> {
  const { path: p, old_string: oldText, new_string: newText } = JSON.parse(args);
  if (typeof p !== "string" || p === "") return "错误: 缺少参数 path（字符串）";
  if (typeof oldText !== "string" || oldText === "") return "错误: 缺少参数 old_string（非空字符串）";
  if (typeof newText !== "string") return "错误: 缺少参数 new_string（字符串）";
  return exclusive(`名字 ${path.resolve(p)}`, () => checked(p, (target) => replaceOnce(target, p, oldText, newText)));
}

// 在队列里检查路径，再按解开链接后的真实路径排第二次队（两个名字指着同一个文件时，也一个接一个；两种队列的键前缀不同，不会自己等自己）；
// 轮到时再检查一次，路径在等的时候变了就不写
function checked(p: string, work: (target: string) => Promise<string>): Promise<string> {
  const target = inside(p);
  if (target.startsWith("错误:")) return Promise.resolve(target);
  return exclusive(`文件 ${target}`, async () => {
    const again = inside(p);
    if (again !== target) return again.startsWith("错误:") ? again : `错误: ${p} 在排队等着写的时候换了指向（${target} → ${again}），没有写`;
    return work(target);
  });
}

async function replaceOnce(target: string, p: string, oldText: string, newText: string): Promise<string> {
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
