// json.ts 和 walk-json.ts（第 06 章起每章一份，加上改过它们的练习答案）：坏 JSON 坏在哪由 harness 自己说，不照抄 V8 的 JSON.parse 报错——
// 那段原话在 Node 20 和 22+ 上不一样，照抄进工具结果，同一个场景在两个运行时上的转录和 token 数就不一样。
// 这里证明两件事：说法是我们的（结尾、第几个字符、第几行第几列）；合法与否的判断和 JSON.parse 一致。
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { solutionTrees } from "../shared/overlay.ts";
import { CHAPTERS, ROOT, chapterDirs, copiesForTier } from "../shared/scenario.ts";

const all = [
  ...chapterDirs().map((d) => path.join(CHAPTERS, d)).filter((dir) => fs.existsSync(path.join(dir, "json.ts"))),
  ...solutionTrees("json.ts"), // 改过它的练习答案
];
const copies = copiesForTier(all);

// 固定种子的伪随机数：每次跑的都是同一批变形
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// 从几段合法 JSON 出发，删、换、插一两个字符
function mutations(count: number): string[] {
  const next = random(22);
  const seeds = [
    JSON.stringify({ a: [1, -2.5e3, true, false, null, 'x"y\\z\u0007'], b: { c: {}, d: [] } }),
    '{"path": "notes.txt", "n": [1, 2, 3]}',
    '{\n  "permissions": {\n    "allow": ["bash(ls*)"]\n  }\n}',
  ];
  const alphabet = '{}[],:"\\ tfnrue0123456789.-+eEa\n\t';
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    let s = seeds[k % seeds.length];
    for (let e = 0; e < 1 + (k % 2); e++) {
      const at = Math.floor(next() * (s.length + 1));
      const ch = alphabet[Math.floor(next() * alphabet.length)];
      const kind = next();
      s = kind < 1 / 3 ? s.slice(0, at) + s.slice(at + 1) : kind < 2 / 3 ? s.slice(0, at) + ch + s.slice(at + 1) : s.slice(0, at) + ch + s.slice(at);
    }
    out.push(s);
  }
  return out;
}

// 一个仓库里的 mcp.json、settings.json 可以有多大就有多大；末尾多一个逗号，坏在最后一个字符
const LONG = `{"a": "${"汉".repeat(20_000_000)}",}`;

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe("json.ts：坏 JSON 由 harness 自己说坏在哪", () => {
  it("第 06 章起每章都有 json.ts", () => {
    const chapters = all.filter((d) => d.startsWith(CHAPTERS)).map((d) => path.basename(d).slice(0, 2));
    assert.deepEqual(chapters, chapterDirs().map((d) => d.slice(0, 2)).filter((n) => n >= "06"));
  });

  for (const dir of copies) {
    describe(path.relative(ROOT, dir), () => {
      const load = () => import(pathToFileURL(path.join(dir, "json.ts")).href);
      const walker = () => import(pathToFileURL(path.join(dir, "walk-json.ts")).href); // 走语法的那一半在它自己的文件里

      it("说法：写到结尾还没写完 / 第几个字符 / 多行时第几行第几列；汉字按一个字符数", async () => {
        const { describeJsonError } = await load();
        assert.equal(describeJsonError('{"path": "notes.txt"'), "写到结尾还没写完");
        assert.equal(describeJsonError(""), "写到结尾还没写完");
        assert.equal(describeJsonError("{'path': 'a'}"), "在第 2 个字符处读不下去");
        assert.equal(describeJsonError('{"路径": "笔记.txt", }'), "在第 18 个字符处读不下去");
        assert.equal(describeJsonError('{"permissions": {"allow": ["bash(ls*)"],}}\n'), "在第 41 个字符处读不下去");
        assert.equal(describeJsonError('{\n  "permissions": {\n    allow: []\n  }\n}'), "在第 3 行第 5 列读不下去");
        assert.equal(describeJsonError('"\\x"'), "在第 2 个字符处读不下去");
        assert.equal(describeJsonError('["ab\\u12G4"]'), "在第 5 个字符处读不下去"); // 坏的 \u 转义：停在反斜杠上
        assert.equal(describeJsonError('"a\u0001"'), "在第 3 个字符处读不下去"); // 没转义的控制字符
        assert.equal(describeJsonError('"ab\\'), "在第 4 个字符处读不下去"); // 结尾是半个转义
        assert.doesNotMatch(describeJsonError("[1 2]"), /position|JSON|line|column/);
      });

      it("两千万字的字符串：照样走完，不抛 RangeError（正则的回溯栈装不下这么长的字符串）", async () => {
        const { jsonErrorAt } = await walker();
        assert.equal(jsonErrorAt(LONG), LONG.length - 1);
      });

      it("合法与否和 JSON.parse 一致（3000 段变形的 JSON）；不合法时的位置落在文字里", async () => {
        const { jsonErrorAt } = await walker();
        for (const text of mutations(3000)) {
          const at = jsonErrorAt(text);
          assert.equal(at === -1, parses(text), `jsonErrorAt(${JSON.stringify(text)}) = ${at}，JSON.parse ${parses(text) ? "接受" : "不接受"}`);
          assert.ok(at >= -1 && at <= text.length);
        }
      });
    });
  }
});
