// 转录和机器的路径无关：TMPDIR 有 60 个字符、中间还隔着一个符号链接（像 macOS 的 /var/folders/…/T/ 和 /tmp → /private/tmp），
// 第 15、18、22 章自己的场景照样逐字逐数地通过——压缩那一行、skill 清单、服务器按宽度折的日志都跟着工作目录的长度走，
// 场景的运行目录总是一样长（shared/scenario.ts 的 runDir）。watch 给 verify 设了自己的 TMPDIR，结论也和 verify 一样。
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { ROOT } from "../shared/scenario.ts";

let base = "";
let tmpdir = "";
before(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "lh-paths-")));
  fs.mkdirSync(path.join(base, "private"));
  fs.symlinkSync(path.join(base, "private"), path.join(base, "t")); // 经过符号链接到达的临时目录
  const link = path.join(base, "t") + "/";
  tmpdir = link + "T".repeat(60 - link.length);
  fs.mkdirSync(tmpdir);
  assert.equal(tmpdir.length, 60);
});
after(() => fs.rmSync(base, { recursive: true, force: true }));

function run(script: string, args: string[], stopWhen?: RegExp): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", script), ...args], { cwd: ROOT, env: { ...process.env, TMPDIR: tmpdir }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const take = (d: Buffer) => {
      output += d;
      if (stopWhen?.test(output)) child.kill("SIGTERM");
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("TMPDIR 60 个字符、经过符号链接", { concurrency: 3 }, () => {
  for (const chapter of ["15-compaction", "18-sub-agent", "22-mcp-client"]) {
    it(`npm run verify -- ${chapter.slice(0, 2)} --own：本章的场景全部通过`, async () => {
      const { code, output } = await run("verify.ts", [chapter.slice(0, 2), `chapters/${chapter}`, "--own"]);
      assert.equal(code, 0, output);
    });
  }

  it("npm run watch -- 15 --own：第一次的结论和 verify 一样（✓）", async () => {
    const { output } = await run("watch.ts", ["15", "chapters/15-compaction", "--own"], /\[watch \d\d:\d\d:\d\d\] [✓✗]/);
    assert.match(output, /\[watch \d\d:\d\d:\d\d\] ✓/, output);
  });
});
