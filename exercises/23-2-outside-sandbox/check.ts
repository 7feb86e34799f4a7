// 练习 23-2 的检查器：一条命令在沙箱外跑。真的 bwrap；用户的设置里写着 allow bash。
// “工作目录外面”用家目录：沙箱里它只读，沙箱外谁都写得了。命令写没写成，看后面一条普通命令（在沙箱里、不问）
// ls -A ~ 列出来的名字，不靠 harness 怎么说。问没问，看转录里带 [y/N] 的行；措辞不逐字比对，只要问题里提到沙箱。
import { describe, toolResults, type Requirement } from "../checker.ts";
import type { RunResult } from "../../shared/scenario.ts";

// 第 n 轮 bash 的结果（第 n+1 次请求带着它）
const result = (run: RunResult, round: number) => toolResults(run, round + 1)[0];
const quote = (value: string | undefined) => (value === undefined ? describe(value) : `“${describe(value)}”`);
// 第 round 轮的 ls -A ~ 列出了这个名字：命令在沙箱外写成了
const listed = (run: RunResult, round: number, name: string) => new RegExp(`^${name}$`, "m").test(result(run, round) ?? "");
const refused = (value: string | undefined) => value !== undefined && value.trimStart().startsWith("错误");
// harness 在终端上问的问题（伪终端里，问题和用户敲的回答在同一行）
const questions = (run: RunResult) => run.transcript.split("\n").filter((line) => line.includes("[y/N]"));

// 模型收到的结果不够说明问题时，补上 harness 本身怎么了
function how(run: RunResult, request: number): string {
  if (run.timedOut) return `（harness 没能结束，被场景的时限终止了；模型一共收到 ${run.requests} 次请求）`;
  if (run.bodies.length < request) return `（模型只收到 ${run.requests} 次请求，没走到第 ${request} 次；harness 退出码 ${run.exitCode}）`;
  return "";
}

