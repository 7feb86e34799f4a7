// 一个只听 127.0.0.1 的小服务：先在 stdout 上报出端口，再把自己的 pid 写进 server.pid（写好了就是“就绪”）；
// 每收到一段话，在 stdout 上记一行，回一句“回声：…”
import fs from "node:fs";
import net from "node:net";

const server = net.createServer((socket) => {
  socket.setEncoding("utf8");
  socket.on("data", (text) => {
    console.log(`收到：${text.trim()}`);
    socket.end(`回声：${text.trim()}\n`);
  });
});
server.listen(0, "127.0.0.1", () => {
  console.log(`在 127.0.0.1:${server.address().port} 上等连接`); // Linux 上写管道是同步的：pid 文件出现时，这一行已经在管道里
  fs.writeFileSync("server.pid", String(process.pid));
});
