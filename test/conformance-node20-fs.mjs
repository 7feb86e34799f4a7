// Node 20 上给一致性套件用的 "fs"：原样转出 node:fs 的一切，另补一个 globSync（见 conformance-node20.mjs）。
// 跑场景用不到它；真被调到就说清楚，不悄悄返回空列表
export * from "node:fs";
export { default } from "node:fs";
export function globSync() {
  throw new Error("conformance-node20: Node 20 没有 fs.globSync，这个子命令要 Node ≥ 22");
}
