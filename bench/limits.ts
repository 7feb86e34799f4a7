// 场景的时限是不是只防卡死：读一份 npm run test:all 的输出（spec 报告器，每条测试后面带着用了多少毫秒），
// 找出每个场景最慢的那次运行，和它的时限（scenario.json 的 timeoutMs，没写就是 shared/scenario.ts 的 DEFAULT_TIMEOUT_MS）比。时限要至少是最慢那次的 5 倍。
// 用法：npm run test:all > all.log（旁边开着两个 yes > /dev/null 最能说明问题），再 node --import tsx bench/limits.ts all.log
import fs from "node:fs";
import { DEFAULT_TIMEOUT_MS, listScenarios, chapterDirs } from "../shared/scenario.ts";

const file = process.argv[2];
if (!file) {
  console.error("用法: node --import tsx bench/limits.ts <npm run test:all 的输出>");
  process.exit(2);
}

const limits = new Map<string, number>();
for (const chapter of chapterDirs()) for (const s of listScenarios(chapter)) limits.set(s.name, s.spec.timeoutMs ?? DEFAULT_TIMEOUT_MS);

// 形如 “✔ 07-bash / timeout-kills-group（继承自 …） [deepseek] (1234.5ms)”
const worst = new Map<string, number>();
for (const line of fs.readFileSync(file, "utf8").split("\n")) {
  const m = line.match(/[✔✖] \d\d-[\w-]+ \/ ([\w-]+)[（ ].*\(([\d.]+)ms\)\s*$/);
  if (!m) continue;
  worst.set(m[1]!, Math.max(worst.get(m[1]!) ?? 0, Number(m[2])));
}

const rows = [...worst].map(([name, ms]) => ({ name, ms, limit: limits.get(name) ?? DEFAULT_TIMEOUT_MS })).sort((a, b) => b.ms / b.limit - a.ms / a.limit);
console.log(`${worst.size} 个场景；最慢那次占时限的比例最大的十个：`);
for (const r of rows.slice(0, 10)) console.log(`  ${r.name.padEnd(32)} 最慢 ${(r.ms / 1000).toFixed(1).padStart(5)} 秒，时限 ${r.limit / 1000} 秒，余量 ${(r.limit / r.ms).toFixed(1)} 倍`);
const tight = rows.filter((r) => r.limit < 5 * r.ms);
console.log(tight.length === 0 ? "每个场景的时限都至少是最慢那次的 5 倍 ✓" : `余量不到 5 倍的：${tight.map((r) => r.name).join("、")} ✗`);
process.exitCode = tight.length === 0 ? 0 : 1;
