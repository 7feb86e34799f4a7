// tools/read-file.ts：read_file 工具——读一个文本文件。相对路径相对于工作目录。
// 第 06 章改动：包成 Tool 接口（definition + execute），登记进注册表。
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

// 工具从不抛异常：出了错就把错误写成文字交还模型，让它自己换个路子
async function readFile(args: string): Promise<string> {
  let path: unknown;
  try {
    path = JSON.parse(args)?.path;
  } catch {
    return `错误: 参数不是合法 JSON: ${args}`;
  }
  if (typeof path !== "string" || path === "") return "错误: 缺少参数 path（字符串）";
  try {
    return await fs.readFile(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return `错误: 文件不存在：${path}`;
    if (code === "EISDIR") return `错误: ${path} 是目录，不是文件`;
    return `错误: 读取 ${path} 失败：${(e as Error).message}`;
  }
}

export const readFileTool: Tool = {
  definition: () => spec,
  execute: readFile,
};
