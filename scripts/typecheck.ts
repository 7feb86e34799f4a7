// 类型检查读者的目录（verify、check 跑场景之前先做这一步）：用仓库的 tsconfig.json、仓库的 typescript 和 @types/node，
// 目录在仓库外面也一样——读者的副本里没有 package.json，也没有 node_modules。
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { solutionTrees } from "../shared/overlay.ts";
import { ROOT, dropScratchDir, scratchDir } from "../shared/scenario.ts";

const TSC = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");
const SHOWN = 8; // 只列前几处：第一处往往就是病根，后面的多半是它连带出来的

// null 表示通过；否则是给读者看的一段中文：几处错误、前几处各在哪个文件哪一行
export async function typecheckDir(dir: string): Promise<string | null> {
  // 把 .ts 文件抄进临时目录，旁边放一个 "type": "module" 的 package.json：
  // 否则 NodeNext 把没有 package.json 的目录当 CommonJS，每个 import 都报错，而 tsx 和 Node 其实是按 ESM 跑它的
  const tmp = scratchDir("lh-typecheck-"); // 被打断时也删掉

  try {
    const src = path.join(tmp, "src");
    fs.cpSync(dir, src, {
      recursive: true,
      filter: (from) => {
        const name = path.basename(from);
        if (from === dir) return true;
        try {
          if (fs.statSync(from).isDirectory()) return name !== "node_modules" && !name.startsWith(".");
        } catch {
          return false; // 断掉的符号链接
        }
        return name.endsWith(".ts");
      },
    });
    fs.writeFileSync(path.join(tmp, "package.json"), JSON.stringify({ type: "module" }));
    const config = {
      extends: path.join(ROOT, "tsconfig.json"),
      compilerOptions: { typeRoots: [path.join(ROOT, "node_modules", "@types")] },
      include: ["src/**/*.ts"],
      exclude: [],
    };
    fs.writeFileSync(path.join(tmp, "tsconfig.json"), JSON.stringify(config, null, 2));
    const { code, output } = await run(process.execPath, [TSC, "-p", tmp, "--pretty", "false", "--locale", "zh-cn"], tmp);
    if (code === 0) return null;
    return explain(output, dir);
  } finally {
    dropScratchDir(tmp);
  }
}

function run(command: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, output: stdout + stderr + (error && typeof error.code !== "number" ? error.message : "") });
    });
  });
}

// tsc 的一处错误是一行 `src/main.ts(59,9): error TS2322: …`，后面缩进的几行是补充说明
function explain(output: string, dir: string): string {
  const errors: string[][] = [];
  for (const line of output.split("\n")) {
    const m = line.match(/^src\/(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/);
    if (m) errors.push([`${m[1]}:${m[2]}:${m[3]}  ${m[5]}（${m[4]}）`]);
    else if (/^\s+\S/.test(line) && errors.length > 0) errors.at(-1)!.push("  " + line.trim());
  }
  if (output.includes("TS18003")) return `${dir} 里没有 .ts 文件，没有可检查的`;
  if (errors.length === 0) return `类型检查没能完成：\n${output.trim()}`;
  const shown = errors.slice(0, SHOWN).flatMap((lines) => lines.map((l) => "  " + l));
  const more = errors.length > SHOWN ? [`  …还有 ${errors.length - SHOWN} 处`] : [];
  return [`类型检查没通过：${errors.length} 处错误（和 npm test 一样，用仓库的 tsconfig.json 和 @types/node 检查 ${dir}）`, ...shown, ...more].join("\n");
}

// npm run typecheck 的第二步（npm test 里是 build-typecheck 的第二个用例）：练习的答案只放改了的文件，tsc -p . 不看它们
// （tsconfig.json 排除了 solution/）。这里把每份叠好的整份放进一个目录，一次 tsc 检查完；null 表示通过
export async function typecheckSolutions(): Promise<string | null> {
  const stage = scratchDir("lh-solutions-");
  try {
    for (const dir of solutionTrees()) fs.cpSync(dir, path.join(stage, path.basename(dir).replace(/-[0-9a-f]+$/, "")), { recursive: true });
    const errors = await typecheckDir(stage);
    return errors && errors.replaceAll(stage, "exercises/*/solution（叠在第 22 章上）");
  } finally {
    dropScratchDir(stage);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href && process.argv.includes("--solutions")) {
  const errors = await typecheckSolutions();
  if (errors) console.error(errors);
  process.exitCode = errors ? 1 : 0;
}
