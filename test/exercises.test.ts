// 每个练习的检查器：拿参考答案（solution/ 叠在它那一章上的整份）检查必须全部通过；拿没做练习的那一章（NN-K 是第 NN 章）检查必须不通过，
// 而且要说出缺了什么——检查器要是对两者都说“通过”，它就什么也没检查。
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, it } from "node:test";
import { firstFailures, runRequirements, type Requirement } from "../exercises/checker.ts";
import { baseChapter, filesIn, fullTree } from "../shared/overlay.ts";
import { CHAPTERS, ROOT, chapterDirs, compareTranscripts } from "../shared/scenario.ts";
import { README, between, chapterExercises, exerciseIndex, exerciseMarkers } from "../scripts/chapter-index.ts";

const exercisesDir = path.join(ROOT, "exercises");
const exercises = fs.readdirSync(exercisesDir).filter((d) => fs.existsSync(path.join(exercisesDir, d, "check.ts")));

describe("练习", { concurrency: 4 }, () => {
  for (const exercise of exercises) {
    const dir = path.join(exercisesDir, exercise);
    const base = path.join(CHAPTERS, baseChapter(exercise)); // 22-N 的底是第 22 章
    const solution = () => fullTree(path.join(dir, "solution"));
    const load = async () => ((await import(pathToFileURL(path.join(dir, "check.ts")).href)) as { requirements: Requirement[] }).requirements;

    it(`${exercise}：有 README.md、HINTS.md 和 solution/README.md；solution/ 是覆盖，只放和底那一章不同的文件`, () => {
      for (const file of ["README.md", "HINTS.md", "solution/README.md"]) assert.ok(fs.existsSync(path.join(dir, file)), `${exercise} 缺少 ${file}`);
      const same = filesIn(path.join(dir, "solution")).filter((f) => f !== "README.md" && !differingFiles(base, path.join(dir, "solution")).includes(f));
      assert.deepEqual(same, [], `这些文件和 ${path.basename(base)} 一字不差，不该放在 solution/ 里：npm run overlay 删掉它们`);
    });

    it(`${exercise}：参考答案 = 底那一章 + 练习要改的文件（每个都在练习的 README 里点了名）`, () => {
      const readme = fs.readFileSync(path.join(dir, "README.md"), "utf8");
      const changed = differingFiles(base, solution());
      assert.ok(changed.length > 0, `solution/ 和 ${baseChapter(exercise)} 一模一样`);
      for (const file of changed) assert.ok(readme.includes(file), `solution/${file} 和 ${baseChapter(exercise)} 不同，但练习的 README 没有提到它`);
    });

    it(`${exercise}：参考答案的 README 讲这个答案改了哪些文件、为什么，不是那一章 README 的副本`, () => {
      const own = fs.readFileSync(path.join(dir, "solution", "README.md"), "utf8");
      assert.match(own, new RegExp(`^# 练习 ${exercise.split("-").slice(0, 2).join("-")} · 参考答案`), "标题要写明是哪个练习的参考答案");
      for (const heading of ["## 改了哪些文件", "## 为什么这样改"]) assert.ok(own.includes(heading), `缺少「${heading.slice(3)}」一节`);
      for (const file of differingFiles(base, solution())) {
        assert.ok(own.includes(`\`${file}\``), `solution/${file} 和 ${baseChapter(exercise)} 不同，但参考答案的 README 没有说它改了什么`);
      }
    });

    it(`${exercise}：参考答案通过每一条要求；README 里贴的样子就是参考答案跑那个检查场景的转录`, async () => {
      const outcomes = await runRequirements(dir, await load(), solution());
      const failed = outcomes.filter((o) => o.problem).map((o) => `✗ ${o.requirement.name}\n${o.problem}\n${o.transcript}`);
      assert.deepEqual(failed, []);
      // <!-- transcript: checks/场景 --> 后面紧跟的 ```text 代码块：读者照着做，看到的就该是这个
      const readme = fs.readFileSync(path.join(dir, "README.md"), "utf8");
      for (const [, name, shown] of readme.matchAll(/<!-- transcript: checks\/([\w-]+) -->\s*\n```text\n([\s\S]*?)```/g)) {
        const run = outcomes.find((o) => o.requirement.scenario === name);
        assert.ok(run, `README 引用了 checks/${name}，但没有哪条要求跑这个场景`);
        const diff = compareTranscripts(`${exercise} 的 README / checks/${name}`, run.transcript, shown, false);
        assert.equal(diff, null, `${diff}\n（期望 = 参考答案跑 checks/${name} 的转录，实际 = README 里的代码块：把转录原样贴进去）\n${run.transcript}`);
      }
    });

    it(`${exercise}：没做练习的底那一章不通过，并说出缺了什么`, async () => {
      const outcomes = await firstFailures(dir, await load(), base); // 只跑到第一个有要求没过的场景
      const failed = outcomes.filter((o) => o.problem);
      assert.ok(failed.length > 0, `${baseChapter(exercise)} 原样通过了全部要求：检查器没有检查到练习要加的东西`);
      // 要求自己的说明写“期望……，实际……”；卡住、退出码不对这类由共同的裁判（checker.ts 的 judgeRun）说明
      for (const o of failed) assert.match(o.problem!, /期望|撞上了场景的时限/, `“${o.requirement.name}”的失败说明要写出期望什么`);
    });
  }
});

