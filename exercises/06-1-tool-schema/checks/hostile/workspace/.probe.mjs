// 检查器的探针（练习 06-1）：场景用 NODE_OPTIONS=--import=./.probe.mjs 在 harness 启动前加载它。
// 它在注册表存工具的那张 Map 里、紧挨着 read_file 放进一个工具 probe——参数的声明用到了这个练习要查的每一种关键字。
// probe 每执行一次，就在 stderr 上记一行“[探针] 执行：参数开头”，结果里原样交回它收到的参数，
// 并说 Object.prototype 有没有被污染。name 是“造深”“造长”时，结果是检查器要的恶意参数（count 层嵌套、count 个字符）。
const spec = {
  name: "probe",
  description: "检查器的探针：记下每一次执行",
  parameters: {
    type: "object",
    properties: {
      name: { type: "string" },
      count: { type: "integer" },
      ratio: { type: "number" },
      mode: { type: "string", enum: ["fast", "slow"] },
      tags: { type: "array", items: { type: "string" } },
      opts: {
        type: "object",
        properties: { deep: { type: "boolean" }, note: { type: "string" } },
        required: ["deep"],
        additionalProperties: false,
      },
    },
    required: ["name", "count"],
    additionalProperties: false,
  },
};

const clean = Object.getOwnPropertyNames(Object.prototype).join(",");
function pollution() {
  const now = Object.getOwnPropertyNames(Object.prototype);
  const extra = now.filter((k) => !clean.split(",").includes(k));
  return extra.length > 0 || now.join(",") !== clean ? `原型被污染：${extra.join(",")}` : "原型干净";
}

const probe = {
  definition: () => spec,
  async execute(args) {
    process.stderr.write(`[探针] 执行：${JSON.stringify(String(args).slice(0, 60))}\n`);
    let parsed;
    try {
      parsed = JSON.parse(args);
    } catch {
      parsed = {};
    }
    if (parsed?.name === "造深") return "[".repeat(parsed.count) + "]".repeat(parsed.count);
    if (parsed?.name === "造长") return "a".repeat(parsed.count);
    return `探针收到（${pollution()}）：${args}`;
  },
};

const set = Map.prototype.set;
Map.prototype.set = function (key, value) {
  set.call(this, key, value);
  if (key === "read_file" && typeof value?.execute === "function" && !this.has("probe")) set.call(this, "probe", probe);
  return this;
};
