// npm run site 生成的网页：结构对不对（每章一页、diff 列出该列的文件、线路视图每轮一根条且数字和转录一致），
// 再让真的浏览器（无头 Chromium）从磁盘打开第 22 章那一页，看渲染出来的 DOM，存一张截图。
// 只录两个场景的线路，整个文件控制在二十秒 CPU 以内；npm run site 本身录全部场景。
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { before, describe, it } from "node:test";
import { FIXTURES, ROOT, chapterDirs, findChapter } from "../shared/scenario.ts";
import { buildSite, type SiteResult } from "../scripts/site/build.ts";

const OUT = path.join(ROOT, ".cache", "site-test");
// experiment-1：第 22 章，有 JSON-RPC；experiment-2：官方 filesystem 服务器的 14 个工具（tools/list 很长的一行）；
// cache-grows：第 13 章，用量行从这一章开始
const WIRE = [
  { chapter: "22-mcp-client", name: "experiment-1" },
  { chapter: "22-mcp-client", name: "experiment-2" },
  { chapter: "13-usage-and-cache", name: "cache-grows" },
];

// 练习的检查场景在参考答案上录：22-5 是远程服务器（每个 HTTP 往返），22-6 是两个时代（探路和握手）
const CHECKS = ["22-5-remote-http/remote-tools", "22-6-two-eras/two-eras"];

const read = (p: string) => fs.readFileSync(path.join(OUT, p), "utf8");

