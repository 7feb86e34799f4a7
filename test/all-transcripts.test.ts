// 文件名以 all- 开头：node --test 按文件名排序开跑，最长的这个排第一，别的测试文件挨着它跑（两核上省下一分多钟）
// 每一章 × 适用于它的每一个场景（本章的，和前面各章留下来的承诺）× 服务商形状：真的跑一遍，由一个裁判判定。
// 编译一次、跑很多次（shared/scenario.ts 的 launcher）：跑 npm test 的 Node 自己会擦除类型（22.18+），就直接跑 .ts；
// Node 20 上每章先用 esbuild 打成一个文件。每章的演示场景照读者 npm run ch 的样子经过 tsx 跑。
// 场景出自的那一章逐字逐数地比；继承来的运行比行为（token 数只比形状，后来的章添上的那类行放在一边，见 comparable）。
// UPDATE=1 npm test 重写转录——评审时像看代码一样看它的 diff；转录以外的问题（遗留进程、被拒绝的请求……）照样失败。
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { CHAPTERS, FIXTURES, ROOT, chapterDirs, comparable, expectedFor, expectedPath, hasSandbox, hasTerminalTool, judge, SANDBOX_CHAPTER, listScenarios, runProblems, runScenario, scenariosFor, type Applied } from "../shared/scenario.ts";
import type { Profile } from "../shared/scripted-model.ts";
import { chapterWording, missingWording } from "./readme-wording.ts";

const update = process.env.UPDATE === "1";
const only = process.env.CHAPTER; // CHAPTER=06 只跑这一章（本章的和继承来的）
const ownOnly = process.env.OWN === "1"; // OWN=1 只跑各章自己的场景
// SCENARIO=甲,乙 只登记这几个场景的运行（在它们那一章和后面每一章上）：录一个场景时输出里没有成千行的 SKIP
const named = process.env.SCENARIO ? process.env.SCENARIO.split(",").map((n) => n.trim()).filter(Boolean) : undefined;
// npm test 是快的一层（LH_TIER=quick，scripts/test.ts 设的）：最后一章上的全部场景（书的最终状态守住每一章的承诺），
// 加上每一章自己的演示场景（每个快照都起得来、做得了它那一件事）。npm run test:all（和直接跑这个文件）跑每一章自己的
// 全部场景、每一章上继承来的运行。CHAPTER= 或 OWN=1 点名时，照点名的跑（读者的 verify 也一样）
const quick = process.env.LH_TIER === "quick" && !only && !ownOnly;
const terminal = hasTerminalTool();
// 没有能用的 bubblewrap，第 23 章起的运行跳过（和没有 Chromium 时的浏览器检查一样）；CI 上从不跳过，没有它就失败
const sandbox = hasSandbox() || process.env.CI !== undefined;
const noSandbox = (a: Applied) => !sandbox && a.chapter >= SANDBOX_CHAPTER && a.s.spec.bwrap !== false;

// UPDATE 模式：同一个场景在后面各章的转录，和它在前一章的转录比——一样就沿用，不一样才在这一章记一份。
// 所以同一个场景按章的先后排队（测试按顺序开始，前一章的那次运行一定已经开始了）
const transcripts = new Map<string, Promise<string | undefined>>();
const key = (a: Applied, profile: Profile, chapter = a.chapter) => `${a.s.chapter}/${a.s.name}/${profile}@${chapter}`;

const chapters = chapterDirs().filter((c) => !only || c.startsWith(only.padStart(2, "0")));
const last = chapterDirs().at(-1);
const demos = new Map(chapterDirs().map((c) => [c, (listScenarios(c).find((s) => s.spec.demo) ?? listScenarios(c)[0])?.dir]));
// 这一层在这一章上跑哪些场景
const applied = (chapter: string) =>
  quick && chapter !== last ? scenariosFor(chapter, { ownOnly: true }).filter((a) => a.s.dir === demos.get(chapter)) : scenariosFor(chapter, { ownOnly });
