// 一个故意“不守规矩”的 MCP 服务器，给第 22 章的失败场景当陪练。用法：fault.ts <模式>
//   exit-at-start  一启动就退出          crash-mid-call  调用 crash 时直接死掉
//   stdout-noise   往 stdout 打日志       is-error        工具报告失败（isError）
//   image          返回图片内容           odd-names       工具名带点号、超长、撞名
//   paginated      tools/list 分三页      big-result      一次返回 5 MB 的结果
//   chatty         主动发通知、ping、对不上号的响应（rendezvous 工具在每个模式下都有）
//   hang-handshake 不回 initialize        env             env_names 工具列出自己看得到的环境变量名
//   late           只有 echo、slow 和 echo_later：echo_later 等在途的 slow 回答了才回答（练习 22-1）
// 任何模式下，slow 工具都要 3 秒后才回答（练习 22-1 的超时用它）；收到的取消通知记在 stderr 上
// 只用标准库，读写都是一行一个 JSON（和 timeserver 一样）。
const mode = process.argv[2] ?? "";

type Msg = { id?: number | string | null; method?: string; params?: any };
const send = (msg: object) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...msg }) + "\n");
const text = (t: string) => ({ content: [{ type: "text", text: t }] });
const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: "object", properties: {} } });

if (mode === "exit-at-start") {
  console.error("fault: 配置文件缺失，无法启动");
  process.exit(3);
}
if (mode === "stdout-noise") console.log("fault 服务器启动了！（这行本该写到 stderr）");

function tools(cursor?: string) {
  if (mode === "paginated") {
    const pages: Record<string, [string[], string | undefined]> = { "": [["alpha", "beta"], "p2"], p2: [["gamma"], "p3"], p3: [["delta"], undefined] };
    const [names, next] = pages[cursor ?? ""];
    return { tools: names.map((n) => tool(n, `第 ${n} 号工具`)), ...(next ? { nextCursor: next } : {}) };
  }
  if (mode === "odd-names") {
    return { tools: [tool("files.read", "名字里有点号"), tool("x".repeat(60), "名字太长"), tool("files_read", "和上面那个换名后撞名"), tool("echo", "正常的工具")] };
  }
  if (mode === "env") return { tools: [tool("env_names", "列出这个进程看得到的环境变量名")] };
  if (mode === "late") return { tools: [tool("echo", "原样返回 text 参数"), tool("slow", "3 秒后才回答"), tool("echo_later", "等在途的 slow 回答了，再原样返回 text 参数")] };
  return { tools: [tool("echo", "原样返回 text 参数"), tool("rendezvous", "等 echo 也被调用了才回答"), tool("crash", "调用它服务器就会死掉"), tool("fail", "总是失败"), tool("chart", "返回一张图"), tool("big", "返回 5 MB 文字"), tool("slow", "3 秒后才回答")] };
}

function call(name: string, args: any): object | undefined {
  switch (name) {
    case "env_names":
      return text(Object.keys(process.env).sort().join(" "));
    case "echo":
      return text(String(args?.text ?? ""));
    case "crash":
      console.error("fault: 调用 crash，进程退出");
      process.exit(1);
    case "fail":
      return { ...text("磁盘已满，写不进去"), isError: true };
    case "chart":
      return { content: [{ type: "text", text: "销量走势如下：" }, { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }] };
    case "big": {
      // 5 MB：开头、结尾各有记号，中间是多字节字符，用来确认一个字节都没丢、没乱
      const body = "数据".repeat(5 * 1024 * 1024 / 6);
      return text(`BEGIN-5MB\n${body}\n共 ${body.length} 个字符\nEND-5MB`);
    }
    default:
      return undefined;
  }
}

function handle(msg: Msg) {
  // 取消通知只记一笔、不照办：被取消的 slow 照样回答，这个迟到的回答正是客户端该挡住的
  if (msg.method === "notifications/cancelled") {
    const id = msg.params?.requestId;
    console.error(`fault: 收到取消通知 requestId=${JSON.stringify(id)}（${received.get(id) ?? "没有收到过这个 id 的请求"}），reason=${JSON.stringify(msg.params?.reason)}`);
  }
  if (msg.id === undefined || msg.id === null) return; // 通知不回
  received.set(msg.id, msg.method === "tools/call" ? `tools/call ${msg.params?.name}` : String(msg.method));
  if (msg.method === "initialize") {
    if (mode === "hang-handshake") return; // 装死：永远不回
    if (mode === "chatty") {
      send({ method: "notifications/message", params: { level: "info", data: "你好" } });
      send({ id: "srv-1", method: "ping" });
      send({ id: 9999, result: { 对不上: "号" } });
    }
    return send({ id: msg.id, result: { protocolVersion: "2024-11-05", capabilities: { tools: {} }, serverInfo: { name: "fault", version: mode } } });
  }
  if (msg.method === "tools/list") {
    if (mode === "stdout-noise") console.log("正在列出工具……");
    return send({ id: msg.id, result: tools(msg.params?.cursor) });
  }
  if (msg.method === "tools/call") {
    if (msg.params?.name === "slow") {
      slowInFlight++;
      return void setTimeout(() => {
        send({ id: msg.id, result: text("终于算完了") });
        slowInFlight--;
        for (const answer of afterSlow.splice(0)) answer();
      }, 3000);
    }
    // echo_later 排在在途的 slow 后面：slow 的回答（哪怕已被取消、迟到了）先发出，它才回答——按先后顺序对号的客户端会在这里张冠李戴
    if (msg.params?.name === "echo_later") {
      const answer = () => send({ id: msg.id, result: text(String(msg.params?.arguments?.text ?? "")) });
      return void (slowInFlight > 0 ? afterSlow.push(answer) : answer());
    }
    // rendezvous 先不回答，等 echo 来了一起回：只有同时发出两个请求的客户端才等得到
    if (msg.params?.name === "rendezvous") return void (waiting = msg.id);
    if (msg.params?.name === "echo" && waiting !== undefined) {
      send({ id: waiting, result: text("rendezvous 等到了 echo") });
      waiting = undefined;
    }
    const result = call(msg.params?.name, msg.params?.arguments);
    return send(result ? { id: msg.id, result } : { id: msg.id, error: { code: -32602, message: `没有这个工具：${msg.params?.name}` } });
  }
  send({ id: msg.id, error: { code: -32601, message: `没有这个方法：${msg.method}` } });
}

let waiting: number | string | null | undefined; // rendezvous 的请求 id
const received = new Map<unknown, string>(); // 收到过的请求：id → 方法（和工具名），取消通知拿来对号
let slowInFlight = 0; // 还没回答的 slow 调用
const afterSlow: (() => void)[] = []; // 等 slow 回答之后再发的 echo_later 回答

let buffer = Buffer.alloc(0);
process.stdin.on("data", (chunk: Buffer) => {
  buffer = Buffer.concat([buffer, chunk]);
  let end: number;
  while ((end = buffer.indexOf(10)) >= 0) {
    const line = buffer.subarray(0, end).toString("utf8").trim();
    buffer = buffer.subarray(end + 1);
    if (line) handle(JSON.parse(line));
  }
});
