// tools/load-skill.ts：load_skill 工具——按名字取回一个 skill 的正文（L2）。
// 第 17 章新增：system prompt 里只放名字和一句话（L1），正文等模型真用得上时再读。
// 练习 17-1：读出正文的同时，把这个 skill 的 allowed-tools 加进放行规则（allowFromSkill），一个 skill 只加一次。
import type { ToolSpec } from "../model.ts";
import { allowFromSkill, type Policy } from "../permissions.ts";
import type { Tool } from "../registry.ts";
import type { Skill } from "../skills.ts";

export function loadSkillTool(skills: Skill[], policy: Policy): Tool {
  const loaded = new Set<string>(); // 读过的 skill：再读一次不再放行、不再警告
  const spec: ToolSpec = {
    name: "load_skill",
    description: "读取一个 skill 的完整正文。system prompt 里的 skill 清单只有名字和一句话，要照某个 skill 做事前先读它。",
    parameters: {
      type: "object",
      properties: { name: { type: "string", description: "skill 的名字，来自 system prompt 里的清单" } },
      required: ["name"],
    },
  };
  return {
    definition: () => spec,
    async execute(args) {
      const { name } = JSON.parse(args);
      const skill = skills.find((s) => s.name === name);
      if (!skill) return `错误: 没有叫 ${JSON.stringify(name)} 的 skill（有：${skills.map((s) => s.name).join("、") || "无"}）`;
      if (!loaded.has(skill.name)) allowFromSkill(policy, skill);
      loaded.add(skill.name);
      return `# skill：${skill.name}\n\n${skill.body}`;
    },
  };
}
