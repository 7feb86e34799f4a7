// 章节规则：每章的 README 结构齐全；「改了哪些文件」和这一章相对上一章的真实 diff 一致；
// 改动的 .ts 文件开头写着是哪一章改的；README 里贴的转录就是场景的 expected.txt。
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { CHAPTERS, FIXTURES, chapterDirs, chapterFiles, compareTranscripts, listScenarios, scenariosFor } from "../shared/scenario.ts";

const HEADINGS = ["## 这一章加了什么", "## 改了哪些文件", "## 跑起来", "## 你应该看到", "## 常见坑", "## 动手试试", "## 测试会检查什么"];
const CHANGED = "## 改了哪些文件";
const CHANGED_NAME = CHANGED.slice(3);

interface Readme {
  lines: string[];
  fenced: boolean[]; // 这一行是否在代码块里（含围栏本身）
}

function parseReadme(text: string): Readme {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const fenced: boolean[] = [];
  let fence = "";
  for (const line of lines) {
    if (!fence) {
      const m = line.match(/^ {0,3}(`{3,}|~{3,})/);
      if (m) fence = m[1];
      fenced.push(Boolean(m));
    } else {
      fenced.push(true);
      const t = line.trim();
      if (t.length >= fence.length && t === fence[0].repeat(t.length)) fence = "";
    }
  }
  return { lines, fenced };
}

// 代码块之外的二级标题
function headings(r: Readme): { text: string; index: number }[] {
  return r.lines.flatMap((line, index) => (!r.fenced[index] && /^## /.test(line) ? [{ text: line.trimEnd(), index }] : []));
}

// 某一节的正文行（到下一个二级标题为止），不含代码块里的行
function sectionLines(r: Readme, heading: string): string[] | undefined {
  const all = headings(r);
  const i = all.findIndex((h) => h.text === heading);
  if (i < 0) return undefined;
  const end = all[i + 1]?.index ?? r.lines.length;
  return r.lines.slice(all[i].index + 1, end).filter((_, k) => !r.fenced[all[i].index + 1 + k]);
}

function structureProblems(r: Readme, chapter: string): string[] {
  const nn = chapter.slice(0, 2);
  const problems: string[] = [];
  const title = r.lines[0].match(/^# 第 (\d\d) 章 · \S/);
  if (!title) problems.push(`第一行应是「# 第 ${nn} 章 · 标题」，现在是「${r.lines[0]}」`);
  else if (title[1] !== nn) problems.push(`标题写的是第 ${title[1]} 章，目录是第 ${nn} 章`);
  const motto = r.lines.slice(1).find((l) => l.trim() !== "");
  if (!motto?.startsWith("> ")) problems.push(`标题下面应是一行以「> 」开头的题记，现在是「${motto ?? "（没有）"}」`);
  const found = headings(r).map((h) => h.text);
  for (const h of HEADINGS) {
    const n = found.filter((f) => f === h).length;
    if (n === 0) problems.push(`缺少「${h}」一节`);
    if (n > 1) problems.push(`「${h}」出现了 ${n} 次`);
  }
  const order = found.filter((f) => HEADINGS.includes(f));
  const want = HEADINGS.filter((h) => order.includes(h));
  if (order.length === want.length && order.some((h, i) => h !== want[i])) {
    problems.push(`二级标题的顺序应是：${HEADINGS.map((h) => h.slice(3)).join(" → ")}；现在是：${order.map((h) => h.slice(3)).join(" → ")}`);
  }
  return problems;
}

// 「改了哪些文件」里的 - `路径`
function listedFiles(r: Readme): { files: string[]; problems: string[] } {
  const lines = sectionLines(r, CHANGED);
  if (!lines) return { files: [], problems: [`缺少「${CHANGED}」一节`] };
  const files: string[] = [];
  const problems: string[] = [];
  for (const line of lines) {
    const m = line.match(/^- `([^`]+)`/);
    if (!m) continue;
    const file = m[1].replace(/^\.\//, "");
    if (path.isAbsolute(file) || file.split("/").includes("..") || file.endsWith("/")) {
      problems.push(`「${CHANGED_NAME}」里的 ${m[1]} 应该是相对章节目录的文件路径，如 tools/read-file.ts（目录要逐个文件列出）`);
    } else if (files.includes(file)) {
      problems.push(`「${CHANGED_NAME}」把 ${file} 列了两次`);
    } else {
      files.push(file);
    }
  }
  if (files.length === 0 && problems.length === 0) {
    problems.push(`「${CHANGED_NAME}」一个文件也没列：每行写成 - \`路径\` 后面跟说明，如 - \`tools/read-file.ts\` 新增：read_file 工具`);
  }
  return { files, problems };
}

// 章节目录里的全部文件（相对路径，/ 分隔），不含本章的 README.md
function filesOf(dir: string): string[] {
  return chapterFiles(dir).filter((p) => p !== "README.md");
}

function deltaProblems(chapter: string, prev: string | undefined, listed: string[]): string[] {
  const dir = path.join(CHAPTERS, chapter);
  const cur = new Set(filesOf(dir));
  const problems: string[] = [];
  const where = `README 的「${CHANGED_NAME}」`;
  if (!prev) {
    // 第一章：每个文件都是新的，都要列出
    for (const f of cur) if (!listed.includes(f)) problems.push(`${chapter}：${f} 是这一章的文件，但 ${where}没有列出它`);
    for (const f of listed) if (!cur.has(f)) problems.push(`${chapter}：${where}列出了 ${f}，但这一章没有这个文件——路径写错了？`);
    return problems;
  }
  const prevDir = path.join(CHAPTERS, prev);
  const old = new Set(filesOf(prevDir));
  const same = (f: string) => fs.readFileSync(path.join(dir, f)).equals(fs.readFileSync(path.join(prevDir, f)));
  for (const f of [...new Set([...old, ...cur])].sort()) {
    const isListed = listed.includes(f);
    if (!old.has(f)) {
      if (!isListed) problems.push(`${chapter}：${f} 是这一章新加的，但 ${where}没有列出它`);
    } else if (!cur.has(f)) {
      if (!isListed) problems.push(`${chapter}：${f} 在 ${prev} 里有、这一章删掉了，但 ${where}没有列出它`);
    } else if (same(f)) {
      if (isListed) problems.push(`${chapter}：${where}列出了 ${f}，但它和 ${prev} 的逐字节相同——从列表里删掉它，或者真的改它`);
    } else if (!isListed) {
      problems.push(`${chapter}：${f} 和 ${prev} 不一样，但 ${where}没有列出它`);
    }
  }
  for (const f of listed) {
    if (!old.has(f) && !cur.has(f)) problems.push(`${chapter}：${where}列出了 ${f}，但这一章和 ${prev} 都没有这个文件——路径写错了？`);
  }
  return problems;
}

// 改动的 .ts 文件前 3 行里要有一行注释写着「第 NN 章」：这一章对它改了什么
function headerProblems(chapter: string, listed: string[]): string[] {
  const nn = chapter.slice(0, 2);
  const problems: string[] = [];
  for (const f of listed) {
    const file = path.join(CHAPTERS, chapter, f);
    if (!f.endsWith(".ts") || !fs.existsSync(file)) continue;
    const head = fs.readFileSync(file, "utf8").split("\n").slice(0, 3);
    const ok = head.some((l) => /^\s*(\/\/|\/\*|\*)/.test(l) && l.includes(`第 ${nn} 章`));
    if (!ok) problems.push(`${chapter}：${f} 的前 3 行没有写着「第 ${nn} 章」的注释——在开头加一行，如 // 第 ${nn} 章改动：……`);
  }
  return problems;
}

// README 里的 <!-- transcript: 场景 --> 加紧跟着的 ```text 代码块，必须和 expected.txt 一字不差
function transcriptProblems(r: Readme, chapter: string): string[] {
  const problems: string[] = [];
  let blocks = 0;
  r.lines.forEach((line, i) => {
    const m = !r.fenced[i] && line.trim().match(/^<!--\s*transcript:\s*(\S+?)\s*-->$/);
    if (!m) return;
    blocks++;
    const name = m[1];
    let j = i + 1;
    while (j < r.lines.length && r.lines[j].trim() === "") j++;
    const open = r.lines[j]?.match(/^(`{3,})text\s*$/);
    if (!open) {
      problems.push(`${chapter} / ${name}：<!-- transcript: ${name} --> 后面应紧跟一个 \`\`\`text 代码块，现在是「${r.lines[j] ?? "（文件结束）"}」`);
      return;
    }
    const body: string[] = [];
    let k = j + 1;
    while (k < r.lines.length && r.lines[k].trim() !== open[1]) body.push(r.lines[k++]);
    if (k >= r.lines.length) {
      problems.push(`${chapter} / ${name}：README 第 ${j + 1} 行开始的代码块没有结束的 ${open[1]}`);
      return;
    }
    // 本章的场景，或者前面某章留下、在本章接着跑的场景：用它在本章生效的那份转录
    const applied = scenariosFor(chapter).find((a) => a.s.name === name);
    const file = applied && path.join(applied.expectedDir, "expected.txt");
    if (!file || !fs.existsSync(file)) {
      problems.push(`${chapter} / ${name}：README 引用了场景 ${name}，但第 ${chapter.slice(0, 2)} 章没有这个场景（shared/fixtures/ 下找不到它的 expected.txt）`);
      return;
    }
    const shown = body.length ? body.join("\n") + "\n" : "";
    const diff = compareTranscripts(`${chapter} / ${name}`, fs.readFileSync(file, "utf8"), shown);
    if (diff) {
      const summary = diff.split("\n\n—— 实际的完整输出 ——")[0];
      problems.push(`${summary}\n  （期望 = expected.txt，实际 = README 里的代码块：把 expected.txt 原样贴进去）`);
    }
  });
  if (blocks === 0) {
    problems.push(`${chapter}：README 里没有贴转录——在「## 你应该看到」里放一行 <!-- transcript: 场景名 -->，紧跟 \`\`\`text 代码块，内容是那个场景的 expected.txt`);
  }
  return problems;
}

function check(problems: string[]) {
  if (problems.length) assert.fail(problems.join("\n"));
}

describe("章节规则", () => {
  const dirs = chapterDirs();

  // 场景是累积的：名字在全部章里唯一；后面某章里同名、没有 scenario.json 的目录是那一章改写的转录，
  // 只在那一章有意改变了行为时才有，并用 why.txt 的一行说明为什么（测试的名字里会带上它）
  it("场景名字唯一，每个改写都对得上前面某章的场景，并写着为什么", () => {
    const origin = new Map<string, string>();
    const problems: string[] = [];
    for (const chapter of dirs) {
      for (const s of listScenarios(chapter)) {
        const first = origin.get(s.name);
        if (first) problems.push(`shared/fixtures/${chapter}/${s.name}：第 ${first.slice(0, 2)} 章已经有同名场景——要改写它在这一章的转录，只放 expected.txt；要新场景，换个名字`);
        else origin.set(s.name, chapter);
      }
      const base = path.join(FIXTURES, chapter);
      for (const entry of fs.existsSync(base) ? fs.readdirSync(base, { withFileTypes: true }) : []) {
        const name = entry.name;
        if (!entry.isDirectory() || fs.existsSync(path.join(base, name, "scenario.json"))) continue;
        const from = origin.get(name);
        const why = path.join(base, name, "why.txt");
        const reason = fs.existsSync(why) ? fs.readFileSync(why, "utf8").trim() : "";
        if (!from) problems.push(`shared/fixtures/${chapter}/${name}：没有 scenario.json，前面的章也没有叫 ${name} 的场景`);
        else if (!fs.existsSync(path.join(base, name, "expected.txt"))) problems.push(`shared/fixtures/${chapter}/${name}：改写第 ${from.slice(0, 2)} 章的场景，却没有 expected.txt`);
        else if (!reason || reason.includes("待写") || reason.includes("\n")) problems.push(`shared/fixtures/${chapter}/${name}/why.txt：改写要用一行说明这一章为什么有意改变了这个场景的输出`);
      }
    }
    check(problems);
  });

  it("退役的场景：那一章的 README 说了为什么", () => {
    const problems: string[] = [];
    for (const chapter of dirs) {
      for (const s of listScenarios(chapter)) {
        const retired = s.spec.retired;
        if (!retired) continue;
        const at = dirs.find((d) => d.startsWith(retired.chapter.padStart(2, "0")));
        if (!at || at <= chapter) {
          problems.push(`${chapter} / ${s.name}：retired.chapter 是 ${retired.chapter}，应该是后面某一章的章号`);
          continue;
        }
        const readme = fs.readFileSync(path.join(CHAPTERS, at, "README.md"), "utf8");
        if (!readme.includes(`\`${s.name}\``)) problems.push(`${at}：第 ${chapter.slice(0, 2)} 章的场景 ${s.name} 从这一章退役（${retired.why}），README 里要提到 \`${s.name}\` 并说明原因`);
      }
    }
    check(problems);
  });

  it("没有合并留下的冲突标记：读者拿到的每个文件都是一份，不是两份", () => {
    const root = path.dirname(CHAPTERS);
    const tracked = execFileSync("git", ["ls-files", "chapters", "exercises", "docs", "shared", "timeserver", "bench", "scripts", "README.md", "CONTRIBUTING.md"], { cwd: root, encoding: "utf8" });
    const marked = tracked
      .split("\n")
      .filter((f) => /\.(ts|md|json|txt|mjs|sh)$/.test(f) && fs.existsSync(path.join(root, f)))
      .filter((f) => /^(<{7} |>{7} )/m.test(fs.readFileSync(path.join(root, f), "utf8")));
    assert.deepEqual(marked, [], "这些文件里还有 <<<<<<< 或 >>>>>>> 开头的行：合并或 npm run carry 的冲突没有解决完");
  });

  it("章号从 01 开始连续", () => {
    dirs.forEach((d, i) => {
      const want = String(i + 1).padStart(2, "0");
      assert.equal(d.slice(0, 2), want, `缺少第 ${want} 章：${dirs[i - 1] ?? "开头"} 后面直接是 ${d}`);
    });
  });

  // new-scenario 从前会照写进拼错的章目录（06-tool-registy），那里的场景哪一章也不跑，录的命令却“通过”
  it("shared/fixtures 下的每个目录都是一章", () => {
    const strays = fs.readdirSync(FIXTURES, { withFileTypes: true }).filter((e) => e.isDirectory() && !dirs.includes(e.name));
    check(strays.map((e) => `shared/fixtures/${e.name}：没有叫这个名字的章（chapters/ 下没有），它里面的场景不会跑`));
  });

  // 读者从 README 认识每个场景；长的目录可以放在 README 链过去的 docs/ 页面里（第 22 章的 docs/MCP-HARDENING.md）
  it("每个场景都在它那一章的 README（或 README 链到的 docs/ 页面）里点了名", () => {
    const problems: string[] = [];
    for (const chapter of dirs) {
      const file = path.join(CHAPTERS, chapter, "README.md");
      if (!fs.existsSync(file)) continue;
      const readme = fs.readFileSync(file, "utf8");
      const linked = [...readme.matchAll(/\]\((?:\.\.\/)+(docs\/[\w-]+\.md)[#)]/g)].map((m) => path.join(CHAPTERS, "..", m[1]));
      const text = [readme, ...linked.filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f, "utf8"))].join("\n");
      for (const s of listScenarios(chapter)) if (!text.includes(`\`${s.name}\``)) problems.push(`${chapter}：场景 ${s.name} 没在 README 里点名（「测试会检查什么」里写一行 \`${s.name}\` — 它检查什么）`);
    }
    check(problems);
  });

  dirs.forEach((chapter, i) => {
    const prev = i > 0 ? dirs[i - 1] : undefined;
    const file = path.join(CHAPTERS, chapter, "README.md");
    describe(chapter, () => {
      if (!fs.existsSync(file)) {
        it("README.md", () => assert.fail(`${chapter}：还没有 README.md（chapters/${chapter}/README.md）——每章都要有，规则见 test/chapter-rules.test.ts`));
        return;
      }
      const readme = parseReadme(fs.readFileSync(file, "utf8"));
      const { files, problems } = listedFiles(readme);
      it("README 的结构：标题、题记、七个二级标题按顺序", () => check(structureProblems(readme, chapter).map((p) => `${chapter}：${p}`)));
      it(`「改了哪些文件」和${prev ? ` ${prev} 的 diff ` : "目录"}一致`, () => {
        check([...problems.map((p) => `${chapter}：${p}`), ...deltaProblems(chapter, prev, files)]);
      });
      it("改动的 .ts 文件开头写着这一章改了什么", () => check(headerProblems(chapter, files)));
      it("README 里的转录就是场景的 expected.txt", () => check(transcriptProblems(readme, chapter)));
    });
  });
});
