-- schedlab database schema, version 13 (PRAGMA user_version).
-- Times are integer nanoseconds. Documented in docs/schema.md.
CREATE TABLE IF NOT EXISTS trace (
	id INTEGER PRIMARY KEY,
	path TEXT NOT NULL,
	sha256 TEXT NOT NULL UNIQUE,
	format TEXT NOT NULL,
	cpus INTEGER NOT NULL DEFAULT 0,
	first_ts INTEGER NOT NULL DEFAULT 0,
	last_ts INTEGER NOT NULL DEFAULT 0,
	events INTEGER NOT NULL DEFAULT 0,
	lost_events INTEGER NOT NULL DEFAULT 0,
	imported_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
	kernel_release TEXT,
	missed_switches INTEGER NOT NULL DEFAULT 0,
	cut_at INTEGER,
	-- version 10: the recording's ledger (docs/ledger.md) and the share of
	-- the kernel's CPU time and run_delay the trace accounts for
	ledger TEXT,
	completeness_cpu REAL,
	completeness_wait REAL
);
CREATE TABLE IF NOT EXISTS trace_cpu (
	trace_id INTEGER NOT NULL REFERENCES trace(id),
	cpu INTEGER NOT NULL,
	lost_events INTEGER NOT NULL,
	PRIMARY KEY (trace_id, cpu)
);
-- version 13: the first slice or wakeup of the recorded run on each CPU
-- that has one (its ts), written at import for the late-CPU check
-- (sl_store_late_cpus); traces imported before have no rows
CREATE TABLE IF NOT EXISTS cpu_first (
	trace_id INTEGER NOT NULL REFERENCES trace(id),
	cpu INTEGER NOT NULL,
	first_ts INTEGER NOT NULL,
	PRIMARY KEY (trace_id, cpu)
);
-- version 17: the kernel's load tracking at the ledger's start snapshot
-- (docs/ledger.md, version 5): each CPU's root cfs_rq (utid NULL) and each
-- thread of the trace the snapshot holds, its averages as of the snapshot
-- (age_ns: how long before it they were last updated, the CPU's clock_task
-- against the thread's last_update_time); traces without such a ledger
-- have no rows
CREATE TABLE IF NOT EXISTS start_pelt (
	trace_id INTEGER NOT NULL REFERENCES trace(id),
	cpu INTEGER NOT NULL,
	utid INTEGER REFERENCES thread(utid),
	load_avg INTEGER NOT NULL,
	runnable_avg INTEGER NOT NULL,
	util_avg INTEGER NOT NULL,
	util_est INTEGER NOT NULL,
	age_ns INTEGER NOT NULL
);
-- version 10: each thread of the ledger alive across its window, the
-- kernel's accounting beside the trace's (docs/ledger.md)
CREATE TABLE IF NOT EXISTS ledger_thread (
	trace_id INTEGER NOT NULL REFERENCES trace(id),
	tid INTEGER NOT NULL,
	comm TEXT NOT NULL,
	kernel_exec_ns INTEGER NOT NULL,
	kernel_delay_ns INTEGER NOT NULL,
	trace_exec_ns INTEGER NOT NULL,
	trace_wait_ns INTEGER NOT NULL,
	-- version 12: of trace_exec_ns, the work the kernel charged (the
	-- thread's recorded_work share of it); NULL: no sched_stat_runtime
	trace_work_ns INTEGER,
	PRIMARY KEY (trace_id, tid)
);
-- thread.autogroup ... cgroup_weight: its task group, from the recording's
-- ledger (version 11; NULL: not in the ledger): the autogroup id (-1 none)
-- and its nice, the cpu controller's cgroup path and weight (cpu.weight
-- scale, 100 = 1024); docs/groups.md
CREATE TABLE IF NOT EXISTS thread (
	utid INTEGER PRIMARY KEY,
	trace_id INTEGER NOT NULL REFERENCES trace(id),
	tid INTEGER NOT NULL,
	tgid INTEGER,
	comm TEXT NOT NULL,
	nice INTEGER NOT NULL DEFAULT 0,
	policy TEXT NOT NULL DEFAULT 'normal',
	rt_priority INTEGER NOT NULL DEFAULT 0,
	first_ts INTEGER,
	last_ts INTEGER,
	autogroup INTEGER,
	autogroup_nice INTEGER,
	cgroup TEXT,
	cgroup_weight INTEGER
);
CREATE INDEX IF NOT EXISTS thread_trace ON thread(trace_id, utid);
-- behaviour model: how each task starts, and its bursts and sleeps
CREATE TABLE IF NOT EXISTS task_model (
	utid INTEGER PRIMARY KEY REFERENCES thread(utid),
	start_ns INTEGER NOT NULL,
	parent_utid INTEGER,
	parent_progress_ns INTEGER NOT NULL DEFAULT 0,
	flags INTEGER NOT NULL DEFAULT 0,
	cpumask INTEGER NOT NULL DEFAULT 0,
	initially_runnable INTEGER NOT NULL DEFAULT 1,
	run_ns INTEGER NOT NULL DEFAULT 0,
	sleep_ns INTEGER NOT NULL DEFAULT 0,
	count INTEGER NOT NULL DEFAULT 0,
	-- the task's phases as a JSON array, one [run_ns, sleep_ns, end_state,
	-- waker_kind, waker_utid, waker_progress_ns, pipe, lost, wake_cpu,
	-- sleep_cpu, irq_ns, tick_n, wake_at] per burst (view burst below gives
	-- one row each; wake_cpu since version 8, sleep_cpu since version 9,
	-- irq_ns since 12, tick_n since 15, wake_at since 16)
	-- version 14, wall_ns and wall_tail_ns: for flag 512 (a task whose
	-- bursts end on a wall-clock deadline, docs/model.md "Wall-clock
	-- bursts") the deadline after its first run in a burst and the CPU
	-- time after it; 0 for other tasks
	-- version 18, start_cpu: the CPU the trace first shows the task on
	-- (running or queued there; first seen at a wakeup, the CPU it last
	-- ran on), NULL unknown: a task present at the trace's start starts
	-- there in a replay (docs/replay.md "The trace's start")
	phases TEXT NOT NULL DEFAULT '[]',
	wall_ns INTEGER NOT NULL DEFAULT 0,
	wall_tail_ns INTEGER NOT NULL DEFAULT 0,
	start_cpu INTEGER
);
CREATE VIEW IF NOT EXISTS burst AS
SELECT m.utid AS utid, CAST(j.key AS INTEGER) AS seq,
	json_extract(j.value, '$[0]') AS run_ns, json_extract(j.value, '$[1]') AS sleep_ns,
	json_extract(j.value, '$[2]') AS end_state, json_extract(j.value, '$[3]') AS waker_kind,
	json_extract(j.value, '$[4]') AS waker_utid, json_extract(j.value, '$[5]') AS waker_progress_ns,
	json_extract(j.value, '$[6]') AS pipe, json_extract(j.value, '$[7]') AS lost,
	json_extract(j.value, '$[8]') AS wake_cpu, json_extract(j.value, '$[9]') AS sleep_cpu,
	json_extract(j.value, '$[10]') AS irq_ns, json_extract(j.value, '$[11]') AS tick_n,
	json_extract(j.value, '$[12]') AS wake_at
FROM task_model m, json_each(m.phases) j;
-- version 12: the recorded run's wall time and the work the kernel charged
-- (sched_stat_runtime) of each task on each CPU, over its slices with a
-- known charge; wall - work is interference (IRQ, steal: docs/model.md)
CREATE TABLE IF NOT EXISTS recorded_work (
	trace_id INTEGER NOT NULL REFERENCES trace(id),
	utid INTEGER NOT NULL REFERENCES thread(utid),
	cpu INTEGER NOT NULL,
	wall_ns INTEGER NOT NULL,
	work_ns INTEGER NOT NULL,
	PRIMARY KEY (trace_id, utid, cpu)
);
CREATE TABLE IF NOT EXISTS run (
	id INTEGER PRIMARY KEY,
	trace_id INTEGER NOT NULL REFERENCES trace(id),
	scheduler TEXT NOT NULL,
	params TEXT NOT NULL DEFAULT '{}',
	cpus INTEGER NOT NULL,
	mode TEXT NOT NULL DEFAULT 'recorded',
	seed INTEGER NOT NULL DEFAULT 0,
	created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
-- Where a run's rows are: the rows a run adds to sched_slice, wakeup,
-- staircase, rotation and vlag have rowids in [first_rowid, last_rowid]
-- (written in one transaction, so a contiguous range). These tables have no index on
-- run_id (an index costs as much as the rows themselves to write); schedlab
-- reads a run by this range, and WHERE run_id = N in the sqlite3 shell scans.
CREATE TABLE IF NOT EXISTS run_rows (
	run_id INTEGER NOT NULL REFERENCES run(id),
	tbl TEXT NOT NULL,
	first_rowid INTEGER NOT NULL,
	last_rowid INTEGER NOT NULL,
	rows INTEGER NOT NULL,
	PRIMARY KEY (run_id, tbl)
);
-- The same rows packed (version 7): a run's rows of one of those tables, in
-- the order written, coded in chunks of up to 65536 rows (seq 0, 1, ...;
-- format in analyze/store_pack.c). schedlab reads a run from here when the
-- chunks hold all its rows (rows summed = run_rows.rows), else from the
-- tables; the tables stay the reference for SQL.
CREATE TABLE IF NOT EXISTS run_pack (
	run_id INTEGER NOT NULL REFERENCES run(id),
	tbl TEXT NOT NULL,
	seq INTEGER NOT NULL,
	rows INTEGER NOT NULL,
	data BLOB NOT NULL,
	PRIMARY KEY (run_id, tbl, seq)
);
CREATE TABLE IF NOT EXISTS sched_slice (
	run_id INTEGER NOT NULL REFERENCES run(id),
	ts INTEGER NOT NULL,
	dur INTEGER NOT NULL,
	cpu INTEGER NOT NULL,
	utid INTEGER NOT NULL REFERENCES thread(utid),
	end_state TEXT NOT NULL,
	priority INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS wakeup (
	run_id INTEGER NOT NULL REFERENCES run(id),
	utid INTEGER NOT NULL REFERENCES thread(utid),
	ts INTEGER NOT NULL,
	ts_run INTEGER,
	waker_utid INTEGER,
	cpu INTEGER
);
CREATE TABLE IF NOT EXISTS staircase (
	run_id INTEGER NOT NULL REFERENCES run(id),
	utid INTEGER NOT NULL,
	ts INTEGER NOT NULL,
	level INTEGER NOT NULL,
	array INTEGER NOT NULL DEFAULT 0
);
-- CFS's counterpart of the staircase: a fair-class task's vruntime minus its
-- CPU's min_vruntime (ns) at ts, written by the cfs model when the task is
-- placed on a queue, picked to run, and put back (docs/cfs.md).
CREATE TABLE IF NOT EXISTS vlag (
	run_id INTEGER NOT NULL REFERENCES run(id),
	utid INTEGER NOT NULL,
	ts INTEGER NOT NULL,
	lag INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS rotation (
	run_id INTEGER NOT NULL REFERENCES run(id),
	cpu INTEGER NOT NULL,
	ts INTEGER NOT NULL,
	kind TEXT NOT NULL,
	level INTEGER
);
CREATE TABLE IF NOT EXISTS metric (
	run_id INTEGER NOT NULL REFERENCES run(id),
	utid INTEGER,
	name TEXT NOT NULL,
	value REAL
);
CREATE INDEX IF NOT EXISTS metric_run ON metric(run_id, utid, name);
-- Per run and task, the sums task_summary shows, written with the run's rows
-- (so that a summary does not aggregate every run's slices). delayed counts
-- the wakeups that were followed by a run (wakeup.ts_run not NULL);
-- delay_sum_ns and max_delay_ns are over those (max NULL when there are none).
CREATE TABLE IF NOT EXISTS task_stat (
	run_id INTEGER NOT NULL REFERENCES run(id),
	utid INTEGER NOT NULL REFERENCES thread(utid),
	runtime_ns INTEGER NOT NULL,
	switches INTEGER NOT NULL,
	wakeups INTEGER NOT NULL,
	delayed INTEGER NOT NULL,
	delay_sum_ns INTEGER NOT NULL,
	max_delay_ns INTEGER,
	-- recorded run: time around missed switches and lost events that may
	-- or may not be this task's (docs/model.md)
	uncertain_ns INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (run_id, utid)
) WITHOUT ROWID;
CREATE VIEW IF NOT EXISTS task_summary AS
SELECT t.run_id AS run_id, th.utid AS utid, th.tid AS tid, th.comm AS comm, th.nice AS nice,
	t.runtime_ns AS runtime_ns, t.switches AS switches, t.wakeups AS wakeups,
	CASE WHEN t.delayed > 0 THEN CAST(t.delay_sum_ns AS REAL) / t.delayed END AS avg_delay_ns,
	t.max_delay_ns AS max_delay_ns, t.uncertain_ns AS uncertain_ns
FROM task_stat t
JOIN run r ON r.id = t.run_id
JOIN thread th ON th.utid = t.utid AND th.trace_id = r.trace_id;
