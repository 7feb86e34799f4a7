// 整个站点：目录页、每章一页（README、和上一章的 diff、转录）、每个场景的线路视图、每个练习一页。
// 一切都从仓库本身读出来；线路视图是真跑场景录下来的。
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fullTree } from "../../shared/overlay.ts";
import { CHAPTERS, ROOT, chapterDirs, findChapter, listScenarios, type Scenario } from "../../shared/scenario.ts";
import { anchorOf, diffTrees, renderTreeDiff } from "./diffview.ts";
import { renderPage, type Link, type Page } from "./layout.ts";
import { escapeHtml, renderMarkdown, transcriptBlock } from "./markup.ts";
import { recordScenario, type Recording } from "./record.ts";
import { renderWire } from "./wire.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const EXERCISES = path.join(ROOT, "exercises");

export interface SiteOptions {
  out: string;
  wire: "all" | string[]; // 录哪些场景的线路（场景名）；测试只录几个，省 CPU
  jobs?: number; // 同时跑几个场景
  log?: (line: string) => void;
}

export interface SiteResult {
  pages: string[]; // 相对于 out
  recorded: number;
  mismatched: string[]; // 录的时候转录和 expected.txt 不一样的场景
}

interface Chapter {
  dir: string; // 22-mcp-client
  number: string; // 22
  title: string;
  motto: string;
  readme: string;
  changed: { file: string; isNew: boolean; why: string }[];
  scenarios: Scenario[];
}

function readChapter(dir: string): Chapter {
  const readme = fs.readFileSync(path.join(CHAPTERS, dir, "README.md"), "utf8");
  const lines = readme.split("\n");
  const title = lines[0].replace(/^# 第 \d+ 章 · /, "").trim();
  const motto = (lines.find((l) => l.startsWith("> ")) ?? "").slice(2).trim();
  const section = readme.split(/^## 改了哪些文件\s*$/m)[1]?.split(/^## /m)[0] ?? "";
  const changed = [...section.matchAll(/^- `([^`]+)`(（新增）)?[^—\n]*(?:—\s*(.*))?/gm)].map((m) => ({ file: m[1], isNew: Boolean(m[2]), why: (m[3] ?? "").replace(/`/g, "") }));
  return { dir, number: dir.slice(0, 2), title, motto, readme, changed, scenarios: listScenarios(dir) };
}

function chapterLabel(c: Chapter): string {
  return `第 ${c.number} 章`;
}

function chapterPath(c: Chapter): string {
  return `${c.dir}.html`;
}

function wirePath(s: Scenario): string {
  return `wire/${s.chapter}/${s.name}.html`;
}

// 把 README「改了哪些文件」一节里的文件名链到下面 diff 里的那一段
function linkChangedFiles(html: string, files: string[]): string {
  return html.replace(/(<h2 id="改了哪些文件">[\s\S]*?)(?=<h2|$)/, (section) =>
    section.replace(/<code[^>]*>(.*?)<\/code>/g, (all, inner: string) => {
      const name = inner.replace(/<[^>]+>/g, "");
      return files.includes(name) ? `<a href="#${escapeHtml(anchorOf(name))}">${all}</a>` : all;
    }),
  );
}

// 标题和题记放在页内目录的上面：打开一页，先看到的是这一章叫什么
function splitHead(html: string): { head: string; rest: string } {
  const m = html.match(/^<h1>[\s\S]*?<\/h1>\s*(?:<blockquote>[\s\S]*?<\/blockquote>\s*)?/);
  return m ? { head: m[0], rest: html.slice(m[0].length) } : { head: "", rest: html };
}

