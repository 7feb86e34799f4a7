# 第一轮的慢命令：先写 ready（场景看到它才开始敲字），再等 harness 把用户敲的第二行回显出来才结束。
# 回显在转录里（工作目录旁边的 transcript.txt），后面跟着回车：readline 回显完整一行、交出这一行，是同一刻的事。
# 所以这个命令结束时，两行一定都已经在 harness 手里了——先后靠构造，不靠睡一会儿。最多等 30 秒（只防卡死）
echo 1 > ready
for _ in $(seq 600); do
  grep -qF "顺便看看日志"$'\r' ../transcript.txt && break
  sleep 0.05
done
echo 慢命令跑完了
