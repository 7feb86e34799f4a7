// 连上 host:port，说一句“你好”，把服务的回答打印出来
import net from "node:net";

const [host, port] = process.argv[2].split(":");
let reply = "";
const socket = net.connect(Number(port), host, () => socket.write("你好\n"));
socket.setEncoding("utf8");
socket.on("data", (d) => (reply += d));
socket.on("end", () => console.log(`服务回答：${reply.trim()}`));
socket.on("error", (e) => console.log(`连不上：${e.code}`));