function chapterBody(c: Chapter, prev: Chapter | undefined, recorded: Set<string>): string {
  const diff = diffTrees(prev ? path.join(CHAPTERS, prev.dir) : undefined, path.join(CHAPTERS, c.dir), (f) => f === "README.md");
  const readme = linkChangedFiles(renderMarkdown(c.readme), diff.files.map((f) => f.path));
  const diffTitle = prev ? `和第 ${prev.number} 章的差别` : "全部文件（第一章，每个文件都是新的）";
  // npm run demo 播放的那个排在最前面，其余按名字
  const ordered = [...c.scenarios.filter((s) => s.spec.demo), ...c.scenarios.filter((s) => !s.spec.demo)];
  const scenarios = ordered.map((s) => {
    const wire = recorded.has(`${s.chapter}/${s.name}`) ? ` <a class="wire-link" href="${escapeHtml(wirePath(s))}">线路视图 →</a>` : "";
    const file = path.join(s.dir, "expected.txt");
    const expected = fs.existsSync(file) ? transcriptBlock(fs.readFileSync(file, "utf8")) : `<p class="warning">这个场景还没有 <code>expected.txt</code>。</p>`;
    const variants = fs.readdirSync(s.dir).filter((f) => /^expected\.\w+\.txt$/.test(f)).sort();
    const extra = variants.map((v) => `<details><summary><code>${escapeHtml(v)}</code>（这家服务商的转录不一样）</summary>${transcriptBlock(fs.readFileSync(path.join(s.dir, v), "utf8"))}</details>`).join("");
    const demo = s.spec.demo ? ` <span class="badge">npm run demo</span>` : "";
    return `<section class="scenario" id="scenario-${escapeHtml(s.name)}">
<h3><code>${escapeHtml(s.name)}</code>${demo}${wire}</h3>
${s.spec.description ? `<p>${escapeHtml(s.spec.description)}</p>` : ""}
${expected}
${extra}
</section>`;
  });
  const { head, rest } = splitHead(readme);
  return `${head}
<p class="toc"><a href="#readme">README</a> · <a href="#diff">${escapeHtml(diffTitle)}（${diff.files.length} 个文件）</a> · <a href="#transcripts">测试过的转录（${c.scenarios.length} 个场景）</a></p>
<article id="readme" class="readme">
${rest}
</article>
<h2 id="diff" class="part">${escapeHtml(diffTitle)}</h2>
<p class="note">${prev ? `即 <code>npm run diff -- ${prev.number} ${c.number}</code>（README 不算在内，它就是上面那篇）。` : "第一章没有上一章，每个文件都整个显示（README 就是上面那篇）。"}</p>
${renderTreeDiff(diff, prev ? `第 ${prev.number} 章` : "")}
<h2 id="transcripts" class="part">测试过的转录</h2>
<p class="note">每个场景在脚本模型上真的跑这一章，stderr 和 stdout 合成一路，必须和这里一字不差（<code>shared/fixtures/${escapeHtml(c.dir)}/</code>）。线路视图里是同一次运行中模型收到的每个请求。</p>
${scenarios.join("\n") || `<p>这一章没有自己的场景。</p>`}`;
}

function indexBody(chapters: Chapter[], exercises: Exercise[]): string {
  const cards = chapters.map((c) => {
    const files = c.changed.map((f) => `<code class="nw${f.isNew ? " new" : ""}" title="${escapeHtml(f.why)}">${escapeHtml(f.file)}</code>`).join(" ");
    return `<li class="card"><a href="${escapeHtml(chapterPath(c))}"><span class="num">${c.number}</span><span class="title">${escapeHtml(c.title)}</span></a>
<p class="motto">${escapeHtml(c.motto)}</p>
<p class="adds"><span class="label">改动</span> ${files} <span class="label">· ${c.scenarios.length} 个场景</span></p></li>`;
  });
  const ex = exercises.map((e) => `<li class="card"><a href="${escapeHtml(exercisePath(e))}"><span class="num">${escapeHtml(e.id)}</span><span class="title">${escapeHtml(e.title)}</span></a>
<p class="motto">${escapeHtml(e.motto)}</p></li>`);
  return `<h1>从零写一个编程 Agent 的 harness</h1>
<p class="lead">${chapters.length} 章，每章一个能单独运行的快照，在上一章的基础上只加一个想法。每章一页：README、和上一章的 diff、测试过的转录；每个场景还有线路视图——模型收到的每个请求、每一轮的输入里多少命中了缓存。</p>
<p class="note">新文件的名字标成绿色。这个站点由 <code>npm run site</code> 从仓库生成，直接从磁盘打开就能读。</p>
<ol class="cards">${cards.join("\n")}</ol>
<h2>加分练习（第 ${[...new Set(exercises.map((e) => Number(e.id.slice(0, 2))))].join("、")} 章之后）</h2>
<ol class="cards">${ex.join("\n")}</ol>`;
}