// 转录里的用量：每一轮的 [round N 输入 X tokens，命中缓存 Y]，加上最后一轮的 [共 N 轮 · 最后一轮输入 X tokens（命中缓存 Y）…]
function usageLines(transcript: string): { input: number; cached: number }[] {
  return [...transcript.matchAll(/^\[round \d+ 输入 (\d+) tokens，命中缓存 (\d+)\]$|^\[共 \d+ 轮 · 最后一轮输入 (\d+) tokens（命中缓存 (\d+)）/gm)].map((m) => ({
    input: Number(m[1] ?? m[3]),
    cached: Number(m[2] ?? m[4]),
  }));
}

let result: SiteResult;
before(async () => {
  result = await buildSite({ out: OUT, wire: [...WIRE.map((w) => w.name), ...CHECKS], jobs: 2 });
});

describe("npm run site：网页的结构", () => {
  it("目录页和每一章都有一页，目录页链到每一章", () => {
    const index = read("index.html");
    for (const dir of chapterDirs()) {
      assert.ok(result.pages.includes(`${dir}.html`), `缺少 ${dir}.html`);
      assert.ok(index.includes(`href="${dir}.html"`), `目录页没有链到 ${dir}.html`);
    }
  });

  it("21 → 22 的 diff 列出 mcp.ts、mcp-client.ts 和 jsonrpc.ts（新文件整个显示），README 的「改了哪些文件」链过去", () => {
    const page = read("22-mcp-client.html");
    for (const file of ["mcp.ts", "mcp-client.ts", "jsonrpc.ts"]) {
      assert.match(page, new RegExp(`<section class="file" id="diff-${file.replace(".", "\\.")}">`), `diff 里没有 ${file}`);
      assert.ok(page.includes(`<a href="#diff-${file}"><code class="nw">${file}</code></a>`), `「改了哪些文件」里的 ${file} 没有链到 diff`);
    }
    const jsonrpc = page.split('id="diff-jsonrpc.ts"')[1].split("</section>")[0];
    const lines = fs.readFileSync(path.join(ROOT, "chapters", "22-mcp-client", "jsonrpc.ts"), "utf8").replace(/\n$/, "").split("\n").length;
    assert.equal(jsonrpc.match(/<tr class="add">/g)?.length, lines, "新文件应该整个显示，每一行都是加的");
    assert.ok(!page.includes('id="diff-registry.ts"'), "registry.ts 没变，不该出现在 diff 里");
  });

  it("每一页都链到上一章和下一章", () => {
    const dirs = chapterDirs();
    dirs.forEach((dir, i) => {
      const page = read(`${dir}.html`);
      if (i > 0) assert.ok(page.includes(`class="prev" href="${dirs[i - 1]}.html"`), `${dir} 没有链到上一章`);
      if (i < dirs.length - 1) assert.ok(page.includes(`class="next" href="${dirs[i + 1]}.html"`), `${dir} 没有链到下一章`);
    });
    const wire = read("wire/22-mcp-client/experiment-1.html");
    assert.ok(wire.includes(`class="prev" href="../../21-workflow.html"`), "线路视图也要链到上一章");
  });

  for (const w of WIRE) {
    it(`线路视图 ${w.chapter}/${w.name}：转录里每一行用量一根条，缓存与非缓存的数字一样`, () => {
      const page = read(`wire/${w.chapter}/${w.name}.html`);
      const bars = [...page.matchAll(/class="bar" data-input="(\d+)" data-cached="(\d+)"/g)].map((m) => ({ input: Number(m[1]), cached: Number(m[2]) }));
      const expected = usageLines(fs.readFileSync(path.join(FIXTURES, w.chapter, w.name, "expected.txt"), "utf8"));
      assert.ok(expected.length >= 2, "选的场景应当打印用量");
      assert.deepEqual(bars, expected);
      assert.equal(page.match(/<section class="request"/g)?.length, expected.length, "每个请求一段");
    });
  }

  it("第 22 章的线路视图有 JSON-RPC 的来回：握手、列工具、调用", () => {
    const page = read("wire/22-mcp-client/experiment-1.html");
    for (const method of ["initialize", "notifications/initialized", "tools/list", "tools/call"]) {
      assert.ok(page.includes(`&quot;method&quot;:&quot;${method}&quot;`), `没有 ${method}`);
    }
    assert.ok(page.includes("harness → time") && page.includes("time → harness"), "两个方向都要有");
    assert.ok(!page.includes(os.tmpdir() + "/lh-"), "临时目录应该换成 $WORK 之类");
    // 日期和脚本模型计 token 时一样换成 2026-01-01；十几个工具的 tools/list 那一行折起来
    assert.ok(!page.includes(new Date().toISOString().slice(0, 10)), "system prompt 里的今天应该换成 2026-01-01");
    const two = read("wire/22-mcp-client/experiment-2.html");
    assert.match(two, /<details><summary><code>[^]*?tools[^]*?…（共 \d+ 个字符，点开看全文）<\/summary>/, "长的 tools/list 应该折起来");
    assert.deepEqual(result.mismatched, [], "录线路时的转录应当和 expected.txt 一样");
  });

  it("练习的线路视图：远程服务器的每个 HTTP 往返带着会话号和协议版本头，两个时代各有标记", () => {
    assert.ok(read("exercises/22-5-remote-http.html").includes(`href="../wire/exercises/22-5-remote-http/remote-tools.html"`), "练习页要链到检查场景的线路视图");
    const http = read("wire/exercises/22-5-remote-http/remote-tools.html");
    for (const head of ["POST /mcp", "mcp-session-id: ", "mcp-protocol-version: ", "HTTP 404", "DELETE /mcp"]) {
      assert.ok(http.includes(`<div class="http">${head}`) || http.includes(`· ${head}`) || http.includes(`>${head}`), `远程服务器的线路里没有 ${head}`);
    }
    const heads = [...http.matchAll(/<div class="http">(.*?)<\/div>/g)].map((m) => m[1]).join("\n");
    assert.match(heads, /authorization: Bearer …（遮住）/, "请求头里的令牌要遮住");
    assert.doesNotMatch(heads, /Bearer (?!…)/, "请求头里的令牌要遮住");
    const eras = read("wire/exercises/22-6-two-eras/two-eras.html");
    assert.ok(eras.includes(`<span class="badge era">新时代 2026-07-28</span>`) && eras.includes(`<span class="badge era">握手 `), "两个时代的请求都要标出来");
    assert.ok(eras.includes("&quot;method&quot;:&quot;server/discover&quot;"), "先用 server/discover 探路");
  });

  it("练习页：任务、折起来的提示、和它做在哪一章上的那一章相比的参考答案", () => {
    const exercises = fs.readdirSync(path.join(ROOT, "exercises")).filter((d) => /^\d\d-\d+-/.test(d));
    assert.ok(exercises.length > 0);
    for (const e of exercises) {
      const base = path.join(ROOT, "chapters", findChapter(e.slice(0, 2))!); // 22-N 是第 22 章，23-1 是第 23 章
      const page = read(`exercises/${e}.html`);
      assert.match(page, /<details><summary>提示 1/, `${e}：提示应该折起来`);
      // 参考答案里和它那一章不一样的每个代码文件都有自己的一段（它的 README 在 diff 前面渲染）
      const solution = path.join(ROOT, "exercises", e, "solution");
      const files = fs.readdirSync(solution, { recursive: true, encoding: "utf8" }).filter((f) => f !== "README.md" && fs.statSync(path.join(solution, f)).isFile());
      const differs = files.filter((f) => !fs.existsSync(path.join(base, f)) || !fs.readFileSync(path.join(base, f)).equals(fs.readFileSync(path.join(solution, f))));
      assert.ok(differs.length > 0, `${e}：参考答案和它那一章一样？`);
      for (const f of differs) assert.ok(page.includes(`<section class="file" id="diff-${f}">`), `${e}：参考答案的 diff 里没有 ${f}`);
    }
  });
});

// ---- 真的浏览器 ----

function findChromium(): string | undefined {
  for (const cmd of [process.env.CHROMIUM, "chromium", "chromium-browser", "google-chrome"]) {
    if (cmd && spawnSync(cmd, ["--version"], { stdio: "ignore" }).status === 0) return cmd;
  }
  return undefined;
}

const chromium = findChromium();
const noChromium = chromium ? false : "没有找到 Chromium（Debian：apt-get install chromium fonts-wqy-zenhei；或者设 CHROMIUM=命令）";

function headless(args: string[]): string {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "lh-chromium-"));
  try {
    return execFileSync(chromium!, ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars", `--user-data-dir=${profile}`, ...args], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 90_000,
    });
  } finally {
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

describe("无头 Chromium 从磁盘打开第 22 章", { skip: noChromium }, () => {
  it("渲染出的 DOM：标题、diff、转录、导航；手机宽度下代码块横向滚动、页面本身不横着溢出", () => {
    // 一个探针页用 iframe 装进第 22 章（手机的宽度），量渲染之后的样子，把结果写进自己的 DOM，--dump-dom 读出来
    const probe = path.join(OUT, "probe.html");
    fs.writeFileSync(probe, `<!doctype html><meta charset="utf-8"><body><iframe id="f" src="22-mcp-client.html" style="width:390px;height:844px;border:0"></iframe>
<script>
document.getElementById("f").addEventListener("load", (e) => {
  const d = e.target.contentDocument, w = e.target.contentWindow;
  const pres = [...d.querySelectorAll("pre.code")];
  const r = {
    h1: d.querySelector("h1")?.textContent,
    files: [...d.querySelectorAll("section.file")].map((s) => s.id),
    transcripts: d.querySelectorAll("pre.transcript").length,
    prev: d.querySelector("nav.top a.prev")?.getAttribute("href"),
    next: d.querySelector("nav.top a.next")?.getAttribute("href"),
    preWhiteSpace: w.getComputedStyle(pres[0]).whiteSpace,
    scrollingPres: pres.filter((p) => p.scrollWidth > p.clientWidth + 1).length,
    pageOverflow: d.documentElement.scrollWidth - d.documentElement.clientWidth,
    lang: d.documentElement.lang,
    cjkFont: w.getComputedStyle(d.body).fontFamily.includes("WenQuanYi Zen Hei"),
  };
  document.body.setAttribute("data-result", JSON.stringify(r));
});
</script>`);
    const dom = headless(["--allow-file-access-from-files", "--virtual-time-budget=10000", "--dump-dom", pathToFileURL(probe).href]);
    const m = dom.match(/data-result="([^"]*)"/);
    assert.ok(m, `探针没有写出结果：${dom.slice(0, 300)}`);
    const r = JSON.parse(m[1].replace(/&quot;/g, '"').replace(/&amp;/g, "&"));
    assert.equal(r.h1, "第 22 章 · MCP 客户端：接入别人的工具");
    assert.deepEqual(r.files, ["diff-jsonrpc.ts", "diff-main.ts", "diff-mcp-client.ts", "diff-mcp-config.ts", "diff-mcp-stderr.ts", "diff-mcp-tools.ts", "diff-mcp.ts", "diff-permissions.ts", "diff-repl.ts"]);
    assert.ok(r.transcripts >= 10, `转录只有 ${r.transcripts} 段`);
    assert.equal(r.prev, "21-workflow.html");
    assert.equal(r.next, "23-sandbox.html");
    assert.equal(r.lang, "zh-CN");
    assert.ok(r.cjkFont, "字体栈里要有 Linux 上的中文字体");
    assert.equal(r.preWhiteSpace, "pre", "代码块不折行");
    assert.ok(r.scrollingPres > 0, "手机宽度下，长的代码块应当横向滚动");
    assert.ok(r.pageOverflow <= 0, `手机宽度下页面横着溢出了 ${r.pageOverflow}px`);
  });

  it("截图（.cache/site-ch22.png、.cache/site-ch22-phone.png）", () => {
    const page = pathToFileURL(path.join(OUT, "22-mcp-client.html")).href;
    for (const [file, size] of [["site-ch22.png", "1280,2400"], ["site-ch22-phone.png", "390,844"]]) {
      const shot = path.join(ROOT, ".cache", file);
      fs.rmSync(shot, { force: true });
      headless([`--window-size=${size}`, `--screenshot=${shot}`, page]);
      assert.ok(fs.existsSync(shot), `没有生成 ${file}`);
      // 一张空白页的 PNG 不到 10 KB；有字有色的页面大得多
      assert.ok(fs.statSync(shot).size > 30_000, `${file} 看起来是空白的（${fs.statSync(shot).size} 字节）`);
    }
  });
});