const unsandboxed = chapters.flatMap(applied).filter(noSandbox).length;
const jobs = chapters.flatMap((chapter) =>
  applied(chapter).filter((a) => !noSandbox(a) && (!named || named.includes(a.s.name))).flatMap((a) => {
    // 每章的演示场景（第一家形状）照读者 npm run ch 的样子经过 tsx 跑：证明每一章在 Node 20 + tsx 上也跑得起来
    const demo = a.own && a.s.dir === demos.get(a.chapter);
    // 快的一层不经过 tsx：每次启动都要现编译整章，二十几章就是十几秒 CPU；行为由打包后的那次运行证明
    return a.profiles.map((profile, i) => ({ a, profile, i, tsx: demo && i === 0 && !quick }));
  }),
);

// 每章演示场景（第一家形状）那一次运行里模型收到的请求：README 的措辞检查（下面）要用，不为它再跑一遍
const demoBodies = new Map<string, { bodies: Promise<any[] | undefined>; settle: (b: any[] | undefined) => void }>();
for (const { a, i } of jobs) {
  if (!a.own || i !== 0 || a.s.dir !== demos.get(a.chapter)) continue;
  let settle: (b: any[] | undefined) => void = () => {};
  demoBodies.set(a.chapter, { bodies: new Promise((r) => (settle = r)), settle });
}

// 一次运行大半时间在等（子进程、网络、睡着的命令）：两个核上同时跑 8 个，等超时的那几个不至于让 CPU 闲着
describe("转录", { concurrency: Number(process.env.CONCURRENCY ?? 8) }, () => {
  // 跳过的运行只说一行，不是每个场景一行
  if (unsandboxed > 0) it(`第 ${SANDBOX_CHAPTER} 章起的 ${unsandboxed} 次运行`, { skip: "这台机器没有能用的 bubblewrap（沙箱）：apt install bubblewrap" }, () => {});
  // 写错了名字（或者 CHAPTER、OWN 把它筛掉了）：说清楚，别让“0 个通过”看起来像通过
  const unmatched = named?.filter((n) => !jobs.some((j) => j.a.s.name === n)) ?? [];
  if (unmatched.length > 0) {
    it(`SCENARIO 里的 ${unmatched.join("、")}`, () =>
      assert.fail(`没有叫 ${unmatched.join("、")} 的场景${only || ownOnly ? "（或者被 CHAPTER、OWN 筛掉了）" : ""}：场景名是 shared/fixtures/<章>/ 下的目录名`));
  }
  for (const chapter of named ? [] : chapters) {
    it(`${chapter} 至少有一个自己的场景`, () => assert.ok(scenariosFor(chapter, { ownOnly: true }).length > 0, `shared/fixtures/${chapter}/ 下没有场景`));
  }
  for (const { a, profile, i, tsx } of jobs) {
    const skip = a.s.spec.tty && !terminal ? "这个场景要在伪终端里跑，需要 util-linux 的 script 命令" : false;
    const from = a.own ? "" : `（继承自 ${a.s.chapter}${a.why ? `；改写：${a.why}` : ""}）`;
    it(`${a.chapter} / ${a.s.name}${from} [${profile}]${tsx ? "（经过 tsx，和 npm run ch 一样）" : ""}`, { skip }, async () => {
      let settle: (t: string | undefined) => void = () => {};
      if (update) transcripts.set(key(a, profile), new Promise((r) => (settle = r)));
      const demo = a.own && i === 0 ? demoBodies.get(a.chapter) : undefined;
      const bodies = (b: any[] | undefined) => (a.s.dir === demos.get(a.chapter) ? demo?.settle(b) : undefined);
      try {
        const result = await runScenario(a.s, path.join(CHAPTERS, a.chapter), { profile, tsx, inherited: !a.own });
        bodies(result.bodies);
        const label = `${a.chapter} / ${a.s.name} [${profile}]`;
        if (!update) {
          const file = expectedFor(a.s, profile, a.expectedDir);
          assert.ok(fs.existsSync(file), `${path.relative(ROOT, file)} 不存在：先跑 UPDATE=1 npm test 生成它`);
          const problems = judge(label, fs.readFileSync(file, "utf8"), result, true, comparable(a));
          if (problems.length > 0) assert.fail(problems.join("\n\n"));
          return;
        }
        const problems = runProblems(result);
        if (problems.length > 0) assert.fail(`UPDATE 不重写这份转录，因为：\n${problems.join("\n")}\n\n${result.transcript}`);
        settle(result.transcript);
        await record(a, profile, i, result.transcript);
      } finally {
        settle(undefined);
        bodies(undefined);
      }
    });
  }
});

