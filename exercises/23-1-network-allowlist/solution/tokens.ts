// tokens.ts：不用分词器，粗估一段文字有多少 tokens。
// 第 15 章新增。规则：汉字、假名和全角标点大约一个字一个 token；其余字符（英文、数字、代码、JSON 的括号引号）
// 大约四个一个 token。真实的分词器按词表切，和这个数会差出一两成——决定“该不该压缩”够用，拿来对账不行。
import type { Message } from "./model.ts";

const WIDE = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]/;

export function estimateText(text: string): number {
  let wide = 0;
  let other = 0;
  for (const ch of text) {
    if (WIDE.test(ch)) wide++;
    else other++;
  }
  return wide + Math.ceil(other / 4);
}

// 一段对话的估计：每条消息按它发出去的样子（JSON）估，再加几个 token 的消息开销
export function estimateMessages(messages: Message[]): number {
  return messages.reduce((sum, m) => sum + 4 + estimateText(JSON.stringify(m)), 0);
}