interface Exercise {
  dir: string; // 22-1-call-timeout
  id: string; // 22-1
  title: string;
  motto: string;
  checks: Scenario[]; // 检查器跑的场景（checks/ 下），线路视图在参考答案上录
}

function checkWirePath(e: Exercise, s: Scenario): string {
  return `wire/exercises/${e.dir}/${s.name}.html`;
}

function exercisePath(e: Exercise): string {
  return `exercises/${e.dir}.html`;
}

function readExercises(): Exercise[] {
  if (!fs.existsSync(EXERCISES)) return [];
  return fs.readdirSync(EXERCISES).filter((d) => /^\d\d-\d+-/.test(d) && fs.existsSync(path.join(EXERCISES, d, "README.md"))).sort().map((dir) => {
    const lines = fs.readFileSync(path.join(EXERCISES, dir, "README.md"), "utf8").split("\n");
    return {
      dir,
      id: dir.match(/^\d\d-\d+/)![0],
      title: lines[0].replace(/^# 练习 [\d-]+ · /, "").trim(),
      motto: (lines.find((l) => l.startsWith("> ")) ?? "").slice(2).trim(),
      checks: readChecks(path.join(EXERCISES, dir, "checks")),
    };
  });
}

function readChecks(base: string): Scenario[] {
  if (!fs.existsSync(base)) return [];
  return fs.readdirSync(base).filter((n) => fs.existsSync(path.join(base, n, "scenario.json"))).sort().map((name) => {
    const dir = path.join(base, name);
    return { chapter: findChapter(path.basename(path.dirname(base))) ?? "22-mcp-client", name, dir, spec: JSON.parse(fs.readFileSync(path.join(dir, "scenario.json"), "utf8")) };
  });
}

function exerciseBody(e: Exercise, last: Chapter, recorded: Set<string>): string { // last：练习做在哪一章上
  const base = path.join(EXERCISES, e.dir);
  const hints = path.join(base, "HINTS.md");
  // 参考答案的 README 讲这份答案改了什么、为什么：放在 diff 前面照常渲染，diff 里只放代码
  const diff = diffTrees(path.join(CHAPTERS, last.dir), fullTree(path.join(base, "solution")), (f) => f === "README.md"); // 答案只放改了的文件：叠好再比
  const solutionReadme = path.join(base, "solution", "README.md");
  const explained = fs.existsSync(solutionReadme)
    ? `<article class="readme solution-readme">${linkChangedFiles(renderMarkdown(fs.readFileSync(solutionReadme, "utf8")), diff.files.map((f) => f.path))}</article>`
    : "";
  const { head, rest } = splitHead(renderMarkdown(fs.readFileSync(path.join(base, "README.md"), "utf8")));
  return `${head}
<p class="toc"><a href="#task">任务</a> · <a href="#hints">提示</a> · <a href="#solution">参考答案</a></p>
<article id="task" class="readme">${rest}</article>
<h2 id="hints" class="part">提示</h2>
<div class="hints">${fs.existsSync(hints) ? renderMarkdown(fs.readFileSync(hints, "utf8").replace(/^# .*\n/, "")) : "<p>没有提示。</p>"}</div>
<h2 id="solution" class="part">参考答案：和第 ${last.number} 章的差别</h2>
<details class="solution"><summary>展开参考答案（<code>diff -ruN chapters/${escapeHtml(last.dir)} exercises/${escapeHtml(e.dir)}/solution</code>）</summary>
${explained}
${renderTreeDiff(diff, `第 ${last.number} 章`)}
</details>
<p class="note">检查你自己的那一份：<code>npm run check -- ${escapeHtml(e.id)} &lt;目录&gt;</code></p>
${checksList(e, recorded)}`;
}

// 检查器跑的每个场景，在参考答案上录下的线路：模型收到的请求，和 harness 与服务器之间的每一行（远程服务器是每个 HTTP 往返）
function checksList(e: Exercise, recorded: Set<string>): string {
  const items = e.checks.filter((s) => recorded.has(`${e.dir}/${s.name}`)).map((s) =>
    `<li><a class="wire-link" href="../${escapeHtml(checkWirePath(e, s))}"><code>${escapeHtml(s.name)}</code> 的线路视图 →</a>${s.spec.description ? ` ${escapeHtml(s.spec.description)}` : ""}</li>`);
  return items.length === 0 ? "" : `<h2 id="wire" class="part">检查场景的线路（在参考答案上跑）</h2>\n<ul class="checks">${items.join("\n")}</ul>`;
}

// 并发地跑几个场景，结果按原来的顺序
// 一个场景录不成（比如别人正在改它的 scenario.json），只少它那一页线路视图
async function recordAll(list: { s: Scenario; label: string; impl?: string }[], jobs: number, log: (s: string) => void): Promise<Recording[]> {
  const out: (Recording | undefined)[] = new Array(list.length);
  let next = 0;
  let done = 0;
  async function worker() {
    while (next < list.length) {
      const i = next++;
      const label = list[i].label;
      try {
        out[i] = await recordScenario(list[i].s, list[i].impl);
        log(`  录线路 ${++done}/${list.length} ${label}${out[i]!.matches ? "" : "（转录和 expected.txt 不一样）"}`);
      } catch (e: any) {
        log(`警告: 录 ${label} 失败，跳过它的线路视图: ${e?.message ?? e}`);
        done++;
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
  return out.filter((r): r is Recording => r !== undefined);
}

export async function buildSite(opts: SiteOptions): Promise<SiteResult> {
  const log = opts.log ?? (() => {});
  const chapters = chapterDirs().map(readChapter);
  const exercises = readExercises();
  const all = chapters.flatMap((c) => c.scenarios);
  // 练习的检查场景在它的参考答案上录，名字写成 练习目录/场景（--only 也认这个写法）
  const checks = exercises.flatMap((e) => e.checks.map((s) => ({ e, s, key: `${e.dir}/${s.name}` })));
  const wanted = opts.wire === "all" ? all : all.filter((s) => (opts.wire as string[]).includes(s.name));
  const wantedChecks = opts.wire === "all" ? checks : checks.filter((c) => (opts.wire as string[]).includes(c.key));
  if (opts.wire !== "all") {
    const missing = opts.wire.filter((n) => !all.some((s) => s.name === n) && !checks.some((c) => c.key === n));
    if (missing.length) throw new Error(`没有这些场景：${missing.join("、")}`);
  }
  log(`录 ${wanted.length + wantedChecks.length} 个场景的线路（每个都真跑一遍它那一章，练习的在参考答案上跑）…`);
  const jobs = opts.jobs ?? Math.min(2, os.availableParallelism());
  const recordings = await recordAll(wanted.map((s) => ({ s, label: `${s.chapter}/${s.name}` })), jobs, log);
  const checkRecordings = await recordAll(wantedChecks.map((c) => ({ s: c.s, label: c.key, impl: fullTree(path.join(EXERCISES, c.e.dir, "solution")) })), jobs, log);
  const recorded = new Set([...recordings.map((r) => `${r.scenario.chapter}/${r.scenario.name}`), ...wantedChecks.filter((c) => checkRecordings.some((r) => r.scenario === c.s)).map((c) => c.key)]);

  // 阅读顺序：01 … 22，再是各个练习；每一页都链到前一页和后一页
  const order: Link[] = [
    ...chapters.map((c) => ({ href: chapterPath(c), label: chapterLabel(c), detail: c.title })),
    ...exercises.map((e) => ({ href: exercisePath(e), label: `练习 ${e.id}` })),
  ];
  const around = (href: string) => {
    const i = order.findIndex((l) => l.href === href);
    return { prev: order[i - 1], next: order[i + 1] };
  };

  const pages: Page[] = [{ path: "index.html", title: "目录", body: indexBody(chapters, exercises), next: order[0] }];
  chapters.forEach((c, i) => {
    pages.push({ path: chapterPath(c), title: `${chapterLabel(c)} · ${c.title}`, body: chapterBody(c, chapters[i - 1], recorded), ...around(chapterPath(c)) });
  });
  for (const rec of recordings) {
    const c = chapters.find((ch) => ch.dir === rec.scenario.chapter)!;
    pages.push({
      path: wirePath(rec.scenario),
      title: `${rec.scenario.name} · ${chapterLabel(c)}线路视图`,
      body: renderWire(rec, `${chapterLabel(c)} ${c.title}`),
      ...around(chapterPath(c)),
      up: { href: `${chapterPath(c)}#scenario-${rec.scenario.name}`, label: `回到${chapterLabel(c)}` },
    });
  }
  const last = chapters[chapters.length - 1];
  // 练习做在哪一章上看名字开头的章号（22-1 → 第 22 章，23-1 → 第 23 章）：参考答案和那一章比
  const baseOf = (e: Exercise) => chapters.find((c) => c.number === e.id.slice(0, 2)) ?? last;
  for (const e of exercises) pages.push({ path: exercisePath(e), title: `练习 ${e.id} · ${e.title}`, body: exerciseBody(e, baseOf(e), recorded), ...around(exercisePath(e)) });
  for (const rec of checkRecordings) {
    const e = exercises.find((x) => x.checks.includes(rec.scenario))!;
    pages.push({
      path: checkWirePath(e, rec.scenario),
      title: `${rec.scenario.name} · 练习 ${e.id} 线路视图`,
      body: renderWire(rec, `练习 ${e.id} ${e.title} · 参考答案`),
      ...around(exercisePath(e)),
      up: { href: `${exercisePath(e)}#wire`, label: `回到练习 ${e.id}` },
    });
  }

  // 只删自己生成过的目录：--out 写错成一个有东西的目录，不能把它清空
  if (fs.existsSync(opts.out) && fs.readdirSync(opts.out).length > 0 && !fs.existsSync(path.join(opts.out, "index.html"))) {
    throw new Error(`${opts.out} 不是空目录，也不像 npm run site 生成的站点，不覆盖它`);
  }
  fs.rmSync(opts.out, { recursive: true, force: true });
  for (const p of pages) {
    const file = path.join(opts.out, p.path);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, renderPage(p));
  }
  fs.mkdirSync(path.join(opts.out, "assets"), { recursive: true });
  const theme = fs.readFileSync(path.join(ROOT, "node_modules", "highlight.js", "styles", "github.css"), "utf8");
  fs.writeFileSync(path.join(opts.out, "assets", "site.css"), fs.readFileSync(path.join(HERE, "site.css"), "utf8") + "\n/* highlight.js 的 github 主题 */\n" + theme);
  return {
    pages: pages.map((p) => p.path),
    recorded: recordings.length + checkRecordings.length,
    mismatched: recordings.filter((r) => !r.matches).map((r) => `${r.scenario.chapter}/${r.scenario.name}`),
  };
}