// 同一章的几个练习改的是那一章的不同地方（比如 22-1 改 mcp-config.ts、mcp-client.ts 里的客户端，22-2、22-3 从 main.ts 里
// connectMcpServers 的参数和它交出的工具接进来），所以读者能在同一份副本里一个接一个地做。这里照读者的做法：每份答案（叠好的整份）
// 对它那一章的 diff 依次打到同一份副本上（不许模糊匹配），再把这一章的每个检查器都跑一遍。
// 只在 npm run test:all 里跑（npm test 是快的一层：每个检查器在答案上过、在起点上不过，已经在上面）
const byChapter = new Map<string, string[]>();
for (const e of exercises) byChapter.set(baseChapter(e), [...(byChapter.get(baseChapter(e)) ?? []), e]);
describe("同一章的几个练习做在同一份副本里", { skip: process.env.LH_TIER === "quick" && "npm run test:all 才跑" }, () => {
  for (const [chapter, together] of [...byChapter].filter(([, list]) => list.length > 1)) {
    it(`${together.join("、")}：每份参考答案对 ${chapter} 的 diff 依次打到同一份副本上，干净地打上；每个检查器全部通过`, async () => {
      const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "lh-all-exercises-")));
      const copy = path.join(tmp, "mine");
      try {
        fs.cpSync(path.join(CHAPTERS, chapter), copy, { recursive: true });
        for (const exercise of together) {
          // 相对路径的 diff：--- a/mcp-client.ts，-p1 去掉第一段就是副本里的 mcp-client.ts
          fs.rmSync(path.join(tmp, "a"), { force: true });
          fs.rmSync(path.join(tmp, "b"), { force: true });
          fs.symlinkSync(path.join(CHAPTERS, chapter), path.join(tmp, "a"));
          fs.symlinkSync(fullTree(path.join(exercisesDir, exercise, "solution")), path.join(tmp, "b"));
          const diff = spawnSync("diff", ["-ruN", "-x", "README.md", "a/", "b/"], { cwd: tmp, encoding: "utf8" });
          assert.equal(diff.status, 1, `diff 应当找到不同（退出码 1）：${diff.stderr}`);
          const applied = spawnSync("patch", ["-p1", "--fuzz=0", "--forward", "--no-backup-if-mismatch", "-d", copy], { input: diff.stdout, encoding: "utf8" });
          assert.equal(applied.status, 0, `${exercise} 的 diff 打不上（和前面的练习改到了同一处）：\n${applied.stdout}${applied.stderr}`);
        }
        const failed: string[] = [];
        for (const exercise of together) {
          const dir = path.join(exercisesDir, exercise);
          const requirements = ((await import(pathToFileURL(path.join(dir, "check.ts")).href)) as { requirements: Requirement[] }).requirements;
          for (const o of await runRequirements(dir, requirements, copy)) {
            if (o.problem) failed.push(`✗ ${exercise}：${o.requirement.name}\n${o.problem}\n${o.transcript}`);
          }
        }
        assert.deepEqual(failed, []);
      } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
      }
    });
  }
});

describe("练习的索引", () => {
  it("根目录 README 的练习表、每一章 README 末尾的“加分练习”都是从练习的 README 生成的最新版本", () => {
    const { EX_BEGIN, EX_END, OWN_BEGIN, OWN_END } = exerciseMarkers;
    const stale = "过时了：跑 npm run transcripts 重写它";
    assert.equal(between(fs.readFileSync(README, "utf8"), EX_BEGIN, EX_END), exerciseIndex(), `README.md 的练习表${stale}`);
    for (const chapter of chapterDirs()) {
      const text = fs.readFileSync(path.join(CHAPTERS, chapter, "README.md"), "utf8");
      assert.equal(between(text, OWN_BEGIN, OWN_END), chapterExercises(chapter), `${chapter}/README.md 末尾的练习${stale}`);
    }
  });
});

// 两个目录里内容不同（或只有一边有）的文件，README.md 除外
function differingFiles(a: string, b: string): string[] {
  const list = (root: string, dir = ""): string[] =>
    fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
      const rel = path.join(dir, e.name);
      return e.isDirectory() ? list(root, rel) : [rel];
    });
  const all = new Set([...list(a), ...list(b)]);
  all.delete("README.md");
  const read = (root: string, f: string) => (fs.existsSync(path.join(root, f)) ? fs.readFileSync(path.join(root, f)) : undefined);
  return [...all].filter((f) => !read(a, f)?.equals(read(b, f) ?? Buffer.alloc(0)) || !read(b, f)).sort();
}
