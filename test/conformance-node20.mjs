// 一致性套件 0.2.0-alpha.12 的入口第一行就 import { globSync } from "fs"，Node 20 的 fs 没有它（22 才有），
// 模块还没跑就链接失败。套件跑服务器、客户端场景时根本用不到 globSync（只有汇总 tier-check 结果时用），
// 所以最省事的办法是：只在 Node 20 上、只对套件自己的那个文件，把 "fs" 换成一个补了 globSync 的同名模块。
// 不改 node_modules，不换版本（更早的版本没有 2026-07-28 的场景）。用法：node --import ./test/conformance-node20.mjs <套件>
import fs from "node:fs";
import { register } from "node:module";

// 这个文件既是 --import 的预加载，也是装进加载器线程的 resolve 钩子
export async function resolve(specifier, context, next) {
  if ((specifier === "fs" || specifier === "node:fs") && context.parentURL?.includes("/@modelcontextprotocol/conformance/")) {
    return { url: new URL("./conformance-node20-fs.mjs", import.meta.url).href, shortCircuit: true };
  }
  return next(specifier, context);
}

if (typeof fs.globSync !== "function") register(import.meta.url);
