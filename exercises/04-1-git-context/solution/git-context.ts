// git-context.ts：启动时给 git 仓库拍一张快照——分支、git status --short、最近几次提交，接在 system prompt 后面。
// 练习 04-1 新增。仓库是别人做的，它的 .git/config 也是：git status 会运行 core.fsmonitor 写着的程序，
// 碰到要重新算哈希的文件，还会运行 .gitattributes 指给它的 clean 过滤器。谁做了这个仓库，谁就能在你的机器上跑程序。
// 所以这里的 git 一律这样跑：这些设置都盖掉，不写索引，环境里的 GIT_DIR 之类不带进去，限时。
import { spawnSync } from "node:child_process";
import { clip } from "./model.ts";
import { safeLine } from "./terminal.ts";

export const MAX_STATUS_LINES = 20; // 改动再多，也只列这么多行，再说还有几行
export const MAX_COMMITS = 5;
const GIT_TIMEOUT_MS = 5000; // 巨大的仓库、慢的网络盘：宁可不要这段，也不能卡住启动

// 不是仓库、没装 git、git 出了错：返回 undefined，system prompt 里就没有这一段，也不报错
export function gitContext(cwd: string): string | undefined {
  const git = safeGit(cwd);
  if (git(["rev-parse", "--is-inside-work-tree"])?.trim() !== "true") return undefined;
  const branch = git(["symbolic-ref", "--short", "-q", "HEAD"])?.trim();
  const head = branch ? `当前分支：${branch}` : `不在任何分支上（分离的 HEAD，提交 ${git(["rev-parse", "--short", "HEAD"])?.trim() || "未知"}）`;
  const status = lines(git(["status", "--short"]));
  const commits = lines(git(["log", `-${MAX_COMMITS}`, "--format=%h %s", "--no-show-signature"]));
  const shown = status.slice(0, MAX_STATUS_LINES);
  const block = [
    "以下是启动时拍下的 git 快照，对话过程中不会更新：",
    head,
    `git status --short：${status.length === 0 ? "（没有改动）" : ""}`,
    ...shown,
    ...(status.length > shown.length ? [`……还有 ${status.length - shown.length} 行没有列出`] : []),
    `最近的提交：${commits.length === 0 ? "（还没有提交）" : ""}`,
    ...commits,
  ];
  // 提交说明、文件名、分支名都是仓库的作者写的：显形、截短，一行就是一行
  return block.map((line) => safeLine(clip(line))).join("\n");
}

function lines(text: string | undefined): string[] {
  return (text ?? "").split("\n").filter((line) => line !== "");
}

// 返回一个跑 git 的函数：每次都带着同一套“不许运行仓库里的程序”的设置
function safeGit(cwd: string): (args: string[]) => string | undefined {
  const env: NodeJS.ProcessEnv = {};
  // GIT_DIR、GIT_INDEX_FILE、GIT_CONFIG_PARAMETERS……都会让 git 换一个仓库、一份索引、一套设置：一个也不带
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith("GIT_")) env[key] = value;
  env.GIT_OPTIONAL_LOCKS = "0"; // 同 --no-optional-locks：git status 不顺手改写索引
  const run = (args: string[]) => {
    const result = spawnSync("git", args, { cwd, env, encoding: "utf8", timeout: GIT_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024, stdio: ["ignore", "pipe", "ignore"] });
    return result.status === 0 ? result.stdout : undefined; // 没装 git 时 result.error 是 ENOENT，status 是 null
  };
  // 过滤器的名字是仓库自己起的，先列出来，再一个个盖成空的（空的 clean、process 就是不过滤）。读设置本身不运行程序
  const filters = new Set((run(["config", "--null", "--name-only", "--get-regexp", "^filter\\."]) ?? "").split("\0").filter(Boolean).map((key) => key.slice("filter.".length, key.lastIndexOf("."))));
  const settings: [string, string][] = [
    ["core.fsmonitor", "false"], // git status 每次都会先运行它
    ["core.hooksPath", "/dev/null"],
    ...[...filters].flatMap((name): [string, string][] => [[`filter.${name}.clean`, ""], [`filter.${name}.process`, ""]]),
  ];
  // 用 GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n 而不是 -c 名字=值：过滤器的名字里可以有“=”，-c 会从那里切开
  settings.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  env.GIT_CONFIG_COUNT = String(settings.length);
  return run;
}
