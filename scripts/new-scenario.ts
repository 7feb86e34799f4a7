// 维护者用的小工具：从一段 JSON 新建一个场景目录（scenario.json），再用 UPDATE=1 npm test 生成 expected.txt。
// 用法：node --import tsx scripts/new-scenario.ts 06-tool-registry unknown-tool '{"args": [...], "turns": [...]}'
import fs from "node:fs";
import path from "node:path";
import { FIXTURES } from "../shared/scenario.ts";

const [chapter, name, json] = process.argv.slice(2);
if (!chapter || !name || !json) {
  console.error("用法: node --import tsx scripts/new-scenario.ts <章目录> <场景名> '<scenario.json 的内容>'");
  process.exit(2);
}
const dir = path.join(FIXTURES, chapter, name);
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, "scenario.json"), JSON.stringify(JSON.parse(json), null, 2) + "\n");
console.log(`已写入 ${path.relative(process.cwd(), dir)}/scenario.json`);