// 模型看得见的每一句话都在书里（test/readme-wording.ts）：拿上面每章演示的那次运行，前面各章的演示里没出现过的措辞，这一章的 README 要一字不差地写出来。
// 要全部各章的演示都跑了才比得了（CHAPTER=、SCENARIO= 点名时不比）
describe("每章 README 一字不差地给出这一章新加、改过的 system prompt 和工具描述", () => {
  const all = chapterDirs();
  if (named || only) return;
  for (const [i, chapter] of all.entries()) {
    const skip = !demoBodies.has(chapter) && "这一章的演示没有跑（没有能用的 bubblewrap）";
    it(chapter, { skip }, async () => {
      const earlier = new Set<string>();
      for (const c of all.slice(0, i)) {
        const bodies = await demoBodies.get(c)?.bodies;
        if (bodies) for (const text of chapterWording(listScenarios(c).find((s) => s.dir === demos.get(c))!, bodies).keys()) earlier.add(text);
      }
      const bodies = await demoBodies.get(chapter)!.bodies;
      assert.ok(bodies, `${chapter} 的演示场景没有跑完，比不了 README 的措辞`);
      const demo = listScenarios(chapter).find((s) => s.dir === demos.get(chapter))!;
      const missing = missingWording(chapter, chapterWording(demo, bodies), earlier);
      assert.deepEqual(missing, [], `chapters/${chapter}/README.md 里找不到这一章的演示场景（${demo.name}）发给模型的这些措辞：\n${missing.join("\n")}`);
    });
  }
});

// 把一次运行的转录记下来：出处那一章照旧（第一家写 expected.txt，别家不同才写 expected.<家>.txt）；
// 后面的章按继承的比法（comparable）和“前一章的转录”一样就不记（删掉旧的改写），不一样才在这一章记一份改写，
// 连同 why.txt：原来有就留着，没有就写一句待填的，chapter-rules 测试会要求写上真正的理由
async function record(a: Applied, profile: Profile, i: number, transcript: string) {
  const s = a.s;
  if (a.own) {
    const first = i === 0 ? transcript : await transcripts.get(key(a, a.profiles[0]));
    if (i === 0) fs.writeFileSync(expectedPath(s), transcript);
    else if (transcript === first) fs.rmSync(expectedPath(s, profile), { force: true });
    else fs.writeFileSync(expectedPath(s, profile), transcript);
    return;
  }
  // 继承来的场景只跑第一家，改写也只有 expected.txt 一份
  const dir = path.join(FIXTURES, a.chapter, s.name);
  const before = await previous(a, profile);
  const view = comparable(a);
  if (before !== undefined && view(before) === view(transcript)) return void fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "expected.txt"), transcript);
  const why = path.join(dir, "why.txt");
  if (!fs.existsSync(why)) fs.writeFileSync(why, `${TODO_WHY}\n`);
}

const TODO_WHY = "（待写：这一章为什么有意改变了这个场景的输出）";

// 前一章的转录：这次也跑了就等它的结果，没跑（CHAPTER= 只跑一章）就读那一章生效的那份文件
async function previous(a: Applied, profile: Profile): Promise<string | undefined> {
  const chapter = chapterDirs().filter((c) => c >= a.s.chapter && c < a.chapter).at(-1)!;
  const running = transcripts.get(key(a, profile, chapter));
  if (running) return running;
  const applied = scenariosFor(chapter).find((x) => x.s.dir === a.s.dir);
  const file = applied && expectedFor(a.s, profile, applied.expectedDir);
  return file && fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
}