export const requirements: Requirement[] = [
  {
    name: "allow bash 也挡不住这一问：在沙箱外跑的命令每条都在终端上问，问题说出它不在沙箱里；普通命令照旧不问",
    scenario: "outside-asks",
    check(run) {
      const asked = questions(run);
      const about = (name: string) => asked.find((line) => line.includes(`~/${name}`));
      const missing = ["outside-yes", "outside-no"].filter((name) => !about(name));
      if (missing.length > 0) {
        return `期望：用户的设置写着 allow bash，沙箱开着；模型给 bash 传了 "outside_sandbox": true，这样的命令不吃沙箱的“不必问”，也不吃 allow 规则，每条都在终端上问一句 y/N（写 ~/${missing[0]} 的那条也要问）；实际：${asked.length === 0 ? "一句也没问" : `只问了 ${quote(asked.join(" / "))}`}，${missing.map((name) => `写 ~/${name} 的命令`).join("、")}没有问就执行了${how(run, 5)}`;
      }
      const bare = missing.length === 0 ? ["outside-yes", "outside-no"].map(about).filter((line) => !line!.includes("沙箱")) : [];
      if (bare.length > 0) {
        return `期望：问题说清这条命令会在沙箱外跑（比如“允许在沙箱外执行 bash: … 吗？”），用户答 y 之前得知道沙箱这回管不着它——和平常的“允许执行”一模一样，用户会以为它还在沙箱里；实际：${quote(bare[0])}`;
      }
      const extra = asked.find((line) => line.includes("~/inside"));
      if (extra) return `期望：不带 outside_sandbox 的命令照第 23 章办——沙箱开着、没有 deny、ask 规则说话，不问就跑；实际：它也问了：${quote(extra)}`;
      return undefined;
    },
  },
  {
    name: "答 y：命令在沙箱外跑，写得了工作目录外面；之后的普通命令还在沙箱里",
    scenario: "outside-asks",
    check(run) {
      const yes = result(run, 2);
      if (!listed(run, 4, "outside-yes")) {
        return `期望：用户答 y，这条命令不经过 confine()、不套 bwrap，直接 spawn bash，写得了家目录（沙箱里家目录是只读的），后面的 ls -A ~ 列出 outside-yes；实际：这条命令的结果是 ${quote(yes)}，ls -A ~ 是 ${quote(result(run, 4))}${/Read-only file system/.test(yes ?? "") ? "——它还在沙箱里跑：bash 工具没有照 outside_sandbox 绕开 confine()" : ""}${how(run, 5)}`;
      }
      if (listed(run, 4, "inside") || !/Read-only file system/.test(result(run, 4) ?? "")) {
        return `期望：只有带 "outside_sandbox": true、又被批准了的那一条在沙箱外；后面不带它的 mkdir ~/inside 照旧在沙箱里，撞上 Read-only file system，家目录里没有 inside——批准的是一条命令，不是从此关掉沙箱；实际：${quote(result(run, 4))}`;
      }
      return undefined;
    },
  },
  {
    name: "在沙箱外也不带 API 密钥：环境还是第 07 章那一份",
    scenario: "outside-asks",
    check(run) {
      const yes = result(run, 2);
      if (yes === undefined || !yes.includes("写好了")) return undefined; // 没在沙箱外跑成，上一条会说
      if (yes.includes("有 0 个密钥")) return undefined;
      return `期望：沙箱外的命令照样用 childEnv() 那份去掉了 HARNESS_API_KEY、DEEPSEEK_API_KEY 的环境——沙箱挡的是文件和网络，密钥从来不该交给命令；env | grep -c API_KEY 该是 0；实际：${quote(yes)}`;
    },
  },
  {
    name: "答 n：命令没有执行，模型收到一个错误",
    scenario: "outside-asks",
    check(run) {
      const no = result(run, 3);
      if (listed(run, 4, "outside-no")) {
        return `期望：用户答 n，这条命令不执行，家目录里没有 outside-no；实际：ls -A ~ 列出了 outside-no：${quote(result(run, 4))}`;
      }
      if (refused(no)) return undefined;
      return `期望：用户答 n，模型收到以“错误”开头的结果（用户拒绝了，没有执行）；实际：${quote(no)}${how(run, 4)}`;
    },
  },
  {
    name: "deny 规则照样先说话：被 deny 的命令带着 outside_sandbox 也直接拒绝，不问",
    scenario: "outside-asks",
    check(run) {
      const asked = questions(run).find((line) => line.includes("~/denied"));
      if (!asked && !listed(run, 4, "denied") && refused(result(run, 1))) return undefined;
      return `期望：用户的 deny 规则 bash(touch *) 管着 touch ~/denied，带上 "outside_sandbox": true 也一样——deny 先比，直接拒绝，不问（问了，用户一个顺手的 y 就绕过了自己写的规则）；实际：${asked ? `问了 ${quote(asked)}` : "没问"}，模型收到 ${quote(result(run, 1))}${listed(run, 4, "denied") ? "，家目录里有了 denied" : ""}${how(run, 2)}`;
    },
  },
  {
    name: "没有终端：在沙箱外跑的命令被拒绝，allow bash 也放不行",
    scenario: "no-terminal",
    check(run) {
      const first = result(run, 1);
      if (listed(run, 3, "escaped-noterm")) {
        return `期望：输入不是终端，没人可问；allow bash 管不了在沙箱外跑的命令，它被拒绝、不执行；实际：它在沙箱外跑了，ls -A ~ 列出了 escaped-noterm：${quote(result(run, 3))}`;
      }
      if (refused(first)) return undefined;
      return `期望：没有终端可问，这条带 "outside_sandbox": true 的命令按拒绝处理，模型收到以“错误”开头的结果，说清要用户在终端上确认；实际：${quote(first)}${/Read-only file system/.test(first ?? "") ? "——它被当成普通命令、在沙箱里跑了：permissions.ts 没有认出 outside_sandbox" : ""}${how(run, 2)}`;
    },
  },
  {
    name: "敌意的模型：outside_sandbox 写成字符串 \"true\"，也出不了沙箱",
    scenario: "no-terminal",
    check(run) {
      if (!listed(run, 3, "escaped-string")) return undefined;
      return `期望：权限检查和 bash 工具对“在不在沙箱外”用同一个判断（只认布尔的 true）："true" 这个字符串要么当成普通命令、在沙箱里跑（写不了家目录），要么和 true 一样被拒绝——不能权限那边当它是普通命令、不问就放行，bash 那边又当它是真的、在沙箱外跑；实际：没有终端、没有人批准，它写到了家目录，ls -A ~ 列出了 escaped-string：${quote(result(run, 3))}`;
    },
  },
  {
    name: "用户的设置写了 \"allowUnsandboxedCommands\": false：一律拒绝、不问；仓库的设置改不了它",
    scenario: "refused-outright",
    check(run) {
      const first = result(run, 1);
      const asked = questions(run);
      const wrote = listed(run, 2, "escaped-off");
      if (asked.length > 0 || wrote) {
        return `期望：~/.harness/settings.json 的 sandbox 里写着 "allowUnsandboxedCommands": false，带 "outside_sandbox": true 的命令直接拒绝，连问都不问（问了，用户一个顺手的 y 就放出去了）；仓库的 .harness/settings.json 写的 true 不算——沙箱的设置只听用户自己的；实际：${asked.length > 0 ? `在终端上问了 ${quote(asked[0])}` : "没问"}${wrote ? "，检查器答了 y，命令在沙箱外写到了家目录" : ""}${asked.length > 0 ? "——多半是没读这个设置，或者读的是仓库那一份" : ""}`;
      }
      if (!refused(first)) {
        return `期望：这条命令被拒绝，模型收到以“错误”开头的结果，说清是用户的设置不许在沙箱外执行；实际：${quote(first)}${how(run, 2)}`;
      }
      if (result(run, 2)?.startsWith("退出码: 0")) return undefined;
      return `期望：这个设置只管要在沙箱外跑的命令；后面普通的 ls -A ~ 照旧在沙箱里、不问就跑；实际：${quote(result(run, 2))}${how(run, 3)}`;
    },
  },
];
