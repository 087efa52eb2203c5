# tests/tools/gen-ftrace.awk: a synthetic ftrace text trace for size tests (awk -v n=N).
# n switch events on 2 CPUs among 400 tasks (pids 2..799), each switch from
# a task preceded by its waking of the next task; 7 us apart; srand(1).
BEGIN { srand(1); ts = 1000; c[0] = 0; c[1] = 0
  for (i = 0; i < n; i++) {
    cpu = i % 2; prev = c[cpu]; nxt = int(rand() * 399 + 1) * 2 + cpu; ts += 0.000007
    pc = prev ? "task" prev : "idle"; nc = "task" nxt
    if (prev) printf "   %s-%d  [%03d] d..2 %.6f: sched_waking: comm=%s pid=%d prio=120 target_cpu=%03d\n", pc, prev, cpu, ts, nc, nxt, cpu
    printf "   %s-%d  [%03d] d..2 %.6f: sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s ==> next_comm=%s next_pid=%d next_prio=120\n", pc, prev, cpu, ts + 0.000001, pc, prev, (prev ? "S" : "R"), nc, nxt
    c[cpu] = nxt } }
