// text-file.ts（第 04 章起每章一份）：别人放进工作目录的 AGENTS.md、settings.json、SKILL.md、mcp.json 只当普通文件读。
// FIFO 一打开就等人来写，/dev/zero 读不到头：拿 fs.readFileSync 读它们，harness 就卡在启动上。
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { solutionTrees } from "../shared/overlay.ts";
import { CHAPTERS, ROOT, chapterDirs, copiesForTier } from "../shared/scenario.ts";

const all = [
  ...chapterDirs().map((d) => path.join(CHAPTERS, d)).filter((dir) => fs.existsSync(path.join(dir, "text-file.ts"))),
  ...solutionTrees("text-file.ts"), // 改过它的练习答案（现在没有）
];
const copies = copiesForTier(all);

// 读不了时抛出的 code：ENOENT 这样的错误码，或者 text-file.ts 自己的一句话
const codeOf = (read: () => unknown) => {
  try {
    read();
  } catch (e) {
    return (e as NodeJS.ErrnoException).code;
  }
  return undefined;
};

describe("text-file.ts：只读普通文件，最多读到上限", () => {
  it("第 04 章起每章都有 text-file.ts", () => {
    const chapters = all.filter((d) => d.startsWith(CHAPTERS)).map((d) => path.basename(d).slice(0, 2));
    assert.deepEqual(chapters, chapterDirs().map((d) => d.slice(0, 2)).filter((n) => n >= "04"));
  });

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "text-file-"));
  execFileSync("mkfifo", [path.join(dir, "pipe")]);
  fs.symlinkSync("/dev/zero", path.join(dir, "zero"));
  fs.mkdirSync(path.join(dir, "dir"));
  fs.writeFileSync(path.join(dir, "ok.md"), "汉字 AGENTS\n");
  fs.writeFileSync(path.join(dir, "big.md"), "x".repeat(2000));
  fs.mkdirSync(path.join(dir, "work"));
  fs.writeFileSync(path.join(dir, "secret.md"), "秘密\n");
  fs.writeFileSync(path.join(dir, "work", "inner.md"), "里面\n");
  fs.symlinkSync("inner.md", path.join(dir, "work", "to-inner.md"));
  fs.symlinkSync(path.join(dir, "secret.md"), path.join(dir, "work", "to-secret.md"));
  fs.linkSync(path.join(dir, "secret.md"), path.join(dir, "work", "hard.md"));
  process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));

  // FIFO 放在子进程里试：少了 O_NONBLOCK 的那份会卡在 open 上（同步的，整个进程都停住），子进程被时限结束，测试失败而不是卡住
  it("FIFO：打开时不等人来写，说它不是普通文件（每一份）", () => {
    const code = `for (const copy of ${JSON.stringify(copies)}) {
      console.log(copy);
      const { readTextFile } = await import(${JSON.stringify(pathToFileURL(ROOT).href)} + "/" + copy.slice(${ROOT.length + 1}) + "/text-file.ts");
      try { readTextFile(${JSON.stringify(path.join(dir, "pipe"))}); console.log("读了"); } catch (e) { console.log(e.code); }
    }`;
    let out: string;
    try {
      out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
    } catch (e) {
      const { stdout, signal } = e as { stdout: string; signal: string | null };
      return assert.fail(`${signal ? "卡住了（60 秒后被结束）" : "子进程失败"}；最后试的是 ${stdout.trim().split("\n").at(-1)}\n${stdout}`);
    }
    const lines = out.trim().split("\n");
    for (let i = 0; i < copies.length; i++) assert.equal(lines[2 * i + 1], "不是普通文件", path.relative(ROOT, copies[i]));
  });

  for (const copy of copies) {
    it(path.relative(ROOT, copy), async () => {
      const { readTextFile } = await import(pathToFileURL(path.join(copy, "text-file.ts")).href);
      const at = (name: string) => path.join(dir, name);
      assert.equal(readTextFile(at("ok.md")), "汉字 AGENTS\n");
      assert.equal(codeOf(() => readTextFile(at("zero"))), "不是普通文件"); // 不查类型就读个没完
      assert.equal(codeOf(() => readTextFile(at("dir"))), "EISDIR");
      assert.equal(codeOf(() => readTextFile(at("nothing"))), "ENOENT");
      // 上限在小的设置上试：1000 字节的上限、2000 字节的文件；正好等于上限的照读
      assert.equal(codeOf(() => readTextFile(at("big.md"), { max: 1000 })), `超过 ${1000 / 1024 / 1024} MiB`);
      assert.equal(readTextFile(at("big.md"), { max: 2000 }).length, 2000);
      // within：解开链接以后还得在那个目录里；硬链接（另一个名字可能在外面）也不读
      const work = at("work");
      assert.equal(readTextFile(path.join(work, "inner.md"), { within: work }), "里面\n");
      assert.equal(readTextFile(path.join(work, "to-inner.md"), { within: work }), "里面\n");
      assert.equal(codeOf(() => readTextFile(path.join(work, "to-secret.md"), { within: work })), "指向工作目录之外");
      assert.equal(codeOf(() => readTextFile(path.join(work, "hard.md"), { within: work })), "指向工作目录之外");
      assert.equal(readTextFile(path.join(work, "to-secret.md")), "秘密\n"); // 不给 within 就照读（用户自己目录里的文件）
    });
  }
});
