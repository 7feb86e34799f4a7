// 一个 stdio 服务器的替身：stdin、stdout 原样接到一个早就起好的服务器（era.ts listen）的 TCP 连接上，先报上要哪个模式。
// harness 以为自己起了一个 stdio 服务器；起它只花一次 node 启动，服务器那边的 SDK 早就装好了。用法：relay.ts tcp://127.0.0.1:端口 <模式>
import net from "node:net";

const [address = "", mode = ""] = process.argv.slice(2);
const url = new URL(address);
const socket = net.connect(Number(url.port), url.hostname);
socket.write(`${mode}\n`);
process.stdin.pipe(socket);
socket.pipe(process.stdout);
socket.on("error", (e: NodeJS.ErrnoException) => {
  console.error(`relay: 接不上 ${address}（${e.code ?? "连接出错"}）`);
  process.exit(1);
});
socket.on("close", () => process.exit(0));
